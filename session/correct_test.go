package session

import (
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/trace"
)

// The arbiter corrects a published move: the ply is amended, the moves
// after it stay while they are legal, the rest are retracted, and the
// board is followed from the corrected game.
func TestCorrectMove(t *testing.T) {
	s := newScript(t, "edition 2023\nclock 90m+30s", "").moves(1500, "e4", "e5", "Nf3", "Nc6", "Bb5")
	cfg, _ := ConfigFromHeader(mustHeader(t, "edition 2023\nclock 90m+30s"))
	sess, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := trace.NewReader(strings.NewReader(s.b.String()))
	var outs []Output
	for {
		ev, err := tr.Next()
		if err != nil {
			break
		}
		outs = sess.Feed(&ev, outs)
	}
	// (The last press is judged a sweep after it at the earliest.)
	outs = sess.Advance(s.now+1000, outs)
	// Refused: no such ply, an illegal move, the same move; nothing changes.
	for _, c := range []struct {
		ply int
		uci string
	}{{9, "a2a3"}, {1, "e2e5"}, {1, "e2e4"}, {0, "e2e4"}, {1, "zz"}} {
		if _, err := sess.CorrectMove(s.now, c.ply, c.uci, nil); err == nil {
			t.Errorf("ply %d %s: accepted", c.ply, c.uci)
		}
	}
	if len(sess.Moves()) != 5 {
		t.Fatalf("a refused correction changed the game: %d moves", len(sess.Moves()))
	}
	// 1.d4 for 1.e4: e5, Nf3 and Nc6 stay legal, Bb5 does not.
	n := len(outs)
	outs, err = sess.CorrectMove(s.now+100, 1, "d2d4", outs)
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(outs[n:]); got != "retract amend" {
		t.Errorf("outputs %q\n%s", got, dump(outs[n:]))
	}
	start := sess.Start()
	rec := reconstruct.NewRecord(&start)
	for i := range outs {
		if outs[i].Kind != ClockChange {
			if err := rec.Apply(&outs[i].Output); err != nil {
				t.Fatalf("output %d: %v", i, err)
			}
		}
	}
	g := rec.Current()
	p := g.Start
	var sans []string
	for _, m := range g.Moves {
		sans = append(sans, p.SAN(m))
		p.MakeMove(m)
	}
	if got := strings.Join(sans, " "); got != "d4 e5 Nf3 Nc6" {
		t.Errorf("record %q", got)
	}
	// The board is set to the corrected game and play goes on from it.
	pos := sess.Position()
	s.pos = pos
	s.ev(3000, "frame %s", placement(&pos))
	s.moves(1500, "dxe5")
	tr, _ = trace.NewReader(strings.NewReader(s.b.String()))
	var more []Output
	for {
		ev, err := tr.Next()
		if err != nil {
			break
		}
		if ev.T > s.now-5000 {
			more = sess.Feed(&ev, more)
		}
	}
	more = sess.Advance(s.now+1000, more)
	if got := summary(more); !strings.HasSuffix(got, "dxe5") {
		t.Errorf("after the correction: %s\n%s", got, dump(more))
	}
	if m := sess.Moves(); len(m) != 5 || chess.Move(m[4]).To().String() != "e5" {
		t.Errorf("moves %v", m)
	}
}
