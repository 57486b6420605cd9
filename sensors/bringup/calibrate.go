package bringup

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/host"
	"github.com/boardd/boardd/sensors/sensorstest"
	"github.com/boardd/boardd/trace"
)

// Calibrate is the calibrate command: learn the wiring map square by square.
func Calibrate(ctx context.Context, env *cli.Env, args []string) error {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	config := fs.String("config", "", "the board's sensor configuration (JSON): design, buses and pins; its squares may be missing")
	design := fs.String("design", "", "start from the reference wiring of a design instead (matrix, mcp23017, hc165, analog, analog-ads1115; docs/hardware.md)")
	out := fs.String("out", "-", `where to write the calibrated configuration ("-": standard output)`)
	stable := fs.Int("stable", 10, "scans a piece must sit still (10 ms apart) to count")
	source := fs.String("source", "", `"`+modelUsage+`" (a simulated hand puts a piece on each square a second after it is asked for)`)
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, `usage: boardd calibrate (--config FILE | --design NAME) [--out FILE]
       boardd calibrate --source model:DESIGN[,dead=UNIT][,stuck=low|high] [--out FILE]

Learns which input reads which square. It asks to clear the board, then
to put a piece on a1, b1, ... h8 in turn (a white piece on an analog Hall
board, which also gets each sensor's empty reading and sensitivity
measured). Pieces may stay where they are or be moved on: only a newly
occupied input counts. Type s and Enter to skip a square, q to give up.
The configuration, with the learned squares, is written to --out; use
boardd diag to check it. A part that fails in every scan for 2 seconds
(a chip that does not answer, a chain with a wrong sentinel) ends it
with exit status 1, naming the part. A square waited for a minute says
what could be wrong; a board on which no input has read a piece for 3
minutes after a prompt (a data line stuck at the empty level) ends it
with exit status 1. Without sensor hardware it says
which host drivers were skipped and exits 1. A model source rehearses
it on chip models of a design's reference board (docs/hardware.md,
bring-up): press Enter, and a simulated hand does the rest.

`)
		fs.PrintDefaults()
	}
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	given := 0
	for _, v := range []string{*config, *design, *source} {
		if v != "" {
			given++
		}
	}
	if fs.NArg() != 0 || given != 1 || *stable < 1 {
		fs.Usage()
		return cli.ExitError{Code: 2}
	}
	if *source != "" {
		return calibrateModel(ctx, env, *source, *stable, *out)
	}
	var cfg *sensors.Config
	var err error
	if *config != "" {
		cfg, err = sensors.LoadConfigFile(*config, true)
	} else {
		cfg, err = sensors.DefaultConfig(*design)
	}
	if err != nil {
		return err
	}
	hw, err := host.Init(cfg)
	if err != nil {
		return reportOpenError(env, "calibrate", err)
	}
	defer hw.Close()
	sc, _, err := cfg.NewScanner(hw, nil)
	if err != nil {
		return err
	}
	defer sc.Close()
	return calibrate(ctx, env, cfg, sc, sensors.CalibrateOptions{Stable: *stable}, *out)
}

// linePrompter talks to the operator on the command's streams.
type linePrompter struct {
	w     io.Writer
	lines chan string
}

func newLinePrompter(ctx context.Context, r io.Reader, w io.Writer) *linePrompter {
	p := &linePrompter{w: w, lines: make(chan string)}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			select {
			case p.lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	return p
}

func (p *linePrompter) Say(format string, args ...any) { fmt.Fprintf(p.w, format+"\n", args...) }
func (p *linePrompter) Lines() <-chan string           { return p.lines }

// calibrate runs the calibration of sc and writes cfg with what it
// learned to out.
func calibrate(ctx context.Context, env *cli.Env, cfg *sensors.Config, sc sensors.Scanner, o sensors.CalibrateOptions, out string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	o.InputName = cfg.InputName
	p := newLinePrompter(ctx, env.Stdin, env.Stderr)
	res, err := sensors.Calibrate(ctx, sc, p, o)
	if errors.Is(err, sensors.ErrCalibrationAborted) {
		fmt.Fprintln(env.Stderr, "boardd calibrate: aborted; nothing written")
		return cli.ExitError{Code: 1}
	}
	var ue *sensors.UnitError
	if errors.As(err, &ue) {
		fmt.Fprintf(env.Stderr, "boardd calibrate: %v\nNothing written. Check that part's power, wiring and address straps (docs/hardware.md, bring-up).\n", err)
		return cli.ExitError{Code: 1}
	}
	var np *sensors.NoPieceError
	if errors.As(err, &np) {
		fmt.Fprintf(env.Stderr, "boardd calibrate: %v\nNothing written. The board sees no piece: check it with boardd diag --probe and a piece on a known square (docs/hardware.md, bring-up).\n", err)
		return cli.ExitError{Code: 1}
	}
	if err != nil {
		return err
	}
	if err := cfg.ApplyCalibration(res); err != nil {
		return err
	}
	b, err := cfg.Marshal()
	if err != nil {
		return err
	}
	if out == "-" {
		_, err = env.Stdout.Write(b)
	} else {
		err = os.WriteFile(out, b, 0o644)
	}
	if err != nil {
		return fmt.Errorf("writing the configuration: %w", err)
	}
	if verr := cfg.Validate(); verr != nil {
		fmt.Fprintf(env.Stderr, "boardd calibrate: the configuration is incomplete: %v\n", verr)
		return cli.ExitError{Code: 1}
	}
	if out != "-" {
		fmt.Fprintf(env.Stderr, "Calibrated: %s written. Check it with: boardd diag --config %s\n", out, out)
	}
	return nil
}

// calibrateModel calibrates a model board: its reference squares are
// forgotten, and a simulated hand answers each prompt as an operator
// would, putting its piece (a white one on an analog board) on the square
// asked for a second after the prompt (lifting it from the square
// before).
func calibrateModel(ctx context.Context, env *cli.Env, source string, stable int, out string) error {
	m, err := parseModelSpec(source)
	if err != nil {
		return err
	}
	cfg, rig, err := m.open()
	if err != nil {
		return err
	}
	none := make([]chess.Square, cfg.Inputs())
	for i := range none {
		none[i] = chess.NoSquare
	}
	w, err := sensors.NewWiring(none)
	if err != nil {
		return err
	}
	if err := cfg.SetWiring(w); err != nil {
		return err
	}
	sc, _, err := cfg.NewScanner(rig.Hardware, rig.Clock)
	if err != nil {
		return err
	}
	defer sc.Close()
	// The hand follows the prompts rather than a timetable: how long the
	// scans before the first prompt take depends on the design (an
	// ADS1115 board measures its baselines for about two seconds).
	var handErr error
	hand := func(sq chess.Square) {
		ev := trace.Event{T: 1000, Kind: trace.Frame, Occ: sq.Bitboard()}
		if sc.Sensor() == trace.Colour {
			ev.White, ev.HasColour = ev.Occ, true
		}
		if _, err := rig.Board.Play(&sensorstest.Events{List: []trace.Event{ev}}, sensorstest.PlayOptions{}); err != nil && handErr == nil {
			handErr = err
		}
	}
	err = calibrate(ctx, env, cfg, sc, sensors.CalibrateOptions{Clock: rig.Clock, Stable: stable, Asked: hand}, out)
	if handErr != nil {
		return handErr
	}
	return err
}
