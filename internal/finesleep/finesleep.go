// Package finesleep waits for less than a millisecond precisely.
//
// time.Sleep rounds a short wait up to about a millisecond on Linux (the
// runtime's poller sleeps in whole milliseconds), which is fine for
// pacing scans but not for polling a 16-byte FIFO that fills in 1.5 ms,
// or for waiting out a 1.2 ms ADC conversion. Sleep blocks its thread in
// nanosleep instead, which the kernel's high-resolution timers end within
// the timer slack (50 µs by default), and spins for waits shorter than
// that slack.
package finesleep

import "time"

// SpinBelow is the longest wait done by spinning: below it the kernel's
// timer slack would make a sleep several times too long.
const SpinBelow = 60 * time.Microsecond

// Sleep waits for d: spinning below SpinBelow, in nanosleep up to a
// millisecond, with time.Sleep beyond.
func Sleep(d time.Duration) {
	switch {
	case d <= 0:
	case d < SpinBelow:
		Spin(d)
	case d < time.Millisecond:
		nanosleep(d)
	default:
		time.Sleep(d)
	}
}

// Spin busy-waits for d without giving up the CPU.
func Spin(d time.Duration) {
	start := time.Now()
	for time.Since(start) < d {
	}
}
