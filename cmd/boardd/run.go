package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	sdnotify "github.com/coreos/go-systemd/v22/daemon"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/clockbridge"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/rules"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/sim"
	"github.com/boardd/boardd/session"
)

// stringsFlag collects a repeatable string flag.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

const defaultConfigPath = "/etc/boardd/boardd.toml"

func cmdRun(ctx context.Context, env *cli.Env, args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	configPath := fs.String("config", "", "configuration file (TOML); default "+defaultConfigPath+" when it exists, else the built-in defaults")
	check := fs.Bool("check-config", false, "check the configuration and exit")
	printCfg := fs.Bool("print-config", false, "print a complete configuration file with every default and exit")
	var sets stringsFlag
	fs.Var(&sets, "set", "override a key: section.key=value (repeatable)")
	runFor := fs.Duration("for", 0, "stop after this long (0: until SIGTERM or SIGINT)")
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, `usage: boardd run [--config FILE] [--set section.key=value]... [--check-config] [--print-config]

Runs the board: reads the sensors and the clock, reconstructs the moves,
checks them against the FIDE Laws, journals everything and publishes it over
MQTT, and serves the demonstration page and the arbiter console.

Without a configuration file it runs the embedded defaults: a simulated board
replaying real games with human timing, an embedded MQTT broker and the web
pages on localhost. The first lines of the log say where to look.

SIGTERM or SIGINT stops it cleanly (the journal is flushed and the board's
status says offline); SIGHUP reloads the log level and the players' names.
Environment variables BOARDD_<SECTION>_<KEY> override the file; docs/config.md
lists every key.

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
	if *printCfg {
		fmt.Fprint(env.Stdout, config.DefaultText())
		return nil
	}
	path := *configPath
	if path == "" {
		path = env.Getenv("BOARDD_CONFIG")
	}
	if path == "" {
		if _, err := os.Stat(defaultConfigPath); err == nil {
			path = defaultConfigPath
		}
	}
	cfg, err := config.Load(path, env.Getenv, sets)
	if err != nil {
		// 78 (EX_CONFIG): the unit's RestartPreventExitStatus, so systemd
		// does not restart a board whose configuration is wrong.
		fmt.Fprintf(env.Stderr, "boardd run: %v\n", err)
		return cli.ExitError{Code: 78}
	}
	if *check {
		where := path
		if where == "" {
			where = "built-in defaults"
		}
		fmt.Fprintf(env.Stdout, "configuration OK (%s)\n", where)
		return nil
	}
	if *runFor > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *runFor)
		defer cancel()
	}
	level := new(slog.LevelVar)
	log := newLogger(env.Stderr, cfg.Log, level)
	if env.Getenv("GOMEMLIMIT") == "" {
		// A soft limit: the collector works harder rather than let the heap
		// grow, which keeps a Pi Zero's board well inside its memory. The
		// heap of a running board is a few megabytes.
		debug.SetMemoryLimit(12 << 20)
	}
	d := &daemon{cfg: cfg, configPath: path, env: env, log: log, level: level, m: newMetrics()}
	err = d.run(ctx)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}

func newLogger(w io.Writer, c config.LogConfig, level *slog.LevelVar) *slog.Logger {
	level.Set(parseLevel(c.Level))
	opts := &slog.HandlerOptions{Level: level}
	if c.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

func parseLevel(s string) slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return slog.LevelInfo
	}
	return l
}

// daemon is one running board. The main loop (loop) owns the
// reconstruction and the mirror of what was published; everything else
// talks to it through channels.
type daemon struct {
	cfg        config.Config
	configPath string
	env        *cli.Env
	log        *slog.Logger
	level      *slog.LevelVar
	m          *metrics

	pub         *publish.Publisher
	brk         *broker.Embedded
	clock       *clockbridge.SoftClock
	clockDevice clockbridge.Device
	clockEvents chan clockbridge.Event
	stopClock   func()
	src         sensors.FrameSource
	closers     []func()
	simLoop     *sim.Loop
	simGames    []simGameInfo
	httpAddr    string

	// Board time: milliseconds since epoch, times speed (a simulated board
	// may run faster than real time; its hands' timing is in board time).
	epoch time.Time
	speed float64

	tc            rules.TimeControl
	game          gameSetup
	sess          *session.Session
	outs          []session.Output
	boardAlerts   map[reconstruct.AlertKind]activeAlert   // the board's irregularities on the active list, by kind
	pendingAlerts map[reconstruct.AlertKind]publish.Alert // their latest state, waiting for alertRefresh
	moveClocks    map[int]*publish.Clocks                 // final moves' clocks at their press, by the session's move index
	base          int                                     // published moves before the reconstruction's first move
	provOut       bool                                    // a provisional move is published
	// pressesFromSource: the frame source (a simulated board) reports the
	// clock presses itself; the clock's own press events are then not fed
	// to the reconstruction a second time.
	pressesFromSource bool

	ctx       context.Context // the run's: ends at shutdown
	requests  chan func()
	lastFrame atomic.Int64 // unix nanoseconds of the newest frame or scan
	srcAlive  atomic.Bool

	movesFinal, movesProv, corrections, alerts, notes, faults, frames *atomic.Int64
	frameRate                                                         rate
}

// simGameInfo is what the simulated board's games tell the journal; the
// rest of each PGN game (comments, engine evaluations) is not kept.
type simGameInfo struct{ white, black, event, round, site, date string }

// gameSetup is what a game starts from.
type gameSetup struct {
	start *chess.Position
	info  publish.GameInfo
}

func (d *daemon) boardTime(t time.Time) int64 {
	return int64(float64(t.Sub(d.epoch).Milliseconds()) * d.speed)
}

func (d *daemon) run(ctx context.Context) error {
	d.epoch = time.Now()
	d.speed = 1
	d.requests = make(chan func())
	d.moveClocks = make(map[int]*publish.Clocks)
	d.boardAlerts = make(map[reconstruct.AlertKind]activeAlert)
	d.pendingAlerts = make(map[reconstruct.AlertKind]publish.Alert)
	d.clockEvents = make(chan clockbridge.Event, 64)
	d.movesFinal = d.m.counter("boardd_moves_total", "Final moves published.")
	d.movesProv = d.m.counter("boardd_provisional_moves_total", "Provisional moves (shown before the clock press) published.")
	d.corrections = d.m.counter("boardd_corrections_total", "Retractions and amendments published.")
	d.alerts = d.m.counter("boardd_alerts_total", "Alerts raised.")
	d.notes = d.m.counter("boardd_notes_total", "Notes for the arbiter's log (what the board saw but cannot judge).")
	d.faults = d.m.counter("boardd_sensor_faults_total", "Sensor faults reported by the scanner.")
	d.frames = d.m.counter("boardd_frames_total", "Frames (debounced board states) received.")
	d.frameRate.window = 10 * time.Second
	d.m.gauge("boardd_frame_rate", "Frames (board changes) per second over the last 10 s.", func() float64 { return d.frameRate.perSecond(time.Now()) })
	defer func() {
		for i := len(d.closers) - 1; i >= 0; i-- {
			d.closers[i]()
		}
	}()

	var err error
	if err = d.openSource(); err != nil {
		return err
	}
	if err = d.openClock(); err != nil {
		return err
	}
	if err = d.openPublisher(ctx); err != nil {
		return err
	}
	if err = d.openHTTP(ctx); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	d.ctx = ctx
	if err = d.startGame(d.initialGame(), true); err != nil {
		return err
	}
	pubDone := make(chan error, 1)
	go func() { pubDone <- d.pub.Run(ctx) }()
	if d.stopClock == nil {
		d.startClock(ctx) // a resumed game keeps the clock openClock made
	}
	srcEvents := make(chan sensors.Event, 256)
	srcDone := make(chan error, 1)
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		d.readSource(ctx, srcEvents, srcDone)
	}()

	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)

	d.notifySystemd(ctx)
	d.log.Info("boardd is running", "board", d.cfg.Board.ID, "sensors", d.describeSensors(), "clock", d.cfg.Clock.Kind)

	loopErr := d.loop(ctx, srcEvents, srcDone, d.clockEvents, hup)
	cancel()
	d.log.Info("shutting down")
	<-readerDone // a source must not be closed while Next runs
	if d.stopClock != nil {
		d.stopClock()
	}
	perr := <-pubDone
	d.pub.SetStatus(publish.Status{State: "stopped"})
	if cerr := d.pub.Close(); cerr != nil && loopErr == nil {
		loopErr = fmt.Errorf("closing the journal: %w", cerr)
	}
	_, _ = sdnotify.SdNotify(false, sdnotify.SdNotifyStopping)
	if loopErr != nil {
		return loopErr
	}
	if perr != nil && !errors.Is(perr, context.Canceled) {
		return fmt.Errorf("publishing: %w", perr)
	}
	d.log.Info("stopped cleanly")
	return nil
}

func (d *daemon) loop(ctx context.Context, src <-chan sensors.Event, srcDone <-chan error, clk <-chan clockbridge.Event, hup <-chan os.Signal) error {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	lastClockTick := time.Time{}
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev := <-src:
			d.handleSource(ctx, &ev)
		case err := <-srcDone:
			if errors.Is(err, io.EOF) {
				d.outs = d.sess.End(d.boardTime(time.Now()), d.outs[:0])
				d.emit()
				d.log.Info("the frame source has ended")
				<-ctx.Done()
				return nil
			}
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("sensors: %w", err)
		case e := <-clk:
			d.handleClock(e)
		case f := <-d.requests:
			f()
		case <-hup:
			d.reload()
		case now := <-tick.C:
			d.outs = d.sess.Advance(d.boardTime(now), d.outs[:0])
			d.emit()
			d.flushAlerts(now)
			if now.Sub(lastClockTick) >= time.Second {
				lastClockTick = now
				if s, ok := d.sess.Clock(d.boardTime(now)); ok && s.Running != rules.ClockStopped && !s.Paused {
					d.publishClock(s, "tick")
				}
			}
		}
	}
}

// do runs f on the main loop and waits for it (commands from the broker).
func (d *daemon) do(ctx context.Context, f func() error) error {
	done := make(chan error, 1)
	select {
	case d.requests <- func() { done <- f() }:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
