package daemon

import (
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/publishtest"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/rules"
	"github.com/boardd/boardd/session"
	"github.com/boardd/boardd/trace"
)

// An arbiter's correction of an early move keeps the times of the moves
// it keeps (republished after the journal's correction), and the
// correction says the arbiter corrected the move.
func TestCorrectMoveKeepsTheClocks(t *testing.T) {
	pub, err := publish.Open(publish.Config{Board: "b1", JournalDir: t.TempDir(), Dialer: publishtest.New(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	if _, err := pub.StartGame(publish.GameInfo{White: "A", Black: "B", TimeControl: "15m+10s"}); err != nil {
		t.Fatal(err)
	}
	tc, _ := rules.ParseTimeControl("15m+10s")
	sess, err := session.New(session.Config{Sensor: trace.PieceSensor, Clock: true, TimeControl: tc,
		Rules: rules.Setting{Edition: rules.Edition2023, Type: rules.Rapid}})
	if err != nil {
		t.Fatal(err)
	}
	d := &daemon{pub: pub, sess: sess, log: slog.New(slog.DiscardHandler), m: newMetrics(), epoch: time.Now(), speed: 1,
		moveClocks: map[int]*publish.Clocks{}, boardAlerts: map[reconstruct.AlertKind]activeAlert{}, pendingAlerts: map[reconstruct.AlertKind]publish.Alert{}}
	for i, c := range []**atomic.Int64{&d.movesFinal, &d.movesProv, &d.corrections, &d.alerts, &d.notes} {
		*c = d.m.counter(fmt.Sprintf("c%d", i), "test")
	}
	// 1. d4 Nf6 2. c4 e6 3. Nc3, on a piece board, each pressed.
	pos := chess.NewPosition()
	t0 := int64(0)
	feed := func(ev trace.Event) {
		d.outs = d.sess.Feed(&ev, d.outs[:0])
		d.emit()
	}
	frame := func(p *chess.Position) trace.Event {
		ev := trace.Event{T: t0, Kind: trace.Frame, Occ: p.Occupied(), White: p.ByColor(chess.White), HasColour: true, HasPieces: true}
		for sq := chess.Square(0); sq < 64; sq++ {
			ev.Placement[sq] = p.PieceAt(sq)
		}
		return ev
	}
	feed(frame(pos))
	for _, san := range []string{"d4", "Nf6", "c4", "e6", "Nc3"} {
		m, err := pos.ParseSAN(san)
		if err != nil {
			t.Fatal(err)
		}
		side := pos.SideToMove()
		pos.MakeMove(m)
		t0 += 7000
		feed(frame(pos))
		t0 += 400
		feed(trace.Event{T: t0, Kind: trace.Press, Side: side})
	}
	// (The last press is judged a sweep after it at the earliest: the
	// daemon advances the session's time.)
	d.outs = d.sess.Advance(t0+1000, d.outs[:0])
	d.emit()
	before := pub.Current().Moves
	if len(before) != 5 {
		t.Fatalf("%d moves published, want 5", len(before))
	}
	// The arbiter: ply 1 was 1. d3, which keeps Nf6, c4, e6 and Nc3 legal.
	outs, err := d.sess.CorrectMove(t0+1000, 1, "d2d3", d.outs[:0])
	if err != nil {
		t.Fatal(err)
	}
	d.outs = outs
	d.emit()
	after := pub.Current().Moves
	if len(after) != 5 || after[0].UCI != "d2d3" {
		t.Fatalf("after the correction: %+v", after)
	}
	for i := range after {
		if after[i].Clocks == nil || before[i].Clocks == nil || *after[i].Clocks != *before[i].Clocks {
			t.Errorf("ply %d: clocks %+v, were %+v", i+1, after[i].Clocks, before[i].Clocks)
		}
	}
	if pg := pub.PGN(); strings.Count(pg, "[%clk") != 5 {
		t.Errorf("PGN lost [%%clk] readings:\n%s", pg)
	}

	// The arbiter's result, then another correction: the result stays.
	if d.outs, err = d.sess.SetResult(t0+2000, "1/2-1/2", "agreement", false, d.outs[:0]); err != nil {
		t.Fatal(err)
	}
	d.emit()
	if outs, err = d.sess.CorrectMove(t0+3000, 3, "c2c3", d.outs[:0]); err != nil {
		t.Fatal(err)
	}
	d.outs = outs
	d.emit()
	cur := pub.Current()
	if !cur.Ended || cur.Result.Result != "1/2-1/2" || cur.Moves[2].UCI != "c2c3" {
		t.Errorf("after correcting a finished game: ended %v, result %+v, ply 3 %s", cur.Ended, cur.Result, cur.Moves[2].UCI)
	}
	if pg := pub.PGN(); !strings.Contains(pg, `[Result "1/2-1/2"]`) || !strings.Contains(pg, "[Termination") {
		t.Errorf("PGN after the correction:\n%s", pg)
	}
	// A replaced result keeps a Termination tag.
	if d.outs, err = d.sess.SetResult(t0+4000, "1-0", "resignation", true, d.outs[:0]); err != nil {
		t.Fatal(err)
	}
	d.emit()
	if pg := pub.PGN(); !strings.Contains(pg, `[Result "1-0"]`) || !strings.Contains(pg, `[Termination "normal"]`) {
		t.Errorf("PGN after the replaced result:\n%s", pg)
	}
}
