package accuracy

import (
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/sensors/sim"
	"github.com/boardd/boardd/trace"
)

// reconstructed plays pg on the simulated board and returns the moves the
// reconstruction publishes; noClock drops the clock from the header and
// every press from the trace.
func reconstructed(t *testing.T, pg *chess.Game, opts sim.Options, noClock bool) []chess.Move {
	t.Helper()
	src, err := sim.NewSource(sim.FromPGN(pg), opts)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := reconstruct.ConfigFromHeader(src.Header())
	if err != nil {
		t.Fatal(err)
	}
	if noClock {
		cfg.Clock, cfg.TimeControl = false, ""
	}
	cfg.MovesOnly = true
	r, err := reconstruct.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out []reconstruct.Output
	var lastT int64
	for {
		it, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if noClock && it.Event.Kind == trace.Press {
			continue
		}
		lastT = it.Event.T
		out = r.Feed(&it.Event, out[:0])
	}
	r.End(lastT+10000, out[:0])
	return r.Moves()
}

func sameMoves(a, b []chess.Move) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestTimingInvariance: the game reconstructed from a clean simulated
// trace does not depend on how long the players thought. The same hands
// (every move's own events as they were) with (a) every idle time between
// moves compressed to 0-300 ms beyond the fastest human reaction
// (300 ms), (b) every idle time stretched tenfold, or (c) every clock
// press deleted (and the clock with them) give the same game on colour
// and piece boards, and on occupancy boards at most 0.1% of the games
// differ (a capture nobody saw, which the next moves' timing may settle
// differently). So do (d) presses 10-150 ms ahead of the landing in 30%
// of the moves on colour and piece boards (the hand a moment behind the
// press; occupancy boards are only logged: a piece in the hand at the
// press there looks like a capture nobody saw, docs/reconstruction.md).
// The sample is the first 3 games of each corpus file, with and without a
// clock.
func TestTimingInvariance(t *testing.T) {
	files := corpus(t)
	var games []*chess.Game
	for _, f := range files {
		l, _, err := loadFile(f, 3, quiet)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, l.games...)
	}
	variants := []struct {
		name    string
		retime  func(rng *rand.Rand) func(int, int64) int64
		noClock bool
		early   float64 // sim.Rates.EarlyPress
	}{
		{"compressed", func(rng *rand.Rand) func(int, int64) int64 {
			return func(_ int, _ int64) int64 { return 300 + rng.Int64N(301) }
		}, false, 0},
		{"stretched", func(*rand.Rand) func(int, int64) int64 {
			return func(_ int, idle int64) int64 { return 10 * idle }
		}, false, 0},
		{"no clock", nil, true, 0},
		{"pressed ahead", nil, false, 0.3},
	}
	for _, s := range []trace.Sensor{trace.Occupancy, trace.Colour, trace.PieceSensor} {
		changed := map[string]int{}
		total := 0
		for gi, pg := range games {
			for _, clock := range []sim.ClockMode{sim.ClockAlways, sim.ClockNever} {
				opts := sim.Options{Sensor: s, Seed: sim.GameSeed(1, gi), Clock: clock}
				base := reconstructed(t, pg, opts, false)
				total++
				for _, v := range variants {
					if (v.noClock || v.early > 0) && clock == sim.ClockNever {
						continue
					}
					o := opts
					if v.retime != nil {
						o.Retime = v.retime(rand.New(rand.NewPCG(uint64(gi), 7)))
					}
					if v.early > 0 {
						rates := sim.DefaultRates()
						rates.EarlyPress = v.early
						o.Rates = &rates
					}
					if got := reconstructed(t, pg, o, v.noClock); !sameMoves(got, base) {
						changed[v.name]++
						t.Logf("%v game %d clock %v, %s: the game changed (%d moves, was %d)", s, gi, clock, v.name, len(got), len(base))
					}
				}
			}
		}
		for _, v := range variants {
			n := changed[v.name]
			if s == trace.Occupancy && v.early > 0 {
				continue
			}
			if s != trace.Occupancy && n > 0 || float64(n) > 0.001*float64(total) {
				t.Errorf("%v, %s: %d of %d games changed", s, v.name, n, total)
			}
		}
		t.Logf("%v: %d traces, changed %v", s, total, changed)
	}
}
