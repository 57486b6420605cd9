package session

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/rules"
)

// judge gives the reconstruction's alerts their verdicts under the profile
// in force, and keeps each verdict for the alert it goes with (take).
type judge struct{ s *Session }

func (j judge) Judge(a *reconstruct.Output, prior int) (article, penalty string, countsAsIllegal bool) {
	s := j.s
	p := s.profileFor(a.Side)
	verdict := p.Verdict
	if !s.clocked() {
		verdict = p.UnclockedVerdict
	}
	v := verdict(string(a.Alert), a.Side, prior)
	if v.DrawIfOpponentCannotMate && v.Result != "" {
		// The reinstated position: the reconstruction's game position.
		pos := s.rec.Position()
		v = s.resolve(p, v, &pos)
	}
	s.verdicts = append(s.verdicts, v)
	article = v.Article
	if v.PenaltyArticle != "" && v.PenaltyArticle != v.Article {
		article += ", " + v.PenaltyArticle
	}
	return article, v.Text, v.CountsAsIllegal
}

// clocked reports whether a clock completes the moves: one is connected,
// or has been pressed (as the reconstruction decides).
func (s *Session) clocked() bool { return s.cfg.Clock || s.pressed }

// resolve settles a verdict that depends on whether the opponent can
// mate: 6.9 and 7.5.5 by the analyser; in profiles with the 1997 blitz
// rule C4, a king and two knights against a bare king has no mating
// potential.
func (s *Session) resolve(p *rules.Profile, v rules.Verdict, pos *chess.Position) rules.Verdict {
	text := v.Text
	v = s.analyzer.Resolve(v, pos)
	if p.MatingPotential && v.Result != "1/2-1/2" && rules.TwoKnightsAgainstBareKing(pos, v.Side.Other()) {
		// C4 decides, not whether a mate exists: the analyser's
		// "can still mate" would contradict the draw.
		v.Result, v.Undetermined = "1/2-1/2", false
		v.Text = text + fmt.Sprintf("; drawn: two knights give %s no mating potential (C4)", colourName(v.Side.Other()))
	}
	return v
}

// stateAlerts are the reconstruction's game-state alerts: the session
// decides these itself, under the profile in force.
var stateAlerts = map[reconstruct.AlertKind]bool{
	reconstruct.Checkmate: true, reconstruct.Stalemate: true, reconstruct.DeadPosition: true,
	reconstruct.DrawFivefold: true, reconstruct.Draw75Moves: true, reconstruct.ThreefoldClaimable: true,
	reconstruct.FiftyMovesClaimable: true, reconstruct.FlagFall: true, reconstruct.BothFlags: true,
}

// endingMoveAlert: the irregularities of the move that ended the game
// that still reach the arbiter after its end (5.1.1: a mate counts only if
// the move producing it was legal).
var endingMoveAlert = map[reconstruct.AlertKind]bool{
	reconstruct.CastlingRookFirst: true, reconstruct.PromotionUnreplaced: true,
}

// take turns the reconstruction's outputs (s.routs) into the session's.
// A move whose end-of-game check is deferred ends the step: the outputs
// after it wait in the backlog for Settle, so the move goes out first.
func (s *Session) take(out []Output) []Output {
	return s.takeList(s.routs, out)
}

func (s *Session) takeList(routs []reconstruct.Output, out []Output) []Output {
	for i := range routs {
		if s.pending {
			s.backlog = append(s.backlog, routs[i:]...)
			return out
		}
		o := &routs[i]
		s.lastT = max(s.lastT, o.T)
		switch o.Kind {
		case reconstruct.Move:
			if o.Provisional {
				out = s.provisional(o, out)
				continue
			}
			out = s.finalMove(o, out)
		case reconstruct.Retract, reconstruct.Amend:
			if o.Provisional {
				if !s.ended {
					out = append(out, Output{Output: *o})
				}
				continue
			}
			out = s.correction(o, out)
		case reconstruct.Alert:
			var v rules.Verdict
			if len(s.verdicts) > 0 {
				v, s.verdicts = s.verdicts[0], s.verdicts[1:]
			}
			if stateAlerts[o.Alert] || s.ended && !(endingMoveAlert[o.Alert] && o.Ply == s.pos.Ply()) {
				// After the end nothing on the board is an
				// irregularity: the players tip the king, set up again.
				// But for how the ending move was made: a mate counts
				// only if the move kept Article 3 and 4.2-4.7 (5.1.1),
				// and a castling begun with the rook did not (4.4.2),
				// nor a promotion pressed with the pawn on the last rank
				// (7.5.2; 1997: 3.4e, the piece still to be chosen); the
				// arbiter decides.
				continue
			}
			out = s.alert(o, v, out)
		case reconstruct.Note:
			if o.Note == reconstruct.NoteRestored {
				s.open = false
			}
			if s.ended && o.Note == reconstruct.NoteNoPress {
				continue // a move that ended the game needs no press
			}
			out = append(out, Output{Output: *o})
		case reconstruct.End:
			out = s.reconEnd(o, out)
		case reconstruct.NewGame:
			if s.resetting {
				continue
			}
			out = s.newGame(o, out)
		}
	}
	if len(s.verdicts) > 0 && !s.pending {
		s.verdicts = s.verdicts[:0]
	}
	return out
}

