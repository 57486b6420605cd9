// Package trace reads and writes the boardtrace format: what a board's
// sensors and clock reported, one timed event per line, so that a game
// recorded on a board can be replayed anywhere (see docs/trace.md).
//
// It sits below the packages that produce traces (sensors: the recorder
// and the simulated board) and the one that consumes them (reconstruct),
// and imports only chess. It does no I/O of its own: it reads an io.Reader
// and writes an io.Writer.
package trace
