package clockbridge

import (
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
)

// TestBroadcastClocksCreditBeforeMove checks the clock model against the
// [%clk] readings of a real FIDE broadcast (Women's World Rapid 2024,
// 15 minutes + 10 seconds per move from move 1, DGT clocks).
//
// First, which increment rule the clocks follow: if the increment came
// only after each move, no first-move reading could exceed 15:10; with
// the increment on the clock from the start (CreditBeforeMove) none can
// exceed 15:20. Then, every game whose readings give non-negative thinking
// times under that rule (the others had arbiter corrections or a reading
// taken off the press) is replayed
// through the Model from those thinking times, and every reading must come
// out to the second, including the 0:00:00 of a player who overstepped and
// got no increment for the move.
func TestBroadcastClocksCreditBeforeMove(t *testing.T) {
	f, err := os.Open("../testdata/games/lichess_broadcast_fide_womens_world_rapid_2024_r1-6.pgn")
	if err != nil {
		t.Skipf("broadcast corpus not available: %v", err)
	}
	defer f.Close()
	const base, inc = 15 * time.Minute, 10 * time.Second
	tc := mustTC(t, "15m+10s")
	r := chess.NewPGNReader(f)
	var games, firstReadings, overAfterRule, overBeforeRule, replayed, corrected, flagged int
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		games++
		clk := g.Clocks
		if len(clk) < 2 || clk[0] < 0 || clk[1] < 0 {
			continue
		}
		for _, c := range clk[:2] {
			firstReadings++
			if c > base+inc {
				overAfterRule++
			}
			if c > base+2*inc {
				overBeforeRule++
			}
		}
		// Thinking times under CreditBeforeMove: c[k] = c[k-2] + inc - think.
		// A last reading below the increment was taken without a press
		// (the game ended on the board); it is not a clock reading.
		if last := clk[len(clk)-1]; last >= 0 && last < inc {
			clk = clk[:len(clk)-1]
		}
		thinks := make([]time.Duration, 0, len(clk))
		ok := true
		for k, c := range clk {
			prev := base + inc
			if k >= 2 {
				prev = clk[k-2]
			}
			// A reading between 0 and the increment cannot follow a press
			// (it holds the increment unless the flag fell, which leaves
			// 0:00:00): such a reading was taken off the press.
			if c < 0 || prev+inc-c < 0 || c > 0 && c < inc {
				ok = false
				break
			}
			thinks = append(thinks, prev+inc-c)
		}
		if !ok {
			corrected++
			continue
		}
		m, err := NewModel(tc, Options{})
		if err != nil {
			t.Fatal(err)
		}
		at := t0
		_ = m.Start(at)
		for k, th := range thinks {
			at = at.Add(th)
			side := chess.Color(k % 2)
			res, flags, err := m.Press(side, at)
			if err != nil || res.Outcome != PressMove {
				t.Fatalf("game %d ply %d: %+v %v %v", games, k+1, res, flags, err)
			}
			if len(flags) > 0 {
				// A reading of 0:00:00: the flag fell and the press
				// credited no increment, on the real clock as here.
				flagged++
			}
			if res.Clk != clk[k] {
				t.Fatalf("game %d (%s - %s) ply %d: clk %v, broadcast %v", games, g.Tag("White"), g.Tag("Black"), k+1, res.Clk, clk[k])
			}
		}
		replayed++
	}
	t.Logf("%d games, %d first-move readings: %d above 15:10, %d above 15:20; %d games replayed exactly (%d flag falls), %d skipped (arbiter corrections or readings off the press)",
		games, firstReadings, overAfterRule, overBeforeRule, replayed, flagged, corrected)
	if overBeforeRule != 0 {
		t.Errorf("%d first-move readings above 15:20 contradict CreditBeforeMove", overBeforeRule)
	}
	if overAfterRule < firstReadings/2 {
		t.Errorf("only %d of %d first-move readings above 15:10: the data no longer show the increment on the clock from the start", overAfterRule, firstReadings)
	}
	if replayed < games*3/4 {
		t.Errorf("only %d of %d games replayed", replayed, games)
	}
}
