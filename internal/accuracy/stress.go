package accuracy

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors/sim"
	"github.com/boardd/boardd/trace"
)

// StressOptions choose the stress grid: every combination of a
// think-time scale, a clock or none, a knock rate, a share of forced fast
// swaps and standard or Chess960 games, played with the hands of
// sim.StressRates.
type StressOptions struct {
	// Files are the PGN files; each is standard or Chess960 by its first
	// game's start position.
	Files     []string
	Sensors   []trace.Sensor
	Irregular []bool
	// Limit plays only the first Limit games of each file (0 = all).
	Limit   int
	Seed    uint64
	Workers int
	// Examples keeps up to this many failing games per cell, sensor kind
	// and mode.
	Examples int
	// The grid's axes; nil takes the defaults (DefaultScales and so on).
	Scales, Knocks, FastSwaps []float64
	// EarlyPress is the share of presses ahead of the landing in every
	// clocked cell (sim.Rates.EarlyPress; 0: none).
	EarlyPress float64
}

// The stress grid's default axes (docs/simulation.md).
func defaultScales() []float64    { return []float64{1, 0.3, 0.1, 0.03} }
func defaultKnocks() []float64    { return []float64{0.005, 0.02, 0.05} }
func defaultFastSwaps() []float64 { return []float64{0, 0.12} }

// Cell is one point of the stress grid and its totals per sensor kind and
// mode.
type Cell struct {
	Scale    float64
	Clock    bool
	Knock    float64
	FastSwap float64
	// EarlyPress: the clocked cells' share of presses ahead of the
	// landing.
	EarlyPress float64
	Chess960   bool
	Rows       []Row
	Examples   []Game
}

func (c *Cell) name() string {
	clock, variant := "no clock", "standard"
	if c.Clock {
		clock = "clock"
	}
	if c.Chess960 {
		variant = "960"
	}
	if c.EarlyPress != 0 {
		clock += fmt.Sprintf(" (early presses %v%%)", 100*c.EarlyPress)
	}
	return fmt.Sprintf("x%v %s knocks %v%% fast-swap %v%% %s", c.Scale, clock, 100*c.Knock, 100*c.FastSwap, variant)
}

// StressReport is the result of a stress run.
type StressReport struct {
	Cells   []Cell
	Seed    uint64
	Limit   int
	Elapsed time.Duration
}

