package reconstruct_test

import (
	"testing"

	"github.com/boardd/boardd/reconstruct"
)

// TestViewInStep replays simulated games on every sensor kind and checks
// after each event that the board view, brought up to date square by
// square, is the one rendered afresh from the raw board.
func TestViewInStep(t *testing.T) {
	out := make([]reconstruct.Output, 0, 64)
	for i, tr := range benchTraces(t, 2) {
		cfg, _ := reconstruct.ConfigFromHeader(tr.hdr)
		r, err := reconstruct.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for j := range tr.evs {
			out = r.Feed(&tr.evs[j], out[:0])
			if !reconstruct.ViewInStep(r) {
				t.Fatalf("trace %d (%s), event %d: the view differs from the raw board's", i, tr.hdr.Sensor, j)
			}
		}
	}
}
