package sensors_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/sensorstest"
	"github.com/boardd/boardd/trace"
	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"
)

// logPin is a gpiotest.Pin that logs what is done to it.
type logPin struct {
	*gpiotest.Pin
	log *[]string
}

func (p logPin) Out(l gpio.Level) error {
	*p.log = append(*p.log, fmt.Sprintf("%s.Out(%s)", p.N, l))
	return p.Pin.Out(l)
}

func (p logPin) In(pull gpio.Pull, e gpio.Edge) error {
	*p.log = append(*p.log, fmt.Sprintf("%s.In(%s)", p.N, pull))
	return p.Pin.In(pull, e)
}

func TestHC165GoldenTranscript(t *testing.T) {
	// Two chips and a low sentinel: three bytes per scan. Chip 0 reads
	// 0b11111110 (input A closed: active low), chip 1 0x7f (input H).
	zeros := []byte{0, 0, 0}
	port := &spitest.Playback{Playback: conntest.Playback{DontPanic: true, Ops: []conntest.IO{
		{W: zeros, R: []byte{0xfe, 0x7f, 0x00}},
		{W: zeros, R: []byte{0xff, 0xff, 0x00}},
	}}}
	c, err := port.Connect(physic.MegaHertz, spi.Mode0, 8)
	if err != nil {
		t.Fatal(err)
	}
	var log []string
	latch := logPin{&gpiotest.Pin{N: "GPIO25"}, &log}
	chain, err := sensors.NewHC165Chain(c, latch, 2, sensors.HC165Options{Sentinel: sensors.SentinelLow})
	if err != nil {
		t.Fatal(err)
	}
	var s sensors.Scan
	chain.Scan(&s)
	if got := s.Occ.List(); !equalInts(got, []int{0, 15}) || s.Failed != 0 || s.Valid.Count() != 16 {
		t.Errorf("scan 1: inputs %v, failed %b, valid %d", got, s.Failed, s.Valid.Count())
	}
	chain.Scan(&s)
	if !s.Occ.IsZero() {
		t.Errorf("scan 2: inputs %v, want none", s.Occ.List())
	}
	want := "GPIO25.Out(High) GPIO25.Out(Low) GPIO25.Out(High) GPIO25.Out(Low) GPIO25.Out(High)"
	if got := strings.Join(log, " "); got != want {
		t.Errorf("SH/LD: %s\nwant   %s", got, want)
	}
	if err := port.Close(); err != nil {
		t.Error(err)
	}
}

// hc165Board wires squares to a chain of 8 chips in order.
func hc165Board(t *testing.T, order []chess.Square, o sensors.HC165Options) (*sensorstest.Clock, *sensorstest.Board, *sensorstest.HC165Model, *sensors.HC165Chain, *sensors.Wiring) {
	t.Helper()
	clk := sensorstest.NewClock()
	board := sensorstest.NewBoard(clk)
	inputs := make([][8]chess.Square, 8)
	wiring := make([]chess.Square, 64)
	for i, s := range order {
		inputs[i/8][i%8] = s
		wiring[i] = s
	}
	model := sensorstest.NewHC165Model(board, inputs)
	model.ActiveHigh = o.ActiveHigh
	model.SER = o.Sentinel == sensors.SentinelHigh
	c, err := model.Connect(physic.MegaHertz, spi.Mode0, 8)
	if err != nil {
		t.Fatal(err)
	}
	chain, err := sensors.NewHC165Chain(c, model.Latch(), 8, o)
	if err != nil {
		t.Fatal(err)
	}
	return clk, board, model, chain, mustWiring(t, wiring)
}

