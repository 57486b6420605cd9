package chess

import (
	"strings"
	"testing"
)

func FuzzFEN(f *testing.F) {
	for _, s := range []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
		"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
		"8/8/8/8/8/8/8/k6K w - -",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		out := p.FEN()
		q, err := ParseFEN(out)
		if err != nil {
			t.Fatalf("our own FEN %q of %q does not parse: %v", out, fen, err)
		}
		if q.FEN() != out || q.Key() != p.Key() {
			t.Fatalf("FEN %q re-read as %q", out, q.FEN())
		}
		if want := refFEN(p); out != want {
			t.Fatalf("FEN %q, the straightforward writer says %q", out, want)
		}
		// Every generated move must make and unmake cleanly and write as
		// SAN (as the straightforward writer does) and UCI that read back
		// to the same move.
		legal := p.LegalMoves()
		for _, m := range legal {
			san := p.SAN(m)
			if want := refSAN(p, m, legal); san != want {
				t.Fatalf("%s: SAN %q, the straightforward writer says %q", out, san, want)
			}
			if back, err := p.ParseSAN(san); err != nil || back != m {
				t.Fatalf("%s: SAN %q reads back as %v, %v", out, san, back, err)
			}
			if back, err := p.ParseUCI(p.UCI(m)); err != nil || back != m {
				t.Fatalf("%s: UCI %q reads back as %v, %v", out, p.UCI(m), back, err)
			}
			u := p.MakeMove(m)
			p.UnmakeMove(m, u)
			if p.FEN() != out {
				t.Fatalf("%s: make/unmake %s changed the position to %s", out, san, p.FEN())
			}
		}
	})
}

func FuzzSAN(f *testing.F) {
	for _, s := range []string{"e4", "Nf3+", "O-O", "0-0-0", "exd6 e.p.", "e8=Q", "e8Q", "♘f3", "Ng1-f3", "bxa8=N#", "Qe3d2"} {
		f.Add(s)
	}
	positions := []*Position{
		NewPosition(),
		mustFEN(f, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
		mustFEN(f, "r3k3/1P6/8/3pP3/8/8/8/4K2R w K d6 0 1"),
	}
	f.Fuzz(func(t *testing.T, san string) {
		for _, p := range positions {
			m, err := p.ParseSAN(san)
			if err != nil {
				continue
			}
			if !p.hasLegalMove(m) {
				t.Fatalf("ParseSAN(%q) returned %v, not a legal move", san, m)
			}
		}
	})
}

// hasLegalMove is a test helper: whether m is among the legal moves.
func (p *Position) hasLegalMove(m Move) bool {
	var l MoveList
	p.GenerateLegal(&l)
	return l.Contains(m)
}

func FuzzPGN(f *testing.F) {
	f.Add("[Event \"x\"]\n\n1. e4 {c [%clk 0:01:00]} e5 (1... c5) 2. Nf3 $1 Nc6 1-0\n")
	f.Add("1.e4 e5 2.Nf3 *")
	f.Add("[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8=Q+ Kd7 *")
	f.Fuzz(func(t *testing.T, text string) {
		games, _ := ReadAllPGN(strings.NewReader(text))
		for _, g := range games {
			out := g.PGN()
			again, err := ReadAllPGN(strings.NewReader(out))
			if err != nil || len(again) != 1 {
				t.Fatalf("our PGN does not re-read (%v, %d games):\n%s", err, len(again), out)
			}
			if len(again[0].Moves) != len(g.Moves) || again[0].Start.FEN() != g.Start.FEN() {
				t.Fatalf("round trip changed the game:\n%s", out)
			}
			for i := range g.Moves {
				if again[0].Moves[i] != g.Moves[i] {
					t.Fatalf("round trip changed move %d:\n%s", i+1, out)
				}
			}
		}
	})
}
