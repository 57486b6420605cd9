package sim

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/boardd/boardd/trace"
)

// ClockMode says whether the simulated game is played with a chess clock.
type ClockMode uint8

// Clock modes.
const (
	// ClockAuto uses a clock when the game has clock readings or a time
	// control, and otherwise with probability Rates.ClockedGame.
	ClockAuto ClockMode = iota
	ClockAlways
	ClockNever
)

func (m ClockMode) String() string {
	switch m {
	case ClockAlways:
		return "always"
	case ClockNever:
		return "never"
	}
	return "auto"
}

// ParseClockMode reads "auto", "always" or "never".
func ParseClockMode(s string) (ClockMode, error) {
	switch s {
	case "auto", "":
		return ClockAuto, nil
	case "always", "yes":
		return ClockAlways, nil
	case "never", "no", "none":
		return ClockNever, nil
	}
	return 0, fmt.Errorf("clock mode %q: want auto, always or never", s)
}

// Options choose the board and what the hands do.
type Options struct {
	Sensor trace.Sensor
	// Seed makes the simulation repeatable: the same game, options and
	// seed always give the same events. Use GameSeed to derive one seed
	// per game of a collection.
	Seed uint64
	// Irregular injects irregularities (see Injection) at the rates of
	// Rates.Inject.
	Irregular bool
	// NoPromote drops the promote events that occupancy and colour boards
	// otherwise get for an under-promotion, so that the piece has to be
	// inferred from how it moves later.
	NoPromote bool
	Clock     ClockMode
	// Annotate adds a "# hand ..." comment per move describing what the
	// hands did (for reading traces; the events are the same).
	Annotate bool
	// Rates overrides the behaviour rates; nil means DefaultRates().
	Rates *Rates
	// Retime, when set, replaces the idle time (ms) before the hands of
	// game move n (1 = the first) start: the time from the last event of
	// the move before (its press, with a clock) to the reach for this one.
	// The hands' own events stay as they were, so traces retimed
	// differently differ only in the gaps between moves (timing
	// invariance tests). The result is kept at 0 or more.
	Retime func(n int, idle int64) int64
}

// Rates are the probabilities and timings of the hand model. Probabilities
// are per move unless said otherwise. docs/simulation.md explains where
// each figure comes from.
type Rates struct {
	Slide      float64 // a slider, king or pawn is slid when its path is empty
	Hesitation float64 // a piece lifted and put back before the move
	Adjustment float64 // a piece adjusted on its square (lifted a moment)
	ChangeMind float64 // the piece touches down on another square first
	Knock      float64 // a neighbour is knocked over and put back
	LatePress  float64 // the clock pressed seconds late
	// EarlyPress: the clock pressed while the hand is still setting the
	// piece down, 10-150 ms before it lands (not before the middle of
	// its carry): the press a board reads ahead of the move. A stress
	// setting; 0 in the default hands.
	EarlyPress float64
	Bounce     float64 // per sensor transition: contact chatter

	CaptureVictimFirst float64 // per capture: victim removed first (else mover lifted first)
	// FastSwap forces this fraction of captures to be swapped between two
	// samples of the square, so that the scan never sees the victim's
	// lift whatever its period: a stress setting (0.12 was the simulator's
	// old fixed rate). 0 leaves it to the hand's timing (QuickSwap, the
	// swap gaps) and the board's scan period.
	FastSwap float64
	// PushOff is the probability that a capture is made by shoving the
	// victim off its square with the capturing piece, so that the square's
	// magnet never leaves the sensor's range: no scan, however fast, sees
	// the victim lifted. PushOffHurry replaces it for a player short of
	// time, who does it far more often.
	PushOff, PushOffHurry float64
	// QuickSwap is the probability that a mover-first capture is one quick
	// motion (the victim plucked and the mover dropped in its place), with
	// the gap QuickGap; otherwise the gap is SwapGap. QuickSwapHurry
	// replaces it for a player short of time.
	QuickSwap, QuickSwapHurry float64
	// QuickGap and SwapGap are how long (ms) the victim of a mover-first
	// capture is off its square before the mover lands on it.
	QuickGap, SwapGap Gap
	CastleTogether    float64 // per castling: king and rook lifted together (else king first)
	KingTouchOnly     float64 // Chess960 castling with the king staying: king only touched
	PromoOnLastRank   float64 // per promotion: pawn placed on the last rank, then swapped

	// ClockedGame is the probability that a game without clock readings or
	// time control is played with a clock (ClockAuto).
	ClockedGame float64

	// FittedThink draws think times from ThinkOpening (the first 16
	// plies) and ThinkLater instead of the default model, and takes a game's
	// [%clk] readings as its think times with or without a clock. A think
	// time is then a whole turn, as a clock measures it: from the
	// opponent's last act (press or placement) to the player's own.
	FittedThink              bool
	ThinkOpening, ThinkLater ThinkMix
	// ThinkScale multiplies every think time (0 means 1): 0.3, 0.1 and
	// 0.03 turn a rapid game into blitz and bullet hands. Hands never
	// react faster than their own movements allow.
	ThinkScale float64
	// KnockOverlap is the share of knocked pieces (Knock) whose put-back
	// the opponent does not wait for: the reply may begin while the
	// knocker's hand is still putting the piece back.
	KnockOverlap float64
	// QuickPromoCapture: a move that captures the piece an under-promotion
	// has just made comes at once (as fast as the hands allow).
	QuickPromoCapture bool

	// ScanPeriods are the sampling periods (ms) a board of each sensor kind
	// may have; one is drawn per game.
	ScanPeriods [3][]int64

	Inject InjectRates
}

