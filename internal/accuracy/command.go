package accuracy

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"runtime/debug"

	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/sensors/sim"
)

// Cmd is the accuracy command: the move reconstruction measured on
// simulated games.
func Cmd(ctx context.Context, env *cli.Env, args []string) error {
	fs := flag.NewFlagSet("accuracy", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	games := fs.Int("games", 0, "play only the first `N` games of each file (0 = all)")
	sensors := fs.String("sensor", "all", "sensor kinds, comma-separated: occupancy, colour, piece, or all")
	modes := fs.String("mode", "both", "traces: clean, irregular or both")
	seed := fs.Uint64("seed", 1, "simulator seed (game n of a file is what boardd simulate --game n --seed N writes)")
	noPromote := fs.Bool("no-promote", false, "no promote events for under-promotions: the piece must be inferred")
	fastSwap := fs.Float64("fast-swap", 0, "force the scan to miss the victim's lift in this `FRACTION` of captures (a stress setting; 0: from the hands' timing and the scan period)")
	clock := fs.String("clock", "auto", "without --stress: chess clock auto (when the game has clock times or a time control, else by chance), always or never")
	earlyPress := fs.Float64("early-press", 0, "with a clock, press it 10-150 ms before the piece lands in this `FRACTION` of moves (a stress setting; in every clocked cell with --stress)")
	workers := fs.Int("workers", 0, "games played in parallel (0 = one per CPU)")
	examples := fs.Int("examples", 0, "list up to `N` failing games per row, with the command that writes each trace")
	verbose := fs.Bool("v", false, "log progress to stderr")
	stress := fs.Bool("stress", false, "play the stress grid (think-time scale x1, x0.3, x0.1, x0.03; clock or none; knocks 0.5, 2, 5%; fast swaps 0, 12%; standard and Chess960) and print every cell and the worst; --mode defaults to clean")
	scales := fs.String("scales", "1,0.3,0.1,0.03", "with --stress: the think-time scales, comma-separated")
	knocks := fs.String("knocks", "0.5%,2%,5%", "with --stress: the knock rates per move, comma-separated")
	swaps := fs.String("fast-swaps", "0,12%", "with --stress: the shares of forced fast swaps, comma-separated")
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, `usage: boardd accuracy [--games N] [--sensor LIST] [--mode clean|irregular|both]
                       [--seed N] [--no-promote] [--clock auto|always|never]
                       [--fast-swap FRACTION] [--early-press FRACTION]
                       [--workers N] [--examples N] [-v]
                       [FILE.pgn ...]
       boardd accuracy --stress [--games N] [--sensor LIST] [--mode clean|irregular|both]
                       [--seed N] [--scales LIST] [--knocks LIST] [--fast-swaps LIST]
                       [--early-press FRACTION]
                       [FILE.pgn ...]

Measures the move reconstruction: plays every game of the PGN files
(default: testdata/games/*.pgn) on the simulated board for each sensor
kind, clean and with injected irregularities, feeds the traces to the
reconstruction and prints, per file, sensor kind and mode: the games
reconstructed exactly (the game's moves, and no result that contradicts
the PGN's), false alerts (irregularity alerts on clean traces or matching
no injection), injected irregularities found with the right kind at the
right ply, found one or two plies off, found only as another kind, or
missed, published moves retracted or amended per 1,000 moves, and how
far the published game fell behind the board (games more than 2 plies
behind at some moment, and the most plies). --stress plays every cell of
the stress grid with fitted, scaled think times and knocks put back while
the opponent replies, and prints each cell's totals and the worst cell.
docs/simulation.md describes the simulated hands and the injections.

`)
		fs.PrintDefaults()
	}
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	usageErr := func(format string, a ...any) error {
		fmt.Fprintf(env.Stderr, "boardd accuracy: "+format+"\n", a...)
		return cli.ExitError{Code: 2}
	}
	modeSet := false
	fs.Visit(func(f *flag.Flag) { modeSet = modeSet || f.Name == "mode" })
	opts := Options{Limit: *games, Seed: *seed, NoPromote: *noPromote, Workers: *workers, Examples: *examples}
	var err error
	if opts.Sensors, err = ParseSensors(*sensors); err != nil {
		return usageErr("--sensor: %v", err)
	}
	if opts.Irregular, err = ParseModes(*modes); err != nil {
		return usageErr("--mode: %v", err)
	}
	if *games < 0 {
		return usageErr("--games %d: want 0 (all) or more", *games)
	}
	if opts.Rates, err = sim.ForcedRates(*fastSwap, *earlyPress); err != nil {
		return usageErr("%v", err)
	}
	if opts.Clock, err = sim.ParseClockMode(*clock); err != nil {
		return usageErr("--clock: %v", err)
	}
	opts.Files = fs.Args()
	if len(opts.Files) == 0 {
		opts.Files, _ = filepath.Glob(filepath.Join("testdata", "games", "*.pgn"))
		if len(opts.Files) == 0 {
			return usageErr("no PGN files given and none in testdata/games")
		}
	}
	logOut := io.Discard
	if *verbose {
		logOut = env.Stderr
	}
	log := slog.New(slog.NewTextHandler(logOut, nil))

	if *stress {
		so := StressOptions{Files: opts.Files, Sensors: opts.Sensors, Irregular: opts.Irregular,
			Limit: opts.Limit, Seed: opts.Seed, Workers: opts.Workers, Examples: opts.Examples, EarlyPress: *earlyPress}
		if !modeSet {
			so.Irregular = []bool{false}
		}
		for _, ax := range []struct {
			flag, val string
			dst       *[]float64
		}{{"--scales", *scales, &so.Scales}, {"--knocks", *knocks, &so.Knocks}, {"--fast-swaps", *swaps, &so.FastSwaps}} {
			if *ax.dst, err = ParseFloats(ax.val); err != nil {
				return usageErr("%s: %v", ax.flag, err)
			}
		}
		rep, err := Stress(ctx, so, log)
		if err != nil {
			return err
		}
		if err := rep.WriteTable(env.Stdout); err != nil {
			return err
		}
		if *examples > 0 {
			return writeExamples(env.Stdout, rep.WriteExamples)
		}
		return nil
	}

	rep, err := Run(ctx, opts, log)
	if err != nil {
		return err
	}
	if err := rep.WriteTable(env.Stdout); err != nil {
		return err
	}
	if rev := revision(); rev != "" {
		fmt.Fprintf(env.Stdout, "built from %s\n", rev)
	}
	if *examples > 0 {
		return writeExamples(env.Stdout, rep.WriteExamples)
	}
	return nil
}

// writeExamples lists the failing games under a heading, or says there
// are none.
func writeExamples(w io.Writer, write func(io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	if b.Len() == 0 {
		_, err := fmt.Fprintln(w, "\nfailing games: none")
		return err
	}
	_, err := fmt.Fprintf(w, "\nfailing games:\n%s", b.Bytes())
	return err
}

// revision is the VCS revision the binary was built from, if recorded.
func revision() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" && dirty {
		rev += " (with uncommitted changes)"
	}
	return rev
}
