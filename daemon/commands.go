package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/clockbridge"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/trace"
)

// commandHandler applies the commands that arrive over MQTT. The
// Publisher validates them (ids, expiry, fields) before they get here;
// each is run on the daemon's main loop, which owns the game.
type commandHandler struct {
	d   *daemon
	ctx context.Context // the daemon's: commands end with it
}

func (h *commandHandler) NewGame(ctx context.Context, c publish.NewGameCmd) error {
	d := h.d
	return d.do(ctx, func() error {
		if c.TimeControl.Timed() {
			// The new game's clock (beginGame) takes it.
			d.tc = c.TimeControl
			d.cfg.Game.TimeControl = c.TimeControl.String()
		}
		start := c.Start
		if start == nil {
			start = chess.NewPosition()
		}
		setup := d.setupFor(start)
		info := c.Info
		if info.FEN == "" {
			info.FEN, info.Chess960 = setup.info.FEN, setup.info.Chess960
		}
		setup.info = info
		d.cfg.Game.White, d.cfg.Game.Black, d.cfg.Game.Event, d.cfg.Game.Round = info.White, info.Black, info.Event, info.Round
		d.cfg.Game.BoardNo = info.BoardNo
		return d.startGame(setup, false)
	})
}

func (h *commandHandler) SetPosition(ctx context.Context, c publish.SetPositionCmd) error {
	d := h.d
	return d.do(ctx, func() error {
		if c.Position == nil {
			return errors.New("no position")
		}
		if err := d.pub.SetPosition(publish.Position{FEN: c.Position.FEN(), Chess960: c.Position.Chess960(), Why: "set by the arbiter"}); err != nil {
			return err
		}
		d.outs = d.sess.SetPosition(d.boardTime(time.Now()), c.Position, d.outs[:0])
		d.base, d.provOut = 0, false
		d.emit()
		d.log.Info("position set by command", "fen", c.Position.FEN())
		return nil
	})
}

func (h *commandHandler) SetTimeControl(ctx context.Context, c publish.SetTimeControlCmd) error {
	d := h.d
	return d.do(ctx, func() error {
		if d.cfg.Clock.Kind == "none" {
			return errors.New("this board has no clock (clock.kind = none)")
		}
		d.tc = c.TimeControl
		d.cfg.Game.TimeControl = c.TimeControl.String()
		if err := d.replaceClock(h.ctx); err != nil {
			return err
		}
		d.outs = d.sess.SetTimeControl(d.boardTime(time.Now()), c.TimeControl, d.outs[:0])
		d.emit()
		// The game's TimeControl tag (state, PGN) says the clock's.
		d.game.info.TimeControl = c.TimeControl.String()
		if cur := d.pub.Current(); cur.Info.ID != "" && !cur.Ended {
			info := cur.Info
			info.TimeControl = c.TimeControl.String()
			if err := d.pub.SetInfo(info); err != nil {
				d.log.Warn("the game's TimeControl tag was not changed", "err", err)
			}
		}
		d.log.Info("time control set by command", "tc", c.TimeControl.String())
		return nil
	})
}

// AckAlert records the arbiter's decision. A time penalty the arbiter
// gives with an upheld alert ("+2m" to the opponent of the offender, as
// 2018 Art. 7.5.5 says) is put on the clock.
func (h *commandHandler) AckAlert(ctx context.Context, c publish.AckAlertCmd) error {
	d := h.d
	return d.do(ctx, func() error {
		d.log.Info("alert acknowledged", "alert", c.Alert.ID, "kind", c.Alert.Kind, "decision", c.Decision, "penalty", c.Penalty, "note", c.Note)
		if c.Decision != publish.DecisionUpheld {
			return nil
		}
		p := strings.TrimSpace(c.Penalty)
		if !strings.HasPrefix(p, "+") {
			return nil
		}
		dur, err := time.ParseDuration(p[1:])
		if err != nil || dur <= 0 || dur > time.Hour {
			return fmt.Errorf("penalty %q: want a time to add like +2m", c.Penalty)
		}
		offender := chess.White
		if c.Alert.Side == chess.Black.String() {
			offender = chess.Black
		}
		outs, err := d.sess.AddTime(d.boardTime(time.Now()), offender.Other(), dur, d.outs[:0])
		if err != nil {
			return err
		}
		d.outs = outs
		d.emit()
		return nil
	})
}

// SetResult ends the game with the arbiter's result (resignation,
// agreement, forfeit, a decision); the session refuses a second result
// unless it replaces the first.
func (h *commandHandler) SetResult(ctx context.Context, c publish.SetResultCmd) error {
	d := h.d
	return d.do(ctx, func() error {
		outs, err := d.sess.SetResult(d.boardTime(time.Now()), c.Result, c.Reason, c.Replace, d.outs[:0])
		if err != nil {
			return err
		}
		d.outs = outs
		d.emit()
		d.log.Info("result set by command", "result", c.Result, "reason", c.Reason, "by", c.By)
		return nil
	})
}

// CorrectMove replaces a published move by the arbiter's; the session
// keeps the moves after it that stay legal and retracts the rest.
func (h *commandHandler) CorrectMove(ctx context.Context, c publish.CorrectMoveCmd) error {
	d := h.d
	return d.do(ctx, func() error {
		start := d.sess.Start()
		// The journal numbers the game's plies from 1; the session from
		// its start position, after d.base resumed plies.
		ply := c.Ply - d.base + start.Ply()
		outs, err := d.sess.CorrectMove(d.boardTime(time.Now()), ply, c.UCI, d.outs[:0])
		if err != nil {
			return err
		}
		d.outs = outs
		d.emit()
		d.log.Info("move corrected by command", "ply", c.Ply, "uci", c.UCI, "by", c.By)
		return nil
	})
}

func (h *commandHandler) Promote(ctx context.Context, c publish.PromoteCmd) error {
	d := h.d
	return d.do(ctx, func() error {
		te := trace.Event{T: d.boardTime(time.Now()), Kind: trace.Promote, Promo: c.Piece}
		d.outs = d.sess.Feed(&te, d.outs[:0])
		d.emit()
		return nil
	})
}

// replaceClock makes a new software clock for d.tc, keeping the device,
// and restarts its goroutine. Only the main loop calls it.
func (d *daemon) replaceClock(ctx context.Context) error {
	cc := clockbridge.SoftClockConfig{TimeControl: d.tc, Logger: d.log.With("part", "clock"), Device: d.clockDevice}
	c, err := clockbridge.NewSoftClock(cc)
	if err != nil {
		return fmt.Errorf("clock: %w", err)
	}
	if d.stopClock != nil {
		d.stopClock()
	}
	d.clock = c
	d.startClock(ctx)
	return nil
}

// startClock runs d.clock until ctx ends or the clock is replaced.
func (d *daemon) startClock(ctx context.Context) {
	if d.clock == nil {
		return
	}
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	clk := d.clock
	go func() {
		defer close(done)
		if err := clk.Run(cctx, func(e clockbridge.Event) {
			select {
			case d.clockEvents <- e:
			case <-cctx.Done():
			}
		}); err != nil && cctx.Err() == nil {
			d.log.Error("clock stopped", "err", err)
		}
	}()
	d.stopClock = func() { cancel(); <-done }
}
