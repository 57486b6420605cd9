package session

import (
	"os"
	"testing"

	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/trace"
)

// TestMovesJudgedTogetherKeepTheirPressClock: moves judged together at a
// later press (each piece taken before any sweep read it where it
// landed) each carry the mover's time at its own press, as a broadcast's
// [%clk] must, not the time when they were published.
func TestMovesJudgedTogetherKeepTheirPressClock(t *testing.T) {
	for _, name := range []string{"twopresses.piece.trace", "threepresses.piece.trace"} {
		f, err := os.Open("../reconstruct/testdata/otherhands/" + name)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := trace.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := ConfigFromHeader(tr.Header())
		if err != nil {
			t.Fatal(err)
		}
		sess, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var outs []Output
		var last int64
		for {
			ev, err := tr.Next()
			if err != nil {
				break
			}
			outs = sess.Feed(&ev, outs)
			last = ev.T
		}
		outs = sess.End(last+10000, outs)
		f.Close()
		atPress := map[int64]int64{} // press time -> the presser's time after it
		together := 0
		for _, o := range outs {
			switch {
			case o.Kind == ClockChange && o.ClockEvent == "press":
				atPress[o.T] = o.ClockMs
			case o.Kind == reconstruct.Move && !o.Provisional && o.PressT > 0:
				want, ok := atPress[o.PressT]
				if !ok {
					t.Errorf("%s: ply %d %s names a press at %d ms that the clock never saw", name, o.Ply, o.SAN, o.PressT)
					continue
				}
				if o.ClockMs != want {
					t.Errorf("%s: ply %d %s carries %d ms, the mover had %d ms after its press at %d ms", name, o.Ply, o.SAN, o.ClockMs, want, o.PressT)
				}
				if o.T-o.PressT > 200 {
					together++
				}
			}
		}
		if together == 0 {
			t.Errorf("%s: no move was judged well after its own press; the trace no longer tests this", name)
		}
	}
}
