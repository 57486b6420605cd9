// Package clockbridge connects chess clocks to boardd: a software clock
// that implements FIDE time controls exactly, a lever and buttons on GPIO,
// and the DGT3000 over I2C. All of them sit behind one Clock interface.
//
// The pieces:
//
//   - Model: the FIDE clock as a pure state machine (periods, time added
//     when a period's last move is completed, Fischer increments, the
//     delay modes, flags dated to the instant, pause, adjustments). Every
//     call takes the instant it happens at.
//   - SoftClock: the Model run in real time on a TimeSource (timers for
//     flags), with the arbiter's commands. It is the Clock the daemon
//     uses; given a Device it takes the presses from the hardware and
//     keeps the hardware showing its times.
//   - Devices: GPIOLever (periph gpio.PinIn, edge-driven, debounced) and
//     DGT3000 (the DGT Pi's I2C protocol behind DGTTransport; the
//     Raspberry Pi transport is in clockbridge/dgtpi).
//   - Replay: the Model over a trace's "clock w|b" lines, for [%clk].
//   - Fake and FakeTime: doubles for other packages' tests.
//
// docs/clock.md describes the semantics, the DGT3000 protocol and what a
// test on a Pi must still confirm.
package clockbridge
