package sensors_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/sensorstest"
	"github.com/boardd/boardd/trace"
)

// gameEvents returns the first game of the masters file as sensor events:
// a move every 1.5 s, the squares of a move 150 ms apart. With -short
// (as under qemu in CI) at most 16 plies.
func gameEvents(t testing.TB, sensor trace.Sensor, plies int) []trace.Event {
	t.Helper()
	if testing.Short() && (plies == 0 || plies > 16) {
		plies = 16
	}
	f, err := os.Open("../testdata/games/gnuchess_book_otb_masters_dev.pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	start, moves, err := sensorstest.FirstGame(f)
	if err != nil {
		t.Fatal(err)
	}
	if plies > 0 && plies < len(moves) {
		moves = moves[:plies]
	}
	evs, err := sensorstest.GameEvents(start, moves, sensor, 1500, 150)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// boardState is the board after the sensor events of one millisecond.
type boardState struct {
	ms         int64
	occ, white chess.Bitboard
}

// states lists the distinct boards a trace's sensor events go through.
func states(evs []trace.Event, colour bool) []boardState {
	var out []boardState
	var cur boardState
	for i, ev := range evs {
		switch ev.Kind {
		case trace.Frame:
			cur.occ, cur.white = ev.Occ, ev.White
		case trace.On:
			cur.occ |= ev.Square.Bitboard()
			cur.white &^= ev.Square.Bitboard()
			if ev.HasColour && ev.Piece.Color() == chess.White {
				cur.white |= ev.Square.Bitboard()
			}
		case trace.Off:
			cur.occ &^= ev.Square.Bitboard()
			cur.white &^= ev.Square.Bitboard()
		default:
			continue
		}
		if !colour {
			cur.white = 0
		}
		if i+1 < len(evs) && evs[i+1].T == ev.T && evs[i+1].Kind != trace.Press {
			continue
		}
		cur.ms = ev.T
		if len(out) == 0 || out[len(out)-1].occ != cur.occ || out[len(out)-1].white != cur.white {
			out = append(out, cur)
		}
	}
	return out
}

// collect runs src until the virtual clock passes until, and returns the
// events it delivered.
func collect(t testing.TB, src sensors.FrameSource, clk *sensorstest.Clock, until time.Time) []sensors.Event {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clk.OnAdvance(func(now time.Time) {
		if now.After(until) {
			cancel()
		}
	})
	var out []sensors.Event
	var ev sensors.Event
	for {
		err := src.Next(ctx, &ev)
		if errors.Is(err, context.Canceled) {
			return out
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		out = append(out, ev)
		if len(out) > 100000 {
			t.Fatal("runaway source")
		}
	}
}

func frames(evs []sensors.Event) []sensors.Frame {
	var fs []sensors.Frame
	for _, e := range evs {
		if e.Kind == sensors.FrameEvent {
			fs = append(fs, e.Frame)
		}
	}
	return fs
}

func faults(evs []sensors.Event) []sensors.Fault {
	var fs []sensors.Fault
	for _, e := range evs {
		if e.Kind == sensors.FaultEvent {
			fs = append(fs, e.Fault)
		}
	}
	return fs
}

// checkFrames asserts that the frames go through exactly the boards of
// want, in order, each no earlier than its trace time and at most maxLag
// after it.
func checkFrames(t *testing.T, fs []sensors.Frame, want []boardState, start time.Time, maxLag time.Duration) {
	t.Helper()
	if len(fs) != len(want) {
		n := min(len(fs), len(want))
		for i := 0; i < n; i++ {
			if fs[i].Occ != want[i].occ || fs[i].White != want[i].white {
				t.Fatalf("%d frames, want %d; first difference at %d: got occ %#x white %#x at %v, want occ %#x white %#x at %dms",
					len(fs), len(want), i, uint64(fs[i].Occ), uint64(fs[i].White), fs[i].T.Sub(start), uint64(want[i].occ), uint64(want[i].white), want[i].ms)
			}
		}
		t.Fatalf("%d frames, want %d (the first %d agree)", len(fs), len(want), n)
	}
	for i, f := range fs {
		w := want[i]
		if f.Occ != w.occ || f.White != w.white {
			t.Fatalf("frame %d: occ %#x white %#x, want %#x %#x (trace %dms)", i, uint64(f.Occ), uint64(f.White), uint64(w.occ), uint64(w.white), w.ms)
		}
		due := start.Add(time.Duration(w.ms) * time.Millisecond)
		if f.T.Before(due) || f.T.Sub(due) > maxLag {
			t.Errorf("frame %d at %v, trace change at %v: lag %v, want 0..%v", i, f.T.Sub(start), due.Sub(start), f.T.Sub(due), maxLag)
		}
		if f.Seq != fs[0].Seq+uint64(i) {
			t.Errorf("frame %d: Seq %d", i, f.Seq)
		}
		if i > 0 {
			ch := (f.Occ ^ fs[i-1].Occ) | (f.White ^ fs[i-1].White)
			if f.Changed != ch {
				t.Errorf("frame %d: Changed %v, want %v", i, f.Changed, ch)
			}
		}
	}
}

// identity returns squares 0..n-1 for inputs 0..n-1.
func identity(n int) []chess.Square {
	sq := make([]chess.Square, n)
	for i := range sq {
		sq[i] = chess.Square(i)
		if i >= 64 {
			sq[i] = chess.NoSquare
		}
	}
	return sq
}

func mustWiring(t testing.TB, sq []chess.Square) *sensors.Wiring {
	t.Helper()
	w, err := sensors.NewWiring(sq)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func sq(name string) chess.Square {
	s, ok := chess.ParseSquare(name)
	if !ok {
		panic("bad square " + name)
	}
	return s
}

// standard is the occupancy of the start position.
const standard chess.Bitboard = 0xffff00000000ffff
