package daemon

import (
	"fmt"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/clockbridge"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/rules"
	"github.com/boardd/boardd/session"
)

// The daemon's chess clock and the alerts a flag raises.

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

// handleClock takes the physical clock's events: presses go to the game
// session, whose clock model in board time calls the flags and keeps the
// published times, exactly as a replay of the trace does; the device's
// own flags are for its display.
func (d *daemon) handleClock(e clockbridge.Event) {
	switch e.Kind {
	case clockbridge.PressEvent:
		if !d.pressesFromSource {
			te, ok := clockbridge.TraceEvent(e, d.epoch)
			if ok {
				te.T = d.boardTime(e.At)
				d.outs = d.sess.Feed(&te, d.outs[:0])
				d.emit()
			}
		}
	case clockbridge.StateEvent:
		// A device set by hand (the DGT3000's own buttons) shows other
		// times; without a device the session's clock is the only one.
		if d.clockDevice != nil {
			d.publishClock(e.State.ClockSnapshot, "adjust")
		}
	case clockbridge.DeviceEvent:
		if e.Err != nil {
			d.log.Warn("clock device", "msg", e.Msg, "err", e.Err)
		} else {
			d.log.Info("clock device", "msg", e.Msg)
		}
	}
}

func (d *daemon) publishClock(s rules.ClockSnapshot, event string) {
	if err := d.pub.Clock(clockState(s, event)); err != nil {
		d.log.Warn("publishing the clock", "err", err)
	}
}

// clockState is the clock topic's payload (docs/mqtt.md) of a snapshot.
func clockState(s rules.ClockSnapshot, event string) publish.ClockState {
	running := ""
	if side, ok := s.Running.Side(); ok && !s.Paused {
		running = side.String()
	}
	period := s.Period[chess.White]
	if side, ok := s.Running.Side(); ok {
		period = s.Period[side]
	}
	// The snapshot counts periods from 0, the topic from 1.
	return publish.ClockState{Clocks: *publish.ClocksOf(s.Remaining[chess.White], s.Remaining[chess.Black]), Running: running, Period: period + 1, Event: event}
}

// setting is the rules setting of the configured edition, game type and
// supervision (the type the time control gives when none is configured).
func (d *daemon) setting() (rules.Setting, error) {
	return session.SettingFor(d.cfg.Game.Edition, d.cfg.Game.Type, !d.cfg.Game.Unsupervised, d.tc)
}
