package reconstruct

import (
	"fmt"
	"slices"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// onSettle runs when the board has been still for SettleMs.
func (r *Reconstructor) onSettle(t int64, out []Output) []Output {
	r.decisions++
	r.makeView()
	if r.pending {
		if r.holding() {
			// The piece the pressed move set down lifted again: the
			// reply's lift or the piece going on decides (liftAfterPress)
			// within a sweep of that lift, else the move held was the
			// move (pressDue).
			if w := r.heldUntil(); t < w {
				r.pressWait = w
				return out
			}
			if r.slidOnHeld() || r.heldLeft() {
				// (The piece went on: the board decides.)
				r.pressHeldSq = chess.NoSquare
			} else if b := r.explainFirst(true); b < 0 || !r.cands[b].changes() || r.strayFromHeld(&r.cands[b]) {
				return r.adoptHeld(out)
			} else if r.sensor == trace.Occupancy && r.cands[b].missed && r.heldCapturable() && t < r.pressT+r.timing.AlertMs {
				// The piece gone on to take where nobody saw it land, or
				// taken off its landing by the reply's hand first: the
				// next lift tells (liftAfterPress), a piece that can take
				// it there being the reply's (Qd6-e5 pressed, e5 emptied
				// 121 ms later and the c3 queen lifted: Qxf4 was
				// published), else AlertMs after the press.
				r.pressWait = r.pressT + r.timing.AlertMs
				return out
			}
		}
		if w := max(r.pressT+r.sweepMs(), r.pressAhead); t < w {
			// Still within a sweep of the press: the piece set down just
			// before it may not have been read yet (a piece board read
			// Bd3 203 ms after White pressed with the bishop lifted, and
			// the settle before that gave a clock-without-move penalty).
			r.pressWait = w
			return out
		}
		if w := r.slidAfterPress(); t < w {
			r.pressWait = w
			return out
		}
		if r.pressInHand(t) {
			// The pressed move's piece still in the air, or taken by the
			// reply's hand before any sweep read it where it landed: the
			// next change or the opponent's press shows which, at the
			// latest AlertMs after the press.
			r.pressWait = r.inHandWait()
			return out
		}
		if r.illegalAhead(t) {
			r.pressWait = r.aheadUntil()
			return out
		}
		return r.decidePress(out)
	}
	if r.state == stateEnded {
		var ok bool
		if out, ok = r.reopen(t, out); !ok {
			return r.changedAfterEnd(t, out)
		}
	}
	switch r.state {
	case stateSetup:
		out = r.checkOrientation(t, out)
	}
	if !r.clock && (r.state == stateIrregular || r.overlay&^r.silent != 0) && r.v.diff(&r.lines[0].pos) != 0 && !r.inProgress(true) && !r.oneInHand() {
		// An alert is open and the board has moved on: it may show the
		// game, caught up, that the alert was not. (Not for a knocked
		// piece not alerted yet: the game was followed up to it.)
		ixCost := costMisplaced * r.overlay.Count()
		if r.state == stateIrregular {
			ixCost = costIllegal * maxCatchPlies
		}
		var ok bool
		if out, ok = r.catchUp(r.lastChange, false, ixCost, 0, false, 0, out); ok {
			return out
		}
		if out, ok = r.catchUp(r.lastChange, false, ixCost, -1, false, 0, out); ok {
			return out
		}
	}
	if r.state != stateSetup && r.overlay == 0 && r.v.diff(&r.lines[0].pos) != 0 {
		// Most still boards are a move under way. Without a clock only the
		// commit timer publishes, and with one a board that is the
		// position less one piece can only be a capture nobody saw the
		// victim of, which is not shown before the press: neither needs
		// the move search here.
		occ := r.lines[0].pos.Occupied()
		if !r.clock && len(r.log.evs) >= 2*(maxCatchAhead+1) {
			// Unless the board is lost: many changes since the published
			// game last changed, replies begun as the moves before them
			// landed (no still moment before a reply's first change for
			// the reply rule). Replayed in order they may show a run of
			// plies longer than the searches reach.
			var ok bool
			if out, ok = r.decode(r.lastChange, maxCatchAhead+1, out); ok {
				return out
			}
		}
		if !r.clock {
			// A piece put back that shows a recent move was a castling
			// the board cannot show, its hand's knock read as the move.
			if c, ok := r.hiddenCastlingLine(); ok {
				r.cands = append(r.cands[:0], c)
				r.explained = false
				return r.adopt(0, t, out)
			}
		}
		if !r.clock || r.sensor == 0 && (occ&^r.v.occ).Count() == 1 && r.v.occ&^occ == 0 {
			return r.checkNewGame(t, out)
		}
	}
	// The question a press or a commit asks, so that its answer is reused
	// when the board does not change before them; without the deeper
	// search, which only a press or a commit needs.
	best := r.explainFirst(false)
	if best < 0 || r.cands[best].back > 0 || r.cands[best].n > 1 {
		// The start set-up after some moves, with no move leading to it,
		// is a new game rather than everything taken back.
		n := len(out)
		if out = r.checkNewGame(t, out); len(out) > n {
			return out
		}
	}
	if best < 0 {
		return out
	}
	c := &r.cands[best]
	if !c.changes() && !r.clock {
		// Back in the position, but a piece was seen set down and
		// standing on a square away from its own: moves may have been
		// made and undone (a repetition played fast), which the commit
		// timer or the reply will weigh; not a hesitation yet.
		rv := r.recView()
		if r.leavesStood(c, &rv) {
			if b := r.explainFirst(true); b >= 0 && r.cands[b].changes() {
				return out
			}
			best = r.explainFirst(false)
			c = &r.cands[best]
		}
	}
	switch {
	case !c.changes() && r.clock && r.hiddenSwap(c.line) >= 0:
		// A Chess960 castling that changes no square may stand on the
		// board, its king lifted and put back: the press says whether it
		// was made, so the lifts are kept for it.
		return out
	case !c.changes() && !r.clock && c.back == 0 && !c.stale && r.state == statePlay && r.touchedSwaps(c.line):
		// The castlings a colour or occupancy board cannot show, their
		// kings and rooks lifted and set down again: made (cands[0]).
		return r.adopt(0, r.lastChange, out)
	case !c.changes():
		return r.atPosition(t, out)
	case r.clock && c.back == 0 && c.n == 1 && !c.missed:
		// (A capture whose victim was not seen lifted looks, on occupancy
		// sensors, like a piece held in the hand: not shown before the press.)
		return r.provisional(c, out)
	case r.clock && c.back == 1 && c.n == 1 && !c.stale && r.slidOnAfterPress(c):
		// The pressed move's piece slid on along its line just after the
		// press: pressed ahead of its landing, the move is that one
		// (30... Rh5 slid c5-h5, pressed on g5, h5 read filled 74 ms
		// after the press: Rg5 was published, then alerted misplaced).
		return r.adopt(best, t, out)
	}
	return out
}

// adoptLandedAfterReply publishes the move landedAfterReply finds at
// change ev.
func (r *Reconstructor) adoptLandedAfterReply(ev *trace.Event, out []Output) ([]Output, bool) {
	if ix, ok := r.landedAfterReply(ev); ok {
		r.ver++ // r.cands no longer holds what explain found
		r.cands = append(r.cands[:0], ix.cand(ix.line))
		out = r.adopt(0, r.lastChange, out)
		// (The lift stays the reply's, not a knock to excuse: the king of
		// a castling under way, held so, let Rg1 read the rook's lift.)
		r.rec.lifted |= unrotBB(ix.diff, r.orient)
		return out, true
	}
	if m, ok := r.landedAfterReplyRun(ev); ok {
		return r.adoptRun(&m, out)
	}
	return out, false
}

// adoptRun publishes m, landedAfterReplyRun's run (or the plies before
// its last one), and keeps what the next decision reads from.
func (r *Reconstructor) adoptRun(m *catchMatch, out []Output) ([]Output, bool) {
	// (The piece in the hand, and its victim: as landedAfterReply's.)
	hand := unrotBB(r.v.diff(&m.pos), r.orient)
	if m.back > 0 {
		out = r.adoptBack(m, r.lastChange, out)
		r.rec.lifted |= hand
		return out, true
	}
	var c cand
	if m.n > len(c.moves) {
		return out, false
	}
	c.n = copy(c.moves[:], m.moves[:m.n])
	r.ver++ // r.cands no longer holds what explain found
	r.cands = append(r.cands[:0], c)
	out = r.adopt(0, r.lastChange, out)
	if m.handLate {
		r.rec.lifted |= hand
		return out, true
	}
	// The changes since the plies published, the last ply's and the
	// piece in the hand, are the next decision's record (else it sees the
	// last ply's squares only from their last change: Bf7 with its hand
	// knocking g6 onto f6, read from the fall alone).
	for i := range r.log.evs {
		if e := &r.log.evs[i]; e.Kind == trace.Off {
			r.rec.off(e.Square, e.T)
		} else {
			r.rec.on(e.Square, e.T, e.Piece, e.HasColour, e.HasPieces)
		}
	}
	return out, true
}

// landedAfterReply reports, on colour and piece boards without a clock,
// whether the board after a piece was set down, at the next change (ev)
// minReadyReplyMs or more later, is one legal move
// from the published game (ix) with one piece of the player to reply off
// its square, lifted after the move's piece and before its landing was
// read, and able to move: the reply begun before the landing was read (a
// sweep that reads it late, or hands that overlap). The move is
// published then, the lift kept as the reply's. Else every landing read
// after the next lift left the game dark until the board stood still
// (each landing read 50 ms after the reply's lift: 14 plies behind at
// the end of a 14-ply run).
func (r *Reconstructor) landedAfterReply(ev *trace.Event) (inexact, bool) {
	if !r.lateLandingBoard() {
		return inexact{}, false
	}
	// (Cheap tests first, this runs at most changes: one or two pieces
	// of the player to reply are off the board: the one in the hand, and
	// a victim.)
	P := &r.lines[0].pos
	if n := (P.ByColor(P.SideToMove().Other()) &^ r.v.occ).Count(); n == 0 || n > 2 {
		return inexact{}, false
	}
	ix := r.inexactBest()
	if ix.illegal || ix.unreplaced || ix.line != 0 || ix.move == chess.NoMove || ix.reply != chess.NoMove || ix.diff.Count() != 1 {
		return inexact{}, false
	}
	q := r.lines[0].pos
	q.MakeMove(ix.move)
	m, s := ix.move, ix.diff.First()
	lift, ok1 := r.lastOff(m.From())
	off, ok2 := r.lastOff(s)
	land, ok3 := r.lastOn(m.Landing())
	if m.IsCastling() {
		// (Made when its second piece is down.)
		if rl, ok := r.lastOn(m.CastlingRookTo()); ok && rl > land {
			land = rl
		}
	}
	if !ok1 || !ok2 || !ok3 || !r.liftedBeforeLanding(lift, off, land) || !r.landedBeforeLift(ev, P, &q, m, s) {
		return inexact{}, false
	}
	for i := range r.ixAlts {
		if o := &r.ixAlts[i]; o.move != ix.move && o.cost <= ix.cost+uncertainGap {
			return inexact{}, false
		}
	}
	return ix, true
}

// lateLandingBoard holds landedAfterReply's and landedAfterReplyRun's
// first tests: a colour or piece board without a clock, a game in play
// with nothing pending or alerted, the last change a piece set down, and
// three squares or more off the published position.
func (r *Reconstructor) lateLandingBoard() bool {
	return !r.clock && r.sensor != trace.Occupancy && !r.pending && r.overlay&^r.silent == 0 && len(r.lines) > 0 &&
		(r.state == statePlay || r.state == stateSetup && r.sawStart) && r.lastSq != chess.NoSquare && r.raw.occ.Has(r.lastSq) &&
		r.v.diff(&r.lines[0].pos).Count() >= 3
}

// liftedBeforeLanding reports whether a piece lifted at off was taken up
// after a move's piece (lift) and before its landing (land), the last
// change.
func (r *Reconstructor) liftedBeforeLanding(lift, off, land int64) bool {
	return off > lift && off < land && land == r.lastChange
}

// landedBeforeLift reports whether m, made from p (q after it), its
// landing read after s, a piece of the player to move in q, was lifted
// (liftedBeforeLanding), is the move and s the reply's piece in the
// hand: landedAfterReply's tests at change ev.
func (r *Reconstructor) landedBeforeLift(ev *trace.Event, p, q *chess.Position, m chess.Move, s chess.Square) bool {
	// (Not a promotion: its piece is the input's or the sensor's, which
	// the inexact reading, queens only, does not weigh.)
	if m.IsPromotion() || r.v.occ.Has(s) || !q.ByColor(q.SideToMove()).Has(s) {
		return false
	}
	// Not next to where the moving hand went: its knock as it let go is
	// as likely (28. R4e3 knocking the d3 rook onto d4, lifted 3 ms before
	// e3 was read filled: then read as the reply, Rd4 was published).
	way := m.Landing().Bitboard()
	if !m.IsCastling() {
		way |= chess.Between(m.From(), m.To())
	}
	if around(way).Has(s) {
		return false
	}
	// Nor when this change is the moving piece going on: its landing
	// emptied, or a square further along its line filled (3. Bb5 slid
	// via c4, read there 150 ms: Bc4 was published, then amended). Nor
	// a king's or rook's move that a castling begins: the other piece
	// follows (O-O rook first, the reply's lift read before f1 filled:
	// Rf1 was published, then O-O read as Ke7 and more).
	if r.swapOn != nil && ev.Kind == trace.Off && ev.Square == r.swapOn.Square {
		// (Emptied and filled in one reading: the filling tells.)
		ev = r.swapOn
	}
	gs, on := rotSquare(ev.Square, r.orient), ev.Kind == trace.On
	mine := !ev.HasColour || ev.Piece.Color() == q.SideToMove().Other()
	if !on && gs == m.Landing() || on && mine && !m.IsCastling() && chess.Between(m.From(), gs).Has(m.Landing()) || r.castlingBegun(p, m) {
		return false
	}
	return r.movable(q, s)
}

// landedAfterReplyRun is landedAfterReply for a run of plies, each
// landing read after the next one's lift: where the one-move rule was
// held back (the next ply a capture on that landing, its victim taken off
// as a slide would leave it, or lifted next to it), the ordered decoder
// reads the plies since, and the board is their position but for the
// piece in the hand of the player to move (replyInHand), lifted after
// the last ply's piece and before its landing. The run is published when
// its last ply passes landedAfterReply's tests, else the plies before it
// (the last one read after them bears them out). (d4 cxd4 Nxd4, each
// capture's hand on its piece as the move before landed: 9 plies behind
// at the end of a 14-ply run.)
func (r *Reconstructor) landedAfterReplyRun(ev *trace.Event) (catchMatch, bool) {
	if !r.lateLandingBoard() {
		return catchMatch{}, false
	}
	r.decodeHandLate = true
	m, ok := r.decodeOrdered()
	start := r.lines[0].pos
	if (!ok || !m.handLate) && r.backReady() && len(r.plies)-r.log.nPrev == 1 && !r.v.occ.Has(r.pub[r.log.nPrev].Landing()) {
		// The last decision's ply may be a piece read where it paused,
		// then gone on (its landing empty now): the run read again from
		// before it, that ply amended to the same piece's move (1. e3
		// published at 1... e7's lift, the pawn stopped 387 ms on e3 on
		// its way to e4: the game went dark for 23 plies).
		pm := r.pub[r.log.nPrev]
		if b, bok := r.orderedBack(); bok && b.handLate && b.n >= 2 && b.moves[0] != pm && b.moves[0].From() == pm.From() {
			m, ok, start = b, true, r.befores[r.log.nPrev]
			m.back = len(r.plies) - r.log.nPrev
		}
	}
	r.decodeHandLate = false
	if !ok || !m.handLate || m.n < 2 {
		return catchMatch{}, false
	}
	d := r.v.diff(&m.pos)
	last, s := m.moves[m.n-1], (d & m.pos.ByColor(m.pos.SideToMove())).First()
	if ev.Kind == trace.On && rotSquare(ev.Square, r.orient) == s {
		// (The piece is put back: a touch, or a knock by the last ply's
		// hand, which the searches weigh.)
		return catchMatch{}, false
	}
	// (Timed from the log: a decision may have published the plies
	// before the last one, and the record since starts after them.)
	lift, off := r.loggedLast(last.From(), trace.Off), r.loggedLast(s, trace.Off)
	if off < 0 || !r.liftedBeforeLanding(lift, off, r.log.evs[len(r.log.evs)-1].T) {
		return catchMatch{}, false
	}
	p := start
	for _, mv := range m.moves[:m.n-1] {
		p.MakeMove(mv)
	}
	if !r.landedBeforeLift(ev, &p, &m.pos, last, s) {
		if m.back > 0 {
			return catchMatch{}, false
		}
		m.n--
		m.pos, m.handLate = p, false
	}
	return m, true
}

// loggedLast is the time of the log's last change of kind k on game
// square s, -1 if none.
func (r *Reconstructor) loggedLast(s chess.Square, k trace.Kind) int64 {
	raw := unrotSquare(s, r.orient)
	for j := len(r.log.evs) - 1; j >= 0; j-- {
		if e := &r.log.evs[j]; e.Square == raw && e.Kind == k {
			return e.T
		}
	}
	return -1
}

// slidOnAfterPress reports whether c, the last published ply taken back
// and one move made, is that ply's piece gone on along its line, its
// landing emptied within a sweep and earlyPressMs of its mover's press.
func (r *Reconstructor) slidOnAfterPress(c *cand) bool {
	n := len(r.plies)
	if n == 0 || c.back != 1 || c.n != 1 {
		return false
	}
	pm, m := r.plies[n-1].move, c.moves[0]
	if m.From() != pm.From() || m.IsCastling() || pm.IsCastling() || !chess.Between(m.From(), m.To()).Has(pm.To()) {
		return false
	}
	pt := r.pressedAt[r.befores[n-1].SideToMove()]
	off, ok := r.lastOff(pm.To())
	return pt > 0 && ok && off > pt && off <= pt+r.sweepMs()+earlyPressMs
}

// changedAfterEnd notes for the arbiter's log a still board that differs
// from the final position by a move's worth of squares (at most four)
// after the game ended: a move made after a mate, say, which is no part
// of the score and no irregularity. Once per board shown; larger changes
// are the pieces cleared or set up again, which the log need not list.
func (r *Reconstructor) changedAfterEnd(t int64, out []Output) []Output {
	if r.state != stateEnded {
		return out // a new game was set up
	}
	d := r.v.diff(&r.lines[0].pos)
	if d == 0 || d.Count() > 4 || r.viewKey() == r.endNoteKey {
		return out
	}
	r.endNoteKey = r.viewKey()
	return r.note(out, NoteUnrecognised, t, d, fmt.Sprintf("the board changed after the game had ended (%s): not part of the game score", describeSquares(&r.v, d, nil)))
}

// reopen: a game that a disputed move ended (checkmate or stalemate by a
// capture nobody saw taken, with another capture close) goes on when the
// board shows a move of the other hypothesis: the end is withdrawn (an End
// with result "*") and the board is judged as in play. ok is false when
// the game stays ended (then a new game set up is looked for).
func (r *Reconstructor) reopen(t int64, out []Output) (_ []Output, ok bool) {
	if r.endDisputed {
		best := r.explain(false, false)
		if (best < 0 || r.cands[best].line == 0) && r.revive() {
			best = r.explain(false, false)
		}
		if best >= 0 {
			if c := &r.cands[best]; c.line != 0 && c.n > 0 && c.back == 0 {
				r.state, r.result, r.reason, r.endDisputed = statePlay, "", "", false
				return append(out, Output{Kind: End, T: t, Ply: r.lines[0].pos.Ply(), Result: "*",
					Reason: "the game went on: an earlier move was another", ClockMs: -1, From: chess.NoSquare, To: chess.NoSquare,
					Text: "The board shows a move after the end: a capture before it took another piece."}), true
			}
		}
	}
	return r.checkNewGame(t, out), false
}

// weigh finds the best explanation of the board: exact (an index into
// r.cands) or, when nothing exact is as cheap, inexact (useIx).
func (r *Reconstructor) weigh(allowResync bool) (best int, ix inexact, useIx bool) {
	best = r.explainFirst(allowResync)
	if best >= 0 && r.cands[best].n <= 1 && r.cands[best].back == 0 {
		return best, ix, false
	}
	ix = r.inexactBest()
	useIx = best < 0 || ix.cost < r.cands[best].cost
	if useIx && allowResync && r.revive() {
		// An earlier capture that nobody saw taken may have taken
		// another piece: the board is judged again with those histories.
		best = r.explainFirst(allowResync)
		ix = r.inexactBest()
		useIx = best < 0 || ix.cost < r.cands[best].cost
	}
	return best, ix, useIx
}

// revive adds as hypotheses the other histories of the recent published
// captures whose victims nobody saw taken (the same piece taking another
// piece) and promotions whose piece nobody told (another piece), with the
// published moves after them where they are still legal. On
// occupancy sensors such a history looks the same on the board until a
// piece moves that only one of them has; a hypothesis dropped before that
// comes back here. It reports whether any was added (once per board).
func (r *Reconstructor) revive() bool {
	key := r.viewKey()
	if key == r.reviveKey || len(r.lines) >= maxLines {
		return false
	}
	r.reviveKey = key
	n0 := len(r.lines)
	for i := len(r.plies) - 1; i >= 0 && i >= len(r.plies)-maxRevive; i-- {
		pr := &r.plies[i]
		m := pr.move
		before := &r.befores[i]
		// On an occupancy board the last ply, a capture whose victim was
		// seen lifted and the square filled again, may as well have
		// been a piece knocked off there and put back while the
		// capture was made next door faster than a scan (36... Qxe2,
		// its hand knocking f2 off and putting it back, read as
		// Qxf2+; 37. Rxe2 then an illegal move, and the game lost):
		// its other captures come back too.
		seenCapture := r.sensor == trace.Occupancy && i == len(r.plies)-1 && !pr.blind && !m.IsCastling() && before.PieceAt(m.To()) != chess.NoPiece
		if !pr.blind && !pr.blindPromo && len(pr.alts) == 0 && !seenCapture {
			continue
		}
		for _, a := range r.legal(before).Moves() {
			// Another capture by the same piece, or another piece
			// promoted to on the same square, or another move that
			// explained the board with other pieces misplaced.
			otherCapture := (pr.blind || seenCapture) && a.To() != m.To() && before.PieceAt(a.To()) != chess.NoPiece &&
				(!a.IsPromotion() || a.Promotion() == chess.Queen)
			otherPromo := pr.blindPromo && a.To() == m.To() && a != m
			sameFrom := a.From() == m.From() && !a.IsCastling()
			if !(sameFrom && (otherCapture || otherPromo)) && !slices.Contains(pr.alts, a) {
				continue
			}
			pos, ok := r.replayWith(i, a)
			if !ok || len(r.lines) >= maxLines {
				continue
			}
			moves := make([]chess.Move, len(r.pub), len(r.pub)+16)
			copy(moves, r.pub)
			moves[i] = a
			r.lines = append(r.lines, line{moves: moves, pos: pos, cost: r.lines[0].cost + costBack})
		}
	}
	if len(r.lines) == n0 {
		return false
	}
	r.ver++
	r.sortLines()
	return true
}

// knockRead reports whether ix, on a colour or piece board, is one move
// whose hand knocked one or two pieces as it was made (knockedDuring, not
// well before it began): the alert timer judges the knocked pieces, and
// the ordered decoder is not asked for more plies at the commit timer
// (Qb3-c4 touching down on d5, its hand knocking the bishop from b4 onto
// a3 as it landed, was read Qd5 Ba3 Qc4, the put-back then Bb4, and four
// alerts followed).
func (r *Reconstructor) knockRead(ix *inexact) bool {
	if r.sensor == trace.Occupancy || ix.move == chess.NoMove || ix.reply != chess.NoMove {
		return false
	}
	ok, early := r.knockedDuring(ix)
	return ok && !early
}

// onCommit runs when the board has been still for CommitMs: without a
// clock, a move standing on the board is published. A capture whose
// victim was never seen lifted waits for the alert timer: on occupancy
// sensors it looks the same as a piece held in the air.
func (r *Reconstructor) onCommit(t int64, out []Output) []Output {
	if r.clock || r.state == stateEnded {
		return out
	}
	r.decisions++
	r.makeView()
	if n := len(out); r.v.diff(&r.lines[0].pos) == 0 {
		if out = r.repeated(r.lastChange, out); len(out) > n {
			return out
		}
	}
	r.deepResync = true
	best, ix, useIx := r.weigh(true)
	r.deepResync = false
	if useIx && best >= 0 && (r.recapturedUnseen(&ix, &r.cands[best]) || r.toppledBack(&r.cands[best], ix.cost)) {
		useIx = false
	}
	if useIx || best < 0 {
		if !r.inProgress(true) {
			var ok bool
			r.catchKeep = r.illegalByMover(&ix)
			out, ok = r.catchUp(r.lastChange, false, ix.cost, ix.plies(), false, 0, out)
			r.catchKeep = false
			if !ok && !r.knockRead(&ix) {
				if out, ok = r.decode(r.lastChange, 3, out); !ok && r.sensor == trace.Occupancy {
					out = r.decodeLeftOff(t, out)
				}
			}
		}
		return out
	}
	if c := &r.cands[best]; c.n >= 3 && r.sensor == trace.Occupancy && r.inHandCheaper(c.n, c.cost) {
		// A piece in the hand, to be put back: wait for it.
		return out
	}
	if c := &r.cands[best]; r.sensor == trace.Occupancy && r.fallsCheaper(c) {
		// Pieces fallen, to be put back: wait for them.
		return out
	}
	if c := &r.cands[best]; c.line != 0 && r.sensor == trace.Occupancy && r.fallReadAsMove(c, minQuickCarryMs) {
		// Another history proved only by a piece that fell: wait for it
		// to be put back.
		return out
	}
	c := &r.cands[best]
	if c.backOnly() {
		// A board back where an earlier ply left it reads as a takeback
		// from the board alone; the changes in their order may read as
		// moves that came back to it (a repetition: Re8, then Qd1 Rc8
		// Qe2 in 535 ms, read as Re8 taken back), as End reads them.
		var done bool
		if out, done = r.decode(r.lastChange, c.back+1, out); done {
			return out
		}
		c = &r.cands[best]
	}
	// A promotion on a board that cannot see the piece waits too: its
	// promote input usually comes a moment after the piece is put down.
	promoPending := c.n > 0 && c.moves[c.n-1].IsPromotion() && r.sensor != trace.PieceSensor && r.promo == chess.NoPieceType
	if c.changes() && !c.missed && !promoPending {
		if r.sensor == trace.Occupancy {
			best = r.toppledFirst(r.orderedCand(best))
		}
		out = r.adopt(best, r.lastChange, out)
	}
	return out
}

// decodeLeftOff publishes, on an occupancy board still for CommitMs,
// the plies the ordered decoder reads with a piece knocked off the board
// as a move landed and left off, when the game went on two plies or more
// after that move (so the piece is in no hand that is making a move), none
// of them begun next to the landing before it as soon as a knock (Be3's
// hand knocking e4 onto e5, read as ...Re5) nor a capture taken at its
// piece's lift (the piece may be in the hand), and alerts the piece
// against the player whose hand knocked it. The alert timer reads such a
// board too, but hands that never pause for AlertMs
// kept it from the published game (2. Nf3, f2 knocked off 200 ms after
// the landing, six plies in 8.7 s: the game stood at 1... e5 until the
// first still board, 12.7 s later).
func (r *Reconstructor) decodeLeftOff(t int64, out []Output) []Output {
	if !r.decodable() || r.state != statePlay {
		return out
	}
	r.decodeLeft = true
	m, ok := r.decodeOrdered()
	r.decodeLeft = false
	if !ok || m.knocked.Count() != 1 || m.putBack || m.n-m.knockAt-1 < 2 || m.back != 0 || m.quick>>(m.knockAt+1) != 0 {
		return out
	}
	if t-r.changedAt[unrotSquare(m.knocked.First(), r.orient)] < r.timing.AlertMs {
		// Off as long as the alert timer waits (a knocked piece is
		// usually put back within 3 s: g7 knocked off by Kxf7's hand,
		// Bd2's knocking d3 onto c2, read so as Kxf7 Bd2 Bc2).
		return out
	}
	r.makeView()
	if r.v.diff(&m.pos) != m.knocked || r.v.occ&m.knocked != 0 {
		// (Off the board, not knocked onto another square: e6's hand
		// knocking f7 onto f6, put back 2.5 s later, read so as 1... f6
		// 2. d4 with e7 knocked onto e6.)
		return out
	}
	n0 := len(r.plies)
	out = r.adoptDecoded(&m, t, out)
	r.makeView()
	P := r.lines[0].pos
	if len(r.plies) != n0+m.n || r.v.diff(&P) != m.knocked {
		return out
	}
	ply, side := r.plyOf(r.knockPly)
	r.knockPly = 0
	r.alertKey = r.viewKey()
	r.setOverlay(m.knocked, &P, len(r.plies))
	return r.misplaced(out, t, ply, side, &P, m.knocked)
}

// orderedGap: explanations this close are decided by the ordered
// decoder (orderedCand): no more than a stray touch apart.
const orderedGap = costStrayFar

// orderedCand is the explanation the commit timer adopts of best and the
// others within orderedGap of it that read more plies: the one the
// ordered decoder reads from the published game, if any, else best. The
// kept sets of squares weigh plies and touches, not the order of the
// changes: 5. O-O, its hand knocking f2 onto the e1 the king had left,
// f2 put back, 5... Be7 6. Re1 read as 5. Rg1 Be7 (the rook shown on g1
// before h1 emptied, the king lifted and put back, a piece on f1 from
// nowhere for 2.7 s), one point cheaper than the three plies, and 6...
// b5 was then alerted an illegal move. (Not one of as many plies, nor
// one 10 dearer: the ordered decoder read a piece fallen onto e5 as
// 40... Qe5, and Qe5xd5 as the queen's capture on d5, pushed off, whose
// three plies cost 57 against its four's 67.)
func (r *Reconstructor) orderedCand(best int) int {
	b := &r.cands[best]
	if b.line != 0 || b.back != 0 {
		return best
	}
	near := func(c *cand) bool { return c.n > b.n && c.line == 0 && c.back == 0 && c.cost <= b.cost+orderedGap }
	found := false
	for i := range r.cands {
		found = found || near(&r.cands[i])
	}
	if !found {
		return best
	}
	// (The decoder's searches explain boards of their own: the
	// candidates are put back after.)
	restore := r.keepExplanation()
	m, ok := r.decodeLog(0)
	restore()
	if !ok || m.back != 0 || m.knocked != 0 && !m.putBack {
		return best
	}
	for i := range r.cands {
		if c := &r.cands[i]; near(c) && c.n == m.n && slices.Equal(c.moves[:c.n], m.moves[:m.n]) {
			return i
		}
	}
	return best
}

// fallReadAsMove reports whether one of c's moves is a piece's fall not
// yet put back (falls, within flight). Taken as the move of another
// history, 15... Nd7's hand knocking e6 onto f5 amended 9. Nxc6
// Bxc6 (six moves before) to Nxe6 Bxe6, whose bishop could go to f5; the
// pawn put back, the game stayed wrong.
func (r *Reconstructor) fallReadAsMove(c *cand, flight int64) bool {
	return r.fallMove(c, flight, false)
}

// fallMove reports whether one of c's moves is a fall within flight, if
// soon one that left its square too soon for a reply.
func (r *Reconstructor) fallMove(c *cand, flight int64, soon bool) bool {
	return r.fallMoveIn(c, r.falls(flight), soon)
}

// fallMoveIn is fallMove over the falls fs.
func (r *Reconstructor) fallMoveIn(c *cand, fs []fall, soon bool) bool {
	for _, f := range fs {
		if soon && !f.soon {
			continue
		}
		from, to := rotSquare(f.from, r.orient), rotSquare(f.to, r.orient)
		for _, m := range c.moves[:c.n] {
			if m.From() == from && m.To() == to {
				return true
			}
		}
	}
	return false
}

// fall is a piece's fall from one raw square onto the next; soon: it left
// its square sooner after the landing next to it than a reply begins
// (minReplyMs).
type fall struct {
	from, to chess.Square
	soon     bool
	// landSq, gap: the raw square whose landing came before the fall,
	// and how long before its piece left from.
	landSq chess.Square
	gap    int64
	t      int64 // when it left from
}

// falls is the pieces' falls in the log not yet put back, on occupancy
// boards: a square emptied less than knockMs after a landing next to it
// (the hand that set it down knocked it), and an empty square next to it
// filled within flight after, neither changed since. (r.fallBuf, reused.)
func (r *Reconstructor) falls(flight int64) []fall {
	fs := r.fallBuf[:0]
	defer func() { r.fallBuf = fs }()
	evs := r.log.evs
	var later chess.Bitboard // raw squares changed at change k or after (after: after it)
	for k := len(evs) - 1; k > 0; k-- {
		on := &evs[k]
		after := later
		later |= on.Square.Bitboard()
		if on.Kind != trace.On || after.Has(on.Square) {
			continue
		}
		for i := k - 1; i >= 0 && on.T-evs[i].T < flight; i-- {
			off := &evs[i]
			if off.Kind != trace.Off || !chess.KingAttacks(off.Square).Has(on.Square) || after.Has(off.Square) {
				continue
			}
			if land, sq, ok := r.landedNextTo(off.Square, i); ok {
				fs = append(fs, fall{off.Square, on.Square, off.T-land < minReplyMs, sq, off.T - land, off.T})
				break
			}
		}
	}
	return fs
}

// fallsCheaper reports, for an occupancy board explained by c, three
// plies or more, whether the pieces' falls not yet put back (falls, as
// slow as knockFlightMs) explain it as well in fewer plies for less, each
// fall priced as its piece out of place: the board with them undone
// explained by fewer plies, cheaper by more than costMisplaced per fall.
// (8... Rxd8's hand knocked c8 onto d7 and 9. Bg5's knocked g6 onto f5,
// both put back within 2.5 s; the board was read as five plies, 8... Bf5
// 9. Qd7 g5 10. Bxg5 Rd8, and the game was lost for good.) Two plies, one
// of them a fall that left its square too soon for a reply, always wait
// (e7 knocked onto f8 132 ms after 13. Nxe6 landed was read as 13...
// Bf8, and 13. Nxc6 Bf8 was published, the capture on e6 seen made taken
// for a touch).
func (r *Reconstructor) fallsCheaper(c *cand) bool {
	n, cost := c.n, c.cost
	if n == 0 {
		return false
	}
	if r.toppledOntoLeft(c) || r.pushedFall(c) || r.toppledSlowly(c) {
		return true
	}
	fs := r.falls(knockFlightMs)
	if len(fs) == 0 {
		return false
	}
	if r.slidFromFall(c, fs) {
		return true
	}
	if n == 2 && r.fallMoveIn(c, fs, true) {
		return true
	}
	undo := func(soon bool) func(v *view) {
		return func(v *view) {
			for _, f := range fs {
				if f.soon || !soon {
					v.occ = (v.occ | rotSquare(f.from, r.orient).Bitboard()) &^ rotSquare(f.to, r.orient).Bitboard()
				}
			}
		}
	}
	anySoon := slices.ContainsFunc(fs, func(f fall) bool { return f.soon })
	var moves []chess.Move
	if anySoon {
		moves = append(r.fallMoves[:0], c.moves[:n]...)
		r.fallMoves = moves
	}
	// (The explanation of the board as it is stays the caller's.)
	defer r.keepExplanation()()
	if n >= 3 && r.editedCheaper(n, cost, costMisplaced*len(fs), undo(false)) {
		return true
	}
	// Read as other plies for less with the falls undone, only those that
	// left sooner than a reply begins: 44... Kd4, 460 ms after the
	// knocked f6 pawn landed on f5 next to it, was no fall, and with it
	// undone 44... Re5+ alone read cheaper.
	return anySoon && r.fallsReadOther(moves, cost, undo(true))
}

// fallsReadOther reports, for a board explained in one or two plies,
// moves at cost, whether the board with the falls undone (edit) reads as
// other moves, as many or fewer, for less by more than a stray touch:
// the fall, its timing seen (falls), costs less than the touches moves
// need. (14. O-O, the king set on g1 knocking the rook just set on f1
// onto e1, 14... b5 made as it fell: read as 14. Rg1 b5, the king lifted
// and put back and a piece shown on f1 a moment, cost 25, and the
// put-back then as 15. Kf1.)
func (r *Reconstructor) fallsReadOther(moves []chess.Move, cost int, edit func(v *view)) bool {
	r.replyBack()
	edit(&r.v)
	r.markEdited()
	b := r.explainFirst(true)
	if b < 0 {
		return false
	}
	o := &r.cands[b]
	return o.n > 0 && o.n <= len(moves) && o.back == 0 && o.cost+costStrayFar < cost && !slices.Equal(o.moves[:o.n], moves)
}

// toppledOntoLeft reports, for c of one or two plies (of more, read as
// other plies for less, fallsReadOther), whether a piece set
// down stood less than a touch-down (minTouchMs, more than contacts
// chatter) and fell onto a square next to it that a lift had emptied
// before, or that it crossed to get there, with the board, that fall
// undone, explained in as many plies or fewer: c reads the fall as a
// lifted piece put back, or as a move. (6. O-O, the rook set on f1
// toppling 60 ms later onto the e1 the king had left, was read as 6.
// Rg1 with the king lifted and put back; 8... Ba6 toppling onto the b7
// it had crossed from c8, empty for plies, as 8... Bb7. Not any empty
// square: a knight touching down on e4 for 100 ms on its way to d5 is
// no fall.) Not a square a
// move of c slides over. Its own landing made it fall, not a hand's
// next to it as for falls: 8... O-O-O's rook, set on d8 525 ms after
// the king landed on c8, toppled onto e8.
func (r *Reconstructor) toppledOntoLeft(c *cand) bool {
	n := c.n // (c is one of r.cands, which the search below overwrites)
	if n == 0 {
		return false
	}
	if n > 2 {
		// (Of more plies, other plies for less: 9. O-O's rook toppled
		// as the fifth of five fast plies, read as Rg1.)
		return r.toppledReadOther(c, bounceMs, minTouchMs, true)
	}
	from, to := r.toppled(c, bounceMs, minTouchMs, true)
	if from == 0 {
		return false
	}
	// (The explanation of the board as it is stays the caller's.)
	defer r.keepExplanation()()
	r.replyBack()
	r.v.occ = (r.v.occ | from) &^ to
	r.markEdited()
	b := r.explainFirst(true)
	return b >= 0 && r.cands[b].n > 0 && r.cands[b].n <= n
}

// toppledSlowly reports, for c of one or two plies, whether a piece that
// stood longer, from minTouchMs to standMs, fell onto a square next to
// it that a lift had emptied, with the board, that fall undone, read as
// other plies for less (fallsReadOther): a touch-down on the way is as
// likely from the squares, the cost tells. (8... O-O, the king first,
// the rook standing 200 ms on f8 and toppling onto the e8 the king had
// left: read as 8... Rg8, the king lifted and put back and f8 touched,
// and the put-back as 9... Kf8.)
func (r *Reconstructor) toppledSlowly(c *cand) bool {
	return c.n > 0 && c.n <= 2 && r.toppledReadOther(c, minTouchMs-1, standMs, false)
}

// toppledReadOther reports whether the board, with the pieces toppled
// (toppled, stood more than lo and less than hi) set back, reads as
// other plies than c's for less (fallsReadOther).
func (r *Reconstructor) toppledReadOther(c *cand, lo, hi int64, crossed bool) bool {
	from, to := r.toppled(c, lo, hi, crossed)
	if from == 0 {
		return false
	}
	// (c is one of r.cands, which the search overwrites.)
	moves, cost := append(r.fallMoves[:0], c.moves[:c.n]...), c.cost
	r.fallMoves = moves
	// (The explanation of the board as it is stays the caller's.)
	defer r.keepExplanation()()
	return r.fallsReadOther(moves, cost, func(v *view) { v.occ = (v.occ | from) &^ to })
}

// toppled is the game squares of the pieces in the log set down that
// stood more than lo and less than hi and then fell onto an empty square
// next to it, within knockFlightMs, neither changed since: from, the
// squares they stood on, to, where they lie. The square fallen onto was
// emptied by a lift before, or, if crossed, lies on the line from the
// square emptied before the piece's landing to where it stood. Not a
// square a move of c slides over (slidThrough).
func (r *Reconstructor) toppled(c *cand, lo, hi int64, crossed bool) (from, to chess.Bitboard) {
	evs := r.log.evs
	r.eachFall(func(k, i int) {
		on, off := &evs[k], &evs[i]
		// (The change of its square before: a piece set down there.)
		j := i - 1
		for j >= 0 && evs[j].Square != off.Square {
			j--
		}
		if stood := off.T - evs[max(j, 0)].T; j >= 0 && evs[j].Kind == trace.On && stood > lo && stood < hi &&
			(r.lastChangeOff(on.Square, k) || crossed && r.crossed(on.Square, j)) {
			gf, gt := rotSquare(off.Square, r.orient), rotSquare(on.Square, r.orient)
			if !c.slidThrough(gf, gt, on.T-off.T < minQuickCarryMs) {
				from |= gf.Bitboard()
				to |= gt.Bitboard()
			}
		}
	})
	return from, to
}

// eachFall calls fn for each logged landing k on an empty square and
// each earlier lift i next to it, less than knockFlightMs before it,
// neither square changed since (between them, nor after): a piece that
// may have fallen from i's square onto k's.
func (r *Reconstructor) eachFall(fn func(k, i int)) {
	evs := r.log.evs
	var later chess.Bitboard // raw squares changed after change k
	for k := len(evs) - 1; k > 0; k-- {
		on := &evs[k]
		after := later
		later |= on.Square.Bitboard()
		if on.Kind != trace.On || after.Has(on.Square) {
			continue
		}
		var since chess.Bitboard // raw squares changed after change i, up to k
		for i := k - 1; i > 0 && on.T-evs[i].T < knockFlightMs; i-- {
			off := &evs[i]
			if off.Kind == trace.Off && chess.KingAttacks(off.Square).Has(on.Square) && !(after | since).Has(off.Square) {
				fn(k, i)
			}
			since |= off.Square.Bitboard()
		}
	}
}

// pushedFall reports, for c of one or two plies, whether a piece fell
// onto a square next to it less than knockMs after another square was
// lifted, no landing seen between (falls needs one): the hand of a
// capture whose victim was pushed off, its landing never shown, knocked
// it over. With that fall undone, the board is explained in as many
// plies or fewer for no more, one of them a capture from the lifted square
// next to the fallen piece, whose victim's square never changed since.
// (18. exf5,
// its hand knocking g4 onto h5 225 ms after the pawn's lift, was read as
// 18... Bh5, and the put-back caught up with plies never played; 13...
// Rxd7's hand knocked e7 onto the d8 the rook had left, read as 13...
// Qxd7 with the rook lifted and put back.) Not with a castling in c,
// whose rook may be lifted after its king with no landing between.
func (r *Reconstructor) pushedFall(c *cand) bool {
	n, cost := c.n, c.cost // (c is one of r.cands, which the search below overwrites)
	if n == 0 || n > 2 {
		return false
	}
	for _, m := range c.moves[:n] {
		if m.IsCastling() {
			return false
		}
	}
	evs := r.log.evs
	var from, to, lifts chess.Bitboard // game squares: filled, emptied, lifted before
	first := len(evs)                  // the first of the lifts
	r.eachFall(func(k, i int) {
		on, off := &evs[k], &evs[i]
		// (Not a square on the line from the lift to the landing: the
		// lifted piece sliding on, a victim taken off in its way.)
		if l, li, ok := r.liftedBefore(i); ok && !chess.Between(l, on.Square).Has(off.Square) {
			first = min(first, li)
			from |= rotSquare(off.Square, r.orient).Bitboard()
			to |= rotSquare(on.Square, r.orient).Bitboard()
			lifts |= rotSquare(l, r.orient).Bitboard()
		}
	})
	if from == 0 {
		return false
	}
	// (The explanation of the board as it is stays the caller's.)
	defer r.keepExplanation()()
	r.replyBack()
	r.v.occ = (r.v.occ | from) &^ to
	r.markEdited()
	b := r.explainFirst(true)
	if b < 0 || r.cands[b].n == 0 || r.cands[b].n > n || r.cands[b].back != 0 || r.cands[b].cost > cost {
		return false
	}
	// (A capture pushing its victim off, its square never changed since,
	// next to the fallen piece: its hand's work. Not the victim taken off
	// first, the capturer lifted next to it; nor a reply begun at once,
	// 9... e5 lifted 348 ms after 9. Qxd4's.)
	pos := r.lines[r.cands[b].line].pos
	pushed := false
	for _, m := range r.cands[b].moves[:r.cands[b].n] {
		if (m.From().Bitboard()|m.To().Bitboard())&from != 0 {
			// (The fallen piece stood there, no move's: 25. dxe5, the
			// knight on e5 taken off first, is no fall of d4 with 24...
			// Nxd4 and 25. Nxg4 both pushed off.)
			return false
		}
		near := chess.KingAttacks(m.From()) | chess.KingAttacks(m.To())
		if lifts.Has(m.From()) && near&from != 0 && !m.IsEnPassant() && pos.PieceAt(m.To()) != chess.NoPiece && !r.squareChangedFrom(unrotSquare(m.To(), r.orient), first) {
			pushed = true
		}
		pos.MakeMove(m)
	}
	return pushed
}

// squareChangedFrom reports whether raw square s changed at logged change i
// or after.
func (r *Reconstructor) squareChangedFrom(s chess.Square, i int) bool {
	for _, e := range r.log.evs[i:] {
		if e.Square == s {
			return true
		}
	}
	return false
}

// liftedBefore is the raw square emptied last before logged change i,
// less than knockMs before it, with no square filled between, and the
// change that emptied it.
func (r *Reconstructor) liftedBefore(i int) (chess.Square, int, bool) {
	evs := r.log.evs
	for j := i - 1; j >= 0 && evs[i].T-evs[j].T < knockMs; j-- {
		if evs[j].Kind == trace.On {
			break
		}
		if evs[j].Square != evs[i].Square {
			return evs[j].Square, j, true
		}
	}
	return chess.NoSquare, 0, false
}

// lastChangeOff reports whether the last change of raw square s before
// logged change k emptied it.
func (r *Reconstructor) lastChangeOff(s chess.Square, k int) bool {
	for j := k - 1; j >= 0; j-- {
		if e := &r.log.evs[j]; e.Square == s {
			return e.Kind == trace.Off
		}
	}
	return false
}

// crossed reports whether raw square s lies on the line from the square
// emptied last before logged change j (a landing) to j's square: the
// landing piece's path, if it came from there.
func (r *Reconstructor) crossed(s chess.Square, j int) bool {
	evs := r.log.evs
	for i := j - 1; i >= 0; i-- {
		if evs[i].Kind == trace.Off {
			return chess.Between(evs[i].Square, evs[j].Square).Has(s)
		}
	}
	return false
}

// toppledBack reports, on an occupancy board, whether one of c's moves,
// one step, was set down first for less than a touch-down rests
// (minTouchMs, more than contacts chatter) and its piece fell back onto
// the square it had left within knockFlightMs: the move was made then,
// and the changes after it (the reply, the piece put back) come in its
// order, though its last landing comes after them. Such an explanation
// is taken over one with pieces out of place (ix's cost) not a
// misplaced piece cheaper. (7. Bh4 toppling back onto g5 after 112 ms,
// 7... b6, the bishop put back: Bh4 b6 cost 77, Bh4 with b6 and b7 out
// of place 65, and a false alert followed.)
func (r *Reconstructor) toppledBack(c *cand, ixCost int) bool {
	if r.sensor != trace.Occupancy || c.cost > ixCost+costMisplaced {
		return false
	}
	return r.firstToppled(c.moves[:c.n]) < c.n
}

// firstToppled is the index of the first of moves that toppled back
// (toppledMove), len(moves) if none.
func (r *Reconstructor) firstToppled(moves []chess.Move) int {
	for i, m := range moves {
		if r.toppledMove(m) {
			return i
		}
	}
	return len(moves)
}

// toppledMove reports whether move m, one step, was set down in the log
// for less than a touch-down rests and its piece fell back onto the
// square it left within knockFlightMs.
func (r *Reconstructor) toppledMove(m chess.Move) bool {
	if m.IsCastling() || !chess.KingAttacks(m.From()).Has(m.To()) {
		return false
	}
	evs := r.log.evs
	from, to := unrotSquare(m.From(), r.orient), unrotSquare(m.To(), r.orient)
	for k := 0; k+2 < len(evs); k++ {
		if evs[k].Kind != trace.On || evs[k].Square != to {
			continue
		}
		off := k + 1
		for off < len(evs) && evs[off].Square != to {
			off++
		}
		if off == len(evs) || evs[off].T-evs[k].T <= bounceMs || evs[off].T-evs[k].T >= minTouchMs {
			continue
		}
		for j := off + 1; j < len(evs) && evs[j].T-evs[off].T < knockFlightMs; j++ {
			if evs[j].Square == from {
				if evs[j].Kind == trace.On {
					return true
				}
				break
			}
		}
	}
	return false
}

// toppledFirst is, of best and the explanations as dear that make the
// same moves in another order, the one that makes a move that toppled
// back (toppledMove) soonest: it was made at its first landing, though
// its last comes after the plies that followed it. (20. g5, toppling
// back onto g4 after 48 ms, 20... Nh5 21. e4, the pawn put back on g5:
// e4 Nh5 g5 and g5 Nh5 e4 cost alike, and the first was published.)
func (r *Reconstructor) toppledFirst(best int) int {
	b := &r.cands[best]
	if r.sensor != trace.Occupancy || b.n < 2 {
		return best
	}
	at := r.firstToppled(b.moves[:b.n])
	if at == b.n {
		return best
	}
	pick := best
	for i := range r.cands {
		c := &r.cands[i]
		if c.cost != b.cost || c.n != b.n || c.line != b.line || c.back != b.back || !sameMoves(c, b) {
			continue
		}
		if k := r.firstToppled(c.moves[:c.n]); k < at {
			pick, at = i, k
		}
	}
	// (Put first of the two: adopt keeps, of lines as dear to the same
	// position, the first candidate's.)
	lo, hi := min(best, pick), max(best, pick)
	r.cands[lo], r.cands[hi] = r.cands[hi], r.cands[lo]
	return lo
}

// sameMoves reports whether a and b make the same moves, in any order.
func sameMoves(a, b *cand) bool {
	for _, m := range a.moves[:a.n] {
		if !slices.Contains(b.moves[:b.n], m) {
			return false
		}
	}
	return true
}

// carriedFrom reports whether raw square s was last changed before land
// by a lift a carry before it (minQuickCarryMs to minCarryMs*4): a piece
// carried from s landed then. A piece on the landing's square then
// fallen onto s 23 ms after (6. Nf3 knocking f2 onto g1) was knocked as
// the hand let go, however soon: a pawn slid to f3 while the hand held
// the knight lifted from g1 is no move a hand makes. (Not a lift that
// was itself a knock, landedNextTo: 6. dxc5 knocking c6 off, 6... d4
// slid, c6 put back at once.)
func (r *Reconstructor) carriedFrom(s chess.Square, land int64) bool {
	evs := r.log.evs
	for j := len(evs) - 1; j >= 0; j-- {
		if e := &evs[j]; e.T < land && e.Square == s {
			_, _, knocked := r.landedNextTo(s, j)
			return e.Kind == trace.Off && land-e.T >= minQuickCarryMs && land-e.T < 4*minCarryMs && !knocked
		}
	}
	return false
}

// slidThrough reports whether one of c's moves slides over game square
// via, or steps from via onto its landing to: a piece slid along its
// line shows on each square a moment, and its last step onto its landing
// looks like a piece toppling there from the square before. From a
// square beyond the landing only if quick, sooner than a hand carries
// (minQuickCarryMs): a bishop slid from b2 on to d4, back onto c3 79 ms
// later; not 8... Ba6 from c8, falling back onto b7 in 283 ms, no slide
// to b7.
func (c *cand) slidThrough(via, to chess.Square, quick bool) bool {
	for _, m := range c.moves[:c.n] {
		if m.Landing() == to && (quick || via == m.From()) || chess.Between(m.From(), m.To()).Has(via) {
			return true
		}
	}
	return false
}

// slidFromFall reports whether one of c's moves is read as a slide from
// the square a piece fell from (falls) onto the square whose landing
// made it fall, shown there more than a slide shows first
// (slideLiftMs): that landing was another piece's, whose hand knocked
// this one over. 2. Nf3, its hand knocking f2 onto the g1 it had just
// left 147 ms after it landed, was read as 2. f3 with the knight lifted
// and put back; the pawn put back, nothing more was published for 37
// plies. (Not a castling, whose king "takes" its rook: a Chess960
// O-O-O from b1, the rook on a1 touched just before.)
func (r *Reconstructor) slidFromFall(c *cand, fs []fall) bool {
	for _, f := range fs {
		if f.gap <= slideLiftMs && !r.carriedFrom(f.to, f.t-f.gap) || f.to == f.landSq {
			// (A landing a slide shows first, unless a piece was carried
			// there from where this one fell; or the same square filled
			// again, a capture's contacts chattering.)
			continue
		}
		from, to := rotSquare(f.from, r.orient), rotSquare(f.landSq, r.orient)
		for _, m := range c.moves[:c.n] {
			if m.From() == from && m.To() == to && !m.IsCastling() {
				return true
			}
		}
	}
	return false
}

// editedCheaper reports whether the view as the board reads, changed by
// edit, is explained in fewer than n plies for less than cost-margin.
func (r *Reconstructor) editedCheaper(n, cost, margin int, edit func(v *view)) bool {
	r.replyBack()
	edit(&r.v)
	r.markEdited()
	b := r.explainFirst(true)
	return b >= 0 && r.cands[b].n < n && r.cands[b].cost+margin < cost
}

// markEdited records that the view no longer shows the board as it reads
// (the explain cache keys on the edit).
func (r *Reconstructor) markEdited() {
	r.editSeq++
	r.viewEdit = r.editSeq
}

// keepExplanation keeps the explanation of the board as it is (the
// candidates and the explain cache) while a search reads an edited view:
// the function it returns puts them and the view back.
func (r *Reconstructor) keepExplanation() (restore func()) {
	r.candsKept = append(r.candsKept[:0], r.cands...)
	key, ok, best, resync, stood := r.explKey, r.explained, r.explBest, r.explResync, r.explStood
	return func() {
		r.replyBack()
		r.cands = append(r.cands[:0], r.candsKept...)
		r.explKey, r.explained, r.explBest, r.explResync, r.explStood = key, ok, best, resync, stood
	}
}

// landedNextTo is when a piece was last set down next to raw square s,
// if less than knockMs before logged change i (a lift of s by the hand
// that set it down). Not a contact chattering, emptied again within
// bounceMs: a piece picked up, never let go (g3's chatter as the knight
// knocked there was picked up made 8. h3, 25 ms later, a fall).
func (r *Reconstructor) landedNextTo(s chess.Square, i int) (int64, chess.Square, bool) {
	evs := r.log.evs
	for j := i - 1; j >= 0 && evs[i].T-evs[j].T < knockMs; j-- {
		if evs[j].Kind == trace.On && chess.KingAttacks(s).Has(evs[j].Square) && !r.chattered(j) {
			return evs[j].T, evs[j].Square, true
		}
	}
	return 0, chess.NoSquare, false
}

// chattered reports whether logged change j's square changed again
// within bounceMs after it.
func (r *Reconstructor) chattered(j int) bool {
	evs := r.log.evs
	for k := j + 1; k < len(evs) && evs[k].T-evs[j].T <= bounceMs; k++ {
		if evs[k].Square == evs[j].Square {
			return true
		}
	}
	return false
}

// inHandCheaper reports, for an occupancy board explained by n plies at
// cost, whether a piece still in the hand would explain it as well in
// fewer plies: a square seen emptied, empty now, that had a piece in the
// published game, read as filled again, explained by fewer plies for
// less, with that piece out of place (costMisplaced). 2. c4 with its
// hand knocking d4 onto e3, put back, 2... f5 knocking e6 off, and 3. g3
// made while e6 was in the hand, were read as six plies, 2. d5 f5 3. c4
// exd5 4. g3 d4 (cost 243: ply after ply against the order of the
// events), and the game was lost for good once e6 was put back.
func (r *Reconstructor) inHandCheaper(n, cost int) bool {
	held := rotBB(r.rec.lifted, r.orient) &^ r.v.occ & r.lines[0].pos.Occupied()
	if held.Count() > maxInHand {
		return false
	}
	// (The explanation of the board as it is stays the caller's.)
	defer r.keepExplanation()()
	for ; held != 0; held &= held - 1 {
		sq := held.First()
		if r.editedCheaper(n, cost, costMisplaced, func(v *view) { v.occ |= sq.Bitboard() }) {
			return true
		}
	}
	return false
}

// putBackCheaper is inHandCheaper for the one game square s: whether
// the piece lifted from it, back, explains the board in fewer plies.
func (r *Reconstructor) putBackCheaper(s chess.Square, n, cost int) bool {
	if !rotBB(r.rec.lifted, r.orient).Has(s) || r.v.occ.Has(s) || !r.lines[0].pos.Occupied().Has(s) {
		return false
	}
	defer r.keepExplanation()()
	return r.editedCheaper(n, cost, costMisplaced, func(v *view) { v.occ |= s.Bitboard() })
}

// maxInHand bounds the squares inHandCheaper tries (each a search).
const maxInHand = 6

// replyBegins runs before event ev, a change of raw square s at t (on: an
// empty square filled, else a lift). Without a clock, a board that stood still
// for minReplyMs showing one legal move from the published game (or the
// last published move changed for another: a knocked piece read as a
// move, put back and the real move made), exactly and with its victim
// seen taken, is that move completed when the next
// change is the opponent's hand beginning the reply: a piece of the
// player to move after it lifted, or slid onto a neighbouring empty
// square, or a piece that player can capture lifted and then the piece
// that can capture it (the victim removed first; held until that lift). So fast plies, with no still moment long enough for the commit
// timer between them, are followed one by one. A change by the mover's
// own pieces (a castling rook, the pawn on the last rank swapped for its
// new piece, a touch-down) continues the move, and one sooner than
// minReplyMs is the mover's hand knocking a piece: neither completes it.
// On colour and piece boards so is a square filled by a piece of the
// player to reply where one of theirs can move (by the piece seen, on
// piece boards), then that piece lifted: a slid piece seen first on a
// square next to none of its own (a sweep missed those between).
func (r *Reconstructor) replyBegins(ev *trace.Event, out []Output) []Output {
	s, on, t := ev.Square, ev.Kind == trace.On, ev.T
	if r.clock || !(r.state == statePlay || r.state == stateSetup && r.sawStart) || r.pending ||
		r.rec.events == 0 || r.raw.occ.Has(s) == on {
		return out
	}
	if t-r.lastChange >= minReadyReplyMs && !r.held.ok {
		// A move whose landing was read after the reply's lift
		// (landedAfterReply), at the next change, sooner than minReplyMs
		// too: the reply's piece has been in the hand since before the
		// landing (two castlings overlapping leave no still moment).
		r.makeView()
		var ok bool
		if out, ok = r.adoptLandedAfterReply(ev, out); ok {
			return out
		}
	}
	quick := false
	if t-r.lastChange < minReplyMs && !r.putBackBefore(s, t) && !r.flickeredBefore(s, t) {
		if quick = r.quickReplyLift(s, on, t); !quick {
			return out
		}
	}
	if r.silent.Has(rotSquare(s, r.orient)) {
		// A knocked piece put back (knockedMove): no reply's first act.
		return out
	}
	r.decisions++
	r.makeView()
	if !on {
		r.liftNow = rotSquare(s, r.orient) // (cleared once Feed is done with ev)
	}
	// Only an exact explanation is adopted here; most changes come in the
	// middle of a move, which none explains, and cost no more. Several
	// moves are searched for only when enough squares were touched for
	// two (a piece in the hand touches one or two).
	best := r.explainFirst(false)
	if best >= 0 && r.knockTakenBack(&r.cands[best], s, on) {
		// The board stood still back in the position before the last
		// published move (a knocked piece read as that move, put back),
		// and the player to move there lifts a piece: the move is taken
		// back now, before the move begun is made. (Else the plies begun
		// so were read with the knock kept as another move.)
		return r.adopt(best, r.lastChange, out)
	}
	if best < 0 || r.cands[best].back > 0 && !r.castlesPublishedPart(&r.cands[best]) && !r.movedOnLast(&r.cands[best]) {
		if (r.rec.lifted|r.rec.placed).Count() < 3 && !r.twoLiftedUnseen(on) && !(best >= 0 && (r.putBackThenMoved(&r.cands[best]) || r.knockedBackRead(&r.cands[best]))) {
			return out
		}
		best = r.explainFirst(true)
	}
	if best < 0 && r.sensor != trace.Occupancy && r.revive() {
		// An earlier move's other history may explain the board as it
		// stands: a knock put back proves the castling it hid. (On
		// occupancy boards the other captures revive would bring back
		// are decided better on a still board.)
		best = r.explainFirst(true)
	}
	if best >= 0 && r.sensor == trace.Occupancy && r.fallsCheaper(&r.cands[best]) {
		// Pieces fallen next door, to be put back (this change may be
		// one picked up): not moves.
		return out
	}
	if best >= 0 && r.sensor == trace.Occupancy && on && r.cands[best].n >= 3 && r.putBackCheaper(rotSquare(s, r.orient), r.cands[best].n, r.cands[best].cost) {
		// This change puts back a piece in the hand that, back,
		// explains the board in fewer plies: no reply's first act. (f4
		// knocked onto e3, picked up while 14... Ng8 was in the air and
		// put back as it landed: the board before, f4 and e3 empty,
		// read as five plies, two never played, taken for the reply.)
		return out
	}
	var knock chess.Bitboard
	if best < 0 {
		best, knock = r.knockedMove(s, -1)
		if best < 0 {
			// Lost: the board, still for minReplyMs, shows no move or
			// sequence the searches reach from the published game.
			// Replayed in order, the changes since it last changed may
			// show more plies than they search: fast plies, none
			// published, each begun too soon after the move before for
			// this rule, or made while a knocked piece was off the board.
			// They are published, and the reply goes on.
			var ok bool
			if out, ok = r.decode(r.lastChange, maxCatchAhead+1, out); ok || r.sensor != trace.Occupancy {
				return out
			}
			// Nor do they from the published game: an earlier capture
			// nobody saw may have taken another piece (21. dxe5 for
			// dxc5, the e5 pawn moving 22 plies later). Occupancy boards
			// weigh those histories on a still board, but at blitz pace
			// none comes. Only one that shows this board is kept: in the
			// middle of a move (a touch-down lifted again) nothing
			// does, and the histories kept would outbid the move once
			// it lands.
			kept := append(r.keptLines[:0], r.lines...)
			r.keptLines = kept
			if !r.revive() {
				return out
			}
			if best = r.explainFirst(true); best < 0 {
				r.lines = append(r.lines[:0], kept...)
				r.ver++
				return out
			}
		}
		if r.replyTakesEarly(best, knock, s) {
			knock = 0
		}
	}
	if !on {
		best = r.liftedIn(best, rotSquare(s, r.orient))
	}
	c := &r.cands[best]
	if c.n == 0 && c.line != 0 && c.back == 0 && !c.stale && r.sensor != trace.Occupancy {
		// Another history shows the board as it stands: the published
		// game follows it now, before the reply is made.
		return r.adopt(best, r.lastChange, out)
	}
	if c.backOnly() && r.sensor != trace.Occupancy {
		// A board back where an earlier ply left it, fast plies coming
		// back to it (a repetition): the changes in their order read as
		// the moves, as the still board's commit reads them (onCommit;
		// Kh2 Qf4+ Kg1 Qc1+ in 1.4 s, read as Qc1+ taken back).
		out, _ = r.decode(r.lastChange, c.back+1, out)
		return out
	}
	if c.n == 0 || c.back > 1 && !c.ordered || c.back == 1 && c.n != 1 && !c.ordered || c.stale {
		return out
	}
	if c.back == 1 && c.n == 1 && !c.ordered && r.repliedBefore(c) {
		return out
	}
	// (On colour and piece boards the next move's first lift shows who
	// moved last: see lastPlyKnocked and liftFitsKnock.)
	moverLift := c.n > 1 && knock == 0 && !on && r.moverLifted(c, rotSquare(s, r.orient))
	if moverLift {
		if k, ok := r.lastPlyKnocked(c, rotSquare(s, r.orient)); ok {
			// The last ply a knock (lastPlyKnocked): the moves before it
			// are made, the knocked piece out of place until it is back.
			c2 := *c
			c2.n--
			r.cands = append(r.cands, c2)
			r.ver++ // r.cands no longer holds what explain found
			best, knock = len(r.cands)-1, k
			c = &r.cands[best]
		}
	}
	if c.n > 1 && knock == 0 && !c.ordered {
		// Several moves at once: not when one move with pieces out of
		// place explains the board better (a knock), unless that piece
		// was lifted before the move was seen landing, when no hand
		// knocks (replyLiftedFirst), or pieces of both players lifted in
		// turn and never put down were a capture and its recapture
		// (recapturedUnseen), or the changes read in their order
		// replaced the searches' reading (ordered).
		if ix := r.inexactBest(); ix.cost < c.cost && !r.nextMoveBegun(&ix, c, rotSquare(s, r.orient), on) && !r.replyLiftedFirst(&ix, c) &&
			!(!on && r.moverGoesOn(&ix, c, rotSquare(s, r.orient))) &&
			!r.recapturedUnseen(&ix, c) && !r.replyStood(c, rotSquare(s, r.orient), on, t) {
			exact := c.cost
			if moverLift && r.liftFitsKnock(&ix, rotSquare(s, r.orient)) {
				exact = -1
			}
			held := *c
			if best, knock = r.knockedMove(s, exact); best < 0 {
				if !quick && !r.readInOrder(&held, rotSquare(s, r.orient), on) {
					return out
				}
				// (Read in order, the plies were made; a quick lift is
				// held, where its piece goes telling whether they were.)
				r.cands = append(r.cands, held)
				r.ver++ // r.cands no longer holds what explain found
				best, knock = len(r.cands)-1, 0
			}
		}
		c = &r.cands[best]
	}
	if quick && (c.n != 1 || c.back != 0) && !r.readInOrder(c, rotSquare(s, r.orient), on) {
		// (A quick lift bears out several plies, or plies taken back,
		// only when the changes in their order read them too: a knocked
		// piece picked up that soon may go where it can move.)
		return out
	}
	m := c.moves[c.n-1]
	if t-r.settledChange() < minReplyMs && !quick {
		// Just after a knocked piece was put back (putBackBefore; not
		// after a flicker, flickeredBefore): the
		// replying hand is not the one that put it back, and no reply
		// begins sooner than minReadyReplyMs after the move landed. The
		// square changed last is no square of the move's, nor one it
		// crossed: then the moving hand changed it.
		if land, ok := r.lastOn(m.Landing()); !ok || t-land < minReadyReplyMs {
			return out
		}
		p := r.candStart(c)
		ls := rotSquare(r.lastSq, r.orient)
		for _, mv := range c.moves[:c.n] {
			all, _ := moveSquares(&p, mv)
			if (all | chess.Between(mv.From(), mv.Landing())).Has(ls) {
				return out
			}
			p.MakeMove(mv)
		}
	}
	if m.IsPromotion() && r.sensor != trace.PieceSensor && r.promo == chess.NoPieceType && (m.Promotion() != chess.Queen || r.sensor == trace.Occupancy) {
		// Its promote input usually follows the piece: wait for it. On a
		// colour board a queen needs none (it is what is assumed): one
		// published now is amended if an input still comes. (On
		// occupancy boards publishing it lost two irregular stress
		// games.)
		return out
	}
	// (From two plies back for an ordered reading: knockRevert.)
	before := r.candStart(c)
	for _, mv := range c.moves[:c.n-1] {
		before.MakeMove(mv)
	}
	if to := m.To(); c.back == 0 && !m.IsCastling() && before.PieceAt(to) == chess.NoPiece && !r.rec.framed &&
		!r.rec.placed.Has(unrotSquare(to, r.orient)) {
		// Its square showed a piece before this one was lifted (a
		// knocked piece lying there, accepted either way): its landing
		// was not seen, and the piece is still in the hand.
		return out
	}
	after := before
	after.MakeMove(m)
	gs := rotSquare(s, r.orient)
	mine := after.ByColor(after.SideToMove())
	hold, near := false, false
	since := r.lastChange
	if t-r.lastChange < minReplyMs || r.sensor != trace.Occupancy && r.settledAway(m.Landing()) {
		// Just after the other hand put a knocked piece back: the
		// mover's hand withdrew from the landing long before. (On
		// colour and piece boards also a piece put back away from the
		// landing longer ago: 17. Nxc5, the e5 pawn 17... cxd5 knocked
		// put back 395 ms before 17... d4 began next to c5, was no
		// knock of the knight's hand.)
		since, _ = r.lastOn(m.Landing())
	}
	if quick && !mine.Has(gs) {
		return out
	}
	if !on && mine.Has(gs) && (quick || chess.KingAttacks(m.Landing()).Has(gs) && t-since < knockMs) {
		// Next to where the move landed, a lift this soon may be the
		// mover's hand knocking the piece (its scan up to a sweep late):
		// held until the piece is seen going where it can move.
		hold, near = true, true
	}
	if c.missed && !on && gs == m.Landing() && (c.n == 1 || r.sensor == trace.Occupancy) && c.line == 0 && r.carried(m, gs, t) &&
		!(r.sensor == trace.Occupancy && len(r.plies) > 0 && r.plies[len(r.plies)-1].uncertain) && r.canCapture(&after, gs) {
		// The capturing piece itself lifted from where it landed unseen:
		// the reply's victim, if the next lift is a piece that can take
		// it there (else the hand holding it goes on). On occupancy
		// boards also at the end of several moves found together (fast
		// plies with captures nobody saw are only ever seen so): else
		// the board with the lifted square empty was read as more
		// moves, the last a capture nobody saw by another piece.
		r.held = heldMove{ok: true, sq: s, t: t, lastChange: r.lastChange, best: best, landing: m.Landing(),
			cands: append(r.held.cands[:0], r.cands...), plies: len(r.plies), after: after, knock: knock}
		return out
	}
	if c.missed && (on || !mine.Has(gs) || c.n > 1 && r.sensor != trace.Occupancy || c.line != 0 || r.captures(&before, m.From(), gs) || !r.carried(m, gs, t) && !r.recaptureLifted(m, gs, t, &after) ||
		r.sensor == trace.Occupancy && len(r.plies) > 0 && r.plies[len(r.plies)-1].uncertain && r.canCapture(&r.befores[len(r.plies)-1], gs)) {
		// A capture whose victim nobody saw taken looks like a piece in
		// the air: only the opponent's own piece lifted says it is down,
		// and only for one move from the published game (on occupancy
		// boards also at the end of several: fast plies with captures
		// nobody saw are only ever seen so), not a piece the
		// one in the air could take (the victim plucked while the hand
		// holds the capturing piece), and not before the capturing piece
		// could have landed and a reply begun (sooner, the capturing
		// hand knocked it). Nor, on occupancy sensors, after an uncertain
		// move, a piece on a square that move could have taken on: the
		// lift may be the victim of a reply to the move it was not (15...
		// Nxe5 read as Nxd4, e5 lifted for 16. dxe5). (Recaptures on c5
		// pushed off unseen, 18. Qxc5 Qxc5 19. Rxc5: the rook on c1,
		// which 18. Qxc5 could not have taken, waited for 20. Rxc6.)
		return out
	}
	if on {
		// (A piece the sensor shows is the mover's, set down, is no
		// reply's: the move's own piece going on after a touch-down.)
		all, _ := moveSquares(&before, m)
		if ev.HasColour && ev.Piece.Color() != after.SideToMove() {
			// The sensor sees a piece of the player who moved set down:
			// the moving hand going on (a touch-down on the way, the
			// piece then set on its square), no reply's slide.
			return out
		}
		// (A square the move emptied filled again: by its own hand
		// unless the sensor sees a piece of the player to reply, which
		// may go where the moved piece stood.)
		if all.Has(gs) && !ev.HasColour || chess.KingAttacks(gs)&mine == 0 &&
			!(ev.HasColour && ev.Piece.Color() == after.SideToMove() && r.landsOn(&after, gs, ev.Piece, ev.HasPieces)) {
			return out
		}
		hold = true
	} else if !mine.Has(gs) {
		if !r.canCapture(&after, gs) {
			if landT, ok := r.lastOn(m.Landing()); ok && t-landT >= knockMs && r.sensor != trace.Occupancy && knock == 0 && c.n == 1 && c.back == 0 && r.state == statePlay && r.overlay == 0 {
				// The mover's piece lifted once the board stood still
				// showing the move: a touch, or the replying hand
				// knocking it on the way to its own piece next to it
				// (resolveHeld).
				r.held = heldMove{ok: true, own: true, sq: s, t: t, lastChange: r.lastChange, landT: landT, best: best, landing: m.Landing(),
					cands: append(r.held.cands[:0], r.cands...), plies: len(r.plies), after: after}
			}
			return out
		}
		hold = true
	}
	if hold && on && knock != 0 && !knock.More() && r.moves(&after, knock.First(), gs) {
		// The piece taken for knocked, lifted next to the landing, is
		// set down where it can move: it was the reply's, carried (Nd2
		// lifted 194 ms after ...Rxe3 landed, read on c4: read as
		// knocked, the knight's move was then read as Be2-c4, and the
		// game went dark).
		knock = 0
	}
	if hold {
		landT, ok := r.lastOn(m.Landing())
		if !ok {
			landT = r.lastChange
		}
		r.held = heldMove{ok: true, on: on, near: near, quick: quick, sq: s, t: t, lastChange: r.lastChange, landT: landT, best: best, landing: m.Landing(),
			cands: append(r.held.cands[:0], r.cands...), plies: len(r.plies), after: after, knock: knock, knockOr: knock != 0 && r.knockOr}
		return out
	}
	if c.n == 1 && c.back == 0 && c.missed && !on && r.sensor == trace.Occupancy && r.setDownForReply(&before, m, gs) {
		// (The move's piece was set down where the reply now takes:
		// the next changes tell.)
		return out
	}
	if knock == 0 {
		best = r.toppledFirst(best)
	}
	return r.adoptKnocked(best, knock, r.lastChange, out)
}

// setDownForReply reports whether, while m (a capture nobody saw) was
// made from before, a square off its way was seen filled and emptied
// again, one m's piece could have moved to, where the piece on gs, lifted
// now, could take it: the move may as well have gone there, and the reply
// begun by taking its victim off first (Qd7-f7, then Qh5xf7 with the
// queen on f7 lifted 180 ms after it landed, read as Qd7xd4 nobody saw
// and a touch on f7).
func (r *Reconstructor) setDownForReply(before *chess.Position, m chess.Move, gs chess.Square) bool {
	lift, ok := r.lastOff(m.From())
	if !ok {
		return false
	}
	way := chess.Between(m.From(), m.To()) | m.To().Bitboard() | m.From().Bitboard()
	for b := rotBB(r.rec.lifted&r.rec.placed, r.orient) &^ way &^ r.v.occ; b != 0; b &= b - 1 {
		x := b.First()
		on, ok1 := r.lastOn(x)
		off, ok2 := r.lastOff(x)
		if !ok1 || !ok2 || on < lift || off < on || before.PieceAt(x) != chess.NoPiece {
			continue
		}
		mx := chess.NewMove(m.From(), x)
		if !r.legal(before).Contains(mx) {
			continue
		}
		after := *before
		after.MakeMove(mx)
		var ml chess.MoveList
		after.GenerateFrom(&ml, gs.Bitboard())
		for _, m2 := range ml.Moves() {
			if m2.To() == x {
				return true
			}
		}
	}
	return false
}

// quickReplyLift reports whether the change of raw square s at t, sooner
// than minReplyMs after the board's last change, may still be the reply's
// first act: on colour and piece boards, a lift quickReadyMs or more
// after a piece was set down, of a piece of the other colour
// (otherColours; a bullet player's reply begun 200 ms after the move
// landed, which no still board follows). It is held (replyBegins) until the piece is seen going where
// it can move: the mover's hand knocking it is as likely.
func (r *Reconstructor) quickReplyLift(s chess.Square, on bool, t int64) bool {
	ls := r.lastSq
	return !on && r.sensor != trace.Occupancy && ls != chess.NoSquare && ls != s && t-r.lastChange >= r.quickReadyMs(ls, s) &&
		r.otherColours(ls, s)
}

// quickReadyMs is how long after the last change, a piece set down on
// raw square ls, a lift of the other colour on s is read at the soonest
// as a reply begun (quickReplyLift): minReadyReplyMs, but on piece boards
// none away from ls, whose sweep (up to 250 ms) may read a landing that
// much late: the time between two readings says nothing there (22... Qc7
// read down 105 ms before 23. Bf2xd4's lift). Next to ls a lift that soon
// is as likely the moving hand's knock (Bb5 knocking a6 onto a5).
func (r *Reconstructor) quickReadyMs(ls, s chess.Square) int64 {
	if r.sensor == trace.PieceSensor && !chess.KingAttacks(ls).Has(s) {
		return 0
	}
	return minReadyReplyMs
}

// slidOnFrom reports whether raw square ls, emptied last, and s, which
// changes now, have a square between them filled after ls was: a piece
// sliding on from ls over it to s (Bd6-b4 over c5), not a piece picked up
// from ls.
func (r *Reconstructor) slidOnFrom(ls, s chess.Square) bool {
	for b := chess.Between(ls, s) & r.raw.occ; b != 0; b &= b - 1 {
		if r.rec.lastOn[b.First()] > r.rec.lastOn[ls] {
			return true
		}
	}
	return false
}

// flickeredBefore reports whether the board's last changes, less than
// minReplyMs before a change of raw square s at t, were a piece read
// lifted and set back on its square (settledChange), away from s, the
// board standing minReplyMs before that: the hand had left it, and the
// flicker is no hand's (g8 read emptied twice for a sweep after O-O's
// king was set there, White's reply begun 24 ms after the last reading:
// the rook published first was never changed into the castling).
func (r *Reconstructor) flickeredBefore(s chess.Square, t int64) bool {
	ls := r.lastSq
	return ls != chess.NoSquare && ls != s && !chess.KingAttacks(ls).Has(s) && t-r.settledChange() >= minReplyMs
}

// putBackBefore reports whether the board's last change, less than
// minReplyMs before a change of raw square s at t, ended putting back a
// piece knocked after the move was made: the square changed last, and a
// square lifted and filled again that holds a piece, are as the
// published game has them, away from s. The hand that did it withdraws,
// and the other side, whose hand is another, may begin a reply it had
// ready at once: minReadyReplyMs after the move landed, not after the
// put-back (replyBegins checks; else a knock put back just before the
// reply left the move to be decided with it and the next one, three
// plies at once).
// Squares a sliding piece crossed are restored too, but empty. Not on
// occupancy boards, where a square filled again may be a capture's.
func (r *Reconstructor) putBackBefore(s chess.Square, t int64) bool {
	ls := r.lastSq
	if r.sensor == trace.Occupancy || ls == chess.NoSquare || ls == s ||
		chess.KingAttacks(ls).Has(s) && !r.otherColours(ls, s) || !r.restored(ls) {
		return false
	}
	for b := r.rec.lifted & r.rec.placed & r.raw.occ; b != 0; b &= b - 1 {
		// The piece put back is the last change, or it slid back and
		// the last change is the square it crossed last, next to it
		// (else the last change is another hand's: a slide under way).
		if p := b.First(); r.restored(p) && (p == ls || chess.KingAttacks(p).Has(ls) && !r.raw.occ.Has(ls)) {
			return true
		}
	}
	// Or the hand has just picked the knocked piece up from where it fell,
	// next to its square, which is still empty: it is in that hand, on its
	// way back. (Not a square the move crossed: replyBegins checks.)
	if !r.raw.occ.Has(ls) && r.rec.placed.Has(ls) && !r.slidOnFrom(ls, s) {
		g := rotSquare(ls, r.orient)
		P := &r.lines[0].pos
		for b := chess.KingAttacks(ls) & r.rec.lifted &^ r.raw.occ; b != 0; b &= b - 1 {
			if P.Occupied().Has(rotSquare(b.First(), r.orient)) && r.rec.lastOn[ls] > r.rec.lastOff[b.First()] && !P.Occupied().Has(g) {
				return true
			}
		}
	}
	return false
}

// otherColours reports whether raw squares a and b, both filled, hold
// pieces the sensors read as of different colours: a lift next to a
// piece put back is then no other piece of the same knock picked up, nor
// the mover's hand going on with its own (the g3 pawn knocked by Kg2 put
// back, then ...Qg4 lifted 32 ms later: the reply).
func (r *Reconstructor) otherColours(a, b chess.Square) bool {
	ab := a.Bitboard() | b.Bitboard()
	return r.raw.occ&ab == ab && r.raw.colourKnown&ab == ab && (r.raw.white&a.Bitboard() == 0) != (r.raw.white&b.Bitboard() == 0)
}

// restored reports whether raw square s shows what the published game
// has on it, as far as the sensors tell.
func (r *Reconstructor) restored(s chess.Square) bool {
	g := rotSquare(s, r.orient)
	p := &r.lines[0].pos
	if r.raw.occ.Has(s) != p.Occupied().Has(g) {
		return false
	}
	if !r.raw.occ.Has(s) {
		return true
	}
	return r.raw.agrees(s, p.PieceAt(g))
}

// twoLiftedUnseen reports whether, on an occupancy board, the record
// holds two lifts and nothing set down, and another lift (not on) comes:
// a move whose capture nobody saw and the reply's, made the same way, so
// the moves found together are searched for although only two squares
// were touched.
func (r *Reconstructor) twoLiftedUnseen(on bool) bool {
	return r.sensor == trace.Occupancy && !on && r.rec.placed == 0 && r.rec.lifted.Count() == 2
}

// moverLifted reports, on colour and piece boards, whether game square
// gs, lifted now, holds after c (several plies from a hypothesis) a
// piece of the player who made c's last ply, which the player to move
// cannot take: that player does not move twice, so the lift is their
// next move's, and c's last ply no move of theirs (lastPlyKnocked,
// liftFitsKnock).
func (r *Reconstructor) moverLifted(c *cand, gs chess.Square) bool {
	if r.sensor == trace.Occupancy || c.n < 2 || c.back != 0 || c.stale {
		return false
	}
	q := r.after(c)
	return q.ByColor(q.SideToMove().Other()).Has(gs) && !r.canCapture(&q, gs)
}

// lastPlyKnocked reports, when the lift of game square gs was the next
// move's (moverLifted), whether the last of c's several plies is a piece
// the hand of the ply before knocked one square (next to that ply's
// landing, both of its changes within knockMs of it), not the lifted one
// (Bxd8 knocking the c8 bishop onto d7, read as Bxd8 Bd7, then Rxe2
// begun: three plies waited for the bishop to be put back). It returns
// the knocked piece's squares.
func (r *Reconstructor) lastPlyKnocked(c *cand, gs chess.Square) (chess.Bitboard, bool) {
	if c.ordered {
		return 0, false
	}
	L, prev := c.moves[c.n-1], c.moves[c.n-2]
	if L.IsCastling() || L.IsPromotion() || L.IsEnPassant() || !chess.KingAttacks(L.From()).Has(L.To()) ||
		!chess.KingAttacks(prev.Landing()).Has(L.From()) || gs == L.To() {
		return 0, false
	}
	before := r.lines[c.line].pos
	for _, m := range c.moves[:c.n-1] {
		before.MakeMove(m)
	}
	if before.PieceAt(L.To()) != chess.NoPiece {
		return 0, false // (a capture: no knock)
	}
	land, ok1 := r.lastOn(prev.Landing())
	off, ok2 := r.lastOff(L.From())
	on, ok3 := r.lastOn(L.To())
	if !ok1 || !ok2 || !ok3 || max(off-land, land-off) >= knockMs || max(on-land, land-on) >= knockMs {
		return 0, false
	}
	return L.From().Bitboard() | L.To().Bitboard(), true
}

// readInOrder reports, on colour and piece boards, at the lift of game
// square gs, a piece of the player to move after c, whether the ordered
// decoder reads the changes since the published game as c's plies, no
// piece knocked: their order confirms the searches' reading of several
// plies against one move with pieces out of place (27... Bb4 slid over c5
// after 27. Kc2, read as a knock). (A piece of the player who made c's
// last ply lifted says that ply was none: 10... Bxe2 knocking e3 onto d4,
// then 11. Qxe2 begun.)
func (r *Reconstructor) readInOrder(c *cand, gs chess.Square, on bool) bool {
	if r.sensor == trace.Occupancy || on || c.line != 0 || c.back != 0 || c.stale {
		return false
	}
	if q := r.after(c); !q.ByColor(q.SideToMove()).Has(gs) {
		return false
	}
	if _, ok := r.lastPlyKnocked(c, gs); ok {
		// (Its last ply a one-square step next to the landing before,
		// within knockMs of it: as likely that hand's knock, 4... c2
		// knocking c1 onto d2, then c2 taken off for 5. Qxc2.)
		return false
	}
	m, ok := r.decodeOrdered()
	return ok && m.n == c.n && m.knocked == 0 && m.quick&^(1<<(m.n-1)) == 0 && slices.Equal(m.moves[:m.n], c.moves[:c.n])
}

// moverGoesOn reports, on colour and piece boards, whether the lift of
// game square gs is under ix (one move, pieces out of place) a piece of
// the player who made that move, away from the pieces out of place, not
// changed since the published game, that the player to move cannot take,
// and under c (several plies) a piece of the player to move: nobody moves
// twice, and a hand that knocked a piece puts that one back first. So c's
// last ply was a move, not a knock (20... Qg4-h5 two squares from 21.
// Nc4-e3's landing, read as the knight's knock when a4 was lifted).
func (r *Reconstructor) moverGoesOn(ix *inexact, c *cand, gs chess.Square) bool {
	if r.sensor == trace.Occupancy || !ix.oneMoveMisplaced() || c.n < 2 || c.back != 0 || c.stale {
		return false
	}
	qi := r.lines[ix.line].pos
	qi.MakeMove(ix.move)
	if raw := unrotSquare(gs, r.orient); !qi.ByColor(qi.SideToMove().Other()).Has(gs) || (ix.diff | around(ix.diff)).Has(gs) ||
		gs == ix.move.Landing() || (r.rec.lifted | r.rec.placed).Has(raw) || r.canCapture(&qi, gs) {
		// (Its own piece taken up again: the moving hand going on, a
		// slide paused there, Re1-e4 read on e2. Nor a piece set down
		// since the published game: a knocked one, picked up to be put
		// back, 3. e5 knocked back onto e4 by 3... d6's hand. Nor a
		// piece the player to move can take: a victim taken off first,
		// g5 for 25. Bxg5 after 24... c6 knocking d7 onto c8.)
		return false
	}
	q := r.after(c)
	return q.ByColor(q.SideToMove()).Has(gs)
}

// liftFitsKnock reports, when the lift of game square gs was no move of
// the several plies' (moverLifted), whether it is the next move's first
// under ix (one move, a piece knocked out of place): gs holds a piece of
// the player to move after it. A piece knocked onto a square it could
// move to looks like a move of its own (Qc5 with b5 knocked onto b6,
// read as Qc5 b6), but the player it would have moved for does not move
// again (Qxb7 begun 450 ms later waited, then castling, four plies, each
// with a knock).
func (r *Reconstructor) liftFitsKnock(ix *inexact, gs chess.Square) bool {
	if !ix.oneMoveMisplaced() {
		return false
	}
	qi := r.lines[ix.line].pos
	qi.MakeMove(ix.move)
	return qi.ByColor(qi.SideToMove()).Has(gs)
}

// nextMoveBegun reports whether, at the lift of game square gs (or, with
// on, its filling), ix reads
// the board as move ix.move with the replying piece lifted and missing
// (its one misplaced square) while c is that move and the piece's capture
// nobody saw, and gs holds a piece of the player who made ix.move that
// the missing piece cannot take: under ix that player would be moving
// again while the opponent's piece is in the air, or their hand's knock
// left off while they go on; the reply was made, and this is the next
// move beginning. So it is whatever gs holds once the capture was seen
// made after the piece's lift (its victim taken off, a piece set down
// there): the piece is down, no hand holding it plucks a victim. And so
// it is when gs is filled (on): an empty square next to a piece of that
// player, which the missing piece could neither move to nor fall onto
// (a knocked piece falls next to its square): that player's next move
// slid there, shown before its lift.
func (r *Reconstructor) nextMoveBegun(ix *inexact, c *cand, gs chess.Square, on bool) bool {
	if r.sensor != trace.Occupancy || !ix.oneMoveMisplaced() {
		return false
	}
	m2, q, ok := r.missingCaptured(ix, c)
	if !ok {
		return false
	}
	mover := q.ByColor(q.SideToMove().Other())
	if on {
		if q.Occupied().Has(gs) || r.moves(&q, m2.From(), gs) || chess.KingAttacks(m2.From()).Has(gs) || chess.KingAttacks(gs)&mover == 0 {
			return false
		}
	} else if !mover.Has(gs) {
		return false
	}
	lift, ok1 := r.lastOff(ix.move.From())
	off, ok2 := r.lastOff(m2.From())
	if !on && ok1 && ok2 && off > lift && r.seenMade(m2.To(), off) {
		// Its capture seen made since (the victim taken off, a piece
		// set down there): the missing piece is down, and the lift is
		// no hand of it plucking a victim.
		return true
	}
	if !on && r.captures(&q, m2.From(), gs) {
		return false
	}
	if on, ok := r.lastOn(ix.move.Landing()); ok && off < on+minReplyMs {
		// Lifted before the move was seen down, or as its hand
		// withdrew: no reply.
		return false
	}
	return ok1 && ok2 && off > lift
}

// knockedMove is the explanation of a board that no move sequence reaches
// exactly, at the reply's first change (raw square s): one move from the
// published game whose hand knocked a piece or two (knockedDuring), not
// on the square the reply changes; no other move with squares out of
// place close to it (a pawn knocked onto the square next to its
// neighbour's landing looks like either one's move), nor an exact
// explanation (costing exact, -1 if none) within one fallen piece of it.
// It is put in r.cands (the index is returned, -1 if none) with the
// squares out of place, which are accepted either way until the piece is
// back (adoptKnocked): without it the move waited for the piece, and at
// bullet pace the reply and the next move were decided together with it,
// three plies at once. Not on occupancy boards, where a square emptied
// next to the move may be the reply's victim taken off; nor while another
// such knock is out of place, or an alert is open.
func (r *Reconstructor) knockedMove(s chess.Square, exact int) (int, chess.Bitboard) {
	if r.sensor == trace.Occupancy || r.state != statePlay {
		return -1, 0
	}
	// (A move and a knocked piece change three squares or more; most
	// boards here are a move under way, which the search need not price.)
	if r.overlay != 0 || r.v.diff(&r.lines[0].pos).Count() < 3 {
		return -1, 0
	}
	ix := r.inexactBest()
	gs := rotSquare(s, r.orient)
	lift := r.raw.occ.Has(s)
	r.knockOr = false
	if lift && ix.diff.Has(gs) && !(exact >= 0 && exact <= ix.cost+misplacedAltGap) {
		// The lift of a square ix leaves out of place is its knocked
		// piece picked up, or, in another knock as likely, the reply's
		// victim taken off first (victimFirst): held so, the next lift
		// tells. (Not a knock well before its move began, or while its
		// piece was in the hand, for one that was not: see below.)
		_, ixEarly := r.knockedDuring(&ix)
		ixInHand := r.knockInHand(&ix)
		for i := range r.ixAlts {
			if o := &r.ixAlts[i]; o.cost <= ix.cost+uncertainGap && r.victimFirst(o, gs) && (ixInHand || !r.knockInHand(o)) {
				if ok, early := r.knockedDuring(o); ok && (!early || ixEarly) {
					ix = *o
					r.knockOr = true
					break
				}
			}
		}
	}
	if ix.diff.Has(gs) || exact >= 0 && exact <= ix.cost+misplacedAltGap {
		return -1, 0
	}
	ok, early := r.knockedDuring(&ix)
	if !ok {
		return -1, 0
	}
	for i := range r.ixAlts {
		o := &r.ixAlts[i]
		if o.move == ix.move || o.cost > ix.cost+uncertainGap {
			continue
		}
		ok, oEarly := r.knockedDuring(o)
		if lift && o.diff.Has(gs) && r.victimFirst(&ix, gs) && (!early || oEarly) && (!r.knockInHand(&ix) || r.knockInHand(o)) {
			// The square lifted is the piece o's move knocked, picked
			// up, or ix's move's piece taken off by the reply first (a
			// rook set on b2 knocking the b3 pawn onto b4, and the rook
			// on c2 taking it, read as b4 with the rook fallen from b1
			// onto b2): held as the victim, the next lift tells
			// (resolveHeld).
			r.knockOr = true
			continue
		}
		if ok && !r.knockInHand(&ix) && r.knockInHand(o) {
			// Its piece knocked while the moving one was still in the
			// hand, this one's as the hand let go: d6 slid over from
			// d7 with the e6 pawn knocked onto d5 after it, not d5
			// with the pawn knocked onto d6 before it landed.
			continue
		}
		if !early && ok && oEarly {
			// Its knock well before its move began, this one's not: a
			// knight set on e4 with the bishop next to it knocked off
			// d3 86 ms later, not that bishop slid to e4 and the knight
			// knocked off g3 109 ms before (a colour board cannot tell
			// them).
			continue
		}
		if !ok && o.cost > ix.cost {
			// Dearer, and its squares out of place no hand's knock: a
			// rook slid from e7 to d7 with the queen gone from a4, for
			// the queen set on d7 and the rook knocked off e7.
			continue
		}
		if lift && r.sensor == trace.Colour && r.victimFirst(&ix, gs) && r.victimFirst(o, gs) {
			// Both have there a piece of the mover the reply can take,
			// alike on a colour board: its victim taken off first either
			// way, held so for the cheaper (19... Bc8 with the queen knocked from b8 onto a7,
			// or Qc8 with the bishop knocked from b7 onto a7, c8 then
			// lifted for Nxc8: nothing was held, and at the knight's
			// lift 19... Qa7 was read with the bishop knocked off).
			r.knockOr = true
			continue
		}
		return -1, 0
	}
	r.ver++ // r.cands no longer holds what explain found
	r.cands = append(r.cands[:0], ix.cand(ix.line))
	// Every hypothesis explained as well by a move and the same knocked
	// squares stays one (actInexact): two histories a colour board cannot
	// tell apart (a Chess960 O-O-O and Rc1) go on until a move tells.
	for i := range r.ixs {
		if o := &r.ixs[i]; i != ix.line && o.oneMoveMisplaced() && o.diff == ix.diff && o.cost <= ix.cost+uncertainGap && len(r.cands) < maxLines {
			r.cands = append(r.cands, o.cand(i))
		}
	}
	return 0, ix.diff
}

// knockInHand reports whether ix's knocked piece was lifted while its
// move's piece was in the hand, by more than two sweeps' readings of
// neighbours before it landed (inexactLine prices one; a sweep that read
// all four squares, the knock lifted 36 ms before the landing, says
// nothing of the order).
func (r *Reconstructor) knockInHand(ix *inexact) bool {
	P := &r.lines[ix.line].pos
	after := *P
	after.MakeMove(ix.move)
	vac := ix.diff & after.Occupied() &^ r.v.occ
	if vac == 0 {
		return false
	}
	tv, ok1 := r.firstOff(vac.First())
	tl, ok2 := r.lastOn(ix.move.Landing())
	return ok1 && ok2 && tv+2*r.sweepNearMs() < tl
}

// victimFirst reports whether game square gs holds, after ix's move, a
// piece of the player who made it, in its place, that the reply can
// capture: its lift may be the reply's victim taken off first.
func (r *Reconstructor) victimFirst(ix *inexact, gs chess.Square) bool {
	if !ix.oneMoveMisplaced() || ix.diff.Has(gs) {
		return false
	}
	after := r.lines[ix.line].pos
	after.MakeMove(ix.move)
	return after.ByColor(after.SideToMove().Other()).Has(gs) && r.canCapture(&after, gs)
}

// knockedDuring reports whether the board is ix's move made with its
// misplaced squares one or two pieces its hand knocked: each square
// emptied, off the move's squares, within minReplyMs of its landing (no
// reply starts sooner; knockMs next to it, which a sweep may report that
// late, but for a piece the reply could capture) and not before the move
// began (less a sweep: a slid piece's landing, or the knock, may be
// reported first); each square filled next to one of them (a piece that
// fell there); and no other square touched but those the move crossed
// (a piece taken off elsewhere
// is the reply's victim, and the piece missing may have been a move's,
// not knocked).
//
// early reports whether a piece was knocked well before the move began
// (more than a quick carry: sooner, it may be the moving hand arriving,
// a slid rook knocking the one next to its landing).
func (r *Reconstructor) knockedDuring(ix *inexact) (ok, early bool) {
	if !ix.oneMoveMisplaced() {
		return false, false
	}
	P := &r.lines[ix.line].pos
	m := ix.move
	all, _ := moveSquares(P, m)
	after := *P
	after.MakeMove(m)
	vac := ix.diff & after.Occupied() &^ r.v.occ
	fil := ix.diff & r.v.occ &^ after.Occupied()
	rv := r.recView()
	// (The squares a slid piece crossed, empty again, are its move's.)
	path := chess.Between(m.From(), m.Landing()) &^ r.v.occ
	if ix.diff&all != 0 || vac|fil != ix.diff || vac.Count() > 2 || fil.Count() > vac.Count() {
		return false, false
	}
	// A hand knocks the pieces next to where it goes: the move's squares
	// and those its piece crossed.
	near := around(all | chess.Between(m.From(), m.Landing()))
	start, ok1 := r.lastOff(m.From())
	land, ok2 := r.lastOn(m.Landing())
	if !ok1 || !ok2 {
		return false, false
	}
	if far := vac &^ near; far != 0 {
		// (Two squares off the landing, knocked off the board as the
		// hand let go, by its wrist or sleeve: Bc4 knocking b2 off 30
		// ms after it landed, the game published only at the put-back
		// 3.5 s later. Not on occupancy boards, where such a square may
		// be the reply's victim.)
		off, _ := r.lastOff(far.First())
		if r.sensor == trace.Occupancy || far.More() || fil != 0 || !around(around(m.Landing().Bitboard())).Has(far.First()) || off < land || off-land >= knockMs {
			return false, false
		}
	}
	if m.IsCastling() {
		// (A castling is made when its second piece is down: the king
		// set first, the hand carrying the rook knocks the pawn next
		// to it.)
		if rl, ok := r.lastOn(m.CastlingRookTo()); ok && rl > land {
			land = rl
		}
	}
	// (So are empty squares next to a piece knocked while the move was
	// made that a piece was set on: it fell there and was picked up to be
	// put back. Knocked later, that is likelier the reply's piece lifted
	// and touched down on its way.)
	var fell chess.Bitboard
	for b := vac; b != 0; b &= b - 1 {
		if off, ok := r.lastOff(b.First()); ok && off < land+minReplyMs {
			fell |= chess.KingAttacks(b.First())
		}
	}
	fell &= rv.placed &^ r.v.occ &^ after.Occupied()
	// (And an empty square filled after the move's piece was lifted and
	// emptied again before it landed: that piece touched down on its
	// way.)
	var down chess.Bitboard
	for b := rv.placed & rv.lifted &^ r.v.occ &^ after.Occupied() &^ (all | ix.diff | path | fell); b != 0; b &= b - 1 {
		sq := b.First()
		on, _ := r.firstOn(sq)
		off, _ := r.lastOff(sq)
		if on > start && on < off && off <= land {
			down |= sq.Bitboard()
		}
	}
	// (Nor squares the hand of the move before put a knocked piece
	// back on, as the game has them, nor a piece adjusted before the
	// move began, back as the game has it.)
	back := rotBB(r.rec.back, r.orient) &^ ix.diff
	if adj := rv.lifted & rv.placed & r.v.occ &^ (all | ix.diff | path | fell | down | back); adj != 0 {
		adj &^= r.v.diff(&after)
		for b := adj; b != 0; b &= b - 1 {
			if on, _ := r.lastOn(b.First()); on < start {
				back |= b.First().Bitboard()
			}
		}
	}
	if rv.touched()&^(all|ix.diff|path|fell|down|back) != 0 {
		return false, false
	}
	if on, ok := r.firstOn(m.Landing()); ok && on < start && on+slideSlackMs >= start {
		start = on // slid: the landing shows first
	}
	for b := vac; b != 0; b &= b - 1 {
		sq := b.First()
		within := int64(minReplyMs)
		if chess.KingAttacks(m.Landing()).Has(sq) && (!r.canCapture(&after, sq) || r.notVictim.Has(sq) || r.fellNextDoor(sq, fil, P.PieceAt(sq))) {
			// (A piece the reply can take, lifted that late, may be its
			// victim taken off first: not when the reply's first lift
			// was a piece that cannot take it, nor when the piece is
			// seen on a square next to it that was filled: a victim is
			// taken off the board, a knocked piece falls next door.)
			within = knockMs
		}
		off, ok := r.lastOff(sq)
		if !ok || off < start-minReplyMs || off >= land+within {
			return false, false
		}
		early = early || off < start-minQuickCarryMs
	}
	for b := fil; b != 0; b &= b - 1 {
		if chess.KingAttacks(b.First())&vac == 0 {
			return false, false
		}
	}
	return true, early
}

// fellNextDoor reports whether piece pc, missing from game square sq, is
// seen on one of the filled squares fil next to it, as far as the sensors
// tell (its colour, on piece boards the piece).
func (r *Reconstructor) fellNextDoor(sq chess.Square, fil chess.Bitboard, pc chess.Piece) bool {
	for b := fil & chess.KingAttacks(sq); b != 0; b &= b - 1 {
		s := b.First()
		bb := s.Bitboard()
		if r.v.colourKnown&bb == 0 || (r.v.white&bb != 0) != (pc.Color() == chess.White) {
			continue
		}
		if r.v.pieceKnown&bb == 0 || r.v.pieceAt(s) == pc {
			return true
		}
	}
	return false
}

// adoptKnocked adopts candidate best; knock, the squares its move's
// hand knocked (knockedMove), are accepted either way until the pieces
// are back, and alerted only if the board stands still with them out of
// place (alertKnocked).
func (r *Reconstructor) adoptKnocked(best int, knock chess.Bitboard, t int64, out []Output) []Output {
	if knock == 0 {
		return r.adopt(best, t, out)
	}
	c := &r.cands[best]
	P := r.lines[c.line].pos
	for _, m := range c.moves[:c.n-1] {
		P.MakeMove(m)
	}
	r.silentPly, r.silentSide = P.Ply()+1, P.SideToMove()
	r.silentAfter = P
	r.silentAfter.MakeMove(c.moves[c.n-1])
	n0 := len(r.plies)
	raw := unrotBB(knock, r.orient)
	// A piece lifted and not set down anywhere stays lifted in the
	// record: the lift may have been the reply's (a knight next to the
	// landing lifted 472 ms after it, then set on c3: with its lift
	// forgotten, no search found Nc3, and a piece board published nothing
	// for 40 plies). (Not a piece that fell onto a square next door.)
	var lifted chess.Bitboard
	if r.rec.placed&raw == 0 {
		lifted = r.rec.lifted & raw &^ r.raw.occ
	}
	out = r.adopt(best, t, out)
	r.rec.lifted |= lifted
	r.setOverlay(knock, &r.silentAfter, n0)
	r.silent = knock
	return out
}

// alertKnocked alerts the knocked squares accepted silently that the
// still board still shows out of place, as of the move that knocked them.
func (r *Reconstructor) alertKnocked(t int64, out []Output) []Output {
	d := r.silent & r.v.diff(&r.lines[0].pos)
	r.silent = 0
	if d == 0 {
		return out
	}
	r.alertKey = r.viewKey()
	return r.misplaced(out, t, r.silentPly, r.silentSide, &r.silentAfter, d)
}

// liftedIn returns best, or, when the square lifted (game coordinates)
// holds neither a piece of the player to reply after it nor one that
// player can capture, the cheapest explanation within uncertainGap after
// which it holds a piece of the player to reply: of captures nobody saw
// taken, the reply's lift tells which piece was taken (a knight that
// took on a6 rather than on d5 is lifted from a6). The explanations the
// lift does not fit then cost costUnmovable more, so that the published
// game, which follows the cheapest hypothesis kept, is the one chosen.
// (A piece of the player to reply that cannot move in best, in check or
// pinned, is no such evidence: such a piece is touched and put back as
// often as the other capture was made.)
func (r *Reconstructor) liftedIn(best int, gs chess.Square) int {
	if best < 0 || r.cands[best].back != 0 || r.cands[best].stale {
		return best
	}
	if p := r.after(&r.cands[best]); p.ByColor(p.SideToMove()).Has(gs) || r.canCapture(&p, gs) {
		return best
	}
	bi := best
	for i := range r.cands {
		c := &r.cands[i]
		if c.n == 0 || c.back != 0 || c.stale || c.cost > r.cands[best].cost+uncertainGap ||
			bi != best && c.cost >= r.cands[bi].cost {
			continue
		}
		if q := r.after(c); q.ByColor(q.SideToMove()).Has(gs) {
			bi = i
		}
	}
	if bi != best {
		for i := range r.cands {
			c := &r.cands[i]
			if c.n == 0 || c.back != 0 || c.stale {
				continue
			}
			if q := r.after(c); !r.movable(&q, gs) && !r.canCapture(&q, gs) {
				c.cost += costUnmovable
			}
		}
	}
	return bi
}

// movable reports whether s holds a piece of the side to move in p that
// has a legal move (a castling rook too).
func (r *Reconstructor) movable(p *chess.Position, s chess.Square) bool {
	side := p.SideToMove()
	if !p.ByColor(side).Has(s) {
		return false
	}
	// (A castling is the king's move, written as the king taking its
	// rook.)
	var ml chess.MoveList
	p.GenerateFrom(&ml, s.Bitboard()|p.KingSquare(side).Bitboard())
	for _, m := range ml.Moves() {
		if m.From() == s || m.IsCastling() && m.To() == s {
			return true
		}
	}
	return false
}

// knockSwapped amends, on colour and piece boards, the ply whose hand
// knocked the silent piece (knockedMove) to that piece's step, when the
// board shows the ply's own piece back where it stood and the game so
// amended, with the plies after it, exactly: the piece read as knocked
// was the move, and the one read as the move the piece its hand knocked,
// now put back (7. h3 knocking g2 onto g3 as it lifted h2, read as g3
// with the h-pawn out of place: once g2 was put back no later ply was
// published). The board may show one ply more, made before the put-back.
func (r *Reconstructor) knockSwapped(t int64, out []Output) []Output {
	if r.sensor == trace.Occupancy || r.silent.Count() != 2 || r.state != statePlay {
		return out
	}
	n := len(r.plies)
	k := n - 1
	for k >= 0 && n-k < maxResync && r.befores[k].Ply()+1 != r.silentPly {
		k--
	}
	if k < 0 || n-k >= maxResync {
		return out
	}
	B := &r.befores[k]
	a := (r.silent & B.Occupied()).First()
	b := r.silent &^ B.Occupied()
	if b.Count() != 1 || B.PieceAt(a).Color() != B.SideToMove() {
		return out
	}
	m2 := chess.NoMove
	for _, m := range r.legal(B).Moves() {
		if m.From() == a && m.To() == b.First() && !m.IsPromotion() && !m.IsCastling() {
			m2 = m
		}
	}
	if m2 == chess.NoMove || m2 == r.plies[k].move {
		return out
	}
	c := cand{back: n - k, n: n - k}
	c.moves[0] = m2
	q := *B
	q.MakeMove(m2)
	for i := k + 1; i < n; i++ {
		m := r.plies[i].move
		if !r.legal(&q).Contains(m) {
			return out
		}
		c.moves[i-k] = m
		q.MakeMove(m)
	}
	r.makeView()
	if r.v.diff(&q) != 0 {
		// Or with the reply made since, before the piece was put back
		// (11. a3 knocking b2 onto b3, read as b3, then 11... Nxc3, then
		// b2 put back).
		found := false
		for _, m := range r.legal(&q).Moves() {
			q3 := q
			q3.MakeMove(m)
			if r.v.diff(&q3) == 0 {
				c.moves[c.n], found = m, true
				c.n++
				break
			}
		}
		if !found {
			return out
		}
	}
	r.silent, r.overlay = 0, r.overlay&^(a.Bitboard()|b)
	r.ver++ // r.cands no longer holds what explain found
	r.cands = append(r.cands[:0], c)
	return r.adopt(0, t, out)
}

// settledAway reports whether the board's last change put a piece back
// where the published game has it, neither on game square land nor next
// to it: a hand away from the move's landing.
func (r *Reconstructor) settledAway(land chess.Square) bool {
	ls := r.lastSq
	if ls == chess.NoSquare || !r.raw.occ.Has(ls) || !r.restored(ls) {
		return false
	}
	g := rotSquare(ls, r.orient)
	return g != land && !chess.KingAttacks(land).Has(g)
}

// setDownFrom reports, on colour and piece boards, whether the held
// square, filled by a piece of the player to reply, shows the piece
// lifted from game square gs at t, a sweep or less later: read in the
// sweep's order, the lift after the touch-down (a7-a6 touched down on b5,
// b5 read 59 ms before a7 emptied: the game waited three plies).
func (r *Reconstructor) setDownFrom(gs chess.Square, t int64) bool {
	h := &r.held
	if r.sensor == trace.Occupancy || t-h.t > r.sweepMs() {
		return false
	}
	pc := h.after.PieceAt(gs)
	if pc == chess.NoPiece || pc.Color() != h.after.SideToMove() {
		return false
	}
	return r.raw.colourKnown.Has(h.sq) && r.raw.agrees(h.sq, pc)
}

// goesOn reports whether game square gs, next to where the held move
// landed, is on that move's line beyond its landing: its piece, taken up
// from the landing, set down going on (the held lift on gh aside).
func (r *Reconstructor) goesOn(gh, gs chess.Square) bool {
	h := &r.held
	c := &h.cands[h.best]
	m := c.moves[c.n-1]
	return gs != gh && !m.IsCastling() && chess.Between(m.From(), gs).Has(m.To())
}

// besideCapturer reports whether game square gs, a piece of either
// player in p, stands next to gh, where the player to move can capture,
// or next to a piece of theirs that can capture there.
func (r *Reconstructor) besideCapturer(p *chess.Position, gs, gh chess.Square) bool {
	if gs == gh || p.PieceAt(gs) == chess.NoPiece {
		return false
	}
	if chess.KingAttacks(gh).Has(gs) && r.canCapture(p, gh) {
		return true
	}
	own := p.ByColor(p.SideToMove())
	for b := chess.KingAttacks(gs) & own &^ gs.Bitboard(); b != 0; b &= b - 1 {
		if r.captures(p, b.First(), gh) {
			return true
		}
	}
	return false
}

// backOnly reports whether c takes plies back and makes none, from the
// published game: the board back where an earlier ply left it, which the
// changes in their order may read as moves that came back to it.
func (c *cand) backOnly() bool {
	return c.back > 0 && c.n == 0 && !c.stale && c.line == 0
}

// after is the position explanation c (from a hypothesis, no plies taken
// back) reaches.
func (r *Reconstructor) after(c *cand) chess.Position {
	p := r.lines[c.line].pos
	for _, m := range c.moves[:c.n] {
		p.MakeMove(m)
	}
	return p
}

// resolveHeld runs before the change of raw square s right after the held
// move's change: the reply has begun when the change was a victim's lift
// and this is the lift of a piece that can capture there, when it filled
// a square next to s and this lifts a piece of the player to reply there
// (a slide) or one that can move there (carried faster than a sweep, its
// landing seen first), or when it lifted a piece next to the move's landing and
// this sets it where it can move or lifts a piece it can capture, or when
// it was a victim's lift and this fills its square with a piece of the
// player to reply (a capture slid there). The
// held change is recorded again for the reply, whose evidence it is.
func (r *Reconstructor) resolveHeld(s chess.Square, t int64, out []Output) []Output {
	h := &r.held
	h.ok = false
	if len(r.plies) != h.plies {
		return out
	}
	gs, gh := rotSquare(s, r.orient), rotSquare(h.sq, r.orient)
	if h.knock.Has(gs) && r.raw.occ.Has(s) && h.after.PieceAt(gs) == chess.NoPiece && r.heldStands() {
		// A piece the move's hand knocked picked up where it fell, to be
		// put back (knockedMove): no act of the reply, which the held
		// change still tells.
		h.ok = true
		return out
	}
	if r.replyKnocked(gh, gs, t) {
		// The replying hand reaching for its piece next to the mover's
		// knocked that one a moment before lifting it: the move is
		// made, the knocked piece out of place until it is back.
		r.cands = append(r.cands[:0], h.cands...)
		r.ver++ // r.cands no longer holds what explain found
		return r.adoptKnocked(h.best, gh.Bitboard(), h.lastChange, out)
	}
	if h.own {
		return out
	}
	unseen := false
	if h.near && h.secondT != 0 && r.sensor != trace.Occupancy && t-h.secondT >= minQuickCarryMs && !r.raw.occ.Has(h.sq) && gs != gh {
		// The other piece lifted after the held one is carried where it
		// can move, or takes off a piece it can capture: that lift was
		// the reply's first, and the held one the mover's hand knocking
		// its piece, out of place until it is back. (Not on occupancy
		// boards, where the held piece may have made the reply, a
		// capture nobody saw: repliedUnseen.)
		g2 := rotSquare(h.second, r.orient)
		if r.raw.occ.Has(s) && r.captures(&h.after, g2, gs) || !r.raw.occ.Has(s) && r.moves(&h.after, g2, gs) {
			r.cands = append(r.cands[:0], h.cands...)
			r.ver++ // r.cands no longer holds what explain found
			out = r.adoptKnocked(h.best, gh.Bitboard(), h.lastChange, out)
			r.rec.off(h.second, h.secondT)
			return out
		}
	}
	if h.landingUp {
		// The moved piece taken up from its landing after a quick lift
		// (below): set down again on its line, next to the landing, the
		// moving hand went on; any other change, it was the reply's
		// victim.
		if !r.raw.occ.Has(s) && chess.KingAttacks(h.landing).Has(gs) && r.goesOn(gh, gs) {
			return out
		}
		return r.adoptHeldReply(out)
	}
	if h.near && h.quick && !h.again && gs == h.landing && t-h.landT < maxTouchMs && r.raw.occ.Has(s) {
		// The moved piece taken up from its landing this soon after a
		// quick lift: a victim taken off for the held piece, or the
		// moving hand going on, its slide paused there (38... Ra8-d8
		// read on c8, d7 knocked, the rook lifted from c8 was read as
		// dxc8 begun). The next change tells.
		h.ok, h.again, h.landingUp = true, true, true
		h.second, h.secondT = s, t
		return out
	}
	if h.near {
		// The piece lifted goes where it can move, or takes off a piece
		// it can capture (en passant too: the pawn beside it).
		moved := r.moves(&h.after, gh, gs) || r.raw.occ.Has(s) && r.captures(&h.after, gh, gs)
		if moved && h.quick && !r.raw.occ.Has(s) && chess.KingAttacks(gh).Has(gs) && t-h.t < minQuickCarryMs {
			// (A quick lift set down next door sooner than a hand
			// carries a piece: it fell, the moving hand's knock, 4...
			// c2 knocking c1 onto d2 28 ms after its lift. The board
			// decides.)
			return out
		}
		unseen = !moved && r.repliedUnseen(gh, gs, s, t)
		if !moved && !unseen {
			ownLifted := !h.again && r.raw.occ.Has(s) && h.after.ByColor(h.after.SideToMove()).Has(gs)
			if h.quick && !(ownLifted && t-h.t < minQuickCarryMs && !castlingOf(&h.after, gh, gs)) {
				// (A quick lift followed by another: that one is judged
				// as any other change, Feed. Not another of the replying
				// side's sooner than a hand sets the first down and
				// lifts again: the hand holding it knocked that one, as
				// below (3. Bc4's hand knocking d2 onto d3 40 ms after
				// the bishop's quick lift: 2... Nc6 went unpublished, and
				// Nc6 d3 was read with the bishop out of place). Nor a
				// castling's king and rook, lifted by two hands.)
				return out
			}
			if ownLifted {
				// Another piece of the player to reply lifted first: the
				// replying hand knocking its own piece on the way. Where
				// the held piece goes decides, or where this one does.
				h.ok, h.again = true, true
				h.second, h.secondT = s, t
			} else if !h.again && r.raw.occ.Has(s) && r.knockedOnTheWay(&h.after, gh, gs) {
				// A piece of the player who moved, next to a square the
				// held piece can move to, lifted while it is in the air:
				// the replying hand carrying it knocked that piece just
				// before setting it down. Where the held piece goes
				// decides.
				h.ok, h.again = true, true
			}
			return out
		}
	} else if h.on {
		// A slide begun from next door, or a piece carried there faster
		// than a sweep, its landing seen before its lift.
		slide := chess.KingAttacks(gh).Has(gs) && h.after.ByColor(h.after.SideToMove()).Has(gs) || r.setDownFrom(gs, t)
		if !slide && !r.reaches(&h.after, gs, gh) {
			if !h.again && r.raw.occ.Has(s) && chess.KingAttacks(gh).Has(gs) && !h.after.ByColor(h.after.SideToMove()).Has(gs) {
				// A piece of the other side next to the landing lifted
				// first: the replying hand knocking it on the way. The
				// lift that follows decides; the knock is the reply's.
				h.ok, h.again, h.knocked = true, true, s
			}
			return out
		}
		if h.t-h.landT < knockMs && chess.KingAttacks(h.landing).Has(gs) && !r.moves(&h.after, gs, gh) {
			// Soon after the move, a piece next to its landing falling
			// onto a square next to it: the mover's hand knocked it.
			// (Timed from the landing: a knocked piece put back since
			// by the other hand does not make the mover's hand return.
			// Not when it went where it can move: a rook slid from h8 to
			// h7 is a reply as likely, and either way the move that
			// stood is made.)
			return out
		}
	} else if gs == gh {
		// The victim's square filled by a piece of the side to reply
		// (Feed): a capturing piece slid there, its lift not yet seen.
		if !r.canCapture(&h.after, gh) {
			return out
		}
	} else if !r.raw.occ.Has(s) {
		// A square on the way to the victim's, or one it can move to,
		// filled by a piece of the side to reply (Feed checked).
	} else if !r.captures(&h.after, gs, gh) {
		if !h.again && r.sensor != trace.Occupancy && r.besideCapturer(&h.after, gs, gh) {
			// A piece lifted next to the victim's square or to a piece of
			// the player to reply that can take it: the replying hand
			// reaching there knocked it (fxe5 with the e5 pawn taken off
			// first and e4 knocked onto f3 as the hand went for f4: 20...
			// Nc5 waited for e4 to be put back, three plies; Rxh7 with
			// the h7 pawn taken off first and g6 knocked off; cxd4 with
			// d4 taken off first and c3 knocked off). The next lift
			// tells.
			h.ok, h.again = true, true
			h.second, h.secondT = s, t
			return out
		}
		if len(r.plies) == h.plies && h.after.ByColor(h.after.SideToMove()).Has(gs) {
			// A piece of the player to reply lifted that cannot take the
			// one lifted before: that was no victim taken off first but
			// a piece the mover's hand knocked, and this may be the reply
			// (Feed judges it so).
			r.notVictim = gh.Bitboard()
		}
		return out
	} else if t-h.t < minQuickCarryMs && (h.t-h.lastChange < knockMs || h.knockOr) {
		// Its victim lifted soon after the move, by the hand that may
		// not have let go of it yet, and the capturing piece sooner after
		// than a hand goes from one to the other: the mover's hand went
		// on and knocked it, a rook slid on from e4 to e5 knocking the
		// bishop next to it. Or, where another knock was as likely, two
		// hands at once: the mover's picking up the piece it knocked (a
		// bishop knocked from f2 onto g1 with Ke2), the reply's lifting
		// its own (the rook on h1, 4 ms later), not one hand taking off
		// a victim and then the capturing piece.
		return out
	} else if h.capturerT == 0 && r.sensor != trace.Occupancy && r.heldTouchDown() {
		// The moved piece taken up from where it landed within a
		// touch-down, and then a piece that can take it there: a victim
		// taken off first, or the moving hand going on with its piece
		// (Rb3 touching down on c3, its hand knocking the queen on b2
		// that could take there). The next change tells: the capturing
		// piece set down on the victim's square is the reply, the held
		// piece set down where it can go on is the move.
		h.ok = true
		h.capturer, h.capturerT = s, t
		return out
	}
	out = r.adoptHeldReply(out)
	if unseen {
		// The held piece made the reply, a capture nobody saw, and this
		// lift is the next move's first: the reply is decided by it too.
		ev := trace.Event{T: t, Kind: trace.Off, Square: s}
		out = r.replyBegins(&ev, out)
	}
	return out
}

// adoptHeldReply adopts the held move (r.held) with the explanations of
// its board, and records the held changes again for the reply, whose
// evidence they are (adopting clears the record).
func (r *Reconstructor) adoptHeldReply(out []Output) []Output {
	h := &r.held
	r.cands = append(r.cands[:0], h.cands...)
	r.ver++ // r.cands no longer holds what explain found
	kt := r.rec.lastOff[h.knocked]
	out = r.adoptKnocked(h.best, h.knock, h.lastChange, out)
	if h.on {
		if h.crossedT != 0 {
			r.rec.on(h.crossed, h.crossedT, chess.NoPiece, false, false)
		}
		r.rec.on(h.sq, h.t, chess.NoPiece, false, false)
		if h.again {
			r.rec.off(h.knocked, kt)
		}
	} else {
		r.rec.off(h.sq, h.t)
		if h.capturerT != 0 {
			r.rec.off(h.capturer, h.capturerT)
		}
		if h.again && (!h.near || h.landingUp) && h.secondT != 0 {
			// (The piece the replying hand knocked on its way: the
			// reply's.)
			r.rec.off(h.second, h.secondT)
		}
		if h.fellT != 0 {
			// (The piece the replying hand knocked: the reply's.)
			r.rec.off(h.second, h.secondT)
			r.rec.on(h.fell, h.fellT, chess.NoPiece, false, false)
		}
		if h.refill != 0 {
			r.rec.on(h.sq, h.refill, chess.NoPiece, false, false)
		}
		if h.slid != 0 {
			r.rec.on(h.slidSq, h.slid, chess.NoPiece, false, false)
		}
	}
	return out
}

// adoptHeldStill adopts the held move when its lift, next to where the
// move landed and held as what its hand may have knocked, is the last
// change and the board stood still since: the move stands either way,
// and the lift is judged after it (the reply's piece in the hand, Qxd2
// begun after Rxd2 whose landing it will push off, or a piece knocked
// off the board). Else the board was read as Qxe6 from e3 with d2 out
// of place. Only when the piece lifted can capture the moved piece
// where it landed (a push-off recapture): a king lifted after a mate
// says that move was another (Rg8# adopted so ended a game that went
// on with Kxh7 after Rg8+), and a piece knocked off and left, which
// can only move, was read in a blind test as that player's move in the
// hand, alerted against the wrong player, or the game went dark. On
// occupancy boards only: on colour and piece boards, which see the
// push-off's square change, a piece so lifted and held is a knock (the
// corpus's injected knocks were missed).
func (r *Reconstructor) adoptHeldStill(out []Output) []Output {
	r.held.ok = false
	return r.adoptHeldReply(out)
}

// replyKnocked reports whether the change of game square gs at t, after
// the held lift of the mover's piece on gh, is the reply's first act, the
// held lift its hand's knock: on colour and piece boards, a piece of the
// player to reply at most two squares from gh (the hand reaching for it
// passes over a square between) lifted, or set down on an empty square
// there where it can move (Feed checked: carried faster than a sweep, its
// landing read first; 33... h4 with the g3 pawn knocked off), sooner
// after than a hand goes from one piece to another, when the held move's
// hand knocked nothing (and not one that can take it: a victim taken off
// first), the held lift knockMs or more after the move landed (sooner,
// the moving hand may still be on its piece: a slide resting on its way).
func (r *Reconstructor) replyKnocked(gh, gs chess.Square, t int64) bool {
	h := &r.held
	if r.sensor == trace.Occupancy || h.on || h.near || h.knock != 0 || r.overlay != 0 ||
		!h.after.ByColor(h.after.SideToMove().Other()).Has(gh) || t-h.t >= minQuickCarryMs || h.t-h.landT < knockMs ||
		!around(chess.KingAttacks(gh)).Has(gs) {
		return false
	}
	if !r.raw.occ.Has(unrotSquare(gs, r.orient)) {
		return h.after.PieceAt(gs) == chess.NoPiece // set down
	}
	return h.after.ByColor(h.after.SideToMove()).Has(gs) && !r.captures(&h.after, gs, gh)
}

// knockedOnTheWay reports whether game square gs holds a piece of the
// player who made the move before position p, next to a square the piece
// on gh can move to in p.
func (r *Reconstructor) knockedOnTheWay(p *chess.Position, gh, gs chess.Square) bool {
	if !p.ByColor(p.SideToMove().Other()).Has(gs) {
		return false
	}
	for _, m := range r.legal(p).Moves() {
		if m.From() == gh && !m.IsCastling() && m.To() != gs && chess.KingAttacks(m.To()).Has(gs) {
			return true
		}
	}
	return false
}

// repliedUnseen reports whether the lift of raw square s (game square gs)
// at t, after the held lift of the piece on gh next to the move's
// landing, says that piece made the reply, a capture nobody saw: on
// occupancy boards, a piece of the player who made the held move lifted
// once the held piece could have taken something and been set down (the
// quickest carry, then minReplyMs). A knocked piece is followed by the
// reply, not by the knocking player's next move.
func (r *Reconstructor) repliedUnseen(gh, gs, s chess.Square, t int64) bool {
	h := &r.held
	if r.sensor != trace.Occupancy || !r.raw.occ.Has(s) || t < h.t+minQuickCarryMs+minReplyMs ||
		!h.after.ByColor(h.after.SideToMove().Other()).Has(gs) {
		return false
	}
	for _, m := range r.legal(&h.after).Moves() {
		if m.From() == gh && !m.IsCastling() && h.after.PieceAt(m.To()) != chess.NoPiece {
			return true
		}
	}
	return false
}

// unseenCarry is, when c's last move is a capture whose landing nobody
// saw (an occupancy board), when an ordinary carry from its lift ends
// (minCarryMs), else 0.
func (r *Reconstructor) unseenCarry(c *cand) int64 {
	if !c.missed || c.n == 0 {
		return 0
	}
	m := c.moves[c.n-1]
	if lift, ok := r.lastOff(m.From()); ok {
		return lift + minCarryMs
	}
	return 0
}

// recaptureLifted reports whether the lift of game square s at t, next
// to where move m (its landing unseen) took, is of a piece of the player
// to move in after that can take there, and came the quickest carry and
// minReplyMs after m's lift: a recapture begun, not the withdrawing hand
// knocking a neighbour (carried waits an ordinary carry for those: 28.
// Bxg8 pushing the rook off unseen, the queen on g7 lifted 636 ms after
// e6 was for 28... Qxc7: the board was read as Bxg8 Qxg8 in the end).
func (r *Reconstructor) recaptureLifted(m chess.Move, s chess.Square, t int64, after *chess.Position) bool {
	lift, ok := r.lastOff(m.From())
	return ok && t >= lift+minQuickCarryMs+minReplyMs && r.captures(after, s, m.Landing())
}

// carried reports whether at t move m's piece, whose landing nobody saw,
// can have been down long enough for the lift of game square s to be a
// reply: the quickest carry after its lift, then minReplyMs; for a piece
// next to its landing, which the hand letting go may knock, an ordinary
// carry (minCarryMs) first, or at bullet pace (m begun within
// fastPaceMs of the published ply before it) knockMs after the lift:
// such hands reply as fast as they knock (8. exd4 pushing the pawn off,
// 8... dxc4 lifted from d5 584 ms after e3 was: nothing was published
// until 9. Bxc4 landed).
func (r *Reconstructor) carried(m chess.Move, s chess.Square, t int64) bool {
	lift, ok := r.lastOff(m.From())
	wait := int64(minQuickCarryMs + minReplyMs)
	if chess.KingAttacks(m.Landing()).Has(s) {
		wait = minCarryMs + minReplyMs
		if n := len(r.plies); n > 0 && lift-r.plies[n-1].t < fastPaceMs {
			wait = knockMs
		}
	}
	return ok && t >= lift+wait
}

// reaches reports whether the side to move in p has a legal move that
// takes the piece on a to b, castling included (its king or its rook).
func (r *Reconstructor) reaches(p *chess.Position, a, b chess.Square) bool {
	for _, m := range r.legal(p).Moves() {
		switch {
		case m.IsCastling():
			if m.From() == a && m.CastlingKingTo() == b || m.To() == a && m.CastlingRookTo() == b {
				return true
			}
		case m.From() == a && m.To() == b:
			return true
		}
	}
	return false
}

// moves reports whether the side to move in p has a legal move from a to
// b (castling aside), or an en passant capture from a whose victim stands
// on b (taken off first).
func (r *Reconstructor) moves(p *chess.Position, a, b chess.Square) bool {
	for _, m := range r.legal(p).Moves() {
		if m.From() != a || m.IsCastling() {
			continue
		}
		if m.To() == b || m.IsEnPassant() && chess.NewSquare(m.To().File(), m.From().Rank()) == b {
			return true
		}
	}
	return false
}

// captures reports whether the side to move in p can capture the piece
// on b with the one on a (en passant included: its victim is lifted
// first as often as any other).
func (r *Reconstructor) captures(p *chess.Position, a, b chess.Square) bool {
	if p.PieceAt(b) == chess.NoPiece {
		return false
	}
	for _, m := range r.legal(p).Moves() {
		if m.From() == a && victimSquare(m) == b && !m.IsCastling() {
			return true
		}
	}
	return false
}

// victimSquare is where move m takes a piece if it captures: its
// destination, or for en passant the square behind it.
func victimSquare(m chess.Move) chess.Square {
	if m.IsEnPassant() {
		return m.To() ^ 8
	}
	return m.To()
}

// slideBegun reports whether game square s lies on the way of a legal
// capture on square v by a piece of the side to move in p, next to that
// piece: the first square a capturing piece sliding there crosses.
func (r *Reconstructor) slideBegun(p *chess.Position, s, v chess.Square) bool {
	if p.PieceAt(v) == chess.NoPiece {
		return false
	}
	for _, m := range r.legal(p).Moves() {
		if m.To() == v && !m.IsCastling() && chess.Between(m.From(), v).Has(s) && chess.KingAttacks(m.From()).Has(s) {
			return true
		}
	}
	return false
}

// slidFrom reports whether the lift of game square a is the capturing
// piece leaving for the held victim's square across the slide's first
// square filled (held.slid).
func (r *Reconstructor) slidFrom(a chess.Square) bool {
	h := &r.held
	s, v := rotSquare(h.slidSq, r.orient), rotSquare(h.sq, r.orient)
	return chess.KingAttacks(a).Has(s) && chess.Between(a, v).Has(s) && r.captures(&h.after, a, v)
}

// slidesToCapture reports whether square s lies on the way of a legal
// capture on square v by a piece of the side to move in p (the piece pc
// when the sensor told it): the capturing piece slid across s.
func (r *Reconstructor) slidesToCapture(p *chess.Position, s, v chess.Square, pc chess.Piece, hasPiece bool) bool {
	if p.PieceAt(v) == chess.NoPiece {
		return false
	}
	for _, m := range r.legal(p).Moves() {
		if m.To() == v && !m.IsCastling() && chess.Between(m.From(), v).Has(s) && (!hasPiece || p.PieceAt(m.From()) == pc) {
			return true
		}
	}
	return false
}

// landsOn reports whether the side to move in p has a legal move onto
// empty square s (by the piece pc when the sensor told it).
func (r *Reconstructor) landsOn(p *chess.Position, s chess.Square, pc chess.Piece, hasPiece bool) bool {
	if p.PieceAt(s) != chess.NoPiece {
		return false
	}
	for _, m := range r.legal(p).Moves() {
		if m.Landing() == s && (!hasPiece || p.PieceAt(m.From()) == pc) {
			return true
		}
	}
	return false
}

// canCapture reports whether the side to move in p has a legal capture of
// the piece on s (en passant included): a lift of the piece there may be
// the victim of the reply, removed first.
func (r *Reconstructor) canCapture(p *chess.Position, s chess.Square) bool {
	if p.PieceAt(s) == chess.NoPiece {
		return false
	}
	for _, m := range r.legal(p).Moves() {
		if victimSquare(m) == s && !m.IsCastling() {
			return true
		}
	}
	return false
}

// onAlertTimer runs when the board has been still for AlertMs: without a
// clock, a board no move explains is judged.
func (r *Reconstructor) onAlertTimer(t int64, out []Output) []Output {
	if r.state == stateEnded {
		return out
	}
	r.makeView()
	if res, ok := r.resultGesture(); ok {
		return r.gestureEnd(res, t, out)
	}
	if r.clock {
		if r.silent != 0 {
			return r.alertKnocked(t, out)
		}
		return r.displacedAfterPress(t, out)
	}
	r.decisions++
	if h := &r.held; r.sensor == trace.Occupancy && h.ok && h.near && !h.on && len(r.plies) == h.plies && r.lastChange == h.t && r.captures(&h.after, rotSquare(h.sq, r.orient), h.landing) {
		out = r.adoptHeldStill(out)
	}
	r.deepResync = true
	best, ix, useIx := r.weigh(true)
	r.deepResync = false
	if useIx && best >= 0 && (r.replyCapturedUnseen(&ix, &r.cands[best]) || r.replyLiftedFirst(&ix, &r.cands[best]) ||
		r.recapturedUnseen(&ix, &r.cands[best]) || r.thirdCaptureSeenMade(&ix, &r.cands[best]) || r.seenMovedCand(&ix, &r.cands[best]) ||
		r.toppledBack(&r.cands[best], ix.cost)) {
		useIx = false
	}
	if !useIx {
		if c := &r.cands[best]; c.changes() {
			out = r.adopt(best, r.lastChange, out)
		}
		// (Pieces held as knocked: alerted after the moves found.)
		return r.knockedLeft(t, out)
	}
	if r.state == stateSetup && len(r.plies) == 0 && !r.sawStart {
		return r.wrongSetup(t, r.knockedLeft(t, out))
	}
	if r.state == stateIrregular || !r.inProgress(false) {
		var ok bool
		r.catchKeep = r.state != stateIrregular && r.illegalByMover(&ix)
		out, ok = r.catchUpSeen(&ix, out)
		r.catchKeep = false
		if ok {
			return r.knockedLeft(t, out)
		}
		r.decodeLeft, r.decodeShort, r.decodeHand = true, ix.diff.Count() > 2, ix.diff.Count() == 2
		out, ok = r.decode(r.lastChange, 1, out)
		r.decodeLeft, r.decodeShort, r.decodeHand = false, false, false
		if ok {
			out = r.knockedLeft(t, out)
			if r.makeView(); r.v.diff(&r.lines[0].pos) != 0 && !r.decodedLeft {
				// A piece knocked off as the last move landed is still
				// off: it is named now.
				r.decodedLeft = true
				out = r.onAlertTimer(t, out)
				r.decodedLeft = false
			}
			return out
		}
	}
	out = r.knockedLeft(t, out)
	if r.state == stateIrregular || r.inProgress(false) && !r.putThenTaken(&ix) && !r.knockedByMover(&ix) && !r.decodedLeft {
		// A move being made, or an irregularity already reported: wait for
		// the board to come back.
		return out
	}
	if r.state != stateIrregular && r.inProgress(false) {
		// (Not tried above: pieces gone that plies move as the board saw,
		// seenMoved.)
		var ok bool
		if out, ok = r.catchUpSeen(&ix, out); ok {
			return r.knockedLeft(t, out)
		}
	}
	return r.actInexact(ix, r.lines[0].pos.SideToMove(), t, false, out)
}

// catchUpSeen is the alert timer's catch-up against inexact explanation
// ix, taking plies found that move the pieces it leaves gone, or make the
// move it reads illegal, as the board saw (seenCatch).
func (r *Reconstructor) catchUpSeen(ix *inexact, out []Output) ([]Output, bool) {
	r.catchSeen, r.catchIll = r.seenGone(ix), r.seenIllegal(ix)
	defer func() { r.catchSeen, r.catchIll = 0, chess.NoMove }()
	return r.catchUp(r.lastChange, true, ix.cost, ix.plies(), false, 0, out)
}

// seenMovedCand reports whether explanation c, moves from the published
// game, moves the pieces ix leaves gone as the board saw (seenMoved), or,
// on an occupancy board, makes ix's illegal move as a ply of its own as
// the board saw it: the piece on its square had moved on, unseen, first
// (60... gxf5 swapped faster than a scan, then 61. g6 read as the pawn
// taking straight ahead).
func (r *Reconstructor) seenMovedCand(ix *inexact, c *cand) bool {
	if r.sensor != trace.Occupancy || c.stale || c.n == 0 || c.back > 2 || c.back > 0 && (c.line != 0 || !ix.illegal) {
		return false
	}
	after := r.lines[c.line].pos
	if c.back > 0 {
		after = r.befores[len(r.plies)-c.back]
	}
	for _, m := range c.moves[:c.n] {
		after.MakeMove(m)
	}
	if ix.illegal {
		// (Also with published plies taken back, whose changes the
		// last decision read: 27. axb6, b6 emptied, a5 lifted, b6
		// filled, read as a rook going a5-b6 after 26... Rxb6, a swap
		// nobody saw, was read as Rxa5 on a pawn knocked and put back.)
		return ix.move == chess.NoMove && ix.ill.from != ix.ill.to && r.playsSeen(c.moves[:c.n], &after, chess.NewMove(ix.ill.from, ix.ill.to), c.back)
	}
	gone := r.seenGone(ix)
	var far chess.Bitboard
	if m := ix.move; m != chess.NoMove && !m.IsCastling() {
		// (Not next to where the move's hand took its piece or set it.)
		far = ^(chess.KingAttacks(m.From()) | chess.KingAttacks(m.Landing()) | m.From().Bitboard() | m.Landing().Bitboard())
	}
	return gone != 0 && r.seenMoved(c.moves[:c.n], &after, gone, far, false)
}

// playsSeen reports whether moves, made from the published game with
// back plies taken back and ending in position after, make move ill (a
// move read illegal) as one of theirs, as the board saw (seenMoved).
func (r *Reconstructor) playsSeen(moves []chess.Move, after *chess.Position, ill chess.Move, back int) bool {
	for _, m := range moves {
		if m.From() == ill.From() && m.Landing() == ill.To() && !m.IsCastling() {
			return r.seenMoved(moves, after, ill.From().Bitboard(), 0, back > 0)
		}
	}
	return false
}

// seenIllegal is, on an occupancy board, the move inexact explanation ix
// reads as illegal (one piece moved, nothing else), NoMove if none: the
// catch-up may find it a ply made as the board saw (catchIll).
func (r *Reconstructor) seenIllegal(ix *inexact) chess.Move {
	if r.sensor != trace.Occupancy || !ix.illegal || ix.move != chess.NoMove || ix.ill.from == ix.ill.to || r.overlay != 0 || r.state != statePlay {
		return chess.NoMove
	}
	return chess.NewMove(ix.ill.from, ix.ill.to)
}

// seenGone is, on an occupancy board, the squares inexact explanation ix
// names out of place when they are all read empty and it is no illegal
// move: the pieces the catch-up may find moved (catchSeen).
func (r *Reconstructor) seenGone(ix *inexact) chess.Bitboard {
	if r.sensor != trace.Occupancy || ix.illegal || ix.diff&r.v.occ != 0 {
		return 0
	}
	return ix.diff
}

// knockedLeft alerts the pieces held as knocked (silent) that the board,
// once the moves found are published, still shows out of place: 4. a4
// axb4 5. Nd3 in one run, a5 lifted as a4 landed and held as knocked,
// was found and then alerted all the same.
func (r *Reconstructor) knockedLeft(t int64, out []Output) []Output {
	if r.silent == 0 {
		return out
	}
	r.makeView()
	return r.alertKnocked(t, out)
}

// displacedAfterPress alerts, with a clock, on colour and piece boards,
// pieces of the player who pressed last that a board still for AlertMs
// shows where the game has none of them: that player's hand knocked them
// (on its way to the clock, or after), and the opponent, whose turn it
// is, cannot set them there with a move of their own (7.4.1: the player
// who displaced them restores them in their own time). Before, the queen
// knocked from c2 onto d2 as White pressed lay there 7 s unalerted, and
// its put-back was a hesitation of Black's. The squares it left are
// named with them; they are accepted either way until put right.
func (r *Reconstructor) displacedAfterPress(t int64, out []Output) []Output {
	if r.state != statePlay || len(r.plies) == 0 || r.overlay != 0 {
		return out
	}
	if r.sensor == trace.Occupancy {
		return r.knockedAtLanding(t, out)
	}
	P := &r.lines[0].pos
	pressed := P.SideToMove().Other()
	d := r.v.diff(P)
	set := d & r.v.seen(pressed)
	if set == 0 && (d == 0 || d&^P.ByColor(pressed)&^r.v.occ != 0 || !r.knockedOffAtPress(P, d)) {
		return out
	}
	d0 := set | d&P.ByColor(pressed)&^r.v.occ
	if d0.Count() > 4 || r.viewKey() == r.alertKey {
		return out
	}
	r.alertKey = r.viewKey()
	r.setOverlay(d0, P, len(r.plies))
	return r.misplaced(out, t, P.Ply(), pressed, P, d0)
}

// knockedAtLanding is displacedAfterPress on an occupancy board, which
// cannot tell whose piece stands where: the squares out of place must all
// have changed last within minReplyMs after the pressed move landed,
// sooner than any reply begins, so the hand that made it knocked them
// (gxf5 pressed 111 ms before it landed, the g6 pawn knocked onto h5 2
// ms after and left: nothing was alerted).
func (r *Reconstructor) knockedAtLanding(t int64, out []Output) []Output {
	P := &r.lines[0].pos
	d := r.v.diff(P)
	if d == 0 || d.Count() > 4 || r.viewKey() == r.alertKey {
		return out
	}
	land := r.plies[len(r.plies)-1].t
	if d&^r.changedAfter(land-1) != 0 || d&r.changedAfter(land+minReplyMs) != 0 {
		return out
	}
	// (Not squares a move of the player to move leaves as they are: the
	// reply may be under way, its press to come.)
	for _, m := range r.legal(P).Moves() {
		if P.OccupancyAfter(m) == r.v.occ {
			return out
		}
	}
	r.alertKey = r.viewKey()
	r.setOverlay(d, P, len(r.plies))
	return r.misplaced(out, t, P.Ply(), P.SideToMove().Other(), P, d)
}

// knockedOffAtPress reports whether the squares gone, pieces of the player
// who pressed last that the board no longer shows, were each read emptied
// within knockMs of that press and hold no piece the player to move can
// capture (a reply's victim taken off first), unless lifted sooner after
// the press than a reply begins: the pressing hand knocked
// them off the board (Rb8 pressed, the c8 bishop knocked off on the way
// to the clock, read gone 147 ms after the press and put back 7 s later:
// no alert, and the put-back was a hesitation of White's).
func (r *Reconstructor) knockedOffAtPress(P *chess.Position, gone chess.Bitboard) bool {
	if r.pressSide != P.SideToMove().Other() || gone.Count() > 2 {
		return false
	}
	var victims chess.Bitboard
	for _, m := range r.legal(P).Moves() {
		victims |= m.To().Bitboard()
	}
	for b := gone; b != 0; b &= b - 1 {
		off, ok := r.lastOff(b.First())
		if !ok || off < r.pressT-knockMs || off > r.pressT+knockMs {
			return false
		}
		// (A piece the opponent can take, lifted sooner after the press
		// than any reply begins, is no victim taken off first: b6,
		// which Rxb6 could take, read gone 32 ms after Black's press.)
		if victims.Has(b.First()) && off >= r.pressT+minReadyReplyMs {
			return false
		}
	}
	return true
}

// putThenTaken reports whether the board is move ix.move made with its
// misplaced squares all ones the move fills, each seen filled after the
// move began and then emptied again: the piece was put on its square
// (released, so the move is made) and taken off, not a move still in the
// hand (a castling rook knocked off its new square).
func (r *Reconstructor) putThenTaken(ix *inexact) bool {
	if !ix.oneMoveMisplaced() {
		return false
	}
	m := ix.move
	start, ok := r.lastOff(m.From())
	if !ok {
		return false
	}
	after := r.lines[ix.line].pos
	after.MakeMove(m)
	for b := ix.diff; b != 0; b &= b - 1 {
		s := b.First()
		on, ok1 := r.lastOn(s)
		off, ok2 := r.lastOff(s)
		if !after.Occupied().Has(s) || r.v.occ.Has(s) || !ok1 || !ok2 || on < start || off < on {
			return false
		}
	}
	return true
}

// replyCapturedUnseen reports whether the board, still for AlertMs, is
// move ix.move with the piece of the player to reply lifted (its one
// misplaced square) and explanation c is that move and the lifted piece
// capturing where nobody saw it land (a swap faster than a scan, or a
// push-off). The piece was lifted minReplyMs or more after the move
// landed, so it is no knock of the mover's hand (knockedByMover), and a
// reply held in the air that long is far less likely than a capture
// nobody saw: the capture is adopted, not pieces out of place. So it is
// when the capture was seen made after the lift (its victim taken off,
// a piece set down there). When nobody saw the move land either, a
// recapture on its square is timed from the move's lift and the
// quickest carry.
func (r *Reconstructor) replyCapturedUnseen(ix *inexact, c *cand) bool {
	if r.clock || !ix.oneMoveMisplaced() || c.cost > ix.cost+costMisplaced {
		return false
	}
	m := ix.move
	m2, _, ok := r.missingCaptured(ix, c)
	if !ok {
		return false
	}
	off, ok := r.lastOff(m2.From())
	if !ok {
		return false
	}
	if r.seenMade(m2.To(), off) {
		return true
	}
	on, ok := r.lastOn(m.Landing())
	if !ok {
		// The move's landing nobody saw either (its capture swapped
		// faster than a scan, or pushed off). A recapture there is down
		// after the quickest carry, then a reply's time; any other
		// capture of a piece next to the landing, which the withdrawing
		// hand may knock, after an ordinary carry (carried).
		if m2.To() == m.Landing() {
			lift, ok := r.lastOff(m.From())
			return ok && off >= lift+minQuickCarryMs+minReplyMs
		}
		return r.carried(m, m2.From(), off)
	}
	return off >= on+minReplyMs
}

// recapturedUnseen reports whether the board (still for CommitMs or
// AlertMs, or at the next move's first change) is read by ix as move
// ix.move with a piece of each player gone (its two misplaced squares,
// emptied and never filled again) while explanation c is those pieces'
// capture and recapture on one square, both nobody saw land (swaps faster
// than a scan, or push-offs), then ix.move, on occupancy boards without a
// clock. Each piece was lifted in turn: the capturing one a reply's time
// after the last published move landed (no knock of that move's hand: the
// move of the player to move under way), the recapturing one after the
// quickest carry and a reply's time more, and ix.move begun a reply's
// time after that. A knock does not take pieces of both players off in
// turn at the pace of moves, the player who knocked moving again: two
// pieces that never come down again, lifted so, are captures made, not
// pieces out of place.
func (r *Reconstructor) recapturedUnseen(ix *inexact, c *cand) bool {
	if r.clock || r.sensor != trace.Occupancy || !ix.oneMoveMisplaced() || ix.diff.Count() != 2 || c.line != ix.line ||
		c.back != 0 || c.stale || c.n != 3 || c.moves[2] != ix.move || c.cost > ix.cost+costMisplaced || len(r.plies) == 0 {
		return false
	}
	m0, m1, m := c.moves[0], c.moves[1], c.moves[2]
	if ix.diff != m0.From().Bitboard()|m1.From().Bitboard() || ix.diff&r.v.occ != 0 ||
		m0.IsCastling() || m1.IsCastling() || m0.IsEnPassant() || m1.To() != m0.To() {
		return false
	}
	q := r.lines[ix.line].pos
	if pc := q.PieceAt(m0.To()); pc == chess.NoPiece || pc.Color() == q.SideToMove() {
		return false
	}
	off0, ok0 := r.lastOff(m0.From())
	off1, ok1 := r.lastOff(m1.From())
	start, ok := r.lastOff(m.From())
	if !ok0 || !ok1 || !ok {
		return false
	}
	if on, ok := r.firstOn(m.Landing()); ok && on < start {
		start = on // slid there, shown before its lift
	}
	landed := r.plies[len(r.plies)-1].t
	return off0 >= landed+minReplyMs && off1 >= off0+minQuickCarryMs+minReplyMs && start >= off1+minReplyMs
}

// thirdCaptureSeenMade reports whether the board, still for AlertMs, is
// read by ix as a move and its reply with a piece of the player to move
// next lifted and gone (its one misplaced square), while explanation c is
// those two moves and that piece's capture, seen made after its lift (its
// victim taken off, a piece set down there) or begun a reply's time
// after the reply landed, on occupancy boards without a clock. As for one
// move (replyCapturedUnseen), the square emptied and filled again after
// the lift is the capture made, not the piece on it touched while another
// lies out of place.
func (r *Reconstructor) thirdCaptureSeenMade(ix *inexact, c *cand) bool {
	if r.clock || r.sensor != trace.Occupancy || ix.reply == chess.NoMove || c.cost > ix.cost+costMisplaced {
		return false
	}
	m2, _, ok := r.missingCaptured(ix, c)
	if !ok {
		return false
	}
	off, ok := r.lastOff(m2.From())
	if !ok {
		return false
	}
	// Or lifted a reply's time after the reply landed, and the board
	// still since: a capture nobody saw made, as after one move
	// (replyCapturedUnseen), not a piece held in the air for AlertMs
	// (15. Ng3 cxd4, then c3 lifted 2.1 s later for 16. cxd4, its victim
	// swapped unseen: c3 was alerted, and a resync later amended 15...
	// cxd4 into Qxf4).
	on, ok := r.lastOn(ix.reply.Landing())
	return r.seenMade(m2.To(), off) || ok && off >= on+minReplyMs
}

// missingCaptured reports whether explanation c is ix's moves (its move,
// and its reply if any) from the same hypothesis and one more, a capture
// by the piece ix reads as gone: ix's one misplaced square is where that
// capture began. It returns the capture and the position before it.
func (r *Reconstructor) missingCaptured(ix *inexact, c *cand) (chess.Move, chess.Position, bool) {
	n := 1
	if ix.reply != chess.NoMove {
		n = 2
	}
	if ix.move == chess.NoMove || ix.illegal || ix.unreplaced || ix.diff.Count() != 1 || c.line != ix.line || c.back != 0 ||
		c.stale || c.n != n+1 || c.moves[0] != ix.move || n == 2 && c.moves[1] != ix.reply {
		return chess.NoMove, chess.Position{}, false
	}
	m := c.moves[n]
	if ix.diff != m.From().Bitboard() || m.IsCastling() {
		return chess.NoMove, chess.Position{}, false
	}
	q := r.lines[ix.line].pos
	for _, mv := range c.moves[:n] {
		q.MakeMove(mv)
	}
	if pc := q.PieceAt(m.To()); pc == chess.NoPiece || pc.Color() == q.SideToMove() {
		return chess.NoMove, chess.Position{}, false
	}
	return m, q, true
}

// seenMade reports whether a capture on game square v by a piece lifted
// at off was seen made: its victim taken off after the lift, and a piece
// set down there after that.
func (r *Reconstructor) seenMade(v chess.Square, off int64) bool {
	voff, ok1 := r.lastOff(v)
	on, ok2 := r.lastOn(v)
	return ok1 && ok2 && voff > off && on > voff
}

// replyTakesEarly reports whether knock, the square a knockedMove
// explanation (cand best) holds knocked, is the reply's piece read lifted
// before the move's landing, within a sweep of it, on a colour or piece
// board, and s, changed now, a square that piece goes to or takes on:
// the reply under way, its piece read first in the sweep's order (a
// piece board read c4 lifted 36 ms before ...Bxd5 landed, then d5 lifted
// for cxd5: c4 was alerted out of place, and nothing after ply 10 was
// published; d6 lifted 67 ms before ...Qe8 was read down, then f8 for
// Bxf8: the same).
func (r *Reconstructor) replyTakesEarly(best int, knock chess.Bitboard, s chess.Square) bool {
	c := &r.cands[best]
	if knock == 0 || knock.More() || c.n != 1 || c.back != 0 || c.stale || r.sensor == trace.Occupancy {
		return false
	}
	m := c.moves[0]
	after := r.lines[c.line].pos
	after.MakeMove(m)
	k, land, gs := knock.First(), m.Landing(), rotSquare(s, r.orient)
	if !after.ByColor(after.SideToMove()).Has(k) {
		return false
	}
	off, ok1 := r.lastOff(k)
	onT, ok2 := r.lastOn(land)
	if !ok1 || !ok2 || off >= onT || onT-off > r.sweepMs() {
		return false
	}
	for _, mv := range r.legal(&after).Moves() {
		if mv.From() == k && (mv.To() == gs || victimSquare(mv) == gs) {
			return true
		}
	}
	return false
}

// replyLiftedFirst reports whether the board (still for AlertMs, or at
// the next move's first change) is read by ix as move ix.move with a piece of the player to reply lifted (its
// one misplaced square) after that move's piece but before its landing
// was seen, and explanation c is two moves, the second that piece's to
// the same landing square: a hand knocks a piece over only once its own
// is down, and no reply begins before the move it answers is on the
// board, so the landing seen was the reply's and the move another (a
// capture nobody saw). On colour and piece boards c may be three moves,
// ix's two misplaced squares lifted in turn for the two captures on that
// square (f4 exf4 gxf4, no landing read but the last).
func (r *Reconstructor) replyLiftedFirst(ix *inexact, c *cand) bool {
	// (Three moves cost a ply more and two victims nobody saw taken
	// off: up to a third misplaced square more.)
	k, margin := c.n-1, costMisplaced
	if c.n == 3 {
		margin = 3 * costMisplaced
	}
	if r.clock || !ix.oneMoveMisplaced() || ix.diff.Count() != k || c.line != ix.line || c.back != 0 || c.stale ||
		c.n < 2 || c.n > 3 || c.n == 3 && r.sensor == trace.Occupancy || c.cost > ix.cost+margin {
		return false
	}
	m := ix.move
	lift, ok1 := r.lastOff(m.From())
	on, ok3 := r.lastOn(m.Landing())
	if !ok1 || !ok3 {
		return false
	}
	q := r.lines[ix.line].pos
	q.MakeMove(m)
	prev := lift
	for _, m2 := range c.moves[1:c.n] {
		if !ix.diff.Has(m2.From()) || m2.IsCastling() || m2.Landing() != m.Landing() || !q.ByColor(q.SideToMove()).Has(m2.From()) {
			return false
		}
		off, ok := r.lastOff(m2.From())
		if !ok || off <= prev || off >= on {
			return false
		}
		prev = off
		q.MakeMove(m2)
	}
	return true
}

// knockedByMover reports whether the board is move ix.move made with its
// misplaced squares all emptied within minReplyMs of the move's landing
// and off its squares: the hand that made the move knocked them off, as
// no reply starts that soon. Without it a piece of the player to move
// knocked off the board looks like that player's move under way, the
// piece in the hand, for as long as it stays off.
func (r *Reconstructor) knockedByMover(ix *inexact) bool {
	if !ix.oneMoveMisplaced() {
		return false
	}
	m := ix.move
	P := &r.lines[ix.line].pos
	all, _ := moveSquares(P, m)
	if ix.diff&all != 0 || ix.diff&r.v.occ != 0 {
		return false
	}
	on, ok := r.lastOn(m.Landing())
	if !ok {
		return false
	}
	for b := ix.diff; b != 0; b &= b - 1 {
		off, ok := r.lastOff(b.First())
		if !ok || off < on || off >= on+minReplyMs {
			return false
		}
	}
	return true
}

// centre are the squares of the result gesture: both kings on the light
// ones (d5, e4) 1-0, both on the dark ones (d4, e5) 0-1, one of each
// 1/2-1/2 (the DGT boards' convention).
const (
	centreLight = chess.Bitboard(1<<35 | 1<<28)
	centreDark  = chess.Bitboard(1<<27 | 1<<36)
)

// resultGesture recognises the kings put on two centre squares after the
// game: both kings' squares emptied, two centre squares filled, nothing
// else changed. It is never a move.
func (r *Reconstructor) resultGesture() (string, bool) {
	p := &r.lines[0].pos
	d := r.v.diff(p) &^ r.excused(p)
	kings := p.Pieces(chess.White, chess.King) | p.Pieces(chess.Black, chess.King)
	centre := centreLight | centreDark
	placed := d & r.v.occ & centre
	if d&kings != kings || r.v.occ&kings&^centre != 0 || placed.Count() != 2 || d&^(kings|placed) != 0 {
		return "", false
	}
	if r.v.colourKnown&placed == placed && (r.v.white&placed).Count() != 1 {
		return "", false
	}
	switch {
	case placed&centreLight == placed:
		return "1-0", true
	case placed&centreDark == placed:
		return "0-1", true
	}
	return "1/2-1/2", true
}

// oneInHand reports whether a colour or piece board differs from the game
// position only by one piece lifted: a hand at work, not a position a
// catch-up may explain by a capture (the bishop of an illegal Bc1-b1
// lifted to be put back was read as Nh6 Bg5 Ng8 Bf6 Nxf6 found at once,
// the published Nf6 amended). On occupancy boards a capture nobody saw
// the victim of looks alike.
func (r *Reconstructor) oneInHand() bool {
	d := r.v.diff(&r.lines[0].pos)
	return r.sensor != trace.Occupancy && !d.More() && d&r.v.occ == 0
}

// gestureEnd ends the game with the result the kings show.
func (r *Reconstructor) gestureEnd(res string, t int64, out []Output) []Output {
	out = r.note(out, NoteResultSign, t, r.v.occ&(centreLight|centreDark),
		"the kings stand on the centre squares: the result "+res)
	r.state, r.result, r.reason = stateEnded, res, ReasonResultSign
	return append(out, Output{Kind: End, T: t, Ply: r.lines[0].pos.Ply(), Result: res, Reason: r.reason,
		ClockMs: -1, From: chess.NoSquare, To: chess.NoSquare})
}

// explainFirst is explain, and before the first move also tries every
// orientation the set-up allows, turning the board if that explains it.
func (r *Reconstructor) explainFirst(allowResync bool) int {
	if len(r.plies) > 0 || r.orientOK&(r.orientOK-1) == 0 {
		return r.explain(true, allowResync)
	}
	// The orientation a move fits best (a capture nobody was seen lifting
	// is no evidence: it is what a piece in the hand looks like); the
	// first fitting one otherwise. It is fixed when the move is adopted.
	bestQ, bestCost := uint8(0), 0
	for r.orientOK&(1<<bestQ) == 0 {
		bestQ++
	}
	found := false
	for q := uint8(0); q < 4; q++ {
		if r.orientOK&(1<<q) == 0 {
			continue
		}
		r.orient = q
		r.makeView()
		if b := r.explain(false, false); b >= 0 && r.cands[b].n > 0 && !r.cands[b].missed {
			if !found || r.cands[b].cost < bestCost {
				found, bestQ, bestCost = true, q, r.cands[b].cost
			}
		}
	}
	r.orient = bestQ
	r.makeView()
	return r.explain(true, allowResync)
}

// checkOrientation looks, before the first move, at which way the start
// set-up stands on the board.
func (r *Reconstructor) checkOrientation(t int64, out []Output) []Output {
	if len(r.plies) > 0 {
		return out
	}
	var ok uint8
	var v view
	for q := uint8(0); q < 4; q++ {
		r.raw.makeView(q, &v)
		if v.diff(&r.start) == 0 {
			ok |= 1 << q
		}
	}
	if ok != 0 {
		if !r.sawStart && r.alertKey != 0 {
			// The wrong set-up alerted before is put right.
			out = r.note(out, NoteRestored, t, 0, "the start position is set up correctly now")
			r.alertKey = 0
		}
		r.sawStart = true
	}
	if ok == 0 || ok&1 != 0 && r.orient == 0 {
		if ok != 0 {
			r.orientOK = ok
		}
		return out
	}
	r.orientOK = ok
	if ok&(1<<r.orient) != 0 {
		return out
	}
	// The set-up stands turned: compensate at once if only one way fits;
	// otherwise the first move decides (explainFirst).
	if ok&(ok-1) == 0 {
		q := uint8(0)
		for ok&(1<<q) == 0 {
			q++
		}
		return r.turn(q, t, "the start set-up", out)
	}
	return out
}

// turn compensates a board turned q quarter turns and alerts it.
func (r *Reconstructor) turn(q uint8, t int64, how string, out []Output) []Output {
	if q == r.orient {
		return out
	}
	r.orient = q
	r.orientOK = 1 << q
	r.makeView()
	deg := int(q) * 90
	return r.alert(out, Output{
		Alert: BoardRotated, T: t, Ply: r.lines[0].pos.Ply() + 1, Side: chess.White,
		Expected: "White's pieces on ranks 1 and 2 (a1 at White's left)",
		Seen:     fmt.Sprintf("the board turned %d degrees", deg),
		Text:     fmt.Sprintf("The board is turned %d degrees (seen from %s); boardd compensates.", deg, how),
	})
}

// atPosition handles a still board that shows the game position.
func (r *Reconstructor) atPosition(t int64, out []Output) []Output {
	r.ver++
	if r.prov != chess.NoMove {
		out = append(out, Output{Kind: Retract, T: t, Ply: r.provPly, Side: r.lines[0].pos.SideToMove(),
			Old: r.prov, OldSAN: r.provN.san, OldUCI: r.provN.uci, Provisional: true,
			Text: "the board went back to the position before the move"})
		r.prov = chess.NoMove
	}
	rv := r.recView()
	// (Squares out of place put right are no hesitation: the note below
	// says they are back.)
	if touched := rv.touched() &^ r.overlay; touched != 0 && r.state != stateIrregular && r.state != stateSetup {
		n := len(out)
		out = r.note(out, NoteHesitation, t, touched, "pieces lifted and put back: "+touched.List())
		// The side whose pieces they are, when they are one side's: the
		// player who moved may touch them again before the reply (a
		// move made, taken back and made again), and a touch-move
		// question is that player's.
		p := &r.lines[0].pos
		for _, c := range [2]chess.Color{chess.White, chess.Black} {
			if on := touched & p.Occupied(); on != 0 && on&^p.ByColor(c) == 0 {
				out[n].Side = c
			}
		}
	}
	if r.state == stateIrregular {
		r.state = statePlay
		if r.overlay == 0 || r.v.diff(&r.lines[0].pos) == 0 {
			out = r.note(out, NoteRestored, t, 0, "the board is back in the position before the irregularity")
		} else {
			out = r.note(out, NotePartlyRestored, t, r.overlay, "the board is back in the position before the irregularity but for the squares out of place: "+r.overlay.List())
		}
	}
	exact := r.v.diff(&r.lines[0].pos) == 0
	if exact {
		r.refuteAlts()
	}
	if r.overlay != 0 {
		if exact {
			if r.overlay&^r.silent != 0 {
				out = r.note(out, NoteRestored, t, r.overlay, "the misplaced pieces are back: "+r.overlay.List())
			}
			r.overlay, r.silent = 0, 0
		}
	}
	r.alertKey = 0
	r.rec.resetExcept(0)
	return out
}

// refuteAlts forgets, when a still board shows the published position
// exactly, the other moves kept for recent published moves (alts) whose
// history would show another board: the board refutes them, and no
// later knock that happens to show one may revive it (33. Re1 published
// with a knocked pawn out of place, Rd1 kept; the rook knocked onto d1
// four moves later, after the board had shown e1 for 16 s: Re1 was
// amended to Rd1).
func (r *Reconstructor) refuteAlts() {
	for i := len(r.plies) - 1; i >= 0 && i >= len(r.plies)-maxRevive; i-- {
		pr := &r.plies[i]
		if len(pr.alts) == 0 {
			continue
		}
		kept := pr.alts[:0]
		for _, a := range pr.alts {
			if pos, ok := r.replayWith(i, a); ok && !r.sensorTells(&pos, &r.lines[0].pos) {
				kept = append(kept, a)
			}
		}
		pr.alts = kept
	}
}

// replayWith is the position the published game reaches with move a in
// place of published ply i, the later plies made again as they were;
// ok false if one of them is illegal there.
func (r *Reconstructor) replayWith(i int, a chess.Move) (chess.Position, bool) {
	pos := r.befores[i]
	pos.MakeMove(a)
	for _, p := range r.pub[i+1:] {
		if !r.legal(&pos).Contains(p) {
			return pos, false
		}
		pos.MakeMove(p)
	}
	return pos, true
}

// sensorTells reports whether this board's sensors tell positions a and
// b apart.
func (r *Reconstructor) sensorTells(a, b *chess.Position) bool {
	if a.Occupied() != b.Occupied() {
		return true
	}
	switch r.sensor {
	case trace.Occupancy:
		return false
	case trace.Colour:
		return a.ByColor(chess.White) != b.ByColor(chess.White)
	}
	return !samePlacement(a, b)
}

// provisional announces the move the board shows before the press.
func (r *Reconstructor) provisional(c *cand, out []Output) []Output {
	L := &r.lines[c.line]
	m := c.moves[0]
	if m == r.prov {
		return out
	}
	ply := L.pos.Ply() + 1
	if r.prov != chess.NoMove && r.provPly == ply {
		out = r.note(out, NoteMoveChanged, r.lastChange, m.From().Bitboard()|r.prov.From().Bitboard(),
			fmt.Sprintf("the move on the board changed from %s to %s before the clock press",
				r.san(&L.pos, r.prov), r.san(&L.pos, m)))
	}
	r.prov, r.provPly, r.provT = m, ply, r.lastChange
	// Kept so that the final move, usually the same, need not be written again.
	r.provKey, r.provN = L.pos.Key(), r.write(&L.pos, m)
	return append(out, Output{Kind: Move, T: r.lastChange, Ply: ply, Side: L.pos.SideToMove(), Move: m,
		SAN: r.provN.san, UCI: r.provN.uci, FEN: r.provN.fen, Provisional: true, ClockMs: -1})
}

// press handles a clock press by side.
func (r *Reconstructor) press(side chess.Color, t int64, out []Output) []Output {
	r.clock = true
	// The clock sees every press, whatever the board shows.
	clk, fell := r.clk.press(side, t)
	r.pressedAt[side] = t
	if r.state == stateEnded {
		return out
	}
	if r.pending && r.pressSide != side {
		hold := r.pressInHand(t)
		if len(r.chain) > 0 {
			// (The pending one's piece may be down by now, and this
			// press's still in the hand.)
			r.makeView()
			// (Squares changed since the chain's first press may be
			// a hand's knock going back: c2 knocked onto c3 after
			// Nxd4 was pressed.)
			ts := append(r.chainTimes(), t)
			tol := r.changedAfter(ts[0])
			hold = len(r.chain) < maxChain && (r.pressedChain(ts, t, true, tol) >= 0 || r.pressedChain(ts, t, false, tol) >= 0)
		}
		if hold {
			// The waiting press's piece not read down yet: taken by
			// the reply before any sweep read it, the reply pressed
			// before its own landing was read (Bg2 on a 250 ms piece
			// board, the bishop taken off g2 74 ms after White's press
			// and Bxg2 pressed before g2 was read): the presses are
			// judged together, when the board shows the moves. So on
			// for a third (e5 fxe5 Bxe5, no landing read before the
			// bishop's).
			r.chain = append(r.chain, heldPress{side: r.pressSide, t: r.pressT, clk: r.pressClk, raw: r.raw})
		} else {
			// The opponent's press while one is still waiting for the
			// board: the move it completed was made before the reply
			// was, so it is judged now, with its own clock reading (a3
			// pressed 85 ms after it landed, the reply slid via d7 and
			// pressed before a2 had settled: a3 carried Black's
			// reading, with a missed press noted).
			out = r.decidePress(out)
			if r.state == stateEnded {
				return out
			}
		}
	}
	// A press by the same side still waiting for the board is replaced
	// by this one; its flags are kept.
	r.pending, r.pressSide, r.pressT, r.pressClk, r.pressHeldSq, r.pressAhead, r.pressBlind = true, side, t, clk, chess.NoSquare, 0, false
	r.pressFell = append(r.pressFell, fell...)
	r.makeView()
	// (A board whose last change came before the last decision shows
	// nothing of the move; else the view says.)
	r.pressBlank = r.lines[0].pos.SideToMove() == side && (r.rec.events == 0 || r.noneOfTheMove(side))
	if r.pressBlank {
		// Nothing of the move shows yet: the hand may be a moment
		// behind the press (pressedAhead), the settle no sooner.
		r.pressAhead = r.aheadUntil()
	} else if r.castlingKingShown(side) {
		// The king of a castling set down, its rook not lifted yet: the
		// hand may be a moment behind the press with it (O-O king
		// first, pressed, h8 read lifted 107 ms after the press: the
		// king's e8-g8 was alerted as illegal).
		r.pressAhead = r.aheadUntil()
	}
	// Never at once: a piece still on its way as the sensor saw it may be
	// read on its next square up to a sweep after the press (c2-c4 slid
	// over c3, read on c3 59 ms before White pressed and on c4 35 ms
	// after; f2-f4 read on f3 121 ms before the press and on f4 25 ms
	// after: f3 was published and f4 alerted). A board that shows the
	// move and no change for a sweep before the press and after it is
	// decided then (pressQuick), before the presser's hand, going back,
	// knocks a piece; else at the settle, or at the next lift
	// (liftAfterPress).
	r.pressQuick = false
	if b := r.explainFirst(true); b >= 0 && r.fitsPress(&r.cands[b], side) && t-r.lastChange >= r.sweepMs() {
		w := r.slideSettles(&r.cands[b], t)
		if r.sensor == trace.Occupancy {
			// (Or short of its victim, taken off first: no capture
			// nobody saw, nor the piece in the hand.)
			w = max(w, r.slidToVictim())
		}
		if w > t+max(r.sweepMs(), quickPressMs) {
			// A slide maybe still going on (2. Bc4 slid via d3 on an
			// occupancy board, d3 read 68 ms before the press and c4
			// 55 ms after: Bd3 was published at once). Decided then
			// if nothing changes (a reply's lift may come first).
			r.pressWait, r.pressQuick = w, true
			return out
		}
		if r.sensor == trace.Occupancy && r.cands[b].missed || r.castlingKing(&r.cands[b]) != chess.NoSquare {
			// A capture whose victim nobody saw leave: on an occupancy
			// board that is also the piece still in the hand, set down
			// elsewhere a moment after the press (2... Nf7 pressed
			// 148 ms ahead of its landing was published as Nxf3+). Or
			// a rook's move that is a castling's first half: its king
			// may follow at once (5. O-O rook first, pressed 100 ms
			// before the king was lifted: Rf1 was published and the
			// king alerted out of place).
			r.pressWait = r.aheadUntil()
			r.pressAhead, r.pressBlind = r.pressWait, r.sensor == trace.Occupancy && r.cands[b].missed
			r.blindOnSq, r.blindVictimSq = chess.NoSquare, chess.NoSquare
			return out
		}
		// (At least 50 ms: a fast scan's readings come later than its
		// sweep when the loop is late; an occupancy board read f4 25 ms
		// after the press, its sweep 20 ms.)
		r.pressWait, r.pressQuick = t+max(r.sweepMs(), quickPressMs), true
		return out
	}
	if r.fired&firedSettle != 0 {
		// The board was already still, but a sensor reports a change up
		// to a sweep late: the piece set down just before the press may
		// not have been read yet (a piece board's 250 ms sweep read e5
		// 22 ms after Black pressed, and a clock-without-move penalty
		// was given). Decided after one sweep, or at the settle if a
		// change comes first.
		r.pressWait = t + r.sweepMs()
		if !r.pressBlank {
			// (A castling's king shown: castlingKingShown.)
			r.pressWait = max(r.pressWait, r.pressAhead)
		}
	}
	return out
}

// castlingKingShown reports whether the view differs from the game
// position only by side's king moved to where a legal castling of side's
// puts it, that castling's rook still on its square.
func (r *Reconstructor) castlingKingShown(side chess.Color) bool {
	P := &r.lines[0].pos
	kf := P.KingSquare(side)
	if P.SideToMove() != side || P.Castling()&castleRights(side) == 0 || r.raw.occ.Has(unrotSquare(kf, r.orient)) {
		// (The king still on its square: most presses end there.)
		return false
	}
	r.makeView()
	d := r.v.diff(P)
	if d.Count() != 2 {
		return false
	}
	for _, m := range r.legal(P).Moves() {
		kt := m.CastlingKingTo()
		if m.IsCastling() && m.From() == kf && d == kf.Bitboard()|kt.Bitboard() && r.v.occ.Has(m.To()) && !r.v.occ.Has(kf) && r.v.occ.Has(kt) {
			return true
		}
	}
	return false
}

// castlingKing is, when c is one rook move from its line's position that
// is the rook's part of a legal castling there, that castling's king's
// square; NoSquare otherwise.
func (r *Reconstructor) castlingKing(c *cand) chess.Square {
	if c.n != 1 || c.back != 0 || c.stale || c.moves[0].IsCastling() {
		return chess.NoSquare
	}
	P := &r.lines[c.line].pos
	if P.PieceAt(c.moves[0].From()).Type() != chess.Rook || P.Castling()&castleRights(P.SideToMove()) == 0 {
		return chess.NoSquare
	}
	for _, m := range r.legal(P).Moves() {
		if rookPartOf(m, c.moves[0]) {
			return m.From()
		}
	}
	return chess.NoSquare
}

// quickPressMs is the least a press on a board that showed its move
// still waits for a late reading.
const quickPressMs = 50

// fitsPress reports whether c is a move sequence ending with side's move.
func (r *Reconstructor) fitsPress(c *cand, side chess.Color) bool {
	if c.n == 0 {
		return false
	}
	p := r.candStart(c)
	return (p.SideToMove() == side) == (c.n%2 == 1)
}

// pushersTo is the pawns of colour c in p that a push (a single step, or
// a double step over an empty square) takes to the empty square s.
func pushersTo(p *chess.Position, s chess.Square, c chess.Color) chess.Bitboard {
	if p.Occupied().Has(s) {
		return 0
	}
	// back steps a square towards c's side of the board.
	back := func(b chess.Bitboard) chess.Bitboard { return b >> 8 }
	start := chess.Bitboard(0xff) << 8 // the pawns' first rank, White's
	if c == chess.Black {
		back = func(b chess.Bitboard) chess.Bitboard { return b << 8 }
		start = chess.Bitboard(0xff) << 48
	}
	pawns := p.Pieces(c, chess.Pawn)
	one := back(s.Bitboard())
	if one&p.Occupied() != 0 {
		return one & pawns
	}
	return back(one) & pawns & start
}

// anyFitsPress reports whether any of cs ends with a move of the side
// that pressed the clock.
func (r *Reconstructor) anyFitsPress(cs []cand) bool {
	for i := range cs {
		if r.fitsPress(&cs[i], r.pressSide) {
			return true
		}
	}
	return false
}

// decidePress judges the board for the pending press, then reports the
// flags that fell before it.
func (r *Reconstructor) decidePress(out []Output) []Output {
	side := r.pressSide
	out = r.judgePress(out)
	if r.silent != 0 && side != r.silentSide && r.lines[0].pos.Ply() >= r.silentPly+1 {
		// Pieces held as knocked by the other player, still out of
		// place when the reply is pressed: alerted now, as of the move
		// that knocked them (with no still board for AlertMs in a fast
		// game they were never alerted).
		r.makeView()
		out = r.alertKnocked(r.pressT, out)
	}
	return r.pressFlags(out)
}

// pressFlags reports the flags that fell at the press just decided.
func (r *Reconstructor) pressFlags(out []Output) []Output {
	for _, f := range r.pressFell {
		out = r.flagFall(f.Side, r.pressT, out)
	}
	r.pressFell = nil
	return out
}

// pressDone marks the pending press decided.
func (r *Reconstructor) pressDone() {
	r.decisions++
	r.pending, r.pressWait, r.pressHeldSq, r.pressQuick, r.slideOn, r.pressAhead, r.pressBlind = false, 0, chess.NoSquare, false, false, 0, false
	r.chain = r.chain[:0]
}

func (r *Reconstructor) judgePress(out []Output) []Output {
	if len(r.chain) > 0 {
		var ok bool
		if out, ok = r.judgeChain(out); ok {
			return out
		}
	}
	r.pressDone()
	side, t := r.pressSide, r.pressT
	r.makeView()
	toMove := r.lines[0].pos.SideToMove()
	if side == toMove && r.standReply(side) {
		defer r.replyBack()
	}
	r.judgingPress = true
	best, ix, useIx := r.weigh(true)
	r.judgingPress = false
	if !useIx && r.cands[best].n > 0 && !r.fitsPress(&r.cands[best], side) {
		// The board shows a move sequence the presser did not end: the
		// opponent's reply made before the move it answers was completed
		// by its press. Judge it as an irregular board (a piece knocked
		// by the presser's hand) if that explains it nearly as well.
		r.judgingPress = true
		ix = r.inexactBest()
		r.judgingPress = false
		useIx = ix.cost <= r.cands[best].cost+costOverlap
	}
	if !useIx {
		c := &r.cands[best]
		swap := r.hiddenSwap(c.line)
		switch {
		case r.fitsPress(c, side):
			if c.n >= 2 {
				out = r.note(out, NoteNoPress, t, 0, fmt.Sprintf("%d moves completed by one press: a press was missed or events were lost", c.n))
			}
			out = r.adoptPressed(best, out)
			return r.staleCatchUp(side, out)
		case c.n == 0 && c.back == 0 && side == toMove && swap >= 0:
			// The board as it was, the king lifted and put back, and the
			// clock pressed: the castling that trades king and rook
			// (Chess960), the only move that shows so, not a press
			// without a move.
			return r.adoptPressed(swap, out)
		case c.n == 0 && c.back == 0 && side == toMove && r.state != stateIrregular:
			if r.viewKey() == r.alertKey {
				return r.note(out, NoteExtraPress, t, 0, "the clock was pressed again without a move")
			}
			r.alertKey = r.viewKey()
			return r.alert(out, Output{Alert: ClockWithoutMove, T: t, Ply: r.lines[0].pos.Ply() + 1, Side: side,
				Expected: "a move before the clock press", Seen: "the board unchanged",
				Text: fmt.Sprintf("%s pressed the clock without making a move.", colourName(side))})
		case c.back > 0 && c.n == 0:
			out = r.note(out, NoteTakeback, t, 0, "the board shows an earlier position")
			return r.adopt(best, t, out)
		}
		return r.note(out, NoteExtraPress, t, 0, fmt.Sprintf("%s pressed the clock but the board shows no move of theirs", colourName(side)))
	}
	if r.state == stateSetup && len(r.plies) == 0 && !r.sawStart {
		return r.wrongSetup(t, out)
	}
	var ok bool
	if out, ok = r.catchUp(r.lastChange, true, ix.cost, ix.plies(), true, side, out); ok {
		return out
	}
	return r.actInexact(ix, side, t, true, out)
}

// staleCatchUp, after a press adopted with pieces still out of place
// since an earlier misplaced-pieces alert while both players moved on,
// amends the ply before that alert when its piece stands on another
// square the same move could have reached, and the plies since, made
// again as they were, reach the board exactly: the published move had
// the wrong landing (a pawn touched down on a5 and set on a6 just after
// the press: a5 was published, a5 and a6 alerted, and the game stayed a5
// to its end). Nothing else: a piece knocked and left for moves on end is
// the alert's, and a catch-up that took back moves for it made false
// illegal moves of later ones.
func (r *Reconstructor) staleCatchUp(side chess.Color, out []Output) []Output {
	ov := r.overlay &^ r.silent
	n := len(r.plies)
	i := r.overlayFrom - 1
	if ov == 0 || r.state != statePlay || r.staleOverlay(0) == 0 || i < 0 || i >= n || n-i > maxDecodePlies {
		return out
	}
	pm, p := r.pub[i], &r.befores[i]
	if pm.IsCastling() || pm.IsPromotion() || !ov.Has(pm.To()) {
		return out
	}
	r.makeView()
	var found [1]catchMatch
	k := 0
	for _, m := range r.legal(p).Moves() {
		if m.From() != pm.From() || m == pm || m.IsPromotion() || !ov.Has(m.To()) {
			continue
		}
		q := *p
		q.MakeMove(m)
		ok := true
		for _, later := range r.pub[i+1:] {
			// (Not r.legal: its cache holds the list iterated.)
			var ml chess.MoveList
			if q.GenerateLegal(&ml); !slices.Contains(ml.Moves(), later) {
				ok = false
				break
			}
			q.MakeMove(later)
		}
		if !ok || r.v.diff(&q) != 0 {
			continue
		}
		if k++; k > 1 {
			return out // two landings fit: the alert stands
		}
		found[0] = catchMatch{back: n - i, n: n - i, pos: q}
		found[0].moves[0] = m
		copy(found[0].moves[1:], r.pub[i+1:])
	}
	if k != 1 {
		return out
	}
	return r.adoptCatch(found[:], 0, r.lastChange, out)
}

// judgeChain judges the pending press together with those held before
// it (chain): when the board shows, exactly, the held presses' moves and
// the pending one's, all are made, each with its own clock reading. If
// not, each held press is judged in turn, on the board as it stood at the
// press after it (as when it was not held), and ok false leaves the
// pending one to the caller.
func (r *Reconstructor) judgeChain(out []Output) ([]Output, bool) {
	var held [maxChain]heldPress
	ts := r.chainTimes()
	chain := held[:copy(held[:], r.chain)]
	r.chain = r.chain[:0]
	k := len(chain) + 1
	r.makeView()
	b := r.explainFirst(true)
	if b < 0 || r.cands[b].back != 0 || r.cands[b].line != 0 || r.cands[b].n != k || !r.fitsPress(&r.cands[b], r.pressSide) || !r.liftedInTurn(r.cands[b].moves[:k], ts) {
		b = r.pressedChain(ts, 0, false, 0)
	}
	if b < 0 {
		// Then with squares changed after the first press left out: a
		// piece a presser's hand knocked going back (f2 knocked onto
		// g1 as Nxd4 was pressed) is alerted as it stays.
		b = r.pressedChain(ts, 0, false, r.changedAfter(ts[0]))
	}
	if b >= 0 {
		r.pressDone()
		n0 := len(r.plies)
		out = r.adoptPressed(b, out)
		if len(r.plies) == n0+k {
			for i, h := range chain {
				setPlyClock(out, r.befores[n0].Ply()+1+i, h.clk, h.t)
			}
		}
		return r.pressFlags(out), true
	}
	side, t, clk := r.pressSide, r.pressT, r.pressClk
	fell := r.pressFell
	r.pressFell = nil
	cur := r.raw
	for _, h := range chain {
		r.pressSide, r.pressT, r.pressClk = h.side, h.t, h.clk
		r.setRaw(h.raw)
		r.explained = false
		out = r.judgePress(out)
		if r.state == stateEnded {
			break
		}
	}
	r.setRaw(cur)
	r.explained = false
	r.makeView()
	if r.state == stateEnded {
		r.pending = false
		return out, true
	}
	r.pending, r.pressSide, r.pressT, r.pressClk, r.pressFell = true, side, t, clk, fell
	return out, false
}

// changedAfter is the game squares read lifted or set down after t.
func (r *Reconstructor) changedAfter(t int64) chess.Bitboard {
	// (Over the raw squares seen changing, turned at the end: a press
	// asks this at every change of the reply.)
	var b chess.Bitboard
	for e := r.rec.lifted | r.rec.placed; e != 0; e &= e - 1 {
		s := e.First()
		if r.rec.lifted.Has(s) && r.rec.lastOff[s] > t || r.rec.placed.Has(s) && r.rec.lastOn[s] > t {
			b |= s.Bitboard()
		}
	}
	return rotBB(b, r.orient)
}

// liftedInTurn reports whether each of moves, those of the presses at
// ts, had its piece lifted before its press (liftedBy): the order the
// board cannot show (Bc4 Nf6 Nc3 and Nc3 Nf6 Bc4 leave the same board,
// but the b1 knight was lifted after Black's press).
func (r *Reconstructor) liftedInTurn(moves []chess.Move, ts []int64) bool {
	for i, m := range moves {
		if !r.liftedBy(m, ts[i]) {
			return false
		}
	}
	return true
}

// liftedBy reports whether m's piece, if its square was read lifted at
// all, was lifted before a press at t, but for a sweep's delay in
// reading it.
func (r *Reconstructor) liftedBy(m chess.Move, t int64) bool {
	off, ok := r.lastOff(m.From())
	return !ok || off <= t+r.sweepMs()
}

// chainTimes is the times of the held presses and the pending one.
func (r *Reconstructor) chainTimes() []int64 {
	ts := make([]int64, 0, maxChain+2)
	for _, h := range r.chain {
		ts = append(ts, h.t)
	}
	return append(ts, r.pressT)
}

// pressedChain finds, from the game position, the moves of the presses
// at ts judged together (each move's piece lifted before its press, but
// for a sweep's delay in reading it), every move from a square the board shows
// empty (a move's landing may show the piece set down, or the next
// move's piece that took it there before any sweep read it), that bring
// the game to the board: exactly, or with the last move's piece still in
// the hand (inHand: its landing empty on the board), but for up to two
// squares of tol (changed after the last press: the next move begun, a
// piece knocked by the presser's hand), each costing as a piece out of
// place. The likeliest becomes r.cands[0]; -1: none.
func (r *Reconstructor) pressedChain(ts []int64, now int64, inHand bool, tol chess.Bitboard) int {
	k := len(ts)
	P := &r.lines[0].pos
	rv := r.recView()
	found := false
	var best cand
	var seq [maxChain + 1]chess.Move
	var walk func(p *chess.Position, d int)
	walk = func(p *chess.Position, d int) {
		// (Not r.legal: its cache may not hold a list across the
		// deeper calls.)
		var ml chess.MoveList
		p.GenerateLegal(&ml)
		for _, m := range ml.Moves() {
			if r.v.occ.Has(m.From()) || m.IsCastling() {
				continue
			}
			if !r.liftedBy(m, ts[d]) {
				continue
			}
			q := *p
			q.MakeMove(m)
			seq[d] = m
			if d+1 < k {
				walk(&q, d+1)
				continue
			}
			var want, late chess.Bitboard
			if inHand {
				want = m.Landing().Bitboard()
				if r.v.occ&want != 0 {
					continue
				}
				// An earlier move's landing may be unread too, its
				// piece set down after the next press and read after
				// this one (Bc4 Nf6 Nc3, each landing read just after
				// the next press): shown empty, within two sweeps of
				// its press (a sweep reads every square; a loop may
				// run late).
				for i, e := range seq[:k-1] {
					if now < ts[i]+2*r.sweepMs()+quickPressMs {
						late |= e.Landing().Bitboard()
					}
				}
				late &= q.Occupied() &^ r.v.occ
				// And the last move's piece may show on its way, on
				// a square of its line read before it was lifted
				// again (Rxe5 slid via e6, e6 read emptied after the
				// press).
				pc := p.PieceAt(m.From())
				for e := chess.Between(m.From(), want.First()) & r.v.occ; e != 0; e &= e - 1 {
					if s := e.First(); r.v.pieceAt(s) == pc || r.v.pieceKnown&s.Bitboard() == 0 && r.v.seen(pc.Color()).Has(s) {
						late |= s.Bitboard()
						break
					}
				}
			}
			d := r.v.diff(&q) &^ r.excused(&q)
			if d&want != want || d&^want&^late&^tol != 0 || (d&^want&^late).Count() > 2 {
				continue
			}
			c := cand{line: 0, n: k}
			copy(c.moves[:], seq[:k])
			c.cost, c.missed = r.seqCost(P, r.lastTo(0, 0), c.moves[:k], &rv)
			c.cost += costMisplaced * (d &^ want &^ late).Count()
			if !found || c.cost < best.cost {
				found, best = true, c
			}
		}
	}
	walk(P, 0)
	if !found {
		return -1
	}
	r.cands = append(r.cands[:0], best)
	r.explained = false
	return 0
}

// standReply shows on the view, for the press by side being judged, the
// pieces of side's opponent lifted after the press and not set down
// since: the reply begun, which a board that reads its squares one after
// another may report before the landing the press completed (a piece
// board read c3 lifted 73 ms after Black's press and 133 ms before b3
// filled: Nxb3 was judged with the c3 knight out of place). A reply
// already landed is taken off the view too (Nf4 pressed before its
// landing was read, Nc4 lifted and landed before the press was judged).
// It reports whether it changed the view (replyBack restores it).
func (r *Reconstructor) standReply(side chess.Color) bool {
	P := &r.lines[0].pos
	// liftedAfter: game square s emptied after the press, and no piece
	// set on it since the game position (else the piece lifted is that
	// one: the presser's capture taken by the reply, Bxd5 and the bishop
	// lifted for exd5).
	liftedAfter := func(s chess.Square) bool {
		off, lifted := r.lastOff(s)
		_, set := r.lastOn(s)
		return lifted && off > r.pressT && !set
	}
	var b chess.Bitboard
	gone := P.ByColor(side.Other()) &^ r.v.occ
	if ep := P.EnPassant(); ep != chess.NoSquare {
		// (The pawn an en passant takes is the presser's hand's to
		// remove, after the press as often as not.)
		gone &^= (ep ^ 8).Bitboard()
	}
	for e := gone; e != 0; e &= e - 1 {
		if s := e.First(); liftedAfter(s) && !(r.pressBlank && r.sideOnOther(s, side)) {
			// (On a board that showed no move at the press, not a
			// square another line the game keeps has a piece of side's
			// on: the presser's hand a moment behind, lifting it. 21.
			// e3 pressed 91 ms ahead after 20... Nxb5 was published as
			// Nxe2+: e2's lift was the reply's, and a clock-without-move
			// was alerted.)
			b |= s.Bitboard()
		}
	}
	// And a piece of side's that the reply's piece lifted so can capture,
	// lifted after the press (the victim taken off first: Nxg8, the g8
	// rook lifted 355 ms after Black's press, before exf3's landing had
	// settled).
	if !r.pressBlank {
		// (Not after a press on a board that showed no move: the
		// presser's hand, a moment behind, lifts its own pieces then;
		// 39... Rxe8 pressed 82 ms ahead, c8 read lifted 58 ms after
		// the press and the queen taken off e8 just after, was read as
		// Qxc8 begun and a clock-without-move.) Before the reply's
		// piece is read lifted, one piece of side's that a piece of the
		// opponent's can take (32... f5 pressed, Nxe8 victim first, e8
		// read lifted before f5 was read filled: e8 was alerted out of
		// place).
		by := b
		if b == 0 {
			by = P.ByColor(side.Other())
		}
		var own chess.Bitboard
		for e := P.ByColor(side) &^ r.v.occ; e != 0; e &= e - 1 {
			if s := e.First(); liftedAfter(s) && P.AttackersTo(s, side.Other())&by != 0 && (b != 0 || !r.filledNextAfterPress(s)) {
				own |= s.Bitboard()
			}
		}
		if b != 0 || !own.More() && r.sensor != trace.Occupancy {
			// (Not on occupancy boards, where the pressed move's own
			// piece, a moment behind the press, looks alike.)
			b |= own
		}
	}
	// And the squares empty in the game that a piece of the opponent
	// filled after the press (that reply landed; colour and piece boards
	// tell the colour).
	var set, over chess.Bitboard
	for e := r.v.seen(side.Other()); e != 0; e &= e - 1 {
		s := e.First()
		on, ok := r.lastOn(s)
		if !ok || on < r.pressT+replySetMs {
			continue
		}
		if !P.Occupied().Has(s) {
			set |= s.Bitboard()
		} else if off, lifted := r.lastOff(s); lifted && off < on && P.PieceAt(s).Color() == side {
			// The square the pressed move's piece left, the reply landed
			// on (27. b3 pressed, the pawn read on b3 after the press,
			// 27... Nb2 read there before the press was judged: b2 was
			// alerted out of place).
			set |= s.Bitboard()
		} else if lifted && P.PieceAt(s).Color() == side.Other() && (off < r.pressT || off < on && (P.AttackersTo(s, side.Other())&b != 0 || r.placedColour(s, side))) {
			// The opponent's piece the pressed move took, lifted
			// before the press, and the reply landed there after it;
			// or lifted after it, by the reply that took there (the
			// victim swapped for the capturing piece within a sweep,
			// Bxd5 pressed, d5 read emptied and d6 lifted, and Qxd5
			// landed), or once side's piece was read there (16...
			// Nxd4 pressed, the knight read on d4 and taken off for
			// cxd4 before c2 was read lifted: an illegal move).
			over |= s.Bitboard()
		} else if pc := r.v.pieceAt(s); lifted && off == on && pc != chess.NoPiece && pc.Color() == side.Other() && pc != P.PieceAt(s) && P.PieceAt(s).Color() == side.Other() && P.AttackersTo(s, side.Other())&P.Pieces(pc.Color(), pc.Type()) != 0 {
			// Or read as another of the opponent's pieces in one
			// reading, one of its kind able to take there: the pressed
			// capture's piece swapped for the reply's before any sweep
			// read it, the reply's lift maybe not read yet (3... exd4
			// pressed with the pawn in the hand, d4 read as a white
			// knight before f3 was read lifted: a false illegal move).
			over |= s.Bitboard()
		}
	}
	if r.sensor == trace.Occupancy && b&P.ByColor(side.Other()) != 0 {
		// An occupancy board tells no colour: a square empty in the game
		// filled after the press on the line of the opponent's piece
		// lifted after it, where no piece of side's lifted can land, is
		// that reply sliding (12... Nxh6 pressed, 13. Bd3 slid via e2
		// before the knight's landing was judged: an illegal Ng8-d3). Or
		// in front of its pawn (21. Bxd4 pressed, 21... b5 slid via b6,
		// b6 read filled before b7 was read lifted: bishop e3-b6 was
		// alerted as illegal).
		var mine chess.Bitboard
		for _, m := range r.legal(P).Moves() {
			if !r.v.occ.Has(m.From()) {
				mine |= m.Landing().Bitboard()
			}
		}
		for e := r.v.occ &^ P.Occupied() &^ mine; e != 0; e &= e - 1 {
			s := e.First()
			if on, ok := r.lastOn(s); ok && on >= r.pressT+replySetMs && (P.AttackersTo(s, side.Other())|pushersTo(P, s, side.Other()))&b != 0 {
				set |= s.Bitboard()
			}
		}
	}
	restored := false
	if reply := b & P.ByColor(side.Other()); set|over|reply != 0 {
		// The pressed move's piece read landed and taken off since: the
		// reply took it there, not where the reply's piece shows.
		if l, pc := r.takenLanding(side, set|over, reply); l != chess.NoSquare {
			lb := l.Bitboard()
			set &^= lb
			r.v.setColour(lb, side)
			if r.sensor == trace.PieceSensor {
				r.v.pieceKnown |= lb
				r.v.byPiece[pc] |= lb
			}
			restored = true
		}
	}
	r.v.drop(set)
	// The reply may have taken the pressed move's piece where it
	// landed before any sweep read it there (3. d4 pressed 8 ms after
	// its landing, the pawn taken off 98 ms after it landed for cxd4;
	// Bxc3+ pressed, the bishop taken off 151 ms after it landed for
	// bxc3): such a square shows a piece of side's, of a kind unread,
	// when a piece of side's lifted can move there.
	r.replyTook = 0
	if !restored {
		took := r.pressedTo(side, set|over)
		r.replyTook = took
		if took == 0 && r.sensor != trace.Occupancy {
			took = r.pressedTo(side, r.heldVictim(side, b))
		}
		r.v.setColour(took, side)
		set |= took
	}
	if landed := set | over; landed != 0 {
		// A piece of side's lifted after the press is no victim of the
		// reply when the reply landed elsewhere: the pressed move's own
		// piece, its lift read late (3... exd4 victim first, e5 read
		// lifted 90 ms after the press and before f3, and Nxd4 landed
		// on d4: a clock-without-move penalty was given).
		b &^= P.ByColor(side) &^ landed
	}
	if own := b & P.ByColor(side); own != 0 && P.SideToMove() == side {
		// Nor is one that the board shows landed where it can move:
		// the pressed move's piece, its lift read after the press
		// (3... exd4 pressed 5 ms before e5 was read lifted, the pawn
		// read on d4 after f3 was: a clock-without-move penalty).
		moved := r.v.seen(side) &^ P.ByColor(side)
		for _, m := range r.legal(P).Moves() {
			if own.Has(m.From()) && moved.Has(m.Landing()) {
				b &^= m.From().Bitboard()
			}
		}
	}
	for e := b; e != 0; e &= e - 1 {
		s := e.First()
		pc, sb := P.PieceAt(s), s.Bitboard()
		r.v.occ |= sb
		if r.sensor == trace.Occupancy {
			continue
		}
		r.v.colourKnown |= sb
		if pc.Color() == chess.White {
			r.v.white |= sb
		}
		if r.sensor == trace.PieceSensor {
			r.v.pieceKnown |= sb
			r.v.byPiece[pc] |= sb
		}
	}
	if b|set == 0 && !restored {
		return false
	}
	r.markEdited()
	return true
}

// filledNextAfterPress reports whether a square next to game square s,
// empty in the game, was read filled after the press: the piece lifted
// from s knocked there (29. Qa3 pressed, the hand knocking c4 onto c3),
// no victim lifted by the reply.
func (r *Reconstructor) filledNextAfterPress(s chess.Square) bool {
	for e := chess.KingAttacks(s) & r.v.occ &^ r.lines[0].pos.Occupied(); e != 0; e &= e - 1 {
		if on, ok := r.lastOn(e.First()); ok && on > r.pressT {
			return true
		}
	}
	return false
}

// placedColour reports whether game square s was read filled by a piece
// of colour c since the last decision (colour and piece boards).
func (r *Reconstructor) placedColour(s chess.Square, c chess.Color) bool {
	raw := unrotSquare(s, r.orient)
	if c == chess.White {
		return r.rec.placedWhite.Has(raw)
	}
	return r.rec.placedBlack.Has(raw)
}

// takenLanding is the square, empty in the game and in the view, that
// the pressed move's piece was read set down on after its lift and
// lifted from after the press, and that piece: the reply took it there
// (30... Ng4-e3 pressed 58 ms before the knight was read on e3, Bxe3
// slid via f2, read there before e3 was read lifted: Nf2 was published,
// the knight taken for one still in the hand). Only while the reply is
// seen landing (standReply's set or over: landed), or lifting a piece
// that can take there (reply); one square or none, and not on occupancy
// boards, which cannot tell whose piece was read there. Nor a square on
// the way to one the reply landed on, which the piece may have slid
// across (2. Qg4 slid via f3 and taken on g4). The square may show the
// reply's piece landed there, when the game has it empty (51. f3 read,
// pressed, g4 lifted for 51... gxf3: 51. f4 was published).
func (r *Reconstructor) takenLanding(side chess.Color, landed, reply chess.Bitboard) (chess.Square, chess.Piece) {
	P := &r.lines[0].pos
	if r.sensor == trace.Occupancy || P.SideToMove() != side || r.v.seen(side).Count() >= P.ByColor(side).Count() {
		// (Only while a piece of side's is missing from the board: one
		// slid on and read where it stopped was not taken.)
		return chess.NoSquare, chess.NoPiece
	}
	moves := r.legal(P).Moves()
	var across chess.Bitboard
	for _, m := range moves {
		if landed.Has(m.Landing()) && !r.v.occ.Has(m.From()) {
			across |= chess.Between(m.From(), m.Landing())
		}
	}
	sq, sqFrom, pc := chess.NoSquare, chess.NoSquare, chess.NoPiece
	for _, m := range moves {
		from, l := m.From(), m.Landing()
		if m.IsCastling() || m.Promotion() != chess.NoPieceType || r.v.occ.Has(from) || r.v.occ.Has(l) && !(landed.Has(l) && !P.Occupied().Has(l)) || across.Has(l) {
			continue
		}
		lift, ok := r.lastOff(from)
		if !ok {
			continue
		}
		p := P.PieceAt(from)
		if P.Occupied().Has(l) {
			// A capture: its victim taken off before the press and
			// nothing read there since, the piece read on the square
			// before it on its line and lifted from there after the
			// press (39. Rxb5 victim first, the rook read on b3 and
			// b4, pressed, and taken on b5 before any sweep read it
			// there: Rb4 was published, b5 alerted out of place).
			off, lifted := r.lastOff(l)
			on, set := r.lastOn(l)
			if !lifted || off > r.pressT || set && on > off || !r.carriedOff(chess.Between(from, l)&chess.KingAttacks(l), p, lift) {
				continue
			}
		} else if !r.carriedOff(l.Bitboard(), p, lift) {
			continue
		}
		if landed == 0 && (P.AttackersTo(l, side.Other())&reply == 0 || p.Type() != chess.Pawn && r.slidPast(moves, from, l)) {
			// (The reply seen only lifting: a piece that can take there,
			// and not where the piece may have slid on from: 39. Rxd8
			// slid via d7 and taken on d8, unread.)
			continue
		}
		switch {
		case sq == chess.NoSquare || sqFrom == from && chess.Between(from, l).Has(sq):
			// (The farthest on the piece's line: it slid on.)
			sq, sqFrom, pc = l, from, p
		case sqFrom == from && chess.Between(from, sq).Has(l):
		default:
			return chess.NoSquare, chess.NoPiece
		}
	}
	return sq, pc
}

// slidPast reports whether a move of moves from from goes past l.
func (r *Reconstructor) slidPast(moves []chess.Move, from, l chess.Square) bool {
	for _, o := range moves {
		if o.From() == from && chess.Between(from, o.Landing()).Has(l) {
			return true
		}
	}
	return false
}

// carriedOff reports whether the one square of b was read filled by p
// after lift and emptied after the press.
func (r *Reconstructor) carriedOff(b chess.Bitboard, p chess.Piece, lift int64) bool {
	if b == 0 || b.More() {
		return false
	}
	s := b.First()
	on, set := r.lastOn(s)
	off, lifted := r.lastOff(s)
	if !set || !lifted || on < lift || off < on || off < r.pressT {
		return false
	}
	raw := unrotSquare(s, r.orient)
	return !r.rec.placedBlind.Has(raw) && !r.rec.placedOther(raw, p) && (r.sensor != trace.PieceSensor || r.rec.placedPieces[raw]&(1<<p) != 0)
}

// heldVictim is the square of a piece of side's opponent taken off
// before side's press, that a piece of the opponent's lifted after the
// press (of reply) can capture on: the pressed capture's piece taken
// there before any sweep read it, the reply's piece still in the hand
// (exd4 pressed before d4 was read filled, Nf3 lifted and held 5 s).
// One square or none.
func (r *Reconstructor) heldVictim(side chess.Color, reply chess.Bitboard) chess.Bitboard {
	if reply == 0 {
		return 0
	}
	P := &r.lines[0].pos
	var v chess.Bitboard
	for e := P.ByColor(side.Other()) &^ r.v.occ &^ reply; e != 0; e &= e - 1 {
		s := e.First()
		if off, ok := r.lastOff(s); ok && off < r.pressT && P.AttackersTo(s, side.Other())&reply != 0 {
			v |= s.Bitboard()
		}
	}
	if v.More() {
		return 0
	}
	return v
}

// replySetMs is the least time after a press that the reply's piece
// can be read set down: lifted after the press and carried (a bishop read
// on a5 18 ms after White pressed was knocked there by White's hand, not
// Black's move).
const replySetMs = 50

// slidAfterPress is, when the board shows the pressed move as a bishop's,
// rook's or queen's that may slide on and whose landing was read filled
// less than a sweep before the press or after it, until when the settle
// waits: a sweep and a neighbour's reading after the landing (the press
// came with the hand still sliding; 36... Rf7 slid via f6, f6 read filled
// 11 ms after the press and emptied one sweep later, at the settle: Rf6
// was published). 0 otherwise.
func (r *Reconstructor) slidAfterPress() int64 {
	if w := r.slidToVictim(); w > 0 {
		// (Whatever many plies explain it: 31. Qxe4 read on d3 was
		// Qb1 Bxb1 Qd3.)
		return w
	}
	b := r.explainFirst(true)
	if b < 0 || !r.fitsPress(&r.cands[b], r.pressSide) {
		return 0
	}
	return r.slideSettles(&r.cands[b], r.pressT)
}

// slidToVictim is slideSettles for a capture whose victim was taken off
// before the press, its piece read on a square short of it on its line
// and nowhere else (25... Rxh8 slid d8-e8-f8-g8, the h8 knight taken
// off first, pressed, g8 read 15 ms later and h8 a sweep after that:
// Rg8 was published and h8 alerted). 0 if the board shows anything
// else.
func (r *Reconstructor) slidToVictim() int64 {
	P := &r.lines[0].pos
	side := r.pressSide
	if P.SideToMove() != side {
		return 0
	}
	d := r.v.diff(P)
	added := d & r.v.occ &^ P.Occupied()
	gone := d & P.Occupied() &^ r.v.occ
	if d != added|gone || added.Count() != 1 || gone.Count() != 2 || r.sensor != trace.Occupancy && !r.v.seen(side).Has(added.First()) {
		// (An occupancy board shows no colour: 29... Rxb3, the pawn
		// taken off first, the rook slid b6-b5-b4-b3 and pressed on
		// b4, b3 read filled 23 ms after the press: Rb4 was published
		// and b3 alerted.)
		return 0
	}
	s, mine, theirs := added.First(), gone&P.ByColor(side), gone&P.ByColor(side.Other())
	if mine.Count() != 1 || theirs.Count() != 1 {
		return 0
	}
	from, v := mine.First(), theirs.First()
	if off, ok := r.lastOff(v); !ok || off > r.pressT {
		return 0
	}
	m := chess.NewMove(from, s)
	c := cand{n: 1}
	c.moves[0] = m
	if !r.legal(P).Contains(m) || !r.slidesOn(&c, v) || !r.legal(P).Contains(chess.NewMove(from, v)) {
		return 0
	}
	if on, ok := r.lastOn(s); ok && on > r.pressT-slideStepMs-r.sweepMs() {
		return on + slideStepMs + r.sweepMs() + r.sweepNearMs() + 1
	}
	return 0
}

// slideStepMs is the longest a hand sliding a piece takes from one
// square of its line to the next (a queen slid d1-h5 at 90 ms a square).
const slideStepMs = 150

// slideSettles is, for c, one bishop, rook or queen move that may slide
// on beyond its landing, read filled less than that before t or after
// it, when a next square would have been read: a hand's step along the
// line after the landing, and a sweep and a neighbour's reading more (an
// occupancy board reads every 20 ms, a hand slides a square in 90; a
// colour board read a6 212 ms after a5, and Ra5 was published). 0
// otherwise.
func (r *Reconstructor) slideSettles(c *cand, t int64) int64 {
	if c.n != 1 {
		return 0
	}
	on, ok := r.lastOn(c.moves[0].To())
	if off, lifted := r.lastOff(c.moves[0].From()); ok && lifted && off > on && r.sensor == trace.Occupancy {
		// (The slide's last reading: its square left after the piece
		// showed on the next, read in the order it came. 1. e4 slid
		// via e3, e3 filled 29 ms before e2 emptied and e4 171 ms
		// after e3: e3 was published, and alerted with the reply.)
		on = off
	}
	step := int64(slideStepMs)
	if r.sensor == trace.Occupancy && ok {
		// A hand slides at its own pace: a step as long as its last one,
		// and a quarter more (Qh5-e5 slid at 170 and 175 ms a square,
		// pressed on f5: e5 came 4 ms after a 150 ms step's wait, and
		// Qf5 was published and alerted).
		m := c.moves[0]
		if prev := chess.Between(m.From(), m.To()) & chess.KingAttacks(m.To()); prev != 0 {
			if pon, ok := r.lastOn(prev.First()); ok && pon < on && on-pon <= maxSlideStepMs {
				step = max(step, (on-pon)*5/4)
			}
		}
	}
	if ok && on > t-step-r.sweepMs() && r.canSlideOn(c) {
		return on + step + r.sweepMs() + r.sweepNearMs() + 1
	}
	return 0
}

// maxSlideStepMs bounds a slide's step read from its last two squares:
// longer, the hand stopped there.
const maxSlideStepMs = 240

// pressInHand reports whether the board, for the pending press judged at
// t, differs from the game only by pieces of the presser's lifted (3. d4
// pressed 16 ms before d2 was read empty; the reply took the pawn off d4
// before any sweep read it there, and cxd4 landed 0.7 s later: a
// clock-without-move penalty was given at the settle).
func (r *Reconstructor) pressInHand(t int64) bool {
	P := &r.lines[0].pos
	side := r.pressSide
	if len(r.chain) > 0 {
		// Presses held before it: the moves of all, the last one's
		// piece in the hand.
		r.makeView()
		// (Less squares changed since the first: a knock; none filled
		// since the last, which may be its landing.)
		// Not when the board shows them all, the last one's piece
		// down (Nxd4 Nxd4, not Ne5 and Nxe5 with the knight in the
		// hand).
		ts := r.chainTimes()
		if t >= ts[0]+r.timing.AlertMs {
			return false
		}
		since := r.changedAfter(ts[0])
		if r.pressedChain(ts, t, false, since) >= 0 {
			return false
		}
		return r.pressedChain(ts, t, true, since&^(r.v.occ&r.changedAfter(r.pressT))) >= 0
	}
	if t >= r.pressT+r.timing.AlertMs || P.SideToMove() != side || r.sensor == trace.Occupancy && !r.landedInHand(P, side) {
		// (An occupancy board cannot take the reply's landing off the
		// board the press is judged on: waiting for the reply would
		// judge it as the presser's move. It waits only while nothing
		// changed since the press: the next change, a landing before
		// any lift, is the pressed piece set down (Nf3 pressed 150 ms
		// before the knight was: a false clock-without-move penalty).)
		return false
	}
	r.makeView()
	dropped := r.standReply(side)
	lifted := P.ByColor(side) &^ r.v.occ
	d := r.v.diff(P)
	if d&lifted != 0 {
		// Less squares not seen changed since the presser's first
		// lift (out of place already), which the press explains no
		// more than the settle will (a pawn knocked onto c1 by White's
		// hand after its press, c8 lifted 0.9 s later, Bb7 pressed
		// 326 ms before its landing was read: a clock-without-move
		// penalty).
		first, held := t, chess.Bitboard(0)
		for e := d & lifted; e != 0; e &= e - 1 {
			if off, ok := r.lastOff(e.First()); ok {
				first = min(first, off)
			}
			// (Lifted before the last decision too: the time is
			// kept.)
			if off, _ := r.lastOff(e.First()); off > 0 && off < r.pressT {
				held |= e.First().Bitboard()
			}
		}
		// (A square with no change kept, since the last decision, is
		// never one the board shows a piece of the presser's on that
		// the game has not: the pressed move's landing.)
		landed := r.v.seen(side) &^ P.ByColor(side)
		for e := d &^ lifted; e != 0; e &= e - 1 {
			s := e.First()
			off, wasOff := r.lastOff(s)
			on, wasOn := r.lastOn(s)
			if (wasOff || wasOn || !landed.Has(s)) && (!wasOff || off < first) && (!wasOn || on < first) &&
				!(landed.Has(s) && wasOn && !wasOff && first-on < r.sweepMs()) {
				d &^= s.Bitboard()
			}
		}
		// And squares changed after the press while the piece lifted
		// before it is still in the hand, where a piece of the
		// presser's was lifted after it too: that hand going back
		// knocked it (c2 knocked onto c3 after Nxd4 was pressed, the
		// knight not yet down), unless the board shows a move the
		// press completes (below). A piece set down after the press
		// with none lifted is the pressed piece (Na4-b5, illegal).
		if held != 0 {
			after := r.changedAfter(r.pressT)
			if knocked := lifted & after; knocked != 0 {
				// (Next to a piece knocked, and where the piece in
				// the hand cannot go: not its landing, d5 read
				// filled 48 ms after the press and d8 knocked off.)
				near := around(knocked)
				for _, m := range r.legal(P).Moves() {
					if held.Has(m.From()) {
						near &^= m.Landing().Bitboard()
					}
				}
				if moved := after & d &^ lifted; moved.Count() <= knocked.Count() && moved&^near == 0 {
					d &^= moved
				}
			}
		}
	}
	if r.sensor == trace.Occupancy && d&lifted != 0 {
		d &^= r.knockedOnto(P, d, lifted)
	}
	if gone := d &^ lifted & P.ByColor(side.Other()) &^ r.v.occ; d&lifted != 0 && gone.Count() <= 2 {
		// Pieces of the opponent's gone are no sign the pressed move
		// is done: a victim taken off first, the capturing piece in
		// the hand (exd4 pressed before d4 was read filled), or a
		// piece knocked off by either hand, alerted if it stays (f7
		// knocked by Black's hand as it let go, read gone after
		// White's king was lifted; Kb1 read 375 ms after the press).
		d &^= gone
	}
	var oddUntil int64
	if d&lifted != 0 && r.sensor != trace.Occupancy {
		// A piece of the presser's read set down after the press where
		// none lifted can go, less than a sweep ago: a piece the hand
		// knocked, read before the piece in the hand landed (c2-c3
		// pressed, the d4 pawn knocked onto e3 and read there 164 ms
		// before c3 was: an illegal c2-e3 was alerted). Else the next
		// sweep shows the illegal move again, judged then (an illegal
		// Na4-b5 read 135 ms after the press is alerted a sweep later,
		// not AlertMs later, by when the knight may be back on a4).
		odd := d &^ lifted & r.v.seen(side) &^ P.ByColor(side)
		for _, m := range r.legal(P).Moves() {
			if lifted.Has(m.From()) {
				odd &^= m.Landing().Bitboard()
			}
		}
		for e := odd; e != 0; e &= e - 1 {
			if on, ok := r.lastOn(e.First()); ok && on > r.pressT && t-on < r.sweepMs()+r.sweepNearMs() {
				d &^= e.First().Bitboard()
				oddUntil = max(oddUntil, on+r.sweepMs()+r.sweepNearMs())
			}
		}
	}
	butOne := d&lifted != 0 && r.butOneStands(P)
	inHand := d != 0 && d&^lifted == 0 || butOne
	if r.sensor == trace.Occupancy && (d & lifted).More() && !butOne && !castlingLifted(P, d&lifted) {
		// (One piece in the hand: more squares left is a move made
		// and a knock, 27... Rxd5 pressed with c8 knocked off; but a
		// castling's king and rook may both be: O-O-O pressed 408 ms
		// after the rook was lifted, d1 and c1 read filled 47 and 127
		// ms after the press, was a clock press without a move.)
		// Unless no capture nobody saw by either explains the board with
		// the other knocked: then the piece is in the hand and its
		// neighbour knocked (g3 pressed 48 ms before the pawn landed,
		// the f1 bishop knocked off as it was lifted: a clock press
		// without a move was alerted).
		inHand = r.knockedBeside(P, d&lifted)
	}

	if r.sensor == trace.Occupancy && !inHand && castlingUnderway(P, d&lifted, d&^lifted&r.v.occ) {
		// A castling's king and rook both off their squares, no square
		// filled but its own: one piece set down, the other in the
		// hand, legal or not (O-O through an attacked g1 pressed with
		// the king read lifted from g1, a flicker, and set back 294 ms
		// later: Kf1 was published, the rook alerted misplaced).
		inHand = true
	}
	if r.sensor == trace.Occupancy && !inHand && r.inHandOnOther(side) {
		inHand = true
	}
	var carryUntil int64
	if inHand {
		// Not a move the board shows (a capture on an occupancy board
		// differs from the game by the square the piece left alone).
		b := r.explainFirst(true)
		inHand = b < 0 || !r.fitsPress(&r.cands[b], side)
		if !inHand && r.sensor == trace.Occupancy {
			// Nor, until an ordinary carry could have set it down, a
			// capture nobody saw land (Qd6-c5 pressed 116 ms after its
			// lift, c5 read filled 349 ms after it: Qxa3 was published).
			carryUntil = r.unseenCarry(&r.cands[b])
			inHand = t < carryUntil
		}
	}
	if dropped {
		r.replyBack()
	}
	r.inHandUntil = 0
	if inHand {
		r.inHandUntil = max(oddUntil, carryUntil)
	}
	return inHand
}

// knockedOnto is, on an occupancy board judging a press with the
// presser's piece in the hand (lifted), the squares of d that show an
// opponent's piece knocked onto the next empty square by that hand: the
// piece's square emptied and the square next to it filled, both after
// the lift and within knockMs of it, where the piece in the hand cannot
// land. They are no sign the pressed move is done (Bh7-e4 pressed 23 ms
// before it landed, its hand having knocked g7 onto f6 as it lifted: a
// clock-without-move penalty).
func (r *Reconstructor) knockedOnto(P *chess.Position, d, lifted chess.Bitboard) chess.Bitboard {
	first := int64(-1)
	for e := lifted & d; e != 0; e &= e - 1 {
		off, ok := r.lastOff(e.First())
		if !ok {
			return 0
		}
		if first < 0 || off < first {
			first = off
		}
	}
	within := func(s chess.Square, on bool) bool {
		tt, ok := r.lastOff(s)
		if on {
			tt, ok = r.lastOn(s)
		}
		return ok && tt >= first && tt <= first+knockMs
	}
	var landings chess.Bitboard
	for _, m := range r.legal(P).Moves() {
		if lifted.Has(m.From()) {
			landings |= m.Landing().Bitboard()
		}
	}
	gone := d &^ lifted & P.ByColor(P.SideToMove().Other()) &^ r.v.occ
	filled := d & r.v.occ &^ P.Occupied() &^ landings
	var knocked chess.Bitboard
	for g := gone; g != 0; g &= g - 1 {
		s := g.First()
		if !within(s, false) {
			continue
		}
		for f := filled & chess.KingAttacks(s) &^ knocked; f != 0; f &= f - 1 {
			if within(f.First(), true) {
				knocked |= s.Bitboard() | f.First().Bitboard()
				break
			}
		}
	}
	return knocked
}

// knockedBeside reports whether lifted, two squares of the side to move
// in P emptied, no other square changed, are next to each other and
// emptied within knockMs, and neither piece has a capture (which, its
// victim swapped unseen, would show the board as a move made and the
// other knocked): a piece in the hand and one its hand knocked.
func (r *Reconstructor) knockedBeside(P *chess.Position, lifted chess.Bitboard) bool {
	if lifted.Count() != 2 || r.v.diff(P) != lifted {
		return false
	}
	a := lifted.First()
	b := (lifted &^ a.Bitboard()).First()
	ta, ok1 := r.lastOff(a)
	tb, ok2 := r.lastOff(b)
	if !ok1 || !ok2 || !chess.KingAttacks(a).Has(b) || max(ta, tb)-min(ta, tb) >= knockMs {
		return false
	}
	for _, m := range r.legal(P).Moves() {
		if lifted.Has(m.From()) && P.PieceAt(m.To()) != chess.NoPiece && !m.IsCastling() {
			return false
		}
	}
	return true
}

// sideOnOther reports whether another line the game keeps (a capture
// nobody saw that took another piece) has a piece of side's on s.
func (r *Reconstructor) sideOnOther(s chess.Square, side chess.Color) bool {
	for i := 1; i < len(r.lines); i++ {
		if L := &r.lines[i]; !L.stale && L.pos.SideToMove() == r.lines[0].pos.SideToMove() {
			if pc := L.pos.PieceAt(s); pc != chess.NoPiece && pc.Color() == side {
				return true
			}
		}
	}
	return false
}

// inHandOnOther reports whether another line the game keeps (a capture
// nobody saw that took another piece) has the view show one piece of
// side's lifted and nothing else but at most two of the opponent's
// gone: on it, that piece is in the hand (30... Bxe3+ published as
// Bxh4, e3 and e4 lifted for Qxe3, pressed before e3 was filled: Bxc5
// was published with the queen out of place).
func (r *Reconstructor) inHandOnOther(side chess.Color) bool {
	for i := 1; i < len(r.lines); i++ {
		Q := &r.lines[i].pos
		if Q.SideToMove() != side || r.lines[i].stale {
			continue
		}
		d := r.v.diff(Q)
		lifted := Q.ByColor(side) &^ r.v.occ
		gone := d & Q.ByColor(side.Other()) &^ r.v.occ
		if d == lifted|gone && lifted.Count() == 1 && gone.Count() <= 2 {
			return true
		}
	}
	return false
}

// illegalByMover reports whether ix is an illegal move by the player to
// move (not a piece of the other side's, which the published plies'
// side to move may have wrong after a frame).
func (r *Reconstructor) illegalByMover(ix *inexact) bool {
	return ix.illegal && ix.move == chess.NoMove && ix.ill.side == r.lines[ix.line].pos.SideToMove()
}

// landedInHand reports, on an occupancy board, whether the changes since
// the press let it still be waited on (pressInHand): none, or only
// squares filled, fewer than the presser's pieces lifted (the pieces in
// the hand set down one by one: a castling's rook, then its king). An
// occupancy board cannot take the reply's landing off the board the
// press is judged on: waiting for the reply would judge it as the
// presser's move. So a lift after the press ends the wait; and the next
// change, a landing before any lift, is the pressed piece set down (Nf3
// pressed 150 ms before the knight was: a false clock-without-move
// penalty).
func (r *Reconstructor) landedInHand(P *chess.Position, side chess.Color) bool {
	after := r.changedAfter(r.pressT)
	r.makeView()
	if r.pressBlank {
		// Nothing of the move but a victim taken off showed at the
		// press: the presser's pieces lifted after it are its hand a
		// moment behind, the mover, not the reply's (Nxd4 pressed with
		// d4 emptied, f3 lifted 63 ms later: a clock press without a
		// move was penalised as the knight was carried).
		after &^= P.ByColor(side) &^ r.v.occ
	}
	if after == 0 {
		return true
	}
	filled := after & r.v.occ &^ P.Occupied()
	lifted := P.ByColor(side) &^ r.v.occ
	return after == filled && castlingLifted(P, lifted) && filled.Count() < lifted.Count()
}

// castlingUnderway reports whether the squares lifted are the king's and
// a rook's of a castling right the side to move in P holds, legal or not,
// and every square filled is one that castling fills.
func castlingUnderway(P *chess.Position, lifted, filled chess.Bitboard) bool {
	if lifted.Count() != 2 {
		return false
	}
	side := P.SideToMove()
	k := P.KingSquare(side)
	for rights := P.Castling() & castleRights(side); rights != 0; rights &= rights - 1 {
		rook := P.CastlingRook(rights & -rights)
		if rook == chess.NoSquare || lifted != k.Bitboard()|rook.Bitboard() {
			continue
		}
		base := k.Rank() * 8
		kingTo, rookTo := chess.Square(base+2), chess.Square(base+3)
		if rook > k {
			kingTo, rookTo = chess.Square(base+6), chess.Square(base+5)
		}
		if filled&^(kingTo.Bitboard()|rookTo.Bitboard()) == 0 {
			return true
		}
	}
	return false
}

// castlingLifted reports whether the squares lifted are the king's and a
// rook's of a legal castling from P.
func castlingLifted(P *chess.Position, lifted chess.Bitboard) bool {
	if lifted.Count() != 2 {
		return false
	}
	var ml chess.MoveList
	P.GenerateLegal(&ml)
	for _, m := range ml.Moves() {
		if m.IsCastling() && lifted == m.From().Bitboard()|m.To().Bitboard() {
			return true
		}
	}
	return false
}

// inHandWait is until when a press whose piece is in the hand
// (pressInHand) waits: AlertMs after it, or less while only a square the
// piece cannot reach, read filled a moment ago, kept it waiting.
func (r *Reconstructor) inHandWait() int64 {
	w := r.pressT + r.timing.AlertMs
	if r.inHandUntil > 0 {
		w = min(w, r.inHandUntil)
	}
	return w
}

// butOneStands reports whether the board shows a legal en passant or
// castling from P made but for one square: the en passant's victim still
// standing, the presser's hand to take it off after the press as often as
// not (3. exd6 pressed, d5 read emptied 260 ms after it); the castling's
// rook still in the hand (Chess960 2. O-O pressed with h1 lifted, the
// rook read on f1 after Black's press), or its king (the rook moved
// first, the king lifted and set on g1 135 ms after the press).
func (r *Reconstructor) butOneStands(P *chess.Position) bool {
	if P.EnPassant() == chess.NoSquare && P.Castling()&castleRights(P.SideToMove()) == 0 {
		return false
	}
	for _, m := range r.legal(P).Moves() {
		if !m.IsEnPassant() && !m.IsCastling() {
			continue
		}
		q := *P
		q.MakeMove(m)
		switch d := r.v.diff(&q); {
		case m.IsEnPassant() && d == (m.To()^8).Bitboard() && r.v.occ.Has(m.To()^8):
			return true
		case m.IsCastling() && (d == m.CastlingRookTo().Bitboard() || d == m.CastlingKingTo().Bitboard()) && r.v.occ&d == 0:
			return true
		}
	}
	return false
}

// replyBack shows the raw board again after standReply changed the view.
func (r *Reconstructor) replyBack() {
	r.viewOK = false
	r.makeView()
}

// pressedTo is the squares of to that a legal move of side's, from a
// square the view shows empty, lands on.
func (r *Reconstructor) pressedTo(side chess.Color, to chess.Bitboard) chess.Bitboard {
	P := &r.lines[0].pos
	if to == 0 || P.SideToMove() != side || r.v.seen(side).Count() >= P.ByColor(side).Count() {
		// (Only a piece of side's the board no longer shows: Qxb4 and
		// Na6 begun at once leave a3 empty, the queen on b4.)
		return 0
	}
	var b chess.Bitboard
	for _, m := range r.legal(P).Moves() {
		if r.v.occ.Has(m.From()) || m.IsCastling() {
			continue
		}
		b |= to & m.Landing().Bitboard()
	}
	return b
}

// touchedSwaps reports whether, from line li's position, the hands
// since the last decision made the Chess960 castlings that change no
// square (king and rook trading squares), and if so makes them r.cands[0]:
// the side to move's when its king's and rook's squares were both lifted
// and filled again and nothing else was touched; or that castling and the
// opponent's when only the opponent's two squares were (the opponent
// cannot have moved otherwise: 2. O-O with g1 never read empty, then 2...
// O-O with both hands, were two hesitations). Not on piece boards, which
// read the king and rook trading squares.
func (r *Reconstructor) touchedSwaps(li int) bool {
	if r.sensor == trace.PieceSensor || r.rec.framed {
		return false
	}
	rv := r.recView()
	again, touched := rv.lifted&rv.placed, rv.touched()
	if touched.Count() != 2 {
		// (One castling's king and rook squares, and nothing else.)
		return false
	}
	p := r.lines[li].pos
	a := r.tradingCastling(&p)
	if a == chess.NoMove {
		return false
	}
	c := cand{line: li, n: 1}
	c.moves[0] = a
	sq := a.From().Bitboard() | a.To().Bitboard()
	if touched != sq || again != sq {
		q := p
		q.MakeMove(a)
		b := r.tradingCastling(&q)
		if b == chess.NoMove {
			return false
		}
		if sq = b.From().Bitboard() | b.To().Bitboard(); touched != sq || again != sq {
			return false
		}
		c.n, c.moves[1] = 2, b
	}
	r.cands = append(r.cands[:0], c)
	return true
}

// tradingCastling is p's legal castling whose king and rook trade
// squares (tradesSquares), NoMove if none.
func (r *Reconstructor) tradingCastling(p *chess.Position) chess.Move {
	if p.Castling() == 0 {
		return chess.NoMove
	}
	for _, m := range r.legal(p).Moves() {
		if tradesSquares(m) {
			return m
		}
	}
	return chess.NoMove
}

// hiddenSwap is the index of a candidate of line li that is one castling
// changing no square (a Chess960 king and rook trading squares), -1 if
// none: the board cannot tell it from no move (oneMove offers it only
// when a king was lifted).
func (r *Reconstructor) hiddenSwap(li int) int {
	for i := range r.cands {
		c := &r.cands[i]
		if c.line == li && c.back == 0 && !c.stale && c.n == 1 && tradesSquares(c.moves[0]) {
			return i
		}
	}
	return -1
}

// adoptPressed completes the moves of candidate best on the pending
// press; the last of them carries the presser's clock.
func (r *Reconstructor) adoptPressed(best int, out []Output) []Output {
	n0 := len(r.plies)
	out = r.adopt(best, r.lastChange, out)
	if len(r.plies) > n0 {
		setPlyClock(out, r.befores[len(r.plies)-1].Ply()+1, r.pressClk, r.pressT)
	}
	return out
}

// setPlyClock gives the final move of ply among outs the press at t
// that completed it, and its clock reading clk (ms) unless that is
// unknown (-1).
func setPlyClock(outs []Output, ply int, clk, t int64) {
	for i := len(outs) - 1; i >= 0; i-- {
		if outs[i].Kind == Move && !outs[i].Provisional && outs[i].Ply == ply {
			outs[i].PressT = t
			if clk >= 0 {
				outs[i].ClockMs = clk
			}
			return
		}
	}
}

// promote records a promotion choice; if the last published move is a
// promotion to another piece, it is amended.
func (r *Reconstructor) promote(pt chess.PieceType, t int64, out []Output) []Output {
	r.ver++
	r.promo, r.promoT = pt, t
	n := len(r.plies)
	if n == 0 {
		return out
	}
	k := n - 1
	if k >= 1 && !r.plies[k].move.IsPromotion() && r.plies[k-1].move.IsPromotion() && r.plies[k].move.To() == r.plies[k-1].move.To() {
		// The promoted piece taken at once, before the input came (b1=B
		// Rxb1, then the bishop chosen: b1=Q stayed in the score).
		k--
	}
	last := r.plies[k].move
	if !last.IsPromotion() || last.Promotion() == pt || r.promotionUnderWay() {
		// Not about a recent move: keep it for the next promotion.
		return out
	}
	// Prefer the hypothesis that promoted to pt.
	for i := range r.lines {
		L := &r.lines[i]
		if len(L.moves) >= n && L.moves[k].IsPromotion() && L.moves[k].Promotion() != pt {
			L.cost += costPromoOther
		} else if len(L.moves) >= n && L.moves[k].IsPromotion() {
			L.cost -= costPromoOther
		}
	}
	found := false
	for i := range r.lines {
		if r.lines[i].moves[k].Promotion() == pt {
			found = true
		}
	}
	if !found {
		// The board could not tell the piece: make that hypothesis.
		L := line{moves: append([]chess.Move(nil), r.lines[0].moves...), cost: r.lines[0].cost - costPromoOther}
		L.moves[k] = last.WithPromotion(pt)
		L.pos = r.befores[k]
		ok := true
		for _, m := range L.moves[k:] {
			if !r.legal(&L.pos).Contains(m) {
				ok = false
				break
			}
			L.pos.MakeMove(m)
		}
		if ok && (r.sensor == 0 || r.v.diff(&L.pos) == 0 || k < n-1) {
			r.lines = append(r.lines, L)
		}
	}
	r.sortLines()
	r.promo = chess.NoPieceType
	out = r.publish(t, out)
	r.plies[k].blindPromo = false // the input told the piece
	r.dropOtherPromos(k)
	return out
}

// promotionUnderWay reports whether a pawn of the player to move has been
// lifted from the rank before its last: a promote input then chooses that
// promotion's piece, not the last one's.
func (r *Reconstructor) promotionUnderWay() bool {
	p := &r.lines[0].pos
	rank := chess.Rank7
	if p.SideToMove() == chess.Black {
		rank = chess.Rank2
	}
	rv := r.recView()
	return rv.lifted&p.Pieces(p.SideToMove(), chess.Pawn)&rank != 0
}

func colourName(c chess.Color) string {
	if c == chess.White {
		return "White"
	}
	return "Black"
}

func (r *Reconstructor) note(out []Output, k NoteKind, t int64, sq chess.Bitboard, text string) []Output {
	return append(out, Output{Kind: Note, Note: k, T: t, Ply: r.lines[0].pos.Ply() + 1,
		Side: r.lines[0].pos.SideToMove(), Squares: sq, From: chess.NoSquare, To: chess.NoSquare, Text: text, ClockMs: -1})
}

func (r *Reconstructor) alert(out []Output, o Output) []Output {
	o.Kind = Alert
	o.ClockMs = -1
	if o.From == 0 && o.To == 0 {
		o.From, o.To = chess.NoSquare, chess.NoSquare
	}
	if r.judge != nil {
		var counts bool
		o.Article, o.Penalty, counts = r.judge.Judge(&o, r.illegal[o.Side])
		if counts {
			r.illegal[o.Side]++
		}
	}
	return append(out, o)
}

// castlesPublishedPart reports whether c changes the last published move,
// a rook's or a king's, into the castling it began: the other piece
// carried next to it touches only its two squares, too few for the search
// that other changed moves wait for, and at bullet pace the reply follows
// before the board stands still long enough for the commit timer (4.4.2:
// a rook touched first; a Chess960 king set on its castled square, a
// legal king move there, and published after standing 2.9 s: O-O-O a4 a5
// was followed no further than Kc8).
func (r *Reconstructor) castlesPublishedPart(c *cand) bool {
	if c.back != 1 || c.n != 1 || c.stale || c.line != 0 || len(r.plies) == 0 {
		return false
	}
	m, pm := c.moves[0], r.plies[len(r.plies)-1].move
	return rookPartOf(m, pm) || kingPartOf(m, pm)
}

// movedOnLast reports whether c changes the last published move into one
// of the same piece from the same square over the published landing, the
// piece seen leaving that landing after it was published and set down on
// c's: a slide paused on the way and published there (37. Re3-g3 read
// still on f3 for 400 ms, then on to g3). It touches only two squares,
// too few for the search other changed moves wait for
// (castlesPublishedPart), and at bullet pace the reply follows before the
// commit timer: the reply's first change takes it (37... Rg8-e8 begun
// 531 ms after g3 was filled: Rf3 stood, and 38. Rg3-e3 was read as
// Rf3-e3).
func (r *Reconstructor) movedOnLast(c *cand) bool {
	if c.back != 1 || c.n != 1 || c.stale || c.line != 0 || len(r.plies) == 0 || r.sensor == trace.Occupancy {
		return false
	}
	pr := &r.plies[len(r.plies)-1]
	m, pm := c.moves[0], pr.move
	// (On its way: a piece knocked next door from where it landed is no
	// slide gone on.)
	if m.From() != pm.From() || m.IsCastling() || pm.IsCastling() || !chess.Between(m.From(), m.To()).Has(pm.To()) {
		return false
	}
	// Gone on within standMs of its landing there (read before it was
	// published, or then): a pause, not a landing that stood and a knock
	// along the same line (Bc6 knocked onto b7 a second after it landed).
	gone, ok1 := r.lastOff(pm.Landing())
	on, ok2 := r.lastOn(m.Landing())
	at := pr.t
	if t, ok := r.lastOn(pm.Landing()); ok && t < at {
		at = t
	}
	return ok1 && ok2 && gone >= pr.t && on >= pr.t && gone-at < standMs
}

// repliedBefore reports whether c, the last published move changed for
// another of the same piece, comes after a reply that stood: a piece of
// the player to move after that move was lifted and set down where it
// can move, and stood there minReplyMs before the changed piece was
// lifted again (colour and piece boards, no clock). The published move
// was then made and answered; the board showing the reply undone is a
// knock, not the move read wrong (12. h3 stood 469 ms, knocked back
// onto h2 by 12... Bg4-e6's hand: 11... Bg4 was changed to Be6, h3 put
// back was then read as the next move, and the game went dark).
func (r *Reconstructor) repliedBefore(c *cand) bool {
	if r.clock || r.sensor == trace.Occupancy || len(r.plies) == 0 {
		return false
	}
	pm := r.plies[len(r.plies)-1].move
	if c.moves[0].From() != pm.From() || pm.IsCastling() {
		return false
	}
	again, ok := r.lastOff(pm.Landing())
	if !ok {
		return false
	}
	for _, mv := range r.legal(&r.lines[0].pos).Moves() {
		if mv.IsCastling() {
			continue
		}
		off, ok1 := r.firstOff(mv.From())
		on, ok2 := r.firstOn(mv.To())
		if !ok1 || !ok2 || off > on || on+minReplyMs > again {
			continue
		}
		if gone, ok := r.firstOff(mv.To()); ok && gone > on && gone < on+minReplyMs {
			continue
		}
		return true
	}
	return false
}

// replyStood reports whether c, a move and its reply, is what the hands
// did when the move's piece is lifted again (s, at t): the reply's piece
// lifted after the move's landed, set down where the reply takes it and
// left standing there standMs or more, which no knock is, before the
// mover went on. (18. Be3-d4, ...Qe5-f5 read 31 ms after the bishop
// landed on a 225 ms sweep and standing 640 ms, then 19. Bxc5: read as
// the queen knocked and Bd4 changed into Bxc5, then ...Qxc5 from e5, two
// plies lost.)
func (r *Reconstructor) replyStood(c *cand, s chess.Square, on bool, t int64) bool {
	if r.clock || r.sensor == trace.Occupancy || on || c.n != 2 || c.back != 0 {
		return false
	}
	m, rep := c.moves[0], c.moves[1]
	if m.IsCastling() || rep.IsCastling() || m.Landing() != s {
		return false
	}
	land, ok0 := r.firstOn(s)
	off, ok1 := r.firstOff(rep.From())
	down, ok2 := r.firstOn(rep.To())
	if !ok0 || !ok1 || !ok2 || off < land || off > down || down+standMs > t {
		return false
	}
	gone, ok := r.lastOff(rep.To())
	return !ok || gone < down
}

// putBackThenMoved reports whether c takes back the last published move
// and makes one move instead, the move's piece having been seen put back
// where it came from (its landing emptied, its square filled again) and
// the new move's piece lifted after that: a knock read as a move, put
// back, and the real move made (on occupancy boards, 42. hxg5's hand
// knocking f6 onto f5, read as 42... f5; put back 2 s later, and 42...
// fxg5 pushing its victim off).
func (r *Reconstructor) putBackThenMoved(c *cand) bool {
	if c.back != 1 || c.n != 1 || c.line != 0 || c.stale || len(r.plies) == 0 {
		return false
	}
	pm := r.plies[len(r.plies)-1].move
	back, ok1 := r.lastOn(pm.From())
	gone, ok2 := r.lastOff(pm.Landing())
	lift, ok3 := r.lastOff(c.moves[0].From())
	return ok1 && ok2 && ok3 && !pm.IsCastling() && gone <= back && back < lift
}

// knockTakenBack reports whether c, the board's explanation as a lift of
// raw square s begins (on: a filling), is the last published move taken
// back, with no square touched since but that move's, and the lift is of
// a piece of the player to move then, on a colour or piece board without
// a clock.
func (r *Reconstructor) knockTakenBack(c *cand, s chess.Square, on bool) bool {
	if c.n != 0 || c.back != 1 || c.line != 0 || c.stale || on || r.clock || r.sensor == trace.Occupancy || len(r.plies) == 0 {
		return false
	}
	p := &r.befores[len(r.plies)-1]
	if !p.ByColor(p.SideToMove()).Has(rotSquare(s, r.orient)) {
		return false
	}
	// Only the move's own squares touched since (its piece put back):
	// moves there and back touch others (a repetition played fast,
	// Rg8+ Kh3 Rh8+ back in the position before Kg4, is no knock).
	all, _ := moveSquares(p, r.plies[len(r.plies)-1].move)
	return rotBB(r.rec.lifted|r.rec.placed, r.orient)&^all == 0
}

// castlingOf reports whether a and b are the king's and the rook's
// squares, in either order, of a castling legal in p.
func castlingOf(p *chess.Position, a, b chess.Square) bool {
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Moves() {
		if m.IsCastling() && (m.From() == a && m.To() == b || m.From() == b && m.To() == a) {
			return true
		}
	}
	return false
}
