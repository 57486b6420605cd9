// Package chess is boardd's chess core: a bitboard position, legal move
// generation for standard chess and Chess960, make/unmake, FEN (standard,
// X-FEN and Shredder-FEN), SAN, UCI, PGN and perft.
//
// It does no I/O and imports nothing else of boardd; every other package
// builds on it. Square numbering is a1 = 0, b1 = 1, ..., h8 = 63, the same
// numbering as the trace format's occupancy bitmaps.
package chess
