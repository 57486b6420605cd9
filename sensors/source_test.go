package sensors_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/sensorstest"
	"github.com/boardd/boardd/trace"
)

// funcScanner reads inputs 0..63 from a function of the scan number.
type funcScanner struct {
	n    int
	read func(n int) chess.Bitboard
	err  error
}

func (f *funcScanner) Sensor() trace.Sensor  { return trace.Occupancy }
func (f *funcScanner) Inputs() int           { return 64 }
func (f *funcScanner) Units() []sensors.Unit { return nil }
func (f *funcScanner) Close() error          { return nil }
func (f *funcScanner) Scan(s *sensors.Scan) error {
	*s = sensors.Scan{}
	if f.err != nil {
		return f.err
	}
	v := f.read(f.n)
	f.n++
	s.Occ = sensors.Inputs{uint64(v), 0}
	s.Valid = sensors.Inputs{^uint64(0), 0}
	return nil
}

func newFuncSource(t *testing.T, o sensors.SourceOptions, read func(n int) chess.Bitboard) (*sensors.ScanSource, *sensorstest.Clock, *funcScanner) {
	t.Helper()
	clk := sensorstest.NewClock()
	o.Clock = clk
	fs := &funcScanner{read: read}
	src, err := sensors.NewScanSource(fs, mustWiring(t, identity(64)), o)
	if err != nil {
		t.Fatal(err)
	}
	return src, clk, fs
}

func TestScanSourceDebounce(t *testing.T) {
	e4 := sq("e4").Bitboard()
	d5 := sq("d5").Bitboard()
	src, clk, _ := newFuncSource(t, sensors.SourceOptions{Debounce: 3}, func(n int) chess.Bitboard {
		switch {
		case n < 10:
			return standard
		case n == 10 || n == 11: // a two-scan blip on e4: not a change
			return standard | e4
		case n < 20:
			return standard
		case n%2 == 0 && n < 26: // e4 bouncing as the piece lands
			return standard
		case n < 40:
			return standard | e4
		default: // d5 flips every scan for ever
			return standard | e4 | chess.Bitboard(n%2)*d5
		}
	})
	start := clk.Now()
	got := collect(t, src, clk, start.Add(time.Second))
	fs := frames(got)
	if len(fs) != 2 {
		t.Fatalf("%d frames, want the start and e4: %v", len(fs), fs)
	}
	// The first frame comes after 3 scans (0, 10, 20 ms) and is all news.
	if fs[0].Occ != standard || fs[0].Changed != ^chess.Bitboard(0) || fs[0].T.Sub(start) != 20*time.Millisecond {
		t.Errorf("first frame %+v at %v", fs[0], fs[0].T.Sub(start))
	}
	// e4 settles at scan 25; the third agreeing scan is 27 (270 ms).
	if fs[1].Occ != standard|e4 || fs[1].Changed != e4 || fs[1].T.Sub(start) != 270*time.Millisecond {
		t.Errorf("e4 frame %+v at %v, want at 270ms", fs[1], fs[1].T.Sub(start))
	}
	if st := src.Stats(); st.Scans != 102 || st.Frames != 2 || st.ScanRate < 99 || st.ScanRate > 101 {
		t.Errorf("stats %+v", st)
	}
}

func TestScanSourceStuckSquare(t *testing.T) {
	d5 := sq("d5").Bitboard()
	flipping := true
	src, clk, _ := newFuncSource(t, sensors.SourceOptions{Debounce: 3, StuckAfter: 2 * time.Minute}, func(n int) chess.Bitboard {
		if flipping && n > 100 {
			return standard | chess.Bitboard(n%2)*d5
		}
		return standard
	})
	start := clk.Now()
	got := collect(t, src, clk, start.Add(5*time.Minute))
	fl := faults(got)
	if len(fl) != 1 || fl[0].Kind != sensors.FaultStuck || fl[0].Squares != d5 {
		t.Fatalf("faults %v, want d5 stuck once", fl)
	}
	// Unsettled from scan 101 (1.01 s): reported two minutes later.
	if at := fl[0].T.Sub(start); at != 121010*time.Millisecond {
		t.Errorf("stuck reported at %v, want 2m1.01s", at)
	}
	if len(frames(got)) != 1 {
		t.Errorf("a flipping bit made frames: %v", frames(got)[1:])
	}
	if st := src.Stats(); st.Stuck != d5 {
		t.Errorf("stats stuck %v", st.Stuck)
	}
	flipping = false
	got = collect(t, src, clk, clk.Now().Add(time.Second))
	if fl := faults(got); len(fl) != 1 || !fl[0].Cleared || fl[0].Squares != d5 {
		t.Fatalf("faults %v, want d5 cleared", fl)
	}
}