// provisional passes a move shown before the press; a move that ends the
// game needs no press (6.2.1): it is final at once.
func (s *Session) provisional(o *reconstruct.Output, out []Output) []Output {
	if s.ended {
		return out
	}
	if o.Ply == s.pos.Ply()+1 && s.legal(o.Move) {
		after := s.pos
		after.MakeMove(o.Move)
		if !s.settling && needsAnalysis(&after) {
			s.pending, s.pendingT, s.pendingProv = true, o.T, *o
			return append(out, Output{Output: *o})
		}
		if _, ok := s.gameEnd(&after, o.Move); ok {
			f := *o
			f.Provisional = false
			s.provEnd = true
			return s.finalMove(&f, out)
		}
	}
	return append(out, Output{Output: *o})
}

func (s *Session) legal(m chess.Move) bool {
	var l chess.MoveList
	s.pos.GenerateLegal(&l)
	return l.Contains(m)
}

// finalMove adds a completed move to the game.
func (s *Session) finalMove(o *reconstruct.Output, out []Output) []Output {
	idx := o.Ply - s.start.Ply() - 1
	switch {
	case idx < len(s.moves):
		// The game-ending move the press now completes, or a move the
		// reconstruction completes after it.
		if s.provEnd && idx == len(s.moves)-1 && s.moves[idx] == o.Move {
			return out
		}
		if s.provEnd && idx == len(s.moves)-1 {
			return s.replaceLast(o, out)
		}
		return out
	case idx > len(s.moves) || s.ended:
		// A move after the end of the game (or after plies the session
		// never had): kept for the arbiter's log, not in the score.
		if s.ended {
			n := *o
			n.Kind, n.Note, n.Text = reconstruct.Note, reconstruct.NoteUnrecognised,
				fmt.Sprintf("a move completed after the game had ended (%s): not part of the game score", nonEmpty(o.SAN, o.UCI, s.pos.UCI(o.Move)))
			return append(out, Output{Output: n})
		}
		return out
	}
	if !s.legal(o.Move) {
		return out
	}
	mover := s.pos.SideToMove()
	s.pos.MakeMove(o.Move)
	s.moves = append(s.moves, o.Move)
	s.open = false
	s.hist.Push(&s.pos)
	m := Output{Output: *o}
	m.ClockMs = -1
	// The mover's time at the press; a move that ends the game needs none
	// (6.2.1): its time is when it was made.
	snap, ok := s.Clock(s.lastT)
	if s.provEnd && ok && s.clock.Started() {
		snap = s.clock.Snapshot(at(o.T))
	} else if p, kept := s.clockAtPress(o.PressT); ok && kept {
		// (Judged at a later press, with the moves after it.)
		snap = p
	}
	if ok {
		m.ClockMs = snap.Remaining[mover].Milliseconds()
		m.Clock, m.Timed = snap, true
	}
	out = append(out, m)
	if !s.settling && needsAnalysis(&s.pos) {
		s.pending, s.pendingT, s.pendingProv = true, o.T, reconstruct.Output{}
		return out
	}
	return s.checkEnd(o.T, o.Move, out)
}

// needsAnalysis: whether the end-of-game check of pos may search (a dead
// position, rules.DeadCandidate), which a move must not wait for.
func needsAnalysis(pos *chess.Position) bool {
	return pos.HalfmoveClock() == 0 && rules.DeadCandidate(pos)
}

