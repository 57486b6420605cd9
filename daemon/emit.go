package daemon

import (
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/session"
)

// From the reconstruction's outputs to the journal.

func sideName(c chess.Color) string { return c.String() }

func (d *daemon) clocksNow() *publish.Clocks {
	s, ok := d.sess.Clock(d.boardTime(time.Now()))
	if !ok {
		return nil
	}
	return publish.ClocksOf(s.Remaining[chess.White], s.Remaining[chess.Black])
}

// emit publishes the outputs of the last session step, then what the
// session deferred until they were out (the dead-position analysis of a
// move, session.Settle).
func (d *daemon) emit() {
	d.emitStep()
	for d.sess.Pending() {
		d.outs = d.sess.Settle(d.outs[:0])
		d.emitStep()
	}
}

// emitStep publishes d.outs. Moves are not copied output by output: the
// journal's game is brought in line with the session's move list, so a
// retraction or an amendment (which may change several moves) always
// leaves the two equal.
func (d *daemon) emitStep() {
	synced := false
	sync := func(why string) {
		if !synced {
			d.syncMoves(why)
			synced = true
		}
	}
	for i := range d.outs {
		o := &d.outs[i]
		switch o.Kind {
		case session.ClockChange:
			// The clock topic's events (docs/mqtt.md): time added is an
			// adjustment, a new game's clock a start.
			ev := o.ClockEvent
			switch ev {
			case "penalty":
				ev = "adjust"
			case "reset":
				ev = "start"
			}
			d.publishClock(o.Clock, ev)
			if o.ClockEvent == "penalty" && d.clock != nil && o.ClockMs > 0 {
				// The device shows the time the Laws added.
				if err := d.clock.AddTime(d.ctx, o.Side, time.Duration(o.ClockMs)*time.Millisecond); err != nil {
					d.log.Warn("clock device: adding the penalty", "err", err)
				}
			}
		case reconstruct.Move:
			if o.Provisional {
				sync(o.Text)
				d.publishProvisional(&o.Output)
				continue
			}
			if o.Timed {
				// The move's clocks at its press, for syncMoves.
				start := d.sess.Start()
				d.moveClocks[o.Ply-start.Ply()-1] = publish.ClocksOf(o.Clock.Remaining[chess.White], o.Clock.Remaining[chess.Black])
			}
			sync("")
			// A move from the game position: what was out of place is
			// back (the session publishes no move from anywhere else).
			d.resolveBoardAlerts("the game went on with a legal move")
		case reconstruct.Retract, reconstruct.Amend:
			if o.Provisional && o.Kind == reconstruct.Retract {
				if d.provOut {
					d.correct(d.base+len(d.sess.Moves())+1, nil, nonEmpty(o.Text, "the move shown was taken back before the clock press"))
					d.provOut = false
				}
				continue
			}
			sync(nonEmpty(earliestCorrection(d.outs[i:]).Text, "the board went back"))
		case reconstruct.Alert:
			sync("")
			d.publishAlert(o)
		case reconstruct.Note:
			if o.Note == reconstruct.NoteRestored {
				d.resolveBoardAlerts(o.Text)
			}
			d.notes.Add(1)
			d.log.Info("note", "kind", string(o.Note), "ply", o.Ply, "side", o.Side.String(), "squares", sensors.SquareSet(o.Squares), "text", o.Text)
		case reconstruct.NewGame:
			start := d.sess.Start()
			if err := d.beginGame(d.setupFor(&start)); err != nil {
				d.log.Error("new game", "err", err)
			}
		case reconstruct.End:
			sync("")
			d.endGame(o.Result, o.Reason)
		}
	}
	// Every output that changes the game's moves (a final move, a
	// correction, an alert or end that follows one) synced above: clock
	// changes and notes need no look at the journal.
}

// earliestCorrection is the retraction or amendment of the earliest ply
// among outs (outs[0] is one): the journal is corrected from that ply, so
// its text says why (an arbiter's amendment of ply 1 comes after the
// retractions of the later plies it cannot keep).
func earliestCorrection(outs []session.Output) *session.Output {
	e := &outs[0]
	for i := range outs {
		o := &outs[i]
		if (o.Kind == reconstruct.Retract || o.Kind == reconstruct.Amend) && !o.Provisional && o.Ply < e.Ply {
			e = o
		}
	}
	return e
}

