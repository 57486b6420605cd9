// Package bringup is the sensor board's bring-up commands: record (a
// board's sensors, or a replayed trace, as a boardtrace), diag (the
// sensors live, and --probe's check of every chip) and calibrate (learn
// the wiring map), on the hardware, a trace or chip models of a design's
// reference board.
package bringup