func TestScanSourceHeartbeatAndStop(t *testing.T) {
	src, clk, fsc := newFuncSource(t, sensors.SourceOptions{Debounce: 2, Heartbeat: time.Second}, func(int) chess.Bitboard { return standard })
	start := clk.Now()
	got := collect(t, src, clk, start.Add(3500*time.Millisecond))
	fs := frames(got)
	if len(fs) != 4 {
		t.Fatalf("%d frames, want the first and 3 heartbeats", len(fs))
	}
	for i, f := range fs[1:] {
		if f.Changed != 0 || f.Occ != standard || f.T.Sub(fs[i].T) != time.Second {
			t.Errorf("heartbeat %d: %+v", i, f)
		}
	}
	// A scanner error ends Next with it, wrapped.
	fsc.err = errors.New("bus gone")
	var ev sensors.Event
	if err := src.Next(context.Background(), &ev); err == nil || !errors.Is(err, fsc.err) {
		t.Errorf("Next after a scanner error: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := src.Next(ctx, &ev); !errors.Is(err, context.Canceled) {
		t.Errorf("Next with a cancelled context: %v", err)
	}
	src.Close()
	if err := src.Next(context.Background(), &ev); !errors.Is(err, sensors.ErrClosed) {
		t.Errorf("Next after Close: %v", err)
	}
}

func TestDebouncer(t *testing.T) {
	if _, err := sensors.NewDebouncer(0); err == nil {
		t.Error("NewDebouncer(0) accepted")
	}
	d, _ := sensors.NewDebouncer(3)
	all := ^chess.Bitboard(0)
	if ch := d.Step(0xf0, 0x30, all); ch != all {
		t.Errorf("first step changed %v, want every square", ch)
	}
	steps := []struct {
		occ, white, valid chess.Bitboard
		changed           chess.Bitboard
		occAfter, wAfter  chess.Bitboard
	}{
		{0xf1, 0x30, all, 0, 0xf0, 0x30},
		{0xf1, 0x30, all, 0, 0xf0, 0x30},
		{0xf1, 0x30, all, 0x01, 0xf1, 0x30}, // third agreeing scan
		// a colour change alone is a change (square 4 turns white)
		{0xf1, 0x31, all, 0, 0xf1, 0x30},
		{0xf1, 0x31, all, 0, 0xf1, 0x30},
		{0xf1, 0x31, all, 0x01, 0xf1, 0x31},
		// squares not valid keep their state whatever they read
		{0x00, 0x00, 0x0f, 0, 0xf1, 0x31},
		{0x00, 0x00, 0x0f, 0, 0xf1, 0x31},
		{0x00, 0x00, 0x0f, 0x01, 0xf0, 0x30},
		// white outside occupancy is ignored
		{0xf0, 0xff, all, 0, 0xf0, 0x30},
	}
	for i, s := range steps {
		ch := d.Step(s.occ, s.white, s.valid)
		occ, w := d.State()
		if ch != s.changed || occ != s.occAfter || w != s.wAfter {
			t.Errorf("step %d: changed %#x occ %#x white %#x, want %#x %#x %#x", i, uint64(ch), uint64(occ), uint64(w), uint64(s.changed), uint64(s.occAfter), uint64(s.wAfter))
		}
	}
}

func TestDebouncerDoesNotAdoptFailedInputsAsEmpty(t *testing.T) {
	// The chip of rank 8 does not answer at the first scan. Its squares
	// are not settled as empty: the first reading when it answers is
	// their state, at once, as the first scan's is for the others.
	d, _ := sensors.NewDebouncer(3)
	rank8 := chess.Bitboard(0xff) << 56
	valid := ^rank8
	// A failed chip's inputs read nothing.
	d.Step(standard&^rank8, 0, valid)
	if occ, _ := d.State(); occ != standard&^rank8 || d.Known() != valid {
		t.Fatalf("after the first scan: occ %v known %v", occ, d.Known())
	}
	d.Step(standard&^rank8, 0, valid)
	ch := d.Step(standard, 0, ^chess.Bitboard(0))
	if occ, _ := d.State(); ch != standard&rank8 || occ != standard {
		t.Errorf("the chip answers: changed %v, occ %v; want rank 8's pieces at once", ch, occ)
	}
	// From then on its squares are debounced like the others.
	if ch := d.Step(standard&^sq("a8").Bitboard(), 0, ^chess.Bitboard(0)); ch != 0 {
		t.Errorf("a one-scan blip on a8 changed %v", ch)
	}
}

// TestDebouncerMatchesCounters compares the bitboard debouncer with the
// obvious per-square counter on random noise.
func TestDebouncerMatchesCounters(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 4, 7} {
		d, _ := sensors.NewDebouncer(n)
		var stable, last, model chess.Bitboard
		var run [64]int
		for step := 0; step < 5000; step++ {
			// Mostly stable, with bursts of noise on a few squares.
			raw := stable
			if rng.IntN(4) == 0 {
				raw ^= chess.Bitboard(1) << rng.IntN(8)
			}
			if rng.IntN(50) == 0 {
				stable ^= chess.Bitboard(1) << rng.IntN(8)
			}
			changed := d.Step(raw, 0, ^chess.Bitboard(0))
			if step == 0 {
				model, last = raw, raw
				for i := range run {
					run[i] = n
				}
			} else {
				prev := model
				for i := 0; i < 64; i++ {
					b := chess.Bitboard(1) << i
					if raw&b == last&b {
						run[i]++
					} else {
						run[i] = 1
					}
					if run[i] >= n {
						model = model&^b | raw&b
					}
				}
				last = raw
				if changed != model^prev {
					t.Fatalf("n=%d step %d: changed %#x, want %#x", n, step, uint64(changed), uint64(model^prev))
				}
			}
			want := model
			if got, _ := d.State(); got != want {
				t.Fatalf("n=%d step %d: %#x, want %#x", n, step, uint64(got), uint64(want))
			}
		}
	}
}

