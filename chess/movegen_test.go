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
	walkSuite(t, 2, func(p *Position, all *MoveList) {
		var caps MoveList
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
	})
}

// walkSuite calls f with every position of the perft suites and every
// position up to depth plies after them, and the legal moves there.
func walkSuite(t *testing.T, depth int, f func(p *Position, all *MoveList)) {
	var walk func(p *Position, depth int)
	walk = func(p *Position, depth int) {
		var all MoveList
		p.GenerateLegal(&all)
		f(p, &all)
		if depth == 0 {
			return
		}
		for _, m := range all.Moves() {
			q := *p
			q.MakeMove(m)
			walk(&q, depth-1)
		}
	}
	for _, sp := range suitePositions(t) {
		walk(sp.p, depth)
	}
}

// TestGenerateFromFiltersLegal checks that GenerateFrom lists exactly the
// moves of GenerateLegal whose piece stands on the mask (castling counted
// as the king's), in the same order, and that MovesToOccupancy, which
// asks only the pieces that can leave their squares, finds every move of
// GenerateLegal reaching the occupancy after it, in the perft suites'
// positions and every position a ply after them.
func TestGenerateFromFiltersLegal(t *testing.T) {
	n := 0
	walkSuite(t, 1, func(p *Position, all *MoveList) {
		n++
		if p.HasLegalMove() != (all.Len() > 0) {
			t.Fatalf("%s: HasLegalMove %v with %d legal moves", p.FEN(), p.HasLegalMove(), all.Len())
		}
		// Masks: each square alone, the squares of each move's piece and
		// landing, a pseudo-random pair, and none.
		masks := []Bitboard{0, Bitboard(0x9e3779b97f4a7c15) * Bitboard(n), p.KingSquare(p.SideToMove()).Bitboard()}
		for _, m := range all.Moves() {
			masks = append(masks, m.From().Bitboard(), m.From().Bitboard()|m.To().Bitboard())
		}
		for _, mask := range masks {
			var from MoveList
			p.GenerateFrom(&from, mask)
			var want []Move
			for _, m := range all.Moves() {
				if mask.Has(m.From()) {
					want = append(want, m)
				}
			}
			if !slices.Equal(from.Moves(), want) {
				t.Fatalf("%s from %x: %v, want %v", p.FEN(), uint64(mask), from.Moves(), want)
			}
		}
		for _, m := range all.Moves() {
			occ := p.OccupancyAfter(m)
			var got MoveList
			p.MovesToOccupancy(occ, &got)
			var want []Move
			for _, m2 := range all.Moves() {
				if p.OccupancyAfter(m2) == occ {
					want = append(want, m2)
				}
			}
			if !slices.Equal(got.Moves(), want) {
				t.Fatalf("%s to occupancy after %v: %v, want %v", p.FEN(), m, got.Moves(), want)
			}
		}
	})
	if n < 500 {
		t.Fatalf("only %d positions checked", n)
	}
}
