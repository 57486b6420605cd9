package bringup

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/host"
	"github.com/boardd/boardd/trace"
)

// sourceFlags are the flags that choose a frame source, shared by record
// and diag.
type sourceFlags struct {
	config *string
	source *string
	fast   *bool
}

func addSourceFlags(fs *flag.FlagSet) sourceFlags {
	return sourceFlags{
		config: fs.String("config", "", "the board's sensor configuration (JSON, as written by boardd calibrate)"),
		source: fs.String("source", "hw", `"hw": the board's sensors per --config; "trace:FILE": replay a boardtrace (recorded or simulated); "`+modelUsage+`"`),
		fast:   fs.Bool("fast", false, "with a trace source, replay as fast as possible instead of in real time"),
	}
}

// openSource opens the frame source the flags choose. The returned close
// function releases it and the buses.
func openSource(env *cli.Env, f sourceFlags, log *slog.Logger) (sensors.FrameSource, *trace.Header, func(), error) {
	if file, ok := strings.CutPrefix(*f.source, "trace:"); ok {
		var in io.Reader = env.Stdin
		closeIn := func() {}
		if file != "-" {
			fh, err := os.Open(file)
			if err != nil {
				return nil, nil, nil, err
			}
			in, closeIn = fh, func() { fh.Close() }
		}
		r, err := trace.NewReader(bufio.NewReader(in))
		if err != nil {
			closeIn()
			var pe *trace.ParseError
			if errors.As(err, &pe) {
				return nil, nil, nil, fmt.Errorf("%s:%d: %s", file, pe.Line, pe.Msg)
			}
			return nil, nil, nil, fmt.Errorf("%s: %w", file, err)
		}
		h := r.Header()
		p, err := sensors.NewReplayer(r, h.Sensor, sensors.ReplayOptions{Pace: !*f.fast, Inputs: true, Header: &h})
		if err != nil {
			closeIn()
			return nil, nil, nil, err
		}
		return p, &h, func() { p.Close(); closeIn() }, nil
	}
	if strings.HasPrefix(*f.source, "model:") {
		src, err := openModelSource(*f.source)
		if err != nil {
			return nil, nil, nil, err
		}
		return src, &trace.Header{Sensor: src.Sensor()}, func() { src.Close() }, nil
	}
	if *f.source != "hw" {
		return nil, nil, nil, fmt.Errorf(`--source %q: want "hw", "trace:FILE" or "model:DESIGN"`, *f.source)
	}
	if *f.config == "" {
		return nil, nil, nil, errors.New(`--config FILE is needed to read the board's sensors (or --source trace:FILE to replay a trace)`)
	}
	cfg, err := sensors.LoadConfigFile(*f.config, false)
	if err != nil {
		return nil, nil, nil, err
	}
	hw, err := host.Init(cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	src, err := sensors.Open(cfg, hw, sensors.SourceOptions{Logger: log})
	if err != nil {
		hw.Close()
		return nil, nil, nil, fmt.Errorf("%s: %w", *f.config, err)
	}
	h := &trace.Header{Sensor: src.Sensor()}
	return src, h, func() { src.Close(); hw.Close() }, nil
}

// reportOpenError prints an error from openSource; a missing bus exits
// with status 1 after saying what host bring-up found.
func reportOpenError(env *cli.Env, cmd string, err error) error {
	if errors.Is(err, host.ErrNoHardware) {
		fmt.Fprintf(env.Stderr, "boardd %s: %v\n", cmd, err)
		if cmd != "calibrate" {
			fmt.Fprintln(env.Stderr, "Use --source trace:FILE to replay a recorded or simulated trace instead.")
		}
		return cli.ExitError{Code: 1}
	}
	return err
}

// traceError renders a replayed trace's parse error as FILE:LINE: what.
func traceError(f sourceFlags, err error) error {
	var pe *trace.ParseError
	if file, ok := strings.CutPrefix(*f.source, "trace:"); ok && errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %s", file, pe.Line, pe.Msg)
	}
	return err
}

