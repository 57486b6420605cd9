package clockbridge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/rules"
)

// SoftClockConfig configures a SoftClock.
type SoftClockConfig struct {
	TimeControl rules.TimeControl
	Options     Options
	Time        TimeSource   // nil: SystemTime
	Logger      *slog.Logger // nil: discard
	// Device is the hardware, if any: its presses drive the clock and it
	// is kept showing the clock's times. Without one, presses come from
	// Press (a web page, a test, a simulated board).
	Device Device
	// DriftLimit is how far the device's own times may be from the
	// clock's before the device is set again (default 2 s; a DGT3000
	// reports whole seconds and lags up to a second or two).
	DriftLimit time.Duration
}

// SoftClock is the software chess clock: a Model run in real time. It is
// the Clock boardd uses whatever the hardware: alone, or driving a lever
// on GPIO or a DGT3000 (Device). It detects flags at the exact instant
// with a timer from its TimeSource, and takes the arbiter's commands
// (start, pause, resume, add time, set times and move counters).
//
// Events are delivered by Run; commands may be called from any goroutine.
type SoftClock struct {
	cfg SoftClockConfig
	ts  TimeSource
	log *slog.Logger

	mu         sync.Mutex
	m          *Model
	last       time.Time // instant of the last operation (operations never go back)
	queue      []Event
	text       string
	sync       bool      // the device should be set to the model's times
	delaySync  time.Time // delay end already pushed to the device
	lastResync time.Time
	wake       chan struct{}
}

