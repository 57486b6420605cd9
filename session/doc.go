// Package session runs one board's game: the move reconstruction
// (reconstruct), the chess clock (rules.ClockModel, in board time) and the
// FIDE Laws of the configured edition and game type (rules), behind one
// ordered output stream.
//
// `boardd run` and `boardd replay` both drive a Session, so a replay of a
// board's trace is what the board published: the same moves, corrections,
// alerts with their verdicts, flag falls and game end.
//
// What the session decides, and the reconstruction does not:
//
//   - The end of the game, under the profile's rules: checkmate,
//     stalemate, a dead position, and (2018 and 2023 only) the fivefold
//     repetition and the 75-move rule. A move that ends the game is complete
//     without a clock press (2018/2023 6.2.1; 1997 5.1a, 6.8): it is
//     published when it has settled on the board, and what the hands do
//     afterwards (tipping the king, putting the pieces back) is no
//     irregularity.
//   - Flag falls, from its own clock model at the instant they happen, not
//     at the next press, with the verdict settled: a draw when the
//     opponent cannot mate (6.9), one verdict when both flags are down, none
//     after the game has ended.
//   - Verdicts that end the game (the second illegal move in 2018/2023,
//     the third in a 1997 quickplay finish) and the time they add to the
//     opponent's clock.
//   - Draw claims (9.2, 9.3), announced also when the player's next move
//     would make them correct (writing the move on the scoresheet).
//   - The arbiter's result (SetResult).
//
// A Session is not safe for concurrent use; it is deterministic: the same
// configuration and input give the same outputs.
package session
