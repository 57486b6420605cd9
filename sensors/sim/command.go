package sim

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/trace"
)

// Cmd is the simulate command: real games played on a simulated sensor
// board, written as boardtraces.
func Cmd(ctx context.Context, env *cli.Env, args []string) error {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	pgnPath := fs.String("pgn", "", "PGN `FILE` with the games to play (required)")
	sensor := fs.String("sensor", "occupancy", "sensor kind: occupancy, colour or piece")
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same traces")
	irregular := fs.Bool("irregular", false, "inject irregularities, each announced by a \"# inject\" comment")
	noPromote := fs.Bool("no-promote", false, "no promote events for under-promotions (occupancy and colour boards)")
	clock := fs.String("clock", "auto", "chess clock: auto (when the game has clock times or a time control, else by chance), always or never")
	annotate := fs.Bool("annotate", false, "add a \"# hand\" comment per move saying what the hands did")
	fastSwap := fs.Float64("fast-swap", 0, "force the scan to miss the victim's lift in this `FRACTION` of captures (a stress setting; 0: from the hands' timing and the scan period)")
	earlyPress := fs.Float64("early-press", 0, "with a clock, press it 10-150 ms before the piece lands in this `FRACTION` of moves (a stress setting)")
	thinkScale := fs.Float64("think-scale", 0, "the stress grid's hands (docs/simulation.md): think times fitted to the corpus, multiplied by `F`, knocked pieces put back while the opponent replies, under-promoted pieces captured at once (0: the default hands)")
	knock := fs.Float64("knock", 0.005, "with --think-scale: the share of moves after which the hand knocks a piece over")
	game := fs.Int("game", 0, "write game `N` of the file (1 = the first) to stdout (default 1)")
	out := fs.String("out", "", "write every game's trace to `DIR` (DIR/<pgn name>-<NNNNN>.trace)")
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, `usage: boardd simulate --pgn FILE [--sensor occupancy|colour|piece] [--seed N]
                       [--irregular] [--no-promote] [--clock auto|always|never]
                       [--annotate] [--fast-swap FRACTION] [--early-press FRACTION]
                       [--think-scale F [--knock RATE]]
                       [--game N | --out DIR]

Plays real games on a simulated sensor board and writes what its sensors
and clock report as boardtraces (docs/trace.md): one game to stdout, or
every game of the file to a directory. The hands slide pieces, capture in
either order, castle king first or together, bounce contacts, hesitate,
knock pieces over and put them back, and think as long as the clock
times in the PGN say (docs/simulation.md). Game N's trace depends only on the
file's game N, the options and the seed.

`)
		fs.PrintDefaults()
	}
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	usageErr := func(format string, a ...any) error {
		fmt.Fprintf(env.Stderr, "boardd simulate: "+format+"\n", a...)
		return cli.ExitError{Code: 2}
	}
	if fs.NArg() != 0 {
		return usageErr("unexpected argument %q", fs.Arg(0))
	}
	if *pgnPath == "" {
		return usageErr("--pgn FILE is required")
	}
	if *out != "" && *game != 0 {
		return usageErr("--game and --out exclude each other")
	}
	if *game < 0 {
		return usageErr("--game %d: games are numbered from 1", *game)
	}
	s, err := trace.ParseSensor(*sensor)
	if err != nil {
		return usageErr("--sensor: %v", err)
	}
	cm, err := ParseClockMode(*clock)
	if err != nil {
		return usageErr("--clock: %v", err)
	}
	opts := Options{Sensor: s, Irregular: *irregular, NoPromote: *noPromote, Clock: cm, Annotate: *annotate}
	if opts.Rates, err = ForcedRates(*fastSwap, *earlyPress); err != nil {
		return usageErr("%v", err)
	}
	switch {
	case *thinkScale < 0 || math.IsInf(*thinkScale, 0) || math.IsNaN(*thinkScale):
		return usageErr("--think-scale %v: want a positive factor", *thinkScale)
	case !(*knock >= 0 && *knock <= 1):
		return usageErr("--knock %v: want a fraction in [0, 1]", *knock)
	case *thinkScale > 0:
		r := StressRates(*thinkScale, *knock, *fastSwap)
		r.EarlyPress = *earlyPress
		opts.Rates = &r
	}

	f, err := os.Open(*pgnPath)
	if err != nil {
		return err
	}
	defer f.Close()
	pr := chess.NewPGNReader(bufio.NewReader(f))
	name := filepath.Base(*pgnPath)

	if *out == "" {
		want := max(*game, 1)
		for n := 1; ; n++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			pg, err := pr.Next()
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("%s has %d games, no game %d", *pgnPath, n-1, want)
			}
			if n < want {
				continue
			}
			if err != nil {
				return fmt.Errorf("%s: game %d: %w", *pgnPath, n, err)
			}
			w := bufio.NewWriter(env.Stdout)
			if _, err := simulateGame(w, name, n, pg, opts, *seed); err != nil {
				return fmt.Errorf("%s: game %d: %w", *pgnPath, n, err)
			}
			return w.Flush()
		}
	}

	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	base := strings.TrimSuffix(name, filepath.Ext(name))
	written, failed, injected := 0, 0, 0
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		pg, err := pr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "boardd simulate: %s: game %d skipped: %v\n", *pgnPath, n, err)
			failed++
			continue
		}
		path := filepath.Join(*out, fmt.Sprintf("%s-%05d.trace", base, n))
		k, err := writeTraceFile(path, name, n, pg, opts, *seed)
		if err != nil {
			fmt.Fprintf(env.Stderr, "boardd simulate: %s: game %d: %v\n", *pgnPath, n, err)
			failed++
			continue
		}
		written++
		injected += k
	}
	fmt.Fprintf(env.Stderr, "wrote %d traces to %s (%d irregularities injected)\n", written, *out, injected)
	if failed > 0 {
		return fmt.Errorf("%d games of %s could not be simulated", failed, *pgnPath)
	}
	return nil
}