// Pending reports whether the last step left work for Settle: the
// end-of-game check of a move into a position that may be dead, published
// first, and the outputs that came after it.
func (s *Session) Pending() bool { return s.pending }

// Settle runs the end-of-game check that a step deferred, so that its move
// went out before the dead-position analysis (at most AnalysisBudget
// nodes) ran, then the outputs that waited behind it, up to the next
// deferred check (call it while Pending). Its outputs carry the times
// they had. Every other method settles fully first, so the outputs and
// their order are the same whether or not the caller settles.
func (s *Session) Settle(out []Output) []Output {
	if !s.pending {
		return out
	}
	s.pending = false
	out = s.settleCheck(out)
	backlog := s.backlog
	s.backlog = nil
	return s.takeList(backlog, out)
}

// settleAll runs everything a step left for Settle.
func (s *Session) settleAll(out []Output) []Output {
	for s.pending {
		out = s.Settle(out)
	}
	return out
}

func (s *Session) settleCheck(out []Output) []Output {
	s.settling = true
	defer func() { s.settling = false }()
	if prov := s.pendingProv; prov.Kind == reconstruct.Move {
		s.pendingProv = reconstruct.Output{}
		if s.ended || prov.Ply != s.pos.Ply()+1 || !s.legal(prov.Move) {
			return out
		}
		after := s.pos
		after.MakeMove(prov.Move)
		if _, ok := s.gameEnd(&after, prov.Move); !ok {
			return out
		}
		// The provisional move ended the game (a dead position): final
		// without a press (6.2.1, 5.2.2).
		prov.Provisional = false
		s.provEnd = true
		return s.finalMove(&prov, out)
	}
	return s.checkEnd(s.pendingT, chess.NoMove, out)
}

// replaceLast: the press completed another move than the game-ending one
// published before it (the hand went on): the end is withdrawn.
func (s *Session) replaceLast(o *reconstruct.Output, out []Output) []Output {
	out = s.withdrawEnd(o.T, "the move that ended the game was another", out)
	out = s.popLast(o.T, out)
	return s.finalMove(o, out)
}

// popLast retracts the game's last move.
func (s *Session) popLast(t int64, out []Output) []Output {
	n := len(s.moves)
	old := s.moves[n-1]
	s.rebuild(s.moves[:n-1])
	return append(out, Output{Output: reconstruct.Output{Kind: reconstruct.Retract, T: t, Ply: s.pos.Ply() + 1,
		Side: s.pos.SideToMove(), Old: old, OldUCI: s.pos.UCI(old), ClockMs: -1, From: chess.NoSquare, To: chess.NoSquare,
		Text: "the move is withdrawn"}})
}

// rebuild replays moves from the start.
func (s *Session) rebuild(moves []chess.Move) {
	ms := append([]chess.Move(nil), moves...)
	s.pos, s.moves = s.start, s.moves[:0]
	s.hist = rules.NewHistory(&s.start)
	for _, m := range ms {
		s.pos.MakeMove(m)
		s.moves = append(s.moves, m)
		s.hist.Push(&s.pos)
	}
	s.provEnd = false
}

// correction applies a retraction or an amendment of a final move.
func (s *Session) correction(o *reconstruct.Output, out []Output) []Output {
	idx := o.Ply - s.start.Ply() - 1
	if s.provEnd && idx < len(s.moves)-1 || s.provEnd && o.Kind == reconstruct.Retract && idx == len(s.moves)-1 {
		// An earlier move changed: the game-ending move published
		// without a press goes first; the reconstruction will show it
		// again if it still stands.
		out = s.withdrawEnd(o.T, "an earlier move was another", out)
		out = s.popLast(o.T, out)
	}
	if idx < 0 || idx >= len(s.moves) {
		return out
	}
	moves := append([]chess.Move(nil), s.moves...)
	if o.Kind == reconstruct.Retract {
		moves = moves[:idx]
	} else {
		moves[idx] = o.Move
		// The reconstruction replays later plies as amendments where
		// their notation changes; the moves stay.
	}
	wasEnded := s.ended && s.byPosition
	s.rebuild(moves)
	out = append(out, Output{Output: *o})
	if wasEnded {
		if _, ok := s.gameEnd(&s.pos, chess.NoMove); !ok {
			out = s.withdrawEnd(o.T, "the game went on: an earlier move was another", out)
		}
		return out
	}
	return s.checkEnd(o.T, chess.NoMove, out)
}

