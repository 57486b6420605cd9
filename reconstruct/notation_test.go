package reconstruct_test

import (
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/reconstruct"
)

// TestSANAsChess checks the reconstruction's SAN writer against the chess
// package's on every legal move of every position of the first games of
// each corpus file (standard and Chess960): disambiguation by file, rank
// or square, captures, promotions, castling, check and mate.
func TestSANAsChess(t *testing.T) {
	r, err := reconstruct.New(reconstruct.Config{})
	if err != nil {
		t.Fatal(err)
	}
	var l chess.MoveList
	n, mates, disamb := 0, 0, 0
	for _, g := range corpus(t, 8) {
		p := *g.Start
		for _, gm := range g.Moves {
			l.Reset()
			p.GenerateLegal(&l)
			for _, m := range l.Moves() {
				want := p.SAN(m)
				if got := reconstruct.SAN(r, &p, m); got != want {
					t.Fatalf("%s: %s, want %s", p.FEN(), got, want)
				}
				n++
				core := strings.TrimRight(want, "+#")
				if core != want && want[len(want)-1] == '#' {
					mates++
				}
				if core[0] >= 'A' && core[0] <= 'Z' && core[0] != 'O' && len(core) > 3+strings.Count(core, "x") {
					disamb++ // Nbd7, R1e2, Qh4e1
				}
			}
			p.MakeMove(gm)
		}
	}
	t.Logf("%d moves compared (%d mates, %d disambiguated)", n, mates, disamb)
	if n < 10000 || mates == 0 || disamb < 100 {
		t.Errorf("only %d moves, %d mates, %d disambiguations compared", n, mates, disamb)
	}
}

// TestMovesOnly: without notation the outputs are the same, with SAN, UCI,
// FEN, OldSAN and OldUCI left empty.
func TestMovesOnly(t *testing.T) {
	ts := benchTraces(t, 2)
	var full, bare []reconstruct.Output
	for _, tr := range ts {
		cfg, err := reconstruct.ConfigFromHeader(tr.hdr)
		if err != nil {
			t.Fatal(err)
		}
		run := func(movesOnly bool) []reconstruct.Output {
			c := cfg
			c.MovesOnly = movesOnly
			r, err := reconstruct.New(c)
			if err != nil {
				t.Fatal(err)
			}
			var all []reconstruct.Output
			for j := range tr.evs {
				all = r.Feed(&tr.evs[j], all)
			}
			return r.End(tr.evs[len(tr.evs)-1].T+10000, all)
		}
		full, bare = run(false), run(true)
		if len(full) != len(bare) {
			t.Fatalf("%d outputs with notation, %d without", len(full), len(bare))
		}
		for i := range full {
			o, b := full[i], bare[i]
			if b.SAN != "" || b.UCI != "" || b.FEN != "" && b.Kind != reconstruct.NewGame || b.OldSAN != "" || b.OldUCI != "" {
				t.Fatalf("output %d has notation: %+v", i, b)
			}
			if o.Kind == reconstruct.Move && o.SAN == "" {
				t.Fatalf("output %d: a move without SAN: %+v", i, o)
			}
			o.SAN, o.UCI, o.OldSAN, o.OldUCI = "", "", "", ""
			if o.Kind != reconstruct.NewGame {
				o.FEN = ""
			}
			if o != b {
				t.Fatalf("output %d:\n%+v\nwithout notation:\n%+v", i, full[i], b)
			}
		}
	}
}
