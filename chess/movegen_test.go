package chess

import (
	"slices"
	"testing"
)

// TestGenerateCapturesFiltersLegal checks that GenerateCaptures lists
// exactly the moves of GenerateLegal that take a piece on their
// destination, in the same order, in the perft suites' positions and
// every position two plies after them.
func TestGenerateCapturesFiltersLegal(t *testing.T) {
	var check func(p *Position, depth int)
	check = func(p *Position, depth int) {
		var all, caps MoveList
		p.GenerateLegal(&all)
		p.GenerateCaptures(&caps)
		var want []Move
		for _, m := range all.Moves() {
			if !m.IsCastling() && !m.IsEnPassant() && p.PieceAt(m.To()) != NoPiece {
				want = append(want, m)
			}
		}
		if !slices.Equal(caps.Moves(), want) {
			t.Fatalf("%s: captures %v, want %v", p.FEN(), caps.Moves(), want)
		}
		if depth == 0 {
			return
		}
		for _, m := range all.Moves() {
			q := *p
			q.MakeMove(m)
			check(&q, depth-1)
		}
	}
	for _, sp := range suitePositions(t) {
		check(sp.p, 2)
	}
}
