// Package daemon is one board's daemon: it wires a game session, a
// sensor source (the hardware or a simulated board), a clock and the
// publisher, and runs the loop that feeds the session and publishes what
// it decides, with the web server, health, metrics and systemd around it.
package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	sdnotify "github.com/coreos/go-systemd/v22/daemon"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/clockbridge"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/rules"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/sim"
	"github.com/boardd/boardd/session"
)

// Options is what the run command hands the daemon.
type Options struct {
	Config     config.Config
	ConfigPath string // the file SIGHUP reloads; "": the built-in defaults
	// Getenv reads the environment: the journal's directory comes from
	// STATE_DIRECTORY or XDG_STATE_HOME, and a reload applies overrides.
	Getenv  func(string) string
	Logger  *slog.Logger
	Level   *slog.LevelVar // the logger's level, which SIGHUP may change
	Version string         // what the board's status gives as its firmware
}

// Run runs the board until ctx ends or the daemon fails.
func Run(ctx context.Context, o Options) error {
	d := &daemon{cfg: o.Config, configPath: o.ConfigPath, getenv: o.Getenv, log: o.Logger, level: o.Level, version: o.Version, m: newMetrics()}
	return d.run(ctx)
}

// NewLogger is the logger the log keys ask for; level holds its level.
func NewLogger(w io.Writer, c config.LogConfig, level *slog.LevelVar) *slog.Logger {
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
	getenv     func(string) string
	version    string
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
type simGameInfo struct {
	white, black, event, round, site, date string
	game                                   sim.Game
}

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