// parseSetup reads a --setup value into h.
func parseSetup(s string, h *trace.Header) error {
	kind, rest, _ := strings.Cut(strings.TrimSpace(s), " ")
	switch kind {
	case "", "standard":
		h.Setup = trace.SetupStandard
	case "960":
		n, err := strconv.Atoi(strings.TrimSpace(rest))
		if err != nil || n < 0 || n > 959 {
			return fmt.Errorf("--setup %q: want a Chess960 number 0-959", s)
		}
		h.Setup, h.Number = trace.Setup960, n
	case "fen":
		if _, err := chess.ParseFEN(rest); err != nil {
			return fmt.Errorf("--setup %q: %w", s, err)
		}
		h.Setup, h.FEN = trace.SetupFEN, strings.TrimSpace(rest)
	default:
		return fmt.Errorf(`--setup %q: want "standard", "960 N" or "fen FEN"`, s)
	}
	return nil
}

// Record is the record command: the board's sensors as a boardtrace.
func Record(ctx context.Context, env *cli.Env, args []string) error {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	sf := addSourceFlags(fs)
	out := fs.String("out", "-", `the trace file to write ("-": standard output)`)
	frames := fs.Bool("frames", false, "write every frame as a frame line instead of on/off changes")
	duration := fs.Duration("duration", 0, "stop after this long (default: until interrupted or the trace ends)")
	setup := fs.String("setup", "standard", `the start position declared in the header: "standard", "960 N" or "fen FEN"`)
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, `usage: boardd record --config FILE [--out FILE] [--frames] [--duration D]
       boardd record --source trace:FILE [--fast] ...

Records what the board's sensors report as a boardtrace (docs/trace.md):
the first frame, then every debounced change as off/on lines (lifts
first), clock presses of a replayed trace as they are, and sensor faults
as comments. Stops on SIGINT/SIGTERM, after --duration, or at the end of
a replayed trace, and exits 0. Without sensor hardware it says which
host drivers were skipped and exits 1.

`)
		fs.PrintDefaults()
	}
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return cli.ExitError{Code: 2}
	}
	log := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	src, h, closeSrc, err := openSource(env, sf, log)
	if err != nil {
		return reportOpenError(env, "record", err)
	}
	defer closeSrc()
	// A replayed trace keeps its header; --setup, when given, declares the
	// start position.
	header := *h
	setupGiven := false
	fs.Visit(func(f *flag.Flag) { setupGiven = setupGiven || f.Name == "setup" })
	if setupGiven {
		header.Setup, header.Number, header.FEN = trace.SetupStandard, 0, ""
		if err := parseSetup(*setup, &header); err != nil {
			fmt.Fprintln(env.Stderr, "boardd record:", err)
			return cli.ExitError{Code: 2}
		}
	}
	var w io.Writer = env.Stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	mode := sensors.RecordDeltas
	if *frames {
		mode = sensors.RecordFrames
	}
	rec, err := sensors.NewRecorder(trace.NewWriter(w), header, mode)
	if err != nil {
		return err
	}
	if *duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *duration)
		defer cancel()
	}
	n, err := record(ctx, src, rec)
	if ferr := rec.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("writing the trace: %w", ferr)
	}
	if err != nil {
		return traceError(sf, err)
	}
	if *out != "-" {
		fmt.Fprintf(env.Stderr, "boardd record: %d events written to %s\n", n, *out)
	}
	return nil
}

// record copies src's events to rec until ctx ends or the source does.
func record(ctx context.Context, src sensors.FrameSource, rec *sensors.Recorder) (int, error) {
	var ev sensors.Event
	n := 0
	for {
		err := src.Next(ctx, &ev)
		switch {
		case errors.Is(err, io.EOF), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			return n, nil
		case err != nil:
			return n, err
		}
		if err := rec.Record(&ev); err != nil {
			return n, err
		}
		n++
		// A live recording stays readable as it grows.
		if err := rec.Flush(); err != nil {
			return n, err
		}
	}
}
