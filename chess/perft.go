package chess

// Perft counts the leaf nodes of the legal move tree of the given depth.
// The last ply is counted, not played ("bulk counting"): the number of
// legal moves of each position at depth-1 is added without making them.
func Perft(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth == 1 {
		return uint64(p.CountLegal())
	}
	var list MoveList
	p.GenerateLegal(&list)
	var n uint64
	for _, m := range list.Moves() {
		u := p.MakeMove(m)
		n += Perft(p, depth-1)
		p.UnmakeMove(m, u)
	}
	return n
}

// PerftPlayed counts the same leaves as Perft but makes and unmakes every
// move, the last ply included. It is the slower, more thorough check.
func PerftPlayed(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var list MoveList
	p.GenerateLegal(&list)
	var n uint64
	for _, m := range list.Moves() {
		u := p.MakeMove(m)
		n += PerftPlayed(p, depth-1)
		p.UnmakeMove(m, u)
	}
	return n
}

// PerftDivide returns the perft count below each legal move.
func PerftDivide(p *Position, depth int) ([]Move, []uint64) {
	var list MoveList
	p.GenerateLegal(&list)
	moves := append([]Move(nil), list.Moves()...)
	counts := make([]uint64, len(moves))
	for i, m := range moves {
		u := p.MakeMove(m)
		counts[i] = Perft(p, depth-1)
		p.UnmakeMove(m, u)
	}
	return moves, counts
}
