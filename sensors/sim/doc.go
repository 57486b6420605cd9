// Package sim is the simulated board: a model of the hands that play a real
// game on a sensor board, turning a game (start position, moves, optional
// clock readings) into what the board's sensors and clock would report, as
// boardtrace events (docs/trace.md).
//
// The model (docs/simulation.md) covers the ways people really make moves:
// slides over the squares in between, captures in both orders and with the
// victim's lift missed by the scan, the castling styles (including Chess960
// castling where king and rook squares overlap), en passant in any order,
// promotion with the pawn first placed on the last rank, hesitations,
// adjustments, knocked pieces, contact bounce, clock presses and human think
// times. With Options.Irregular it also injects irregularities (illegal
// moves, clock presses without a move, ...) and says what it injected, so a
// reconstruction can be scored against the truth.
//
// A Source produces a game's events one at a time (a pull API), so the same
// generator serves as a live frame source and as a trace writer. Everything
// is deterministic for a given seed.
//
// Cmd is boardd's simulate command.
package sim
