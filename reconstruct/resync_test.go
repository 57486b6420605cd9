package reconstruct_test

import (
	"testing"
	"time"

	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/trace"
)

// TestResyncFourPliesFindsWhatTheFrameShows: after a restart the board is
// shown four plies on in one full frame and the clock is pressed. On
// colour and piece boards the position re-synchronised to must show on
// the sensors exactly as the one played for at least 99.5% of the sampled
// positions of the corpus. (A colour board cannot tell some pairs apart
// from one frame: Kd8 and a long castling that leaves king and rook on
// the other's square, a knight or a pawn recapturing on e5; nor can any
// board tell whether the last pawn move was a double step, which only
// the en passant right depends on. The moves that follow show which.
// Known misses: a move that alone explains the frame while the press
// says the other side moved last, Rd7+ Re7 Rd8 Re8 read as Rd8.)
func TestResyncFourPliesFindsWhatTheFrameShows(t *testing.T) {
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		n, found, alike := 0, 0, 0
		var slowest time.Duration // (logged only: timing is the benchmarks')
		for _, g := range corpus(t, 30) {
			for k := 10; k+4 <= len(g.Moves) && k <= 80; k += 14 {
				from, to := g.Position(k), g.Position(k+4)
				r, err := reconstruct.New(reconstruct.Config{Start: from, Sensor: s, Clock: true})
				if err != nil {
					t.Fatal(err)
				}
				var out []reconstruct.Output
				for _, ev := range []trace.Event{fullFrame(from, 0, s), fullFrame(to, 1000, s),
					{T: 1300, Kind: trace.Press, Side: from.SideToMove().Other()}} {
					start := time.Now()
					out = r.Feed(&ev, out[:0])
					slowest = max(slowest, time.Since(start))
				}
				// (A press on a still board is decided a sweep later.)
				start := time.Now()
				r.Advance(2300, out[:0])
				slowest = max(slowest, time.Since(start))
				n++
				p := r.Position()
				if p.Key() == to.Key() {
					found++
				}
				if got, want := fullFrame(&p, 0, s), fullFrame(to, 0, s); got.Occ == want.Occ && got.White == want.White && got.Placement == want.Placement {
					alike++
					continue
				}
				t.Logf("%v: %s plies %d-%d: re-synchronised to %s, played %s", s, g.Tag("White")+" - "+g.Tag("Black"), k, k+4, p.FEN(), to.FEN())
			}
		}
		t.Logf("%v: %d positions, %d found, %d alike; slowest event %v", s, n, found, alike, slowest)
		if alike*1000 < n*995 {
			t.Errorf("%v: %d of %d positions re-synchronised to one the sensors show alike, want 99.5%%", s, alike, n)
		}
	}
}
