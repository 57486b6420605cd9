package main

import (
	"fmt"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/clockbridge"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/rules"
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
	ply := d.base + len(d.rec.Moves()) + 1
	if e.State.Flagged[chess.White] && e.State.Flagged[chess.Black] {
		v, ok := profile.FlagsVerdict(e.State.ClockSnapshot)
		if ok {
			d.raiseFlagAlert(reconstruct.BothFlags, ply, e.Side, v)
		}
		return
	}
	// 6.9: a loss, or a draw when the opponent cannot mate by any legal
	// series of moves. Proving which can take the analyser seconds in rare
	// positions, so it runs beside the main loop, which must keep reading
	// the board; the Publisher is safe for concurrent use.
	go func() {
		v := profile.FlagFallen(&pos, e.Side, rules.NewAnalyzer(0))
		d.raiseFlagAlert(reconstruct.FlagFall, ply, e.Side, v)
	}()
}

func (d *daemon) raiseFlagAlert(kind reconstruct.AlertKind, ply int, side chess.Color, v rules.Verdict) {
	penalty := v.Result
	if v.Undetermined {
		penalty = "the arbiter decides: whether the opponent can mate is undetermined"
	}
	a := publish.Alert{Kind: string(kind), Ply: ply, Side: side.String(), Article: v.Article, Edition: d.cfg.Game.Edition, Penalty: penalty, Text: v.Text}
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
