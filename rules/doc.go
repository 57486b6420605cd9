// Package rules applies the FIDE Laws of Chess (1997, 2018 and 2023
// editions) for standard, rapid and blitz play: game end (checkmate,
// stalemate, dead position), claimable and automatic draws, flag fall,
// illegal-move penalties and time controls. Edition differences are data
// (profiles), and every verdict names the article of its edition.
//
// It is pure: it imports chess and nothing that does I/O.
package rules