func TestScanSourceFreshTurnsFalseWhenScanningStalls(t *testing.T) {
	var src *sensors.ScanSource
	var clk *sensorstest.Clock
	var freshDuringHang, rateDuringHang = true, 0.0
	src, clk, _ = newFuncSource(t, sensors.SourceOptions{}, func(n int) chess.Bitboard {
		if n == 150 {
			// The bus hangs for 3 s inside this scan.
			clk.Advance(3 * time.Second)
			freshDuringHang, rateDuringHang = src.Fresh(), src.Stats().ScanRate
		}
		return standard
	})
	if !src.Fresh() {
		t.Error("a new source is not fresh before its first scan is due")
	}
	collect(t, src, clk, clk.Now().Add(1200*time.Millisecond))
	if !src.Fresh() || src.Stats().ScanRate < 90 {
		t.Fatalf("scanning at %.1f/s: fresh %v", src.Stats().ScanRate, src.Fresh())
	}
	// The consumer stops reading frames: no scans happen.
	clk.Advance(2500 * time.Millisecond)
	if src.Fresh() {
		t.Error("fresh 2.5 s after the last scan")
	}
	if src.Stats().ScanRate == 0 {
		t.Error("the scan rate is expected to keep its last value (which is why it cannot judge freshness)")
	}
	collect(t, src, clk, clk.Now().Add(600*time.Millisecond))
	if freshDuringHang || rateDuringHang == 0 {
		t.Errorf("during a hung scan: fresh %v, rate %.1f/s", freshDuringHang, rateDuringHang)
	}
	if !src.Fresh() {
		t.Error("not fresh again once scans complete")
	}
}

func TestRealClockDelayIsSubMillisecond(t *testing.T) {
	if testing.Short() {
		t.Skip("timing on a loaded or emulated machine")
	}
	// A 400 µs settle (above the spinning limit) must not become the
	// millisecond time.Sleep makes of it.
	clk := sensors.NewRealClock()
	best := time.Hour
	for range 20 {
		start := time.Now()
		clk.Delay(400 * time.Microsecond)
		best = min(best, time.Since(start))
	}
	if best < 400*time.Microsecond || best > 900*time.Microsecond {
		t.Errorf("Delay(400µs) took at best %v", best)
	}
}
