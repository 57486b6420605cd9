// Package sensors turns sensor hardware into frames: square occupancy
// (and, where the board can tell, piece colour or type) with timestamps.
// It holds the scanners (GPIO diode matrix, MCP23017 over I2C, 74HC165 over
// SPI, analog Hall sensors through an ADC), debouncing, wiring maps, the
// trace recorder and replayer, and the simulated board.
//
// Scanners are built from periph.io conn interfaces passed in by the
// caller; this package never opens hardware itself, so every scanner runs
// against periph's test doubles in tests and real buses on a Pi.
package sensors
