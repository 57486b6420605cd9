package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/trace"
	"periph.io/x/conn/v3/driver/driverreg"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"
	"periph.io/x/host/v3/gpioioctl"
)

// hostHardware is sensors.Hardware on this machine's buses, through
// periph's registries after host bring-up. It keeps what it opened to
// close it.
type hostHardware struct {
	state   *driverreg.State
	closers []io.Closer
}

// errNoHardware marks the absence of the buses a configuration needs; the
// message lists what host bring-up found.
var errNoHardware = errors.New("no sensor hardware found")

// initHost brings up periph's host drivers (GPIO, I2C, SPI) and checks
// that the buses cfg needs exist. Without them it returns an error
// wrapping errNoHardware that says which drivers were skipped or failed.
func initHost(cfg *sensors.Config) (*hostHardware, error) {
	st, err := host.Init()
	if err != nil {
		return nil, fmt.Errorf("host bring-up: %w", err)
	}
	h := &hostHardware{state: st}
	var missing []string
	uses, err := cfg.Uses()
	if err != nil {
		return nil, err
	}
	var needGPIO, needI2C, needSPI bool
	for _, u := range uses {
		needGPIO = needGPIO || u.Kind == sensors.UseGPIO
		needI2C = needI2C || u.Kind == sensors.UseI2C
		needSPI = needSPI || u.Kind == sensors.UseSPI
	}
	if needGPIO && len(gpioreg.All()) == 0 {
		missing = append(missing, "no GPIO (no /dev/gpiochip*)")
	}
	if needI2C && len(i2creg.All()) == 0 {
		missing = append(missing, "no I2C bus (no /dev/i2c-*)")
	}
	if needSPI && len(spireg.All()) == 0 {
		missing = append(missing, "no SPI port (no /dev/spidev*)")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w for the %s design: %s\n%s", errNoHardware, cfg.Design, strings.Join(missing, ", "), h.drivers())
	}
	return h, nil
}

// drivers describes the host drivers loaded, skipped and failed.
func (h *hostHardware) drivers() string {
	var b strings.Builder
	list := func(what string, names []string) {
		sort.Strings(names)
		if len(names) == 0 {
			fmt.Fprintf(&b, "  host drivers %s: none\n", what)
			return
		}
		fmt.Fprintf(&b, "  host drivers %s:\n", what)
		for _, n := range names {
			fmt.Fprintf(&b, "    %s\n", n)
		}
	}
	var loaded, skipped, failed []string
	for _, d := range h.state.Loaded {
		loaded = append(loaded, d.String())
	}
	for _, f := range h.state.Skipped {
		skipped = append(skipped, f.String())
	}
	for _, f := range h.state.Failed {
		failed = append(failed, f.String())
	}
	list("loaded", loaded)
	list("skipped", skipped)
	list("failed", failed)
	return strings.TrimSuffix(b.String(), "\n")
}

func (h *hostHardware) Pin(name string) (gpio.PinIO, error) {
	if p := gpioreg.ByName(name); p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("no GPIO named %q (%d known)", name, len(gpioreg.All()))
}

func (h *hostHardware) I2C(name string) (i2c.Bus, error) {
	b, err := i2creg.Open(name)
	if err != nil {
		return nil, err
	}
	h.closers = append(h.closers, b)
	return b, nil
}

func (h *hostHardware) SPI(name string, f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	p, err := spireg.Open(name)
	if err != nil {
		return nil, err
	}
	h.closers = append(h.closers, p)
	return p.Connect(f, mode, bits)
}

func (h *hostHardware) LineSet(names []string, output bool, pull gpio.Pull) (gpio.Group, error) {
	dir := gpioioctl.LineInput
	if output {
		dir = gpioioctl.LineOutput
	}
	var errs []error
	for _, c := range gpioioctl.Chips {
		ls, err := c.LineSet(dir, gpio.NoEdge, pull, names...)
		if err == nil {
			h.closers = append(h.closers, ls)
			return ls, nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", c.Name(), err))
	}
	if len(errs) == 0 {
		return nil, errors.New("no GPIO chip (/dev/gpiochip*) for a line set")
	}
	return nil, fmt.Errorf("no GPIO chip has all of %s: %w", strings.Join(names, ", "), errors.Join(errs...))
}

func (h *hostHardware) Close() error {
	var errs []error
	for i := len(h.closers) - 1; i >= 0; i-- {
		if err := h.closers[i].Close(); err != nil {
			errs = append(errs, err)
		}
	}
	h.closers = nil
	return errors.Join(errs...)
}

// loadSensorConfig reads a sensor configuration file (JSON); with
// hardwareOnly the wiring may be incomplete.
func loadSensorConfig(path string, hardwareOnly bool) (*sensors.Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := sensors.DecodeConfig(data)
	if err == nil {
		if hardwareOnly {
			err = c.ValidateHardware()
		} else {
			err = c.Validate()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

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
	cfg, err := loadSensorConfig(*f.config, false)
	if err != nil {
		return nil, nil, nil, err
	}
	hw, err := initHost(cfg)
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
	if errors.Is(err, errNoHardware) {
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

func cmdRecord(ctx context.Context, env *cli.Env, args []string) error {
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