// NewSoftClock returns a clock set up for cfg.TimeControl, not started.
func NewSoftClock(cfg SoftClockConfig) (*SoftClock, error) {
	m, err := NewModel(cfg.TimeControl, cfg.Options)
	if err != nil {
		return nil, err
	}
	if cfg.Time == nil {
		cfg.Time = SystemTime{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.DriftLimit <= 0 {
		cfg.DriftLimit = 2 * time.Second
	}
	c := &SoftClock{cfg: cfg, ts: cfg.Time, log: cfg.Logger, m: m, wake: make(chan struct{}, 1), sync: true}
	c.last = c.ts.Now()
	return c, nil
}

// now returns the instant for an operation: the time source's now, but
// never before the previous operation. Callers hold mu.
func (c *SoftClock) now() time.Time {
	if n := c.ts.Now(); n.After(c.last) {
		c.last = n
	}
	return c.last
}

// at returns t, or the last operation's instant if t is earlier (a report
// that arrived after a command). Callers hold mu.
func (c *SoftClock) at(t time.Time) time.Time {
	if t.After(c.last) {
		c.last = t
	}
	return c.last
}

func (c *SoftClock) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// queueFlags turns flags into events. Callers hold mu.
func (c *SoftClock) queueFlags(flags []Flag) {
	for _, f := range flags {
		c.queue = append(c.queue, Event{Kind: FlagEvent, At: f.At, Side: f.Side, Move: f.Move, State: c.m.Snapshot(f.At),
			Msg: fmt.Sprintf("%v's flag fell during move %d (period %d)", f.Side, f.Move, f.Period+1)})
		c.log.Info("clock: flag", "side", f.Side, "move", f.Move, "at", f.At)
	}
}

// advance collects a flag that has fallen by at. Callers hold mu.
func (c *SoftClock) advance(at time.Time) {
	f, ok, err := c.m.Advance(at)
	if err != nil {
		c.log.Error("clock: advance", "err", err)
		return
	}
	if ok {
		c.queueFlags([]Flag{f})
		c.sync = true
	}
}

// state queues a StateEvent. Callers hold mu.
func (c *SoftClock) state(at time.Time, msg string) {
	c.queue = append(c.queue, Event{Kind: StateEvent, At: at, State: c.snapshot(at), Msg: msg})
	c.sync = true
}

func (c *SoftClock) snapshot(at time.Time) Snapshot {
	s := c.m.Snapshot(at)
	s.Text = c.text
	return s
}

// Snapshot returns the clock now.
func (c *SoftClock) Snapshot() Snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.snapshot(c.now())
}

// press applies a press at at. Callers hold mu.
func (c *SoftClock) press(side chess.Color, at time.Time) error {
	res, flags, err := c.m.Press(side, at)
	if err != nil {
		return err
	}
	c.queueFlags(flags)
	switch res.Outcome {
	case PressMove:
		c.queue = append(c.queue, Event{Kind: PressEvent, At: at, Side: side, Move: res.Move, State: c.snapshot(at)})
		c.sync = true
	case PressStart:
		c.state(at, "started by Black's press: White's clock runs")
	case PressIgnored:
		c.queue = append(c.queue, Event{Kind: StateEvent, At: at, State: c.snapshot(at),
			Msg: fmt.Sprintf("press by %v ignored: %s", side, res.Reason)})
	}
	return nil
}

// Press records a press by side now (for clocks without hardware, and
// for tests).
func (c *SoftClock) Press(side chess.Color) error {
	c.mu.Lock()
	err := c.press(side, c.now())
	c.mu.Unlock()
	c.poke()
	return err
}

// Start starts White's clock (2018 6.6).
func (c *SoftClock) Start(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	at := c.now()
	err := c.m.Start(at)
	if err == nil {
		c.state(at, "started: White's clock runs")
	}
	c.mu.Unlock()
	c.poke()
	return err
}

// Pause stops both clocks (the arbiter; a player calling the arbiter).
func (c *SoftClock) Pause(ctx context.Context) error {
	return c.op(ctx, "paused", func(at time.Time) error {
		flags, err := c.m.Pause(at)
		c.queueFlags(flags)
		return err
	})
}

// Resume restarts the clock that ran before Pause.
func (c *SoftClock) Resume(ctx context.Context) error {
	return c.op(ctx, "resumed", c.m.Resume)
}

// AddTime adds d (negative to take time away) to side's clock, e.g. two
// minutes for the opponent of an illegal move (2018 7.5.5), one in blitz.
func (c *SoftClock) AddTime(ctx context.Context, side chess.Color, d time.Duration) error {
	return c.op(ctx, fmt.Sprintf("%v %+v", side, d), func(at time.Time) error {
		flags, err := c.m.AddTime(side, d, at)
		c.queueFlags(flags)
		return err
	})
}

// Set applies the arbiter's setting: times, move counters, running side
// (2018 7.1 when a position is reinstated; 6.10.2).
func (c *SoftClock) Set(ctx context.Context, s Setting) error {
	return c.op(ctx, fmt.Sprintf("set white %v (%d moves), black %v (%d moves), %v runs", s.White, s.WhiteMoves, s.Black, s.BlackMoves, s.Run),
		func(at time.Time) error { return c.m.Set(s, at) })
}

// SetAndRun sets both times and the running side, keeping the move
// counters (Clock interface).
func (c *SoftClock) SetAndRun(ctx context.Context, white, black time.Duration, run Running) error {
	return c.Set(ctx, Setting{White: white, Black: black, WhiteMoves: -1, BlackMoves: -1, Run: run})
}

// op applies an arbiter operation and queues a StateEvent.
func (c *SoftClock) op(ctx context.Context, msg string, f func(at time.Time) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	at := c.now()
	c.advance(at)
	err := f(at)
	if err == nil {
		c.state(at, msg)
	}
	c.mu.Unlock()
	c.poke()
	if err != nil {
		return fmt.Errorf("clock %s: %w", msg, err)
	}
	return nil
}

// Show puts text on the device's display (and keeps it in the snapshot
// for displays elsewhere). Without a device it returns ErrUnsupported.
func (c *SoftClock) Show(ctx context.Context, text string, beep time.Duration) error {
	c.mu.Lock()
	c.text = text
	c.mu.Unlock()
	if c.cfg.Device == nil {
		return fmt.Errorf("show %q: %w", text, ErrUnsupported)
	}
	return c.cfg.Device.Show(ctx, text, beep)
}

// Beep sounds the device; without a device it returns ErrUnsupported.
func (c *SoftClock) Beep(ctx context.Context, d time.Duration) error {
	if c.cfg.Device == nil {
		return fmt.Errorf("beep: %w", ErrUnsupported)
	}
	return c.cfg.Device.Beep(ctx, d)
}

// deviceSetting is what the device should show now: the times, and the
// running side unless the arbiter stopped the clocks, a flag fell or a
// simple delay is still running (the main time does not move then).
func (c *SoftClock) deviceSetting(at time.Time) (white, black time.Duration, run Running) {
	s := c.m.Snapshot(at)
	run = s.Running
	if side, ok := run.Side(); s.Paused || s.Delay > 0 || ok && s.Flagged[side] {
		run = Stopped
	}
	return s.Remaining[chess.White], s.Remaining[chess.Black], run
}

// handle applies one device report. Callers hold mu.
func (c *SoftClock) handle(r Report) {
	switch r.Kind {
	case ReportPress:
		at := c.at(r.At)
		c.advance(at)
		if err := c.press(r.Side, at); err != nil {
			c.log.Error("clock: press", "err", err)
		}
	case ReportButton:
		c.queue = append(c.queue, Event{Kind: ButtonEvent, At: r.At, Button: r.Button, Down: r.Down, State: c.snapshot(c.now())})
	case ReportTimes:
		at := c.now()
		s := c.m.Snapshot(at)
		for side := range 2 {
			diff := r.Times[side] - s.Remaining[side]
			if diff < 0 {
				diff = -diff
			}
			if diff > c.cfg.DriftLimit && at.Sub(c.lastResync) > 10*time.Second {
				c.lastResync = at
				c.sync = true
				c.queue = append(c.queue, Event{Kind: DeviceEvent, At: at, State: c.snapshot(at),
					Msg: fmt.Sprintf("device shows %v %v, clock has %v: set again", chess.Color(side), r.Times[side], s.Remaining[side].Round(time.Second))})
				break
			}
		}
	case ReportOnline:
		c.sync = true
		c.queue = append(c.queue, Event{Kind: DeviceEvent, At: r.At, State: c.snapshot(c.now()), Msg: "online: " + r.Msg})
	case ReportError:
		c.queue = append(c.queue, Event{Kind: DeviceEvent, At: r.At, State: c.snapshot(c.now()), Msg: r.Msg, Err: r.Err})
	}
}

// Run runs the clock: it starts the device (if any), applies its
// reports, keeps it showing the right times, detects flags at the exact
// instant and delivers every event to emit, in order. It returns nil
// when ctx ends, or the device's error if the device stops for good.
func (c *SoftClock) Run(ctx context.Context, emit func(Event)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	reports := make(chan Report, 64)
	devDone := make(chan error, 1)
	if dev := c.cfg.Device; dev != nil {
		go func() {
			devDone <- dev.Run(ctx, func(r Report) {
				select {
				case reports <- r:
				case <-ctx.Done():
				}
			})
		}()
	}
	for {
		c.mu.Lock()
		now := c.now()
		c.advance(now)
		var deadline time.Time
		if _, at, ok := c.m.NextFlag(); ok {
			deadline = at
		}
		if end, ok := c.m.DelayEnd(); ok {
			if end.After(now) {
				if deadline.IsZero() || end.Before(deadline) {
					deadline = end
				}
			} else if !end.Equal(c.delaySync) {
				c.delaySync, c.sync = end, true
			}
		}
		out := c.queue
		c.queue = nil
		needSync := c.sync && c.cfg.Device != nil && c.m.Started()
		c.sync = false
		var w, b time.Duration
		var run Running
		if needSync {
			w, b, run = c.deviceSetting(now)
		}
		c.mu.Unlock()

		for _, e := range out {
			emit(e)
		}
		if needSync {
			if err := c.cfg.Device.SetAndRun(ctx, w, b, run); err != nil && ctx.Err() == nil {
				emit(Event{Kind: DeviceEvent, At: c.ts.Now(), Msg: "set device times", Err: err})
			}
		}

		var timer Timer
		var fire <-chan time.Time
		if !deadline.IsZero() {
			timer = timerAt(c.ts, deadline)
			fire = timer.C()
		}
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			if c.cfg.Device != nil {
				<-devDone
			}
			return nil
		case r := <-reports:
			c.mu.Lock()
			c.handle(r)
			c.mu.Unlock()
		case <-fire:
		case <-c.wake:
		case err := <-devDone:
			if timer != nil {
				timer.Stop()
			}
			if ctx.Err() != nil {
				return nil
			}
			if err == nil {
				err = errors.New("device stopped")
			}
			return fmt.Errorf("clock device: %w", err)
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

var _ Clock = (*SoftClock)(nil)
