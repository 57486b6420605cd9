package chess

import "testing"

// TestFENWriter checks that a FENWriter writes what AppendFEN writes,
// along games played out from the perft suites' positions (standard and
// Chess960) and when the positions jump from one game to another.
func TestFENWriter(t *testing.T) {
	var w FENWriter
	seed := uint64(1)
	for _, sp := range suitePositions(t) {
		p := sp.p
		for ply := 0; ply < 60; ply++ {
			want := string(p.AppendFEN(nil))
			if got := string(w.AppendFEN([]byte("x"), p)); got != "x"+want {
				t.Fatalf("%s line %d ply %d: FENWriter wrote %q, want %q", sp.suite, sp.line, ply, got, "x"+want)
			}
			var l MoveList
			p.GenerateLegal(&l)
			if l.Len() == 0 {
				break
			}
			seed = seed*6364136223846793005 + 1442695040888963407
			p.MakeMove(l.At(int(seed>>33) % l.Len()))
		}
	}
}
