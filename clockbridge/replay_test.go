package clockbridge

import (
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

const replayTrace = `boardtrace 1
sensor occupancy
clock 5m+3s
0 frame 0xffff00000000ffff
1200 off e2
1460 on e4
2000 clock w
3100 off e7
3300 on e5
5000 clock b
6000 off g1
6400 on f3
7250 clock w
9000 clock w
12000 off b8
12500 on c6
320000 clock b
`

// TestReplayTraceToPGN replays a trace with clock presses and writes the
// game's PGN with the [%clk] of every move.
func TestReplayTraceToPGN(t *testing.T) {
	r, err := trace.NewReader(strings.NewReader(replayTrace))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := NewReplayFromHeader(r.Header(), Options{})
	if err != nil || rep == nil {
		t.Fatalf("replay: %v", err)
	}
	var events []Event
	var last int64
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		out, err := rep.Feed(ev)
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, out...)
		last = ev.T
	}
	end, _ := rep.Finish(last)
	events = append(events, end...)

	var kinds []string
	for _, e := range events {
		kinds = append(kinds, e.Kind.String())
	}
	// The second "clock w" (White pressing again) changes nothing; Black
	// overstepped 5:03 on move 2 and the flag is dated exactly.
	if want := []string{"press", "press", "press", "state", "flag", "press"}; !reflect.DeepEqual(kinds, want) {
		t.Fatalf("events %v, want %v", kinds, want)
	}
	flag := events[4]
	if flag.Side != chess.Black || flag.Move != 2 || !flag.At.Equal(rep.At(7250+303000)) {
		t.Errorf("flag %v at %v", flag, flag.At)
	}
	if tr, ok := TraceEvent(events[0], rep.At(0)); !ok || tr.T != 2000 || tr.Kind != trace.Press || tr.Side != chess.White {
		t.Errorf("trace event %+v", tr)
	}

	clocks := PlyClocks(events, chess.White)
	want := []time.Duration{
		5*mn + 4*sec,          // 5:03 - 2.000 + 3
		5*mn + 3*sec,          // 5:03 - 3.000 + 3
		5*mn + 4*sec + 750*ms, // 5:04 - 2.250 + 3
		0,                     // flagged: no increment
	}
	if !reflect.DeepEqual(clocks, want) {
		t.Fatalf("clocks %v, want %v", clocks, want)
	}
	g := chess.NewGame(chess.NewPosition())
	for i, san := range []string{"e4", "e5", "Nf3", "Nc6"} {
		m, err := g.End().ParseSAN(san)
		if err != nil {
			t.Fatal(err)
		}
		g.Append(m, clocks[i])
	}
	pgn := g.PGN()
	for _, s := range []string{"1. e4 { [%clk 0:05:04] } 1... e5 { [%clk 0:05:03] }", "[%clk 0:00:00]"} {
		if !strings.Contains(pgn, s) {
			t.Errorf("PGN lacks %q:\n%s", s, pgn)
		}
	}
}

func TestReplayErrors(t *testing.T) {
	if r, err := NewReplayFromHeader(trace.Header{}, Options{}); r != nil || err != nil {
		t.Errorf("no clock header: %v %v", r, err)
	}
	if _, err := NewReplayFromHeader(trace.Header{Clock: "5x"}, Options{}); err == nil {
		t.Error("bad time control accepted")
	}
	rep, _ := NewReplay(mustTC(t, "5m"), Options{})
	if _, err := rep.Feed(trace.Event{T: 100, Kind: trace.Frame}); err != nil {
		t.Fatal(err)
	}
	if _, err := rep.Feed(trace.Event{T: 50, Kind: trace.Press, Line: 7}); err == nil || !strings.Contains(err.Error(), "line 7") {
		t.Errorf("time backwards: %v", err)
	}
}

func TestFakeClock(t *testing.T) {
	f := NewFake()
	ch := runClock(t, f)
	f.Press(chess.White, 1, t0, 90*mn+20*sec)
	e := nextEvent(t, ch, PressEvent)
	if e.Clk() != 90*mn+20*sec || e.Move != 1 || f.Snapshot().Running != BlackRuns {
		t.Errorf("press %v", e)
	}
	f.Flag(chess.Black, t0.Add(mn))
	if e := nextEvent(t, ch, FlagEvent); !e.State.Flagged[chess.Black] {
		t.Errorf("flag %+v", e)
	}
	ctx := context.Background()
	_ = f.SetAndRun(ctx, mn, 2*mn, WhiteRuns)
	_ = f.Show(ctx, "ILLEGAL", sec)
	f.SetError(ErrUnsupported)
	if err := f.Beep(ctx, sec); !errors.Is(err, ErrUnsupported) {
		t.Errorf("beep: %v", err)
	}
	want := []FakeCommand{{Name: "SetAndRun", White: mn, Black: 2 * mn, Run: WhiteRuns}, {Name: "Show", Text: "ILLEGAL", Beep: sec}, {Name: "Beep", Beep: sec}}
	if got := f.Commands(); !reflect.DeepEqual(got, want) {
		t.Errorf("commands %+v", got)
	}
	if s := f.Snapshot(); s.Text != "ILLEGAL" || s.Remaining != [2]time.Duration{mn, 2 * mn} {
		t.Errorf("snapshot %+v", s)
	}
}