func TestHC165GameThroughRegisterModel(t *testing.T) {
	for _, o := range []sensors.HC165Options{{}, {ActiveHigh: true, Sentinel: sensors.SentinelHigh}} {
		clk, board, model, chain, w := hc165Board(t, shuffled(), o)
		src, err := sensors.NewScanSource(chain, w, sensors.SourceOptions{Clock: clk, Debounce: 4, ScanInterval: 5 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		evs := gameEvents(t, trace.Occupancy, 0)
		start := clk.Now()
		board.Play(&sensorstest.Events{List: evs}, sensorstest.PlayOptions{Bounce: 3 * time.Millisecond, Toggles: 2})
		got := collect(t, src, clk, start.Add(time.Duration(evs[len(evs)-1].T+1000)*time.Millisecond))
		if f := faults(got); len(f) != 0 {
			t.Fatalf("%+v: faults on a healthy chain: %v", o, f[0].String())
		}
		checkFrames(t, frames(got), states(evs, false), start, 30*time.Millisecond)
		if model.Loads == 0 || model.Txs != model.Loads {
			t.Errorf("%d loads for %d transfers, want one each per scan", model.Loads, model.Txs)
		}
	}
}

func TestHC165Faults(t *testing.T) {
	clk, board, model, chain, w := hc165Board(t, allSquares(), sensors.HC165Options{Sentinel: sensors.SentinelLow})
	src, _ := sensors.NewScanSource(chain, w, sensors.SourceOptions{Clock: clk, Debounce: 2})
	board.Set(standard, 0)
	collect(t, src, clk, clk.Now().Add(100*time.Millisecond))

	// One failed transfer is retried; two are a chain fault.
	model.Fail(1)
	got := collect(t, src, clk, clk.Now().Add(50*time.Millisecond))
	if f := faults(got); len(f) != 0 {
		t.Errorf("a single failed transfer made faults %v", f)
	}
	if st := src.Stats(); st.BusErrors != 1 {
		t.Errorf("bus errors %d, want 1", st.BusErrors)
	}

	// MISO stuck high: every input reads open (an empty board), but the
	// sentinel byte reads 0xff, not 0x00: a fault, and no frame.
	high := gpio.High
	model.StuckMISO = &high
	got = collect(t, src, clk, clk.Now().Add(200*time.Millisecond))
	fl := faults(got)
	if len(fl) != 1 || fl[0].Kind != sensors.FaultChain || fl[0].Squares != ^chess.Bitboard(0) || !strings.Contains(fl[0].Err.Error(), "sentinel byte 0xff, want 0x00") {
		t.Fatalf("faults %v, want a chain fault over the whole board", fl)
	}
	if fs := frames(got); len(fs) != 0 {
		t.Errorf("frames from a stuck data line: %v", fs)
	}
	model.StuckMISO = nil
	got = collect(t, src, clk, clk.Now().Add(200*time.Millisecond))
	if fl := faults(got); len(fl) != 1 || !fl[0].Cleared {
		t.Fatalf("faults %v, want the chain fault cleared", fl)
	}

	// A chain broken after chip 3: chips 4-7 and the sentinel read high.
	model.BreakAfter = 3
	got = collect(t, src, clk, clk.Now().Add(200*time.Millisecond))
	if fl := faults(got); len(fl) != 1 || fl[0].Kind != sensors.FaultChain || fl[0].Cleared {
		t.Fatalf("faults %v, want a chain fault", fl)
	}
	if fs := frames(got); len(fs) != 0 {
		t.Errorf("frames from a broken chain: %v", fs)
	}
	model.BreakAfter = -1
	got = collect(t, src, clk, clk.Now().Add(200*time.Millisecond))
	if fl := faults(got); len(fl) != 1 || !fl[0].Cleared {
		t.Fatalf("faults %v, want the chain fault cleared", fl)
	}
	if fs := frames(got); len(fs) != 0 {
		t.Errorf("the board did not change, but frames came: %v", fs)
	}
}

func TestHC165StuckLowIsAFault(t *testing.T) {
	// MISO stuck low (an unplugged cable: GPIO9 pulls down, or an
	// unpowered chain) reads every switch closed. A sentinel tied high
	// catches it by its byte; without a sentinel, or with one tied low,
	// 64 occupied squares are more than a chess set and still a fault.
	for _, tc := range []struct {
		sentinel sensors.Sentinel
		want     string
	}{
		{sensors.SentinelHigh, "sentinel byte 0x00, want 0xff"},
		{sensors.SentinelLow, "64 inputs read a piece"},
		{sensors.NoSentinel, "64 inputs read a piece"},
	} {
		clk, board, model, chain, w := hc165Board(t, allSquares(), sensors.HC165Options{Sentinel: tc.sentinel})
		src, _ := sensors.NewScanSource(chain, w, sensors.SourceOptions{Clock: clk, Debounce: 2})
		board.Set(standard, 0)
		collect(t, src, clk, clk.Now().Add(100*time.Millisecond))
		low := gpio.Low
		model.StuckMISO = &low
		got := collect(t, src, clk, clk.Now().Add(100*time.Millisecond))
		fl := faults(got)
		if len(fl) != 1 || fl[0].Kind != sensors.FaultChain || fl[0].Err == nil || !strings.Contains(fl[0].Err.Error(), tc.want) {
			t.Errorf("sentinel %d: faults %v, want a chain fault %q", tc.sentinel, fl, tc.want)
		}
		if fs := frames(got); len(fs) != 0 {
			t.Errorf("sentinel %d: frames from a stuck data line: %v", tc.sentinel, fs)
		}
	}
}

func TestHC165AtMost32Pieces(t *testing.T) {
	// 32 pieces anywhere are a position; a 33rd is a fault.
	clk, board, _, chain, w := hc165Board(t, allSquares(), sensors.HC165Options{Sentinel: sensors.SentinelHigh})
	src, _ := sensors.NewScanSource(chain, w, sensors.SourceOptions{Clock: clk, Debounce: 2})
	board.Set(0x00ff00ff00ff00ff, 0)
	got := collect(t, src, clk, clk.Now().Add(100*time.Millisecond))
	if fs := frames(got); len(fs) != 1 || fs[0].Occ.Count() != 32 || len(faults(got)) != 0 {
		t.Fatalf("32 pieces: frames %v faults %v", fs, faults(got))
	}
	board.Set(0x00ff00ff00ff01ff, 0)
	got = collect(t, src, clk, clk.Now().Add(100*time.Millisecond))
	if fl := faults(got); len(fl) != 1 || !strings.Contains(fl[0].Err.Error(), "33 inputs read a piece") || len(frames(got)) != 0 {
		t.Errorf("33 pieces: faults %v frames %v", fl, frames(got))
	}
}
