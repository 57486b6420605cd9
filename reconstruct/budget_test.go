package reconstruct

import (
	"testing"

	"github.com/boardd/boardd/trace"
)

// TestDarkGameDecisionBounded replays a game gone dark (a bullet game
// of another hand model, twelve knocks, nothing published after its
// first ply): every change and every timer costs the ordered decoder
// its passes over hundreds of changes. No change and no timer may cost
// more than decisionBudget states, and the game must cost a decision the
// whole of one pass's budget somewhere, or this test no longer tests the
// bound (before the bound, one change of it cost 380,852 states).
func TestDarkGameDecisionBounded(t *testing.T) {
	const name = "testdata/dark/knockedtwelve.occupancy.trace"
	var out []Output
	most, at := 0, int64(0)
	note := func(r *Reconstructor, t int64) {
		if r.spent > most {
			most, at = r.spent, t
		}
	}
	eachEvent(t, name, func(r *Reconstructor, ev *trace.Event) {
		out = r.Advance(ev.T, out[:0])
		note(r, ev.T)
		out = r.Feed(ev, out[:0])
		note(r, ev.T)
	})
	// (A search stopped by the budget visits one more state in each
	// frame it returns through, one per change at most.)
	if most > decisionBudget+maxLogEvents {
		t.Errorf("a decision at %d ms visited %d states, want at most %d", at, most, decisionBudget+maxLogEvents)
	}
	if most <= decodeBudget {
		t.Errorf("the most states a decision visited: %d (at %d ms), want more than one pass's %d: the game no longer goes dark", most, at, decodeBudget)
	}
}
