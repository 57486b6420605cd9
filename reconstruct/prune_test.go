package reconstruct

import (
	"errors"
	"io"
	"os"
	"testing"

	"github.com/boardd/boardd/chess"
)

// TestReplyMayFitPrunesOnlyHopelessReplies: where replyMayFit says no
// reply can leave at most left squares of the occupancy differing from the
// board, none does; and it does say so often enough to spare the work.
// Positions of standard and Chess960 games, boards that differ from them
// by up to six squares or show one of their moves, overlays of up to two,
// every left from 0 to 5.
func TestReplyMayFitPrunesOnlyHopelessReplies(t *testing.T) {
	seed := uint64(1)
	rnd := func() uint64 {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return seed
	}
	randSquares := func(n int) chess.Bitboard {
		var b chess.Bitboard
		for b.Count() < n {
			b |= chess.Square(rnd() % 64).Bitboard()
		}
		return b
	}
	pruned, checked := 0, 0
	check := func(q *chess.Position) {
		var ml chess.MoveList
		q.GenerateLegal(&ml)
		for trial := 0; trial < 8+ml.Len(); trial++ {
			occ := q.Occupied() ^ randSquares(int(rnd()%7))
			if trial >= 8 {
				// The board after one of the moves (castling and en
				// passant put three or four squares right), and a
				// square or two besides.
				occ = q.OccupancyAfter(ml.At(trial-8)) ^ randSquares(int(rnd()%3))
			}
			overlay := randSquares(int(rnd() % 3))
			if trial%2 == 0 {
				overlay = 0
			}
			d := (q.Occupied() ^ occ) &^ overlay
			for left := 0; left <= 5; left++ {
				checked++
				if replyMayFit(q, d, overlay, left) {
					continue
				}
				pruned++
				for _, m := range ml.Moves() {
					if n := ((q.OccupancyAfter(m) ^ occ) &^ overlay).Count(); n <= left {
						t.Fatalf("%s: %v leaves %d squares differing (left %d, board %x, overlay %x), but the replies were pruned",
							q.FEN(), m, n, left, uint64(occ), uint64(overlay))
					}
				}
			}
		}
	}
	for _, name := range []string{"../testdata/games/lichess_broadcast_fide_womens_world_rapid_2024_r1-6.pgn", "../testdata/games/tcec_frc_engine_chess960_season16.pgn"} {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		pr := chess.NewPGNReader(f)
		for k := 0; k < 6; k++ {
			g, err := pr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for i := 0; i <= len(g.Moves); i++ {
				check(g.Position(i))
			}
		}
		f.Close()
	}
	// En passant without a castling right left.
	for _, fen := range []string{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"} {
		p, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 20; i++ {
			check(p)
		}
	}
	if pruned < checked/10 {
		t.Errorf("pruned %d of %d: the test boards do not exercise the pruning", pruned, checked)
	}
}