// Stress plays the grid. It stops early (with ctx's error) when ctx is
// done.
func Stress(ctx context.Context, opts StressOptions, log *slog.Logger) (*StressReport, error) {
	var std, c960 []string
	for _, path := range opts.Files {
		is960, err := chess960File(path)
		if err != nil {
			return nil, err
		}
		if is960 {
			c960 = append(c960, path)
		} else {
			std = append(std, path)
		}
	}
	scales, knocks, swaps := opts.Scales, opts.Knocks, opts.FastSwaps
	if scales == nil {
		scales = defaultScales()
	}
	if knocks == nil {
		knocks = defaultKnocks()
	}
	if swaps == nil {
		swaps = defaultFastSwaps()
	}
	irregular := opts.Irregular
	if len(irregular) == 0 {
		irregular = []bool{false}
	}
	start := time.Now()
	rep := &StressReport{Seed: opts.Seed, Limit: opts.Limit}
	for _, variant := range []bool{false, true} {
		files := std
		if variant {
			files = c960
		}
		if len(files) == 0 {
			continue
		}
		for _, scale := range scales {
			for _, clock := range []bool{true, false} {
				for _, knock := range knocks {
					for _, swap := range swaps {
						rates := sim.StressRates(scale, knock, swap)
						cm, early := sim.ClockNever, 0.0
						if clock {
							cm, early = sim.ClockAlways, opts.EarlyPress
						}
						rates.EarlyPress = early
						r, err := Run(ctx, Options{Files: files, Sensors: opts.Sensors, Irregular: irregular, Limit: opts.Limit,
							Seed: opts.Seed, Rates: &rates, Clock: cm, Workers: opts.Workers, Examples: opts.Examples}, log)
						if err != nil {
							return nil, err
						}
						c := Cell{Scale: scale, Clock: clock, Knock: knock, FastSwap: swap, EarlyPress: early, Chess960: variant, Rows: r.Totals()}
						for _, row := range r.Rows {
							c.Examples = append(c.Examples, row.Examples...)
						}
						log.Info("stress cell", "cell", c.name(), "elapsed", time.Since(start).Round(time.Second))
						rep.Cells = append(rep.Cells, c)
					}
				}
			}
		}
	}
	if len(rep.Cells) == 0 {
		return nil, errors.New("stress: no games")
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// chess960File reports whether the first game of a PGN file starts from a
// Chess960 position.
func chess960File(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	pr := chess.NewPGNReader(bufio.NewReader(f))
	for {
		g, err := pr.Next()
		if errors.Is(err, io.EOF) {
			return false, fmt.Errorf("%s: no game", path)
		}
		if err != nil {
			var pe *chess.PGNError
			if errors.As(err, &pe) {
				continue
			}
			return false, fmt.Errorf("%s: %w", path, err)
		}
		return g.Start.Chess960(), nil
	}
}

// WriteTable writes one line per cell, sensor kind and mode, then the
// worst cell of each sensor kind and mode (the fewest games exact; then
// the most false alerts, missed injections, plies behind).
func (r *StressReport) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tscale\tclock\tknocks\tfast swap\tvariant\tsensor\tmode\tgames\texact %\tfalse alerts\tinjected\tfound\tmissed\tbehind>2\tmax behind\tunseen\t")
	line := func(label string, c *Cell, row *Row) {
		clock, variant := "no", "standard"
		if c.Clock {
			clock = "yes"
		}
		if c.Chess960 {
			variant = "960"
		}
		fmt.Fprintf(tw, "%s\tx%v\t%s\t%v%%\t%v%%\t%s\t%s\t%s\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n",
			label, c.Scale, clock, 100*c.Knock, 100*c.FastSwap, variant, row.Sensor, mode(row.Irregular), row.Games,
			pct(row.Exact, row.Games), row.False, row.Injected, row.Found, row.Missed, row.Behind2, row.MaxBehind, row.Unseen)
	}
	type key struct {
		s   trace.Sensor
		irr bool
	}
	worst := map[key][2]int{}
	var order []key
	for ci := range r.Cells {
		c := &r.Cells[ci]
		for ri := range c.Rows {
			row := &c.Rows[ri]
			line("", c, row)
			k := key{row.Sensor, row.Irregular}
			wi, ok := worst[k]
			if !ok {
				order = append(order, k)
				worst[k] = [2]int{ci, ri}
				continue
			}
			if worse(row, &r.Cells[wi[0]].Rows[wi[1]]) {
				worst[k] = [2]int{ci, ri}
			}
		}
	}
	for _, k := range order {
		wi := worst[k]
		c := &r.Cells[wi[0]]
		line("worst", c, &c.Rows[wi[1]])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	limit := "all games"
	if r.Limit > 0 {
		limit = fmt.Sprintf("the first %d games of each file", r.Limit)
	}
	for _, c := range r.Cells {
		if c.EarlyPress != 0 {
			limit += fmt.Sprintf(", presses ahead of the landing in %v%% of clocked moves", 100*c.EarlyPress)
			break
		}
	}
	_, err := fmt.Fprintf(w, "stress grid: %d cells, %s, seed %d, %s\n", len(r.Cells), limit, r.Seed, r.Elapsed.Round(1e8))
	return err
}

// WriteExamples lists the failing games kept per cell, each with the
// command that writes its trace.
func (r *StressReport) WriteExamples(w io.Writer) error {
	for _, c := range r.Cells {
		clock := "always"
		if !c.Clock {
			clock = "never"
		}
		for _, g := range c.Examples {
			irr := ""
			if g.Irregular {
				irr = " --irregular"
			}
			if c.FastSwap != 0 {
				irr += fmt.Sprintf(" --fast-swap %v", c.FastSwap)
			}
			if c.EarlyPress != 0 {
				irr += fmt.Sprintf(" --early-press %v", c.EarlyPress)
			}
			what := g.problems()
			if _, err := fmt.Fprintf(w, "%s: %s game %d, %s %s: %s\n    boardd simulate --pgn %s --game %d --sensor %s --seed %d --clock %s --think-scale %v --knock %v%s\n",
				c.name(), filepath.Base(g.File), g.Game, g.Sensor, mode(g.Irregular), strings.Join(what, "; "),
				g.File, g.Game, g.Sensor, r.Seed, clock, c.Scale, c.Knock, irr); err != nil {
				return err
			}
		}
	}
	return nil
}

// worse reports whether row a is worse than row b.
func worse(a, b *Row) bool {
	fa, fb := frac(a.Exact, a.Games), frac(b.Exact, b.Games)
	switch {
	case fa != fb:
		return fa < fb
	case a.False != b.False:
		return a.False > b.False
	case a.Missed != b.Missed:
		return a.Missed > b.Missed
	}
	return a.MaxBehind > b.MaxBehind
}

func frac(n, of int) float64 {
	if of == 0 {
		return 1
	}
	return float64(n) / float64(of)
}

// ParseFloats reads a comma-separated list of numbers; a trailing % divides
// by 100.
func ParseFloats(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		div := 1.0
		if strings.HasSuffix(f, "%") {
			f, div = strings.TrimSuffix(f, "%"), 100
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || v < 0 || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%q: want a non-negative number", f)
		}
		out = append(out, v/div)
	}
	return out, nil
}
