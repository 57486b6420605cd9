package sim

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

func FuzzParseInjection(f *testing.F) {
	f.Add("# inject kind=illegal-move ply=12 side=w squares=e2,e5 t=734120")
	f.Add("# inject kind=x ply=1")
	f.Add("#inject")
	f.Fuzz(func(t *testing.T, line string) {
		in, ok, err := ParseInjection(line)
		if !ok || err != nil {
			return
		}
		// What parses formats to a line that parses to the same.
		again, ok, err := ParseInjection("# " + in.String())
		if !ok || err != nil || again.String() != in.String() {
			if !strings.ContainsAny(in.Kind, " =\t\n") {
				t.Errorf("%q: reparsed %+v, %v, %v; want %+v", line, again, ok, err, in)
			}
		}
	})
}

func FuzzParseTimeControl(f *testing.F) {
	for _, s := range []string{"5400+30", "40/7200:1800+30", "300", "15 min. + 10 s. per move", "10+0.05", "?", "1e9+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := ParseTimeControl(s)
		if err != nil {
			return
		}
		if tc.Base <= 0 || tc.Increment < 0 || (tc.Moves > 0 && tc.Second < 0) {
			t.Errorf("%q: %+v", s, tc)
		}
		_ = tc.String()
	})
}

// FuzzSource plays a short game with random seeds and options: the trace
// always parses, times never decrease, and the final board is the game's.
func FuzzSource(f *testing.F) {
	f.Add(uint64(1), uint8(0), true, false)
	f.Add(uint64(99), uint8(2), false, true)
	p := chess.NewPosition()
	var moves []chess.Move
	for _, san := range []string{"e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "d4", "c6", "Nf3", "Bg4", "Bf4", "e6", "h3", "Bxf3", "Qxf3", "Bb4", "Be2", "Nd7", "a3", "O-O-O"} {
		m, err := p.ParseSAN(san)
		if err != nil {
			f.Fatal(err)
		}
		moves = append(moves, m)
		p.MakeMove(m)
	}
	final := p
	f.Fuzz(func(t *testing.T, seed uint64, sensor uint8, irregular, noClock bool) {
		opts := Options{Sensor: trace.Sensor(sensor % 3), Seed: seed, Irregular: irregular}
		if noClock {
			opts.Clock = ClockNever
		}
		src, err := NewSource(Game{Moves: moves}, opts)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteTrace(&buf, src); err != nil {
			t.Fatal(err)
		}
		r, err := trace.NewReader(&buf)
		if err != nil {
			t.Fatal(err)
		}
		var b board
		for {
			ev, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			b.apply(t, opts.Sensor, &ev)
		}
		if b != sensed(opts.Sensor, final) {
			t.Error("the trace does not end on the final position")
		}
	})
}