// Gap is a duration in ms drawn from a log-normal distribution with the
// given median and σ, truncated to [Min, Max].
type Gap struct {
	Median, Sigma float64
	Min, Max      int64
}

// draw returns a duration from g (redrawing values outside the bounds a
// few times, then clamping, so the bounds do not pile up).
func (g Gap) draw(rng *rand.Rand) int64 {
	var d int64
	for try := 0; try < 8; try++ {
		d = int64(math.Round(g.Median * math.Exp(g.Sigma*rng.NormFloat64())))
		if d >= g.Min && d <= g.Max {
			return d
		}
	}
	return min(max(d, g.Min), g.Max)
}

// InjectRates are per-game probabilities of each injected irregularity
// (Options.Irregular). A kind is injected at most once per game, at a move
// where it can happen.
type InjectRates struct {
	IllegalMove      float64
	ClockWithoutMove float64
	UnreplacedPromo  float64
	Misplaced        float64
	RookFirst        float64
	MoveChanged      float64
}

// DefaultRates returns the rates documented in docs/simulation.md.
func DefaultRates() Rates {
	return Rates{
		Slide:      0.15,
		Hesitation: 0.03,
		Adjustment: 0.03,
		ChangeMind: 0.01,
		Knock:      0.005,
		LatePress:  0.01,
		Bounce:     0.3,

		CaptureVictimFirst: 0.45,
		PushOff:            0.03,
		PushOffHurry:       0.2,
		QuickSwap:          0.25,
		QuickSwapHurry:     0.75,
		QuickGap:           Gap{Median: 160, Sigma: 0.4, Min: 80, Max: 400},
		SwapGap:            Gap{Median: 450, Sigma: 0.35, Min: 250, Max: 1200},
		CastleTogether:     0.35,
		KingTouchOnly:      0.5,
		PromoOnLastRank:    0.4,

		ClockedGame: 0.6,

		// The FIDE Women's World Rapid 2024 (15 min + 10 s), fitted to
		// the turn times its [%clk] readings give (33,726 moves; see
		// docs/simulation.md): the first 16 plies, and the rest.
		ThinkOpening: ThinkMix{Fast: 0.38, FastMedian: 1.6, FastSigma: 0.5, SlowMedian: 8, SlowSigma: 1.5},
		ThinkLater:   ThinkMix{Fast: 0.20, FastMedian: 1.6, FastSigma: 0.9, SlowMedian: 18, SlowSigma: 1.2},

		ScanPeriods: [3][]int64{
			trace.Occupancy:   {5, 10, 20},
			trace.Colour:      {5, 33, 100},
			trace.PieceSensor: {200, 250},
		},

		Inject: InjectRates{
			IllegalMove:      0.35,
			ClockWithoutMove: 0.25,
			UnreplacedPromo:  0.8,
			Misplaced:        0.3,
			RookFirst:        0.4,
			MoveChanged:      0.25,
		},
	}
}

// ThinkMix is a two-component log-normal mixture of think times (s):
// with probability Fast the median FastMedian and σ FastSigma, else the
// median SlowMedian and σ SlowSigma.
type ThinkMix struct {
	Fast                  float64
	FastMedian, FastSigma float64
	SlowMedian, SlowSigma float64
}

// draw returns a think time in ms.
func (m ThinkMix) draw(rng *rand.Rand) int64 {
	med, sigma := m.SlowMedian, m.SlowSigma
	if rng.Float64() < m.Fast {
		med, sigma = m.FastMedian, m.FastSigma
	}
	return int64(1000 * med * math.Exp(sigma*rng.NormFloat64()))
}

// StressRates returns DefaultRates with the hands of the stress grid:
// fitted think times multiplied by scale, knocks at the given rate whose
// put-back overlaps the reply, under-promoted pieces captured at once and
// the given share of forced fast swaps.
func StressRates(scale, knock, fastSwap float64) Rates {
	r := DefaultRates()
	r.FittedThink = true
	r.ThinkScale = scale
	r.Knock = knock
	r.KnockOverlap = 1
	r.QuickPromoCapture = true
	r.FastSwap = fastSwap
	return r
}

// GameSeed derives the seed of game n of a collection from a run's seed,
// so that one game's trace does not depend on which others are simulated.
func GameSeed(seed uint64, n int) uint64 {
	// splitmix64 finaliser: nearby inputs give unrelated outputs.
	z := seed + uint64(n+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