func writeTraceFile(path, name string, n int, pg *chess.Game, opts Options, seed uint64) (int, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriter(f)
	k, err := simulateGame(w, name, n, pg, opts, seed)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return k, err
}

// simulateGame writes the trace of game n of the PGN file name and returns
// how many irregularities it injected. The leading comments say where the
// trace comes from and what the game really was.
func simulateGame(w io.Writer, name string, n int, pg *chess.Game, opts Options, seed uint64) (int, error) {
	opts.Seed = GameSeed(seed, n-1)
	src, err := NewSource(FromPGN(pg), opts)
	if err != nil {
		return 0, err
	}
	var uci strings.Builder
	p := *pg.Start
	for i, m := range pg.Moves {
		if i > 0 {
			uci.WriteByte(' ')
		}
		uci.WriteString(p.UCI(m))
		p.MakeMove(m)
	}
	cmd := fmt.Sprintf("boardd simulate --pgn %s --game %d --sensor %s --seed %d", name, n, opts.Sensor, seed)
	if opts.Irregular {
		cmd += " --irregular"
	}
	if opts.NoPromote {
		cmd += " --no-promote"
	}
	if opts.Clock != ClockAuto {
		cmd += " --clock " + opts.Clock.String()
	}
	if opts.Rates != nil && opts.Rates.FastSwap != 0 {
		cmd += fmt.Sprintf(" --fast-swap %v", opts.Rates.FastSwap)
	}
	if opts.Rates != nil && opts.Rates.EarlyPress != 0 {
		cmd += fmt.Sprintf(" --early-press %v", opts.Rates.EarlyPress)
	}
	if opts.Rates != nil && opts.Rates.FittedThink {
		cmd += fmt.Sprintf(" --think-scale %v --knock %v", opts.Rates.ThinkScale, opts.Rates.Knock)
	}
	comments := []string{
		fmt.Sprintf("simulated by %s (scan period %d ms)", cmd, src.ScanPeriod()),
		fmt.Sprintf("game %s - %s, %s, round %s, result %s", pg.Tag("White"), pg.Tag("Black"), pg.Tag("Event"), pg.Tag("Round"), pg.Result),
		"game moves " + uci.String(),
	}
	if err := WriteTrace(w, src, comments...); err != nil {
		return 0, err
	}
	return len(src.Injections()), nil
}

// ForcedRates is the hand model with --fast-swap's forced share of
// unseen captures and --early-press's share of presses ahead of the
// landing; nil (the defaults) when both are 0.
func ForcedRates(fastSwap, earlyPress float64) (*Rates, error) {
	if fastSwap == 0 && earlyPress == 0 {
		return nil, nil
	}
	if !(fastSwap >= 0 && fastSwap <= 1) {
		return nil, fmt.Errorf("--fast-swap %v: want a fraction in (0, 1]", fastSwap)
	}
	if !(earlyPress >= 0 && earlyPress <= 1) {
		return nil, fmt.Errorf("--early-press %v: want a fraction in (0, 1]", earlyPress)
	}
	r := DefaultRates()
	r.FastSwap, r.EarlyPress = fastSwap, earlyPress
	return &r, nil
}
