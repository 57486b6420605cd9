package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	_ "embed"

	sdnotify "github.com/coreos/go-systemd/v22/daemon"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/clockbridge"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
	"github.com/boardd/boardd/publish/web"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/rules"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/sim"
	"github.com/boardd/boardd/trace"
)

//go:embed corpus/rapid.pgn.gz
var bundledCorpus []byte

// stringsFlag collects a repeatable string flag.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

const defaultConfigPath = "/etc/boardd/boardd.toml"

func cmdRun(ctx context.Context, env *cmdEnv, args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	configPath := fs.String("config", "", "configuration file (TOML); default "+defaultConfigPath+" when it exists, else the built-in defaults")
	check := fs.Bool("check-config", false, "check the configuration and exit")
	printCfg := fs.Bool("print-config", false, "print a complete configuration file with every default and exit")
	var sets stringsFlag
	fs.Var(&sets, "set", "override a key: section.key=value (repeatable)")
	runFor := fs.Duration("for", 0, "stop after this long (0: until SIGTERM or SIGINT)")
	fs.Usage = func() {
		fmt.Fprint(env.stderr, `usage: boardd run [--config FILE] [--set section.key=value]... [--check-config] [--print-config]

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
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return errHelp
		}
		return exitError{2}
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return exitError{2}
	}
	if *printCfg {
		fmt.Fprint(env.stdout, DefaultConfigText())
		return nil
	}
	path := *configPath
	if path == "" {
		path = env.getenv("BOARDD_CONFIG")
	}
	if path == "" {
		if _, err := os.Stat(defaultConfigPath); err == nil {
			path = defaultConfigPath
		}
	}
	cfg, err := LoadConfig(path, env.getenv, sets)
	if err != nil {
		// 78 (EX_CONFIG): the unit's RestartPreventExitStatus, so systemd
		// does not restart a board whose configuration is wrong.
		fmt.Fprintf(env.stderr, "boardd run: %v\n", err)
		return exitError{78}
	}
	if *check {
		where := path
		if where == "" {
			where = "built-in defaults"
		}
		fmt.Fprintf(env.stdout, "configuration OK (%s)\n", where)
		return nil
	}
	if *runFor > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *runFor)
		defer cancel()
	}
	level := new(slog.LevelVar)
	log := newLogger(env.stderr, cfg.Log, level)
	if env.getenv("GOMEMLIMIT") == "" {
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

func newLogger(w io.Writer, c LogConfig, level *slog.LevelVar) *slog.Logger {
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
	cfg        Config
	configPath string
	env        *cmdEnv
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

	tc        rules.TimeControl
	game      gameSetup
	rec       *reconstruct.Reconstructor
	outs      []reconstruct.Output
	published []publishedMove // final moves of the current game as published
	base      int             // published moves before the reconstruction's first move
	provOut   bool            // a provisional move is published
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

type publishedMove struct {
	uci    string
	clocks *publish.Clocks
}

func (d *daemon) boardTime(t time.Time) int64 {
	return int64(float64(t.Sub(d.epoch).Milliseconds()) * d.speed)
}

func (d *daemon) run(ctx context.Context) error {
	d.epoch = time.Now()
	d.speed = 1
	d.requests = make(chan func())
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
				d.outs = d.rec.End(d.boardTime(time.Now()), d.outs[:0])
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
			d.outs = d.rec.Advance(d.boardTime(now), d.outs[:0])
			d.emit()
			if d.clock != nil && now.Sub(lastClockTick) >= time.Second {
				lastClockTick = now
				if s := d.clock.Snapshot(); s.Running != clockbridge.Stopped && !s.Paused {
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

// ---- the frame source ----

func (d *daemon) openSource() error {
	switch d.cfg.Sensors.Kind {
	case "simulated":
		return d.openSimulated()
	case "hardware":
		cfg, err := loadSensorConfig(d.cfg.Sensors.File, true)
		if err != nil {
			return fmt.Errorf("sensors.file: %w", err)
		}
		hw, err := initHost(cfg)
		if err != nil {
			return fmt.Errorf("%w (set sensors.kind = \"simulated\" to run without a board)", err)
		}
		src, err := sensors.Open(cfg, hw, sensors.SourceOptions{Logger: d.log.With("part", "sensors")})
		if err != nil {
			hw.Close()
			return fmt.Errorf("%s: %w", d.cfg.Sensors.File, err)
		}
		d.src = src
		d.closers = append(d.closers, func() { src.Close(); hw.Close() })
		d.m.gauge("boardd_scan_rate", "Scans per second of the sensor board.", func() float64 { return src.Stats().ScanRate })
		d.m.gauge("boardd_sensor_bus_errors", "Bus errors of the sensor board since start.", func() float64 { return float64(src.Stats().BusErrors) })
		return nil
	}
	return fmt.Errorf("sensors.kind %q", d.cfg.Sensors.Kind)
}

func (d *daemon) openSimulated() error {
	var data []byte
	if d.cfg.Simulation.PGN != "" {
		b, err := os.ReadFile(d.cfg.Simulation.PGN)
		if err != nil {
			return fmt.Errorf("simulation.pgn: %w", err)
		}
		data = b
	} else {
		zr, err := gzip.NewReader(bytes.NewReader(bundledCorpus))
		if err != nil {
			return fmt.Errorf("bundled corpus: %w", err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return fmt.Errorf("bundled corpus: %w", err)
		}
	}
	pgs, err := chess.ReadAllPGN(bytes.NewReader(data))
	if len(pgs) == 0 {
		return fmt.Errorf("simulation: no games to play: %v", err)
	}
	if err != nil {
		d.log.Warn("simulation: some games do not read and are skipped", "err", err)
	}
	games := make([]sim.Game, len(pgs))
	infos := make([]simGameInfo, len(pgs))
	for i, g := range pgs {
		games[i] = sim.FromPGN(g)
		infos[i] = simGameInfo{g.Tag("White"), g.Tag("Black"), g.Tag("Event"), g.Tag("Round"), g.Tag("Site"), g.Tag("Date")}
	}
	sensor, err := trace.ParseSensor(d.cfg.Sensors.Simulated)
	if err != nil {
		return fmt.Errorf("sensors.simulated_sensor: %w", err)
	}
	seed := uint64(d.cfg.Simulation.Seed)
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	clockMode := sim.ClockMode(0)
	if d.cfg.Clock.Kind == "none" {
		clockMode = sim.ClockNever
	}
	lp, err := sim.NewLoop(sim.Cycle(games), sim.Options{Sensor: sensor, Seed: seed, Irregular: d.cfg.Simulation.Irregular, Clock: clockMode})
	if err != nil {
		return fmt.Errorf("simulation: %w", err)
	}
	d.speed = d.cfg.Simulation.Speed
	src, err := sensors.NewReplayer(lp.Events(), sensor, sensors.ReplayOptions{Pace: true, Inputs: true, Speed: d.speed, Start: d.epoch})
	if err != nil {
		return fmt.Errorf("simulation: %w", err)
	}
	d.src, d.simLoop, d.simGames = src, lp, infos
	d.pressesFromSource = true
	d.closers = append(d.closers, func() { src.Close() })
	return nil
}

func (d *daemon) describeSensors() string {
	if d.cfg.Sensors.Kind == "simulated" {
		return "simulated " + d.cfg.Sensors.Simulated
	}
	return "hardware (" + d.cfg.Sensors.File + ")"
}

func (d *daemon) readSource(ctx context.Context, out chan<- sensors.Event, done chan<- error) {
	d.srcAlive.Store(true)
	defer d.srcAlive.Store(false)
	var ev sensors.Event
	for {
		if err := d.src.Next(ctx, &ev); err != nil {
			select {
			case done <- err:
			default:
			}
			return
		}
		d.lastFrame.Store(time.Now().UnixNano())
		select {
		case out <- ev:
		case <-ctx.Done():
			return
		}
	}
}

func (d *daemon) handleSource(ctx context.Context, ev *sensors.Event) {
	switch ev.Kind {
	case sensors.FrameEvent:
		d.frames.Add(1)
		d.frameRate.add(time.Now())
		te := trace.Event{T: d.boardTime(ev.T), Kind: trace.Frame, Occ: ev.Frame.Occ}
		switch ev.Frame.Sensor {
		case trace.Colour:
			te.White, te.HasColour = ev.Frame.White, true
		case trace.PieceSensor:
			te.White, te.HasColour = ev.Frame.White, true
			te.Placement, te.HasPieces = ev.Frame.Placement, true
		}
		d.outs = d.rec.Feed(&te, d.outs[:0])
		d.emit()
	case sensors.FaultEvent:
		d.faults.Add(1)
		d.log.Warn("sensor fault", "fault", fmt.Sprintf("%+v", ev.Fault))
	case sensors.InputEvent:
		te := ev.Input
		te.T = d.boardTime(ev.T)
		if ev.Input.Kind == trace.Press && d.clock != nil {
			if err := d.clock.Press(te.Side); err != nil {
				d.log.Debug("clock press not applied", "side", te.Side, "err", err)
			}
		}
		if te.Kind == trace.Press || te.Kind == trace.Promote {
			d.outs = d.rec.Feed(&te, d.outs[:0])
			d.emit()
		}
	}
}

// ---- the clock ----

func (d *daemon) openClock() error {
	if d.cfg.Clock.Kind == "none" {
		return nil
	}
	tc, err := rules.ParseTimeControl(d.cfg.Game.TimeControl)
	if err != nil || !tc.Timed() {
		if d.cfg.Clock.Kind == "software" && d.cfg.Game.TimeControl == "" {
			return nil // nothing to keep time for
		}
		return fmt.Errorf("game.time_control %q: a clock needs a time control: %v", d.cfg.Game.TimeControl, err)
	}
	d.tc = tc
	cc := clockbridge.SoftClockConfig{TimeControl: tc, Logger: d.log.With("part", "clock")}
	switch d.cfg.Clock.Kind {
	case "lever", "dgt3000":
		dev, closeDev, err := openClockDevice(d.cfg.Clock, d.log)
		if err != nil {
			return err
		}
		cc.Device, d.clockDevice = dev, dev
		d.closers = append(d.closers, closeDev)
	}
	c, err := clockbridge.NewSoftClock(cc)
	if err != nil {
		return fmt.Errorf("clock: %w", err)
	}
	d.clock = c
	return nil
}

func (d *daemon) handleClock(e clockbridge.Event) {
	switch e.Kind {
	case clockbridge.PressEvent:
		if !d.pressesFromSource {
			te, ok := clockbridge.TraceEvent(e, d.epoch)
			if ok {
				te.T = d.boardTime(e.At)
				d.outs = d.rec.Feed(&te, d.outs[:0])
				d.emit()
			}
		}
		d.publishClock(e.State, "press")
	case clockbridge.FlagEvent:
		d.publishClock(e.State, "flag")
		d.flagAlert(e)
	case clockbridge.StateEvent:
		d.publishClock(e.State, "adjust")
	case clockbridge.DeviceEvent:
		if e.Err != nil {
			d.log.Warn("clock device", "msg", e.Msg, "err", e.Err)
		} else {
			d.log.Info("clock device", "msg", e.Msg)
		}
	}
}

func (d *daemon) publishClock(s clockbridge.Snapshot, event string) {
	running := ""
	if side, ok := s.Running.Side(); ok && !s.Paused {
		running = side.String()
	}
	period := s.Period[chess.White]
	if side, ok := s.Running.Side(); ok {
		period = s.Period[side]
	}
	cs := publish.ClockState{Clocks: *publish.ClocksOf(s.Remaining[chess.White], s.Remaining[chess.Black]), Running: running, Period: period, Event: event}
	if err := d.pub.Clock(cs); err != nil {
		d.log.Warn("publishing the clock", "err", err)
	}
}

func (d *daemon) flagAlert(e clockbridge.Event) {
	profile, err := d.profile()
	if err != nil {
		d.log.Error("rules profile", "err", err)
		return
	}
	pos := d.rec.Position()
	var v rules.Verdict
	kind := reconstruct.FlagFall
	if e.State.Flagged[chess.White] && e.State.Flagged[chess.Black] {
		bv, ok := clockbridge.FlagsVerdict(profile, e.State)
		if !ok {
			return
		}
		v, kind = bv, reconstruct.BothFlags
	} else {
		// 6.9: a loss, or a draw when the opponent cannot mate by any
		// legal series of moves (the analyser proves which).
		v = profile.FlagFallen(&pos, e.Side, rules.NewAnalyzer(0))
	}
	penalty := v.Result
	if v.Undetermined {
		penalty = "the arbiter decides: whether the opponent can mate is undetermined"
	}
	a := publish.Alert{Kind: string(kind), Ply: d.base + len(d.rec.Moves()) + 1, Side: e.Side.String(), Article: v.Article, Edition: d.cfg.Game.Edition, Penalty: penalty, Text: v.Text}
	if _, err := d.pub.Alert(a); err != nil {
		d.log.Warn("publishing the flag alert", "err", err)
		return
	}
	d.alerts.Add(1)
	d.log.Warn("alert", "kind", a.Kind, "side", a.Side, "article", a.Article, "text", a.Text)
}

// profile is the rules profile of the configured edition and game type
// (the type the time control gives when none is configured).
func (d *daemon) profile() (*rules.Profile, error) {
	ed, err := rules.ParseEdition(d.cfg.Game.Edition)
	if err != nil {
		return nil, err
	}
	gt := rules.Standard
	switch {
	case d.cfg.Game.Type != "":
		if gt, err = rules.ParseGameType(d.cfg.Game.Type); err != nil {
			return nil, err
		}
	case d.tc.Timed():
		if c, err := d.tc.Classify(ed); err == nil {
			gt = c.Type
		}
	}
	return rules.Lookup(rules.Setting{Edition: ed, Type: gt, Supervised: true})
}

// ---- publishing ----

func (d *daemon) journalDir() (string, error) {
	if d.cfg.Journal.Dir != "" {
		return d.cfg.Journal.Dir, nil
	}
	if s := d.env.getenv("STATE_DIRECTORY"); s != "" {
		return strings.Split(s, ":")[0], nil
	}
	if os.Geteuid() == 0 {
		return "/var/lib/boardd", nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("journal.dir is not set and there is no home directory: %w", err)
	}
	if x := d.env.getenv("XDG_STATE_HOME"); x != "" {
		return filepath.Join(x, "boardd"), nil
	}
	return filepath.Join(home, ".local", "state", "boardd"), nil
}

func randomSecret() string {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		return fmt.Sprint(time.Now().UnixNano())
	}
	return hex.EncodeToString(b)
}

func (d *daemon) openPublisher(ctx context.Context) error {
	dir, err := d.journalDir()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("journal directory: %w", err)
	}
	var dialer publish.Dialer
	if d.cfg.MQTT.Broker == "embedded" {
		// The board logs in to its own broker with a secret made at start.
		// The arbiter's password is mqtt.arbiter_password, or a fresh one
		// that the log shows.
		boardSecret := randomSecret()
		arbiter := d.cfg.MQTT.ArbiterPassword
		if arbiter == "" {
			arbiter = randomSecret()[:8]
		}
		salt := []byte(randomSecret())
		pw := broker.Passwords{
			d.cfg.Board.ID: broker.HashPassword(boardSecret, salt),
			"arbiter":      broker.HashPassword(arbiter, salt),
		}
		acl, err := broker.ParseACL(strings.NewReader(broker.DefaultACL))
		if err != nil {
			return fmt.Errorf("embedded broker ACL: %w", err)
		}
		lst := []broker.Listener{{Kind: "tcp", Addr: d.cfg.MQTT.Listen}}
		if d.cfg.MQTT.WSListen != "" {
			lst = append(lst, broker.Listener{Kind: "ws", Addr: d.cfg.MQTT.WSListen})
		}
		b, err := broker.Start(broker.Config{Listeners: lst, Passwords: pw, ACL: acl, AllowAnonymous: true, Logger: d.log.With("part", "broker")})
		if err != nil {
			if errors.Is(err, syscall.EADDRINUSE) {
				return fmt.Errorf("embedded broker: %w (another MQTT broker on this port? choose others with --set mqtt.listen=127.0.0.1:1884 --set mqtt.ws_listen=127.0.0.1:8084, or use it with --set mqtt.broker=tcp://127.0.0.1:1883)", err)
			}
			return fmt.Errorf("embedded broker: %w", err)
		}
		d.brk = b
		d.closers = append(d.closers, func() { b.Close() })
		dialer = publish.PahoDialer{URL: b.URL(), Username: d.cfg.Board.ID, Password: boardSecret}
		d.log.Info("embedded MQTT broker", "mqtt", "tcp://"+b.Addr(0), "websocket", wsAddr(b, d.cfg.MQTT.WSListen))
		d.log.Info("arbiter console login", "user", "arbiter", "password", arbiter)
	} else {
		var tlsCfg *tls.Config
		if d.cfg.MQTT.CAFile != "" || d.cfg.MQTT.CertFile != "" {
			t, err := publish.TLSConfig(d.cfg.MQTT.CAFile, d.cfg.MQTT.CertFile, d.cfg.MQTT.KeyFile)
			if err != nil {
				return fmt.Errorf("mqtt TLS: %w", err)
			}
			tlsCfg = t
		}
		user := d.cfg.MQTT.Username
		if user == "" {
			user = d.cfg.Board.ID
		}
		dialer = publish.PahoDialer{URL: d.cfg.MQTT.Broker, Username: user, Password: d.cfg.MQTT.Password, TLS: tlsCfg}
	}
	maxBackoff, _ := time.ParseDuration(d.cfg.MQTT.ReconnectMax)
	pub, err := publish.Open(publish.Config{
		Board:      d.cfg.Board.ID,
		JournalDir: dir,
		Dialer:     dialer,
		Handler:    &commandHandler{d: d, ctx: ctx},
		Status:     publish.Status{State: "starting", Firmware: "boardd " + version, Sensors: d.describeSensors(), Clock: d.cfg.Clock.Kind},
		BackoffMax: maxBackoff,
		Logger:     d.log.With("part", "publish"),
	})
	if err != nil {
		return fmt.Errorf("opening the journal in %s: %w", dir, err)
	}
	d.pub = pub
	d.m.gauge("boardd_publish_queue", "Journaled messages not yet acknowledged by the broker.", func() float64 { return float64(pub.Pending()) })
	d.m.gauge("boardd_broker_reconnects", "Broker connections made since start, after the first.", func() float64 {
		return float64(max(pub.Connects(), 1) - 1)
	})
	d.m.gauge("boardd_broker_connected", "1 while the broker connection is up.", func() float64 {
		if pub.Connected() {
			return 1
		}
		return 0
	})
	d.log.Info("journal", "dir", dir, "session", pub.Session())
	return nil
}

func wsAddr(b *broker.Embedded, configured string) string {
	if configured == "" {
		return "off"
	}
	return "ws://" + b.Addr(1) + "/"
}

// ---- HTTP: pages, health, metrics ----

func (d *daemon) openHTTP(ctx context.Context) error {
	if d.cfg.HTTP.Listen == "" {
		return nil
	}
	mux := http.NewServeMux()
	wc := web.Config{Boards: []string{d.cfg.Board.ID}, Title: d.cfg.Game.Event, Logger: d.log.With("part", "web")}
	switch {
	case d.brk != nil && d.cfg.MQTT.WSListen != "":
		to, err := web.LocalWS(d.brk.Addr(1))
		if err != nil {
			return fmt.Errorf("web pages: %w", err)
		}
		wc.ProxyTo = to
	case d.cfg.MQTT.WSURL != "":
		wc.Broker = d.cfg.MQTT.WSURL
	}
	// Without a WebSocket route to the broker the pages could show nothing
	// live; health and metrics are served all the same.
	if pages, err := web.Handler(wc); err != nil {
		d.log.Warn("web pages off: set mqtt.ws_url (external broker) or mqtt.ws_listen (embedded)", "err", err)
	} else {
		mux.Handle("/", pages)
	}
	mux.Handle("/metrics", d.m)
	mux.HandleFunc("/healthz", d.health)
	ln, err := net.Listen("tcp", d.cfg.HTTP.Listen)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("http.listen: %w (choose another port with --set http.listen=127.0.0.1:8081)", err)
		}
		return fmt.Errorf("http.listen: %w", err)
	}
	d.httpAddr = ln.Addr().String()
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			d.log.Error("web server", "err", err)
		}
	}()
	d.closers = append(d.closers, func() {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	})
	d.log.Info("demonstration board", "url", "http://"+d.httpAddr+"/")
	d.log.Info("arbiter console", "url", "http://"+d.httpAddr+"/console")
	d.log.Info("health and metrics", "health", "http://"+d.httpAddr+"/healthz", "metrics", "http://"+d.httpAddr+"/metrics")
	return nil
}

// fresh reports whether the sensors are alive: the source goroutine runs
// and, for a scanner, scans arrived recently.
func (d *daemon) fresh() bool {
	if !d.srcAlive.Load() {
		return false
	}
	if ss, ok := d.src.(interface{ Stats() sensors.Stats }); ok {
		return ss.Stats().ScanRate > 0
	}
	return true
}

func (d *daemon) health(w http.ResponseWriter, _ *http.Request) {
	ok := d.fresh()
	w.Header().Set("Content-Type", "application/json")
	if !ok {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	fmt.Fprintf(w, `{"ok":%v,"sensors_fresh":%v,"broker_connected":%v,"pending":%d}`+"\n", ok, ok, d.pub.Connected(), d.pub.Pending())
}

// notifySystemd says READY and feeds the watchdog while the sensors are
// fresh, so systemd restarts a board whose scanning has stalled.
func (d *daemon) notifySystemd(ctx context.Context) {
	if sent, err := sdnotify.SdNotify(false, sdnotify.SdNotifyReady); err != nil {
		d.log.Warn("systemd notify", "err", err)
	} else if sent {
		d.log.Info("told systemd we are ready")
	}
	interval, err := sdnotify.SdWatchdogEnabled(false)
	if err != nil || interval <= 0 {
		return
	}
	go func() {
		t := time.NewTicker(interval / 3)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if d.fresh() {
					_, _ = sdnotify.SdNotify(false, sdnotify.SdNotifyWatchdog)
				} else {
					d.log.Warn("sensors are not fresh; not feeding the watchdog")
				}
			}
		}
	}()
}

// reload applies what SIGHUP can change without a restart: the log level
// and the names of the players of the next game.
func (d *daemon) reload() {
	if d.configPath == "" {
		d.log.Info("SIGHUP: no configuration file to reload")
		return
	}
	cfg, err := LoadConfig(d.configPath, d.env.getenv, nil)
	if err != nil {
		d.log.Error("SIGHUP: configuration not reloaded", "err", err)
		return
	}
	d.level.Set(parseLevel(cfg.Log.Level))
	d.cfg.Log.Level = cfg.Log.Level
	d.cfg.Game.White, d.cfg.Game.Black, d.cfg.Game.Event, d.cfg.Game.Round = cfg.Game.White, cfg.Game.Black, cfg.Game.Event, cfg.Game.Round
	d.log.Info("SIGHUP: reloaded the log level and player names (other keys need a restart)", "level", cfg.Log.Level)
}

// ---- games ----

func (d *daemon) initialGame() gameSetup {
	var start *chess.Position
	spec, _ := parseStart(d.cfg.Game.Start)
	switch spec.kind {
	case "960":
		start, _ = chess.Chess960Start(spec.n)
	case "fen":
		start, _ = chess.ParseFEN(spec.fen)
	}
	if start == nil {
		start = chess.NewPosition()
	}
	return d.setupFor(start)
}

func (d *daemon) setupFor(start *chess.Position) gameSetup {
	info := publish.GameInfo{White: d.cfg.Game.White, Black: d.cfg.Game.Black, Event: d.cfg.Game.Event, Round: d.cfg.Game.Round, TimeControl: d.cfg.Game.TimeControl}
	if d.simLoop != nil && len(d.simGames) > 0 {
		g := d.simGames[d.simLoop.Game()%len(d.simGames)]
		info.White, info.Black, info.Event, info.Round, info.Site, info.Date = g.white, g.black, g.event, g.round, g.site, g.date
	}
	if start.FEN() != chess.StartFEN || start.Chess960() {
		info.FEN, info.Chess960 = start.FEN(), start.Chess960()
	}
	return gameSetup{start: start, info: info}
}

// startGame sets up the reconstruction, the clock and the journal for a
// new game. At start-up (resume) an unfinished game in the journal is
// continued instead.
func (d *daemon) startGame(g gameSetup, resume bool) error {
	cur := d.pub.Current()
	if resume && cur.Info.ID != "" && !cur.Ended {
		start, err := chess.ParseFEN(cur.FEN)
		if err == nil {
			rc, err := d.newReconstructor(start)
			if err != nil {
				return err
			}
			d.rec, d.game = rc, gameSetup{start: start, info: cur.Info}
			d.published = d.published[:0]
			for _, m := range cur.Moves {
				d.published = append(d.published, publishedMove{uci: m.UCI, clocks: m.Clocks})
			}
			d.base = len(cur.Moves)
			d.provOut = cur.Provisional != nil
			d.log.Info("resumed the game from the journal", "game", cur.Info.ID, "moves", len(cur.Moves), "fen", cur.FEN)
			d.pub.SetStatus(publish.Status{State: "playing", Firmware: "boardd " + version, Sensors: d.describeSensors(), Clock: d.cfg.Clock.Kind})
			return nil
		}
		d.log.Warn("the journal's game cannot be resumed; starting a new one", "err", err)
	}
	rc, err := d.newReconstructor(g.start)
	if err != nil {
		return err
	}
	d.rec = rc
	return d.beginGame(g)
}

// beginGame starts a game in the journal, with a fresh clock, once the
// reconstruction has it: at start-up, by command, or when the board showed
// a start position (the reconstruction then begins the game itself).
func (d *daemon) beginGame(g gameSetup) error {
	d.game = g
	d.published, d.base, d.provOut = d.published[:0], 0, false
	if _, err := d.pub.StartGame(g.info); err != nil {
		return fmt.Errorf("starting the game: %w", err)
	}
	if d.clock != nil {
		if err := d.replaceClock(d.ctx); err != nil {
			return err
		}
		if d.pressesFromSource {
			// The simulated players start at once; at a real board Black
			// (or the arbiter) starts White's clock (2018 Art. 6.6).
			if err := d.clock.Start(d.ctx); err != nil {
				d.log.Warn("starting the clock", "err", err)
			}
		}
	}
	d.pub.SetStatus(publish.Status{State: "playing", Firmware: "boardd " + version, Sensors: d.describeSensors(), Clock: d.cfg.Clock.Kind})
	d.log.Info("new game", "white", g.info.White, "black", g.info.Black, "start", g.start.FEN())
	return nil
}

func (d *daemon) newReconstructor(start *chess.Position) (*reconstruct.Reconstructor, error) {
	sensor := trace.Occupancy
	if d.src != nil {
		sensor = d.src.Sensor()
	}
	judge, err := reconstruct.NewRulesJudge(d.cfg.Game.Edition, d.cfg.Game.Type, d.tc)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	tcText := ""
	if d.tc.Timed() {
		tcText = d.tc.String()
	}
	return reconstruct.New(reconstruct.Config{
		Start:       start,
		Sensor:      sensor,
		Edition:     d.cfg.Game.Edition,
		GameType:    d.cfg.Game.Type,
		Clock:       d.clock != nil || d.pressesFromSource && d.cfg.Clock.Kind != "none",
		TimeControl: tcText,
		Judge:       judge,
	})
}

// ---- from reconstruction to the journal ----

func sideName(c chess.Color) string { return c.String() }

func (d *daemon) clocksNow() *publish.Clocks {
	if d.clock == nil {
		return nil
	}
	s := d.clock.Snapshot()
	return publish.ClocksOf(s.Remaining[chess.White], s.Remaining[chess.Black])
}

// emit publishes the outputs of the last reconstruction step. Moves are
// not copied output by output: the journal's game is brought in line with
// the reconstruction's move list, so a retraction or an amendment (which
// may change several moves) always leaves the two equal.
func (d *daemon) emit() {
	synced := false
	for i := range d.outs {
		o := &d.outs[i]
		switch o.Kind {
		case reconstruct.Move:
			if o.Provisional {
				if !synced {
					d.syncMoves(o.Text)
					synced = true
				}
				d.publishProvisional(o)
				continue
			}
			if !synced {
				d.syncMoves("")
				synced = true
			}
		case reconstruct.Retract, reconstruct.Amend:
			if o.Provisional && o.Kind == reconstruct.Retract {
				if d.provOut {
					d.correct(d.base+len(d.rec.Moves())+1, nil, nonEmpty(o.Text, "the move shown was taken back before the clock press"))
					d.provOut = false
				}
				continue
			}
			if !synced {
				d.syncMoves(nonEmpty(o.Text, "the board went back"))
				synced = true
			}
		case reconstruct.Alert:
			d.publishAlert(o)
		case reconstruct.Note:
			d.notes.Add(1)
			d.log.Info("note", "kind", string(o.Note), "ply", o.Ply, "side", o.Side.String(), "squares", sensors.SquareSet(o.Squares), "text", o.Text)
		case reconstruct.NewGame:
			if o.Result != "" && o.Result != "*" {
				d.endGame(o.Result, o.Reason)
			}
			start, err := chess.ParseFEN(o.FEN)
			if err != nil {
				sp := d.rec.StartPosition()
				start = &sp
			}
			if err := d.beginGame(d.setupFor(start)); err != nil {
				d.log.Error("new game", "err", err)
			}
		case reconstruct.End:
			if !synced {
				d.syncMoves("")
				synced = true
			}
			d.endGame(o.Result, o.Reason)
		}
	}
	if !synced && len(d.rec.Moves())+d.base != len(d.published) {
		d.syncMoves("")
	}
}

func nonEmpty(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// syncMoves makes the journal's final moves equal to the reconstruction's.
func (d *daemon) syncMoves(why string) {
	moves := d.rec.Moves()
	pos := d.rec.StartPosition()
	want := make([]string, len(moves))
	for i, m := range moves {
		want[i] = pos.UCI(m)
		pos.MakeMove(m)
	}
	// Index k in want is ply d.base+k+1 of the journal's game.
	k := 0
	for k < len(want) && d.base+k < len(d.published) && d.published[d.base+k].uci == want[k] {
		k++
	}
	if d.base+k < len(d.published) {
		// The journal has a move the board no longer shows: correct it.
		ply := d.base + k + 1
		var nm *publish.Move
		if k < len(want) {
			nm = &publish.Move{Ply: ply, UCI: want[k], Final: true}
			k++
		}
		d.correct(ply, nm, nonEmpty(why, "the board showed another move"))
	}
	for ; k < len(want); k++ {
		clocks := d.clocksNow()
		m, err := d.pub.Move(publish.Move{Ply: d.base + k + 1, UCI: want[k], Final: true, Clocks: clocks})
		if err != nil {
			d.log.Error("journal refused a move", "ply", d.base+k+1, "uci", want[k], "err", err)
			return
		}
		d.published = append(d.published, publishedMove{uci: m.UCI, clocks: clocks})
		d.provOut = false
		d.movesFinal.Add(1)
		d.log.Info("move", "ply", m.Ply, "san", m.SAN, "fen", m.FEN)
	}
}

func (d *daemon) correct(ply int, nm *publish.Move, why string) {
	c, err := d.pub.Correct(publish.Correction{Ply: ply, New: nm, Why: why})
	if err != nil {
		d.log.Error("journal refused a correction", "ply", ply, "err", err)
		return
	}
	d.corrections.Add(1)
	if ply-1 < len(d.published) {
		d.published = d.published[:ply-1]
		if nm != nil && nm.Final {
			d.published = append(d.published, publishedMove{uci: nm.UCI})
		}
	}
	d.provOut = false
	old := ""
	if c.Old != nil {
		old = c.Old.SAN
	}
	d.log.Info("correction", "ply", ply, "old", old, "why", why)
}

func (d *daemon) publishProvisional(o *reconstruct.Output) {
	ply := d.base + len(d.rec.Moves()) + 1
	_, err := d.pub.Move(publish.Move{Ply: ply, UCI: o.UCI, Final: false, Clocks: d.clocksNow()})
	if err != nil {
		d.log.Debug("provisional move not published", "ply", ply, "uci", o.UCI, "err", err)
		return
	}
	d.provOut = true
	d.movesProv.Add(1)
}

func (d *daemon) publishAlert(o *reconstruct.Output) {
	start := d.rec.StartPosition()
	a := publish.Alert{
		Kind:    string(o.Alert),
		Ply:     d.base + o.Ply - start.Ply(),
		Side:    sideName(o.Side),
		Squares: squareNames(o.Squares),
		Article: o.Article,
		Edition: d.cfg.Game.Edition,
		Penalty: o.Penalty,
		Text:    o.Text,
	}
	if a.Ply < 1 {
		a.Ply = o.Ply
	}
	if _, err := d.pub.Alert(a); err != nil {
		d.log.Error("journal refused an alert", "kind", a.Kind, "err", err)
		return
	}
	d.alerts.Add(1)
	d.log.Warn("alert", "kind", a.Kind, "ply", a.Ply, "side", a.Side, "squares", strings.Join(a.Squares, ","), "article", a.Article, "text", a.Text)
}

func squareNames(b chess.Bitboard) []string {
	var out []string
	for ; b != 0; b &= b - 1 {
		out = append(out, b.First().String())
	}
	return out
}

func (d *daemon) endGame(result, reason string) {
	if err := d.pub.End(publish.Result{Result: result, Termination: reason}); err != nil {
		d.log.Error("journal refused the result", "result", result, "err", err)
		return
	}
	d.log.Info("game over", "result", result, "reason", reason)
}
