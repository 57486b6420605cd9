package sensors_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/sensorstest"
	"github.com/boardd/boardd/trace"
)

func traceText(t testing.TB, sensor trace.Sensor, evs []trace.Event) string {
	t.Helper()
	var b bytes.Buffer
	w := trace.NewWriter(&b)
	w.WriteHeader(trace.Header{Sensor: sensor})
	for i := range evs {
		if err := w.WriteEvent(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	return b.String()
}

func replayAll(t testing.TB, text string, o sensors.ReplayOptions) []sensors.Event {
	t.Helper()
	r, err := trace.NewReader(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	p, err := sensors.NewReplayer(r, r.Header().Sensor, o)
	if err != nil {
		t.Fatal(err)
	}
	var out []sensors.Event
	var ev sensors.Event
	for {
		err := p.Next(context.Background(), &ev)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
}

func TestReplayRecordRoundTrip(t *testing.T) {
	for _, sensor := range []trace.Sensor{trace.Occupancy, trace.Colour, trace.PieceSensor} {
		for _, mode := range []sensors.RecordMode{sensors.RecordDeltas, sensors.RecordFrames} {
			evs := gameEvents(t, sensor, 0)
			text := traceText(t, sensor, evs)
			clk := sensorstest.NewClock()
			replayed := replayAll(t, text, sensors.ReplayOptions{Clock: clk, Inputs: true})
			want := states(evs, sensor != trace.Occupancy)
			if fs := frames(replayed); len(fs) != len(want) {
				t.Fatalf("%v: replay gave %d frames, want %d", sensor, len(fs), len(want))
			} else {
				for i, f := range fs {
					if f.Occ != want[i].occ || f.White != want[i].white || f.T.Sub(sensorstest.Epoch) != time.Duration(want[i].ms)*time.Millisecond {
						t.Fatalf("%v: frame %d = %+v, want %+v", sensor, i, f, want[i])
					}
				}
			}
			var b bytes.Buffer
			w := trace.NewWriter(&b)
			rec, err := sensors.NewRecorder(w, trace.Header{Sensor: sensor}, mode)
			if err != nil {
				t.Fatal(err)
			}
			for i := range replayed {
				if err := rec.Record(&replayed[i]); err != nil {
					t.Fatal(err)
				}
			}
			rec.Flush()
			// Recording the replay gives the same boards at the same times,
			// and the same clock presses.
			again := replayAll(t, b.String(), sensors.ReplayOptions{Clock: sensorstest.NewClock(), Inputs: true})
			if len(again) != len(replayed) {
				t.Fatalf("%v mode %d: re-replay %d events, want %d\n%s", sensor, mode, len(again), len(replayed), b.String()[:min(b.Len(), 2000)])
			}
			for i := range again {
				a, r := again[i], replayed[i]
				same := a.Kind == r.Kind
				switch {
				case same && a.Kind == sensors.FrameEvent:
					same = a.Frame.Occ == r.Frame.Occ && a.Frame.White == r.Frame.White && a.Frame.Placement == r.Frame.Placement && a.Frame.T.Equal(r.Frame.T)
				case same && a.Kind == sensors.InputEvent:
					same = a.Input.Kind == r.Input.Kind && a.Input.T == r.Input.T && a.Input.Side == r.Input.Side
				}
				if !same {
					t.Fatalf("%v mode %d: event %d differs:\n%+v\n%+v", sensor, mode, i, a, r)
				}
			}
		}
	}
}

func TestReplayerPacingAndMerging(t *testing.T) {
	text := `boardtrace 1
sensor occupancy
0 frame 0xffff00000000ffff
1200 off e2
1200 on e4     # same millisecond: one frame
1900 clock w
2500 off e7
2500 off e7    # no change: no frame
3000 on e5
`
	clk := sensorstest.NewClock()
	r, _ := trace.NewReader(strings.NewReader(text))
	p, _ := sensors.NewReplayer(r, trace.Occupancy, sensors.ReplayOptions{Clock: clk, Pace: true, Speed: 2})
	var ev sensors.Event
	var times []time.Duration
	var occ []chess.Bitboard
	for p.Next(context.Background(), &ev) == nil {
		if ev.Kind != sensors.FrameEvent {
			t.Fatalf("unexpected %v event (inputs were not asked for)", ev.Kind)
		}
		if now := clk.Now(); now.Before(ev.Frame.T) {
			t.Errorf("frame stamped %v delivered early at %v", ev.Frame.T, now)
		}
		times = append(times, ev.Frame.T.Sub(sensorstest.Epoch))
		occ = append(occ, ev.Frame.Occ)
	}
	wantT := []time.Duration{0, 600 * time.Millisecond, 1250 * time.Millisecond, 1500 * time.Millisecond}
	if len(times) != len(wantT) {
		t.Fatalf("times %v, want %v", times, wantT)
	}
	for i := range times {
		if times[i] != wantT[i] {
			t.Errorf("frame %d at %v, want %v (half speed)", i, times[i], wantT[i])
		}
	}
	if occ[1] != standard&^sq("e2").Bitboard()|sq("e4").Bitboard() {
		t.Errorf("merged frame %v", occ[1])
	}
	if clk.Now().Sub(sensorstest.Epoch) != 1500*time.Millisecond {
		t.Errorf("the replay took %v of virtual time, want 1.5s", clk.Now().Sub(sensorstest.Epoch))
	}
}

func TestReplayerHeaderAndErrors(t *testing.T) {
	// No initial frame: the declared start position is the board.
	text := "boardtrace 1\nsensor colour\nsetup 960 518\n100 off e2\n"
	r, _ := trace.NewReader(strings.NewReader(text))
	h := r.Header()
	p, _ := sensors.NewReplayer(r, h.Sensor, sensors.ReplayOptions{Clock: sensorstest.NewClock(), Header: &h})
	var ev sensors.Event
	if err := p.Next(context.Background(), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Frame.Occ != standard&^sq("e2").Bitboard() || ev.Frame.White != 0xffff&^sq("e2").Bitboard() || ev.Frame.Changed != ^chess.Bitboard(0) {
		t.Errorf("frame %+v", ev.Frame)
	}
	// A bad line ends the replay with the line number.
	r, _ = trace.NewReader(strings.NewReader("boardtrace 1\nsensor occupancy\n0 frame 0xff\n5 jump e4\n"))
	p, _ = sensors.NewReplayer(r, trace.Occupancy, sensors.ReplayOptions{Clock: sensorstest.NewClock()})
	p.Next(context.Background(), &ev)
	err := p.Next(context.Background(), &ev)
	var pe *trace.ParseError
	if !errors.As(err, &pe) || pe.Line != 4 {
		t.Errorf("error %v, want a parse error at line 4", err)
	}
}

func TestRecorderFaultsAsComments(t *testing.T) {
	var b bytes.Buffer
	rec, _ := sensors.NewRecorder(trace.NewWriter(&b), trace.Header{Sensor: trace.Occupancy}, sensors.RecordDeltas)
	t0 := sensorstest.Epoch
	evs := []sensors.Event{
		{Kind: sensors.FrameEvent, Frame: sensors.Frame{T: t0, Occ: standard, Changed: ^chess.Bitboard(0)}},
		{Kind: sensors.FaultEvent, Fault: sensors.Fault{T: t0.Add(1500 * time.Millisecond), Kind: sensors.FaultBus, Chip: "mcp23017 0x21", Squares: 0x3fff << 14, Err: errors.New("i2c: no acknowledge")}},
		{Kind: sensors.FrameEvent, Frame: sensors.Frame{T: t0.Add(2 * time.Second), Occ: standard&^sq("e2").Bitboard() | sq("e4").Bitboard()}},
		{Kind: sensors.FrameEvent, Frame: sensors.Frame{T: t0.Add(3 * time.Second), Occ: standard&^sq("e2").Bitboard() | sq("e4").Bitboard()}}, // heartbeat
	}
	for i := range evs {
		if err := rec.Record(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	rec.Flush()
	want := `boardtrace 1
sensor occupancy
setup standard
0 frame 0xffff00000000ffff
# 1500 sensor-fault bus: mcp23017 0x21 (g2-d4): i2c: no acknowledge
2000 off e2
2000 on e4
`
	if b.String() != want {
		t.Errorf("trace:\n%s\nwant:\n%s", b.String(), want)
	}
}
