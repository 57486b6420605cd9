package rules

import "testing"

func TestArbiterResult(t *testing.T) {
	for in, want := range map[string]struct {
		pgn         string
		forfeit, ok bool
	}{"1-0": {"1-0", false, true}, "1/2-1/2": {"1/2-1/2", false, true}, "+/-": {"1-0", true, true}, "-/+": {"0-1", true, true}, "2-0": {}, "": {}, "*": {}} {
		pgn, forfeit, ok := ArbiterResult(in)
		if pgn != want.pgn || forfeit != want.forfeit || ok != want.ok {
			t.Errorf("%q: %q %v %v", in, pgn, forfeit, ok)
		}
	}
}