// withdrawEnd takes back a result the rules gave (End with result "*").
func (s *Session) withdrawEnd(t int64, why string, out []Output) []Output {
	if !s.ended {
		return out
	}
	s.ended, s.result, s.reason, s.byPosition = false, "", "", false
	return append(out, s.endOutput(t, "*", why, "The result is withdrawn: "+why+"."))
}

// reconEnd takes the reconstruction's End: the kings' result sign and a
// new set-up count; its rulings on the position are the session's own.
func (s *Session) reconEnd(o *reconstruct.Output, out []Output) []Output {
	if s.ended {
		return out
	}
	switch {
	case o.Result == "*" && o.Reason == reconstruct.ReasonNewGame:
		return append(out, Output{Output: *o})
	case o.Result != "*" && o.Reason == reconstruct.ReasonResultSign:
		s.ended, s.gesture, s.result, s.reason = true, true, o.Result, o.Reason
		return append(out, Output{Output: *o})
	}
	return out
}

func (s *Session) newGame(o *reconstruct.Output, out []Output) []Output {
	start := s.rec.StartPosition()
	s.reset(start)
	if !s.cfg.ClockStartsWithPress {
		s.startClock(o.T)
	}
	out = append(out, Output{Output: *o})
	if snap, ok := s.Clock(o.T); ok {
		out = append(out, Output{Output: reconstruct.Output{Kind: ClockChange, T: o.T, ClockMs: -1, From: chess.NoSquare, To: chess.NoSquare},
			ClockEvent: "reset", Clock: snap, Timed: true})
	}
	return out
}

// gameEnd is the end of the game in pos (after move m, or NoMove) under
// the profile of the player who moved into it. The dead-position analysis
// runs only after a capture or a pawn move and where a position can be
// dead without a long search (rules.DeadCandidate).
func (s *Session) gameEnd(pos *chess.Position, m chess.Move) (rules.Verdict, bool) {
	var a *rules.Analyzer
	if needsAnalysis(pos) {
		a = s.analyzer
	}
	if m != chess.NoMove {
		// pos is not in the history yet: judge it as if it were.
		s.hist.Push(pos)
		defer s.hist.Pop()
	}
	return s.profileFor(pos.SideToMove().Other()).GameEnd(pos, s.hist, a)
}

// checkEnd rules on the position after a change of the game's moves:
// the end of the game, or draws the player to move may claim.
func (s *Session) checkEnd(t int64, _ chess.Move, out []Output) []Output {
	if s.ended {
		return out
	}
	if v, ok := s.gameEnd(&s.pos, chess.NoMove); ok {
		return s.finish(t, v, out)
	}
	return s.claims(t, out)
}

// finish ends the game by verdict v: its alert, then the end.
func (s *Session) finish(t int64, v rules.Verdict, out []Output) []Output {
	a := s.verdictAlert(t, v)
	out = append(out, a)
	if v.Result == "" {
		return out
	}
	s.ended, s.result, s.reason = true, v.Result, endReason(v.Kind)
	s.byPosition = true
	e := s.endOutput(t, v.Result, s.reason, v.Text)
	e.Verdict = a.Verdict
	return append(out, e)
}

func endReason(kind string) string {
	switch kind {
	case rules.KindCheckmate:
		return "checkmate"
	case rules.KindStalemate:
		return "stalemate"
	case rules.KindDeadPosition:
		return "dead position"
	case rules.KindDrawFivefold:
		return "fivefold repetition"
	case rules.KindDraw75Moves:
		return "75-move rule"
	case rules.KindFlagFall:
		return "time forfeit"
	case rules.KindBothFlags:
		return "both flags fallen"
	case rules.KindIllegalMove, rules.KindClockWithoutMove, rules.KindPromotionUnreplaced:
		return "illegal move"
	}
	return kind
}

// verdictAlert is the alert output of a session verdict.
func (s *Session) verdictAlert(t int64, v rules.Verdict) Output {
	article := v.Article
	if v.PenaltyArticle != "" && v.PenaltyArticle != v.Article {
		article += ", " + v.PenaltyArticle
	}
	vv := v
	// The penalty is the result the verdict gives, as an arbiter writes it.
	penalty := v.Result
	switch {
	case v.Undetermined:
		penalty = "the arbiter decides: whether the opponent can mate is undetermined"
	case penalty == "":
		penalty = v.Text
	}
	return Output{Output: reconstruct.Output{Kind: reconstruct.Alert, T: t, Ply: s.pos.Ply(), Side: v.Side,
		Alert: reconstruct.AlertKind(v.Kind), Article: article, Penalty: penalty, Text: v.Text,
		ClockMs: -1, From: chess.NoSquare, To: chess.NoSquare}, Verdict: &vv}
}