func nonEmpty(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// syncMoves makes the journal's final moves equal to the session's: the
// journal is the one record of what was published, the session the one
// record of the game; nothing else keeps a copy.
func (d *daemon) syncMoves(why string) {
	moves := d.sess.Moves()
	pos := d.sess.Start()
	want := make([]string, len(moves))
	for i, m := range moves {
		want[i] = pos.UCI(m)
		pos.MakeMove(m)
	}
	have := d.pub.Current().Moves
	// Index k in want is ply d.base+k+1 of the journal's game.
	k := 0
	for k < len(want) && d.base+k < len(have) && have[d.base+k].UCI == want[k] {
		k++
	}
	if d.base+k < len(have) {
		// The journal has a move the board no longer shows: correct it.
		// An amended move keeps its time; so does a later move that is
		// published again because it stays (the journal drops the moves
		// after a correction).
		ply := d.base + k + 1
		var nm *publish.Move
		if k < len(want) {
			nm = &publish.Move{Ply: ply, UCI: want[k], Final: true, Clocks: have[d.base+k].Clocks}
			k++
		}
		d.correct(ply, nm, nonEmpty(why, "the board showed another move"))
	}
	for ; k < len(want); k++ {
		clocks := d.moveClocks[k]
		if idx := d.base + k; clocks == nil && idx < len(have) && have[idx].UCI == want[k] {
			clocks = have[idx].Clocks
		}
		if clocks == nil {
			clocks = d.clocksNow()
		}
		m, err := d.pub.Move(publish.Move{Ply: d.base + k + 1, UCI: want[k], Final: true, Clocks: clocks})
		if err != nil {
			d.log.Error("journal refused a move", "ply", d.base+k+1, "uci", want[k], "err", err)
			return
		}
		d.provOut = false
		d.movesFinal.Add(1)
		d.log.Info("move", "ply", m.Ply, "san", m.SAN, "fen", m.FEN)
	}
	clear(d.moveClocks)
	// A correction reopens the journal's game; a result the session still
	// holds (the arbiter's, or one the correction left standing) ends it
	// again.
	if res, reason := d.sess.Result(); res != "" && !d.pub.Current().Ended {
		d.endGame(res, reason)
	}
}

func (d *daemon) correct(ply int, nm *publish.Move, why string) {
	c, err := d.pub.Correct(publish.Correction{Ply: ply, New: nm, Why: why})
	if err != nil {
		d.log.Error("journal refused a correction", "ply", ply, "err", err)
		return
	}
	d.corrections.Add(1)
	d.provOut = false
	old := ""
	if c.Old != nil {
		old = c.Old.SAN
	}
	d.log.Info("correction", "ply", ply, "old", old, "why", why)
}

func (d *daemon) publishProvisional(o *reconstruct.Output) {
	ply := d.base + len(d.sess.Moves()) + 1
	_, err := d.pub.Move(publish.Move{Ply: ply, UCI: o.UCI, Final: false, Clocks: d.clocksNow()})
	if err != nil {
		d.log.Debug("provisional move not published", "ply", ply, "uci", o.UCI, "err", err)
		return
	}
	d.provOut = true
	d.movesProv.Add(1)
}

// boardAlerts are the irregularities the board itself shows: the board
// resolves them when it shows the game position again, and while one
// lasts a new alert of its kind replaces the active one (at most every
// alertRefresh) instead of adding another.
var boardAlerts = map[reconstruct.AlertKind]bool{
	reconstruct.MisplacedPieces: true, reconstruct.WrongSetup: true, reconstruct.BoardRotated: true,
	reconstruct.IllegalMove: true, reconstruct.ClockWithoutMove: true, reconstruct.PromotionUnreplaced: true,
}

// alertRefresh is how often a lasting irregularity's alert is replaced by
// its latest description.
const alertRefresh = 2 * time.Second

// activeAlert is a board irregularity's alert on the active list.
type activeAlert struct {
	id      string
	updated time.Time
}

func (d *daemon) publishAlert(o *session.Output) {
	start := d.sess.Start()
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
	if o.Verdict != nil {
		a.Edition = o.Verdict.Edition.String()
	}
	if a.Ply < 1 {
		a.Ply = o.Ply
	}
	d.raiseAlert(o.Alert, a, time.Now())
}

// raiseAlert publishes a, or, while an alert of a board irregularity of
// its kind is active, replaces that one with it, at most every
// alertRefresh (a newer one waits in pendingAlerts for flushAlerts).
func (d *daemon) raiseAlert(kind reconstruct.AlertKind, a publish.Alert, now time.Time) {
	if prev, ok := d.boardAlerts[kind]; ok && boardAlerts[kind] {
		if now.Sub(prev.updated) < alertRefresh {
			d.pendingAlerts[kind] = a
			return
		}
		if err := d.pub.ClearAlert(publish.AlertClear{ID: prev.id, Why: "superseded by the irregularity's latest state"}); err != nil {
			d.log.Debug("clearing a superseded alert", "alert", prev.id, "err", err)
		}
		delete(d.boardAlerts, kind)
	}
	delete(d.pendingAlerts, kind)
	pa, err := d.pub.Alert(a)
	if err != nil {
		d.log.Error("journal refused an alert", "kind", a.Kind, "err", err)
		return
	}
	if boardAlerts[kind] {
		d.boardAlerts[kind] = activeAlert{id: pa.ID, updated: now}
	}
	d.alerts.Add(1)
	d.log.Warn("alert", "kind", a.Kind, "ply", a.Ply, "side", a.Side, "squares", strings.Join(a.Squares, ","), "article", a.Article, "text", a.Text)
}

// flushAlerts publishes the latest state of a lasting irregularity whose
// alert is due for replacement.
func (d *daemon) flushAlerts(now time.Time) {
	for kind, a := range d.pendingAlerts {
		if prev, ok := d.boardAlerts[kind]; !ok || now.Sub(prev.updated) >= alertRefresh {
			d.raiseAlert(kind, a, now)
		}
	}
}

// resolveBoardAlerts takes the board's irregularities off the active list
// once the board shows the game position again.
func (d *daemon) resolveBoardAlerts(why string) {
	clear(d.pendingAlerts)
	for k, a := range d.boardAlerts {
		if err := d.pub.ClearAlert(publish.AlertClear{ID: a.id, Why: why}); err != nil {
			d.log.Debug("clearing a resolved alert", "alert", a.id, "err", err)
		}
		delete(d.boardAlerts, k)
	}
}

func squareNames(b chess.Bitboard) []string {
	var out []string
	for ; b != 0; b &= b - 1 {
		out = append(out, b.First().String())
	}
	return out
}

func (d *daemon) endGame(result, reason string) {
	if cur := d.pub.Current(); cur.Ended && cur.Result.Result == result && cur.Result.Termination == reason {
		return // ended so already (syncMoves ended it again after a correction)
	}
	if err := d.pub.End(publish.Result{Result: result, Termination: reason}); err != nil {
		d.log.Error("journal refused the result", "result", result, "err", err)
		return
	}
	d.log.Info("game over", "result", result, "reason", reason)
}
