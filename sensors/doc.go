// Package sensors turns sensor hardware into frames: square occupancy
// (and, where the board can tell, piece colour or type) with timestamps,
// plus sensor-fault events.
//
// The daemon reads a FrameSource: a ScanSource over a hardware Scanner
// (Open builds one from a Config), a Replayer over a recorded or
// simulated trace, or a fake (sensorstest.Source). A ScanSource paces the
// scans (polling, or waiting on an interrupt line with a polling safety
// net), maps inputs to squares with a Wiring, debounces whole frames
// (Debouncer: a square changes after N identical scans) and reports unit
// failures, stuck squares, ghosting and out-of-range sensors as Faults.
//
// The scanners: Matrix (a diode matrix on GPIO pins or line sets),
// MCP23017Bank (MCP23017s on I2C, one transaction per chip, shared
// interrupt line), HC165Chain (74HC165s on SPI with a latch GPIO) and
// Analog (Hall sensors through CD74HC4067 multiplexers into an MCP3008 or
// an ADS1115). They are built from periph.io conn interfaces passed in;
// this package never opens hardware itself, so every scanner runs against
// periph's test doubles and the chip models of sensorstest in tests, and
// real buses on a Pi. Calibrate learns a board's wiring; Recorder writes
// frames as a trace. docs/hardware.md describes the boards.
package sensors