// claims announces the draws the player to move may claim: when the
// position has arisen (9.2.1.2, 9.3.2; 1997 9.2b, 9.3b) and when the
// player's next move would make it arise, which he claims by writing the
// move on his scoresheet (9.2.1.1, 9.3.1; 1997 9.2a, 9.3a). One alert per
// position.
func (s *Session) claims(t int64, out []Output) []Output {
	if s.pos.HalfmoveClock() < 3 || s.claimPly == s.pos.Ply() {
		return out
	}
	c := rules.ClaimsFor(&s.pos, s.hist)
	side := s.pos.SideToMove()
	p := s.profileFor(side)
	add := func(kind string, now bool, moves []chess.Move) {
		v := p.Verdict(kind, side, 0)
		if !now {
			v.Text = fmt.Sprintf("%s by writing %s on the scoresheet and declaring the move", v.Text, sanList(&s.pos, moves))
		}
		out = append(out, s.verdictAlert(t, v))
		s.claimPly = s.pos.Ply()
	}
	if c.CanClaimThreefold() {
		add(rules.KindThreefoldClaimable, c.Threefold, c.ThreefoldMoves)
	}
	if c.CanClaimFifty() {
		add(rules.KindFiftyMovesClaimable, c.Fifty, c.FiftyMoves)
	}
	return out
}

func sanList(p *chess.Position, moves []chess.Move) string {
	s := ""
	for i, m := range moves {
		switch {
		case i == 3:
			return s + fmt.Sprintf(" or %d other moves", len(moves)-3)
		case i > 0 && i == len(moves)-1:
			s += " or "
		case i > 0:
			s += ", "
		}
		s += p.SAN(m)
	}
	return s
}

// alert passes an irregularity with its verdict: time added to the
// opponent's clock, and the end of the game when the verdict ends it.
func (s *Session) alert(o *reconstruct.Output, v rules.Verdict, out []Output) []Output {
	a := Output{Output: *o}
	if v.Kind == string(o.Alert) {
		vv := v
		if s.open && (endsGame(&vv) || vv.Action == rules.AddTime) {
			// An earlier irregularity still stands on the board: this
			// one may be the game going on from it (an illegal move that
			// stands because nobody claimed, 2018 A.4.2, 1997 C3), which
			// the board cannot tell from a second offence.
			vv.Result, vv.Undetermined = "", true
			vv.Text += "; the board was not set back after the earlier irregularity, so the arbiter decides"
			a.Penalty = "the arbiter decides: the board was not set back after the earlier irregularity"
		}
		a.Verdict = &vv
		v = vv
	}
	if o.Alert.Irregular() {
		s.open = true
	}
	out = append(out, a)
	if a.Verdict == nil || v.OnClaim || v.Undetermined {
		return out
	}
	if v.Action == rules.AddTime && v.Time > 0 && s.clock != nil && s.clock.Started() {
		if _, err := s.clock.AddTime(v.Side.Other(), v.Time, at(max(o.T, s.lastT))); err == nil {
			snap, _ := s.Clock(o.T)
			out = append(out, Output{Output: reconstruct.Output{Kind: ClockChange, T: o.T, Side: v.Side.Other(), ClockMs: v.Time.Milliseconds(), From: chess.NoSquare, To: chess.NoSquare,
				Text: fmt.Sprintf("%s added to %s's clock (%s)", minutes(v.Time), colourName(v.Side.Other()), nonEmpty(v.PenaltyArticle, v.Article))},
				ClockEvent: "penalty", Clock: snap, Timed: true})
		}
	}
	if v.Result != "" && !v.Undetermined && endsGame(&v) {
		s.ended, s.result, s.reason = true, v.Result, endReason(v.Kind)
		e := s.endOutput(o.T, v.Result, s.reason, v.Text)
		e.Verdict = a.Verdict
		out = append(out, e)
	}
	return out
}

// endsGame reports whether an irregularity's verdict ends the game: a
// loss, or the draw it becomes when the opponent cannot mate.
func endsGame(v *rules.Verdict) bool {
	return v.Action == rules.Loss || v.Action == rules.GameDrawn && v.DrawIfOpponentCannotMate
}

// startClock starts the clock of the player to move at t, once.
func (s *Session) startClock(t int64) {
	if s.clock == nil || s.clock.Started() {
		return
	}
	side := s.start.SideToMove()
	_ = s.clock.StartFor(side, at(t))
	if r := s.resumeClock; r != [2]time.Duration{} {
		// A resumed game's clocks go on from the journal's reading; the
		// moves completed count for the time control's periods.
		done := s.start.FullmoveNumber() - 1
		wm, bm := done, done
		if side == chess.Black {
			wm++
		}
		for c := range r {
			if r[c] <= 0 {
				r[c] = s.clock.Snapshot(at(t)).Remaining[c]
			}
		}
		_ = s.clock.Set(rules.ClockSetting{White: r[chess.White], Black: r[chess.Black], WhiteMoves: wm, BlackMoves: bm, Run: rules.ClockRunsFor(side)}, at(t))
	}
	s.resumeClock = [2]time.Duration{}
}

// press applies side's clock press at t.
func (s *Session) press(side chess.Color, t int64, out []Output) []Output {
	s.pressed = true
	if s.clock == nil || s.ended {
		return out // after the end a press counts for nothing
	}
	if !s.cfg.ClockStartsWithPress {
		s.startClock(t)
	}
	res, flags, err := s.clock.Press(side, at(t))
	if err != nil {
		return out
	}
	for _, f := range flags {
		out = s.flag(f, out)
	}
	if res.Outcome == rules.PressIgnored {
		return out
	}
	s.lastT = max(s.lastT, t)
	snap, _ := s.Clock(t)
	s.presses[s.npress%len(s.presses)] = pressClock{t: t, snap: snap}
	s.npress++
	return append(out, Output{Output: reconstruct.Output{Kind: ClockChange, T: t, Side: side, ClockMs: res.Clk.Milliseconds(), From: chess.NoSquare, To: chess.NoSquare},
		ClockEvent: "press", Clock: snap, Timed: true})
}

// advanceClock lets the clock run to t: the flags that fall by then, at
// the instant they fall.
func (s *Session) advanceClock(t int64, out []Output) []Output {
	if s.clock == nil || !s.clock.Started() {
		s.lastT = max(s.lastT, t)
		return out
	}
	for {
		f, ok, err := s.clock.Advance(at(max(t, s.lastT)))
		if err != nil || !ok {
			break
		}
		out = s.flag(f, out)
	}
	s.lastT = max(s.lastT, t)
	return out
}

// flag rules on a flag fall.
func (s *Session) flag(f rules.ClockFlag, out []Output) []Output {
	t := f.At.UnixMilli()
	s.flagged[f.Side] = true
	if s.ended {
		// 6.9: a flag after the game has ended changes nothing.
		return out
	}
	snap := s.clock.Snapshot(f.At)
	out = append(out, Output{Output: reconstruct.Output{Kind: ClockChange, T: t, Side: f.Side, ClockMs: -1, From: chess.NoSquare, To: chess.NoSquare},
		ClockEvent: "flag", Clock: snap, Timed: true})
	p := s.profileFor(f.Side)
	var v rules.Verdict
	if s.flagged[f.Side.Other()] {
		var ok bool
		if v, ok = p.FlagsVerdict(snap); !ok || v.Kind == rules.KindFlagFall {
			return out // the first flag was ruled on already
		}
	} else {
		v = s.resolve(p, p.Verdict(rules.KindFlagFall, f.Side, 0), &s.pos)
	}
	a := s.verdictAlert(t, v)
	a.Side, a.Ply = f.Side, s.pos.Ply()+1 // the move the flag's owner did not complete
	out = append(out, a)
	if v.Result != "" && !v.Undetermined && !v.OnClaim {
		s.ended, s.result, s.reason = true, v.Result, endReason(v.Kind)
		e := s.endOutput(t, v.Result, s.reason, v.Text)
		e.Verdict = a.Verdict
		out = append(out, e)
	}
	return out
}

func colourName(c chess.Color) string {
	if c == chess.White {
		return "White"
	}
	return "Black"
}

func nonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func minutes(d time.Duration) string {
	if d%time.Minute == 0 {
		if d == time.Minute {
			return "one minute"
		}
		return fmt.Sprintf("%d minutes", d/time.Minute)
	}
	return d.String()
}
