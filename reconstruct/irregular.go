package reconstruct

import (
	"fmt"
	"strings"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// Irregular boards (a board no legal move explains, judged on a clock
// press or, without a clock, after it stood still AlertMs) are explained
// inexactly; the cheapest of these is reported:
//
//   - an illegal move: one piece moved from X to Y (or a castling) against
//     the rules; the game position stays and boardd waits for the board
//     to come back to it;
//   - a pawn left on the last rank at the press (piece sensors): the move
//     counts as a queen promotion;
//   - a legal move (or none) with a few pieces misplaced: the move counts
//     and the misplaced squares are named; without a clock also a move
//     and its reply (a hand that knocked a piece over while recapturing
//     before the first move settled);
//   - anything else: the squares that differ.

// inexact is the best explanation of a board that no legal move sequence
// reaches exactly.
type inexact struct {
	line       int // the hypothesis it starts from
	cost       int
	move       chess.Move     // a legal move made, NoMove if none
	reply      chess.Move     // the reply to move made too (no clock), NoMove if none
	diff       chess.Bitboard // squares still differing (misplaced)
	unreplaced bool           // move is a promotion whose pawn still stands there
	illegal    bool
	ill        illegalDesc
}

// plies is how many moves the explanation adds to its hypothesis.
func (ix *inexact) plies() int {
	n := 0
	if ix.move != chess.NoMove {
		n++
	}
	if ix.reply != chess.NoMove {
		n++
	}
	return n
}

// inexactBest finds the cheapest inexact explanation from the best line:
// no move or one legal move with a few squares misplaced, a pawn left on
// the last rank, or a recognisable illegal move.
func (r *Reconstructor) inexactBest() inexact {
	r.ixs, r.ixAlts = r.ixs[:0], r.ixAlts[:0]
	best := 0
	for li := range r.lines {
		ix := r.inexactLine(li)
		ix.cost += r.lines[li].cost
		r.ixs = append(r.ixs, ix)
		if ix.cost < r.ixs[best].cost {
			best = li
		}
	}
	return r.ixs[best]
}

// inexactLine is the best inexact explanation from hypothesis li.
func (r *Reconstructor) inexactLine(li int) inexact {
	P := &r.lines[li].pos
	toMove := P.SideToMove()
	d0 := r.v.diff(P) &^ r.excused(P)
	rv := r.recView()
	// No move at all leaves the touched squares outside the misplaced ones
	// unexplained.
	best := inexact{line: li, cost: r.misplacedCost(d0, P, chess.NoMove) + costStrayFar*(rv.touched()&^d0).Count() + r.stoodCost(P, rv.touched()&^d0, 0, &rv), diff: d0}
	var one [1]chess.Move
	for _, m := range r.legal(P).Moves() {
		if m.IsPromotion() && m.Promotion() != chess.Queen {
			continue
		}
		q := *P
		q.MakeMove(m)
		d := r.v.diff(&q) &^ r.excused(&q)
		if d.Count() > 4 {
			// Too much out of place for one move, but a reply as well
			// may leave two knocked pieces (each two squares). On
			// occupancy boards only a reply that leaves one knocked
			// piece (a castling, which changes four squares): with
			// nothing but occupancy so many squares fit some two
			// ordinary moves, and the alerts were false.
			if !r.clock && d.Count() <= 6 {
				left := d.Count() - 1
				if r.sensor == trace.Occupancy {
					left = 2
				}
				r.inexactReply(li, P, &q, m, d, left, &rv, &best)
			}
			continue
		}
		if m.IsPromotion() && d == m.To().Bitboard() && r.v.pieceAt(m.To()) == chess.NewPiece(toMove, chess.Pawn) {
			if c := 10; c < best.cost {
				best = inexact{line: li, cost: c, move: m, diff: d, unreplaced: true}
			}
			continue
		}
		c := r.misplacedCost(d, &q, m)
		if c >= best.cost && c > costMisplaced*3 {
			// Dearer already than the best and than an alternative may
			// be: the hands' cost only adds. Its reply may still explain
			// the squares.
			if !r.clock {
				r.inexactReply(li, P, &q, m, d, d.Count()-1, &rv, &best)
			}
			continue
		}
		one[0] = m
		// The misplaced squares' touches are priced as misplaced, not as strays.
		rvm := recView{lifted: rv.lifted &^ d, placed: rv.placed &^ d, framed: rv.framed}
		sc, _ := r.seqCost(P, r.lastTo(li, 0), one[:], &rvm)
		c += sc
		// The hand moves its piece first and knocks another over after,
		// as it lets go: not before the lift, nor while carrying it
		// (seen a sweep's reading of neighbours before it landed).
		if vac := d & q.Occupied() &^ r.v.occ; vac != 0 {
			if tv, ok := r.firstOff(vac.First()); ok {
				tm, ok1 := r.firstOff(m.From())
				tl, ok2 := r.lastOn(m.Landing())
				if ok1 && tv < tm || r.sensor != trace.Occupancy && ok2 && tv+r.sweepNearMs() < tl {
					c += 5
				}
			}
		}
		if r.judgingPress && toMove == r.pressSide {
			// The pressed move was made before the press: not one whose
			// piece was read lifted more than a sweep after it (Kg7
			// pressed, the hand knocking the h8 rook onto h7 after the
			// press, read as Rh7 with the king out of place).
			if off, ok := r.firstOff(m.From()); ok && off > r.pressT+r.sweepMs() {
				c += costMisplacedOrder
			}
		}
		if c < best.cost {
			best = inexact{line: li, cost: c, move: m, diff: d}
		}
		if ill, ok := r.illegalReply(&q, m, d, &rv); ok && sc+costIllegal < best.cost {
			best = inexact{line: li, cost: sc + costIllegal, move: m, illegal: true, ill: ill}
		}
		if !r.clock && d.Count() >= 2 {
			r.inexactReply(li, P, &q, m, d, d.Count()-1, &rv, &best)
		}
		if d != 0 && c <= costMisplaced*3 {
			r.ixAlts = append(r.ixAlts, inexact{line: li, cost: c + r.lines[li].cost, move: m, diff: d})
		}
	}
	if ill, ok := r.describeIllegal(P, d0, &rv); ok && !(r.knockPly > 0 && d0 == r.knocked) {
		// (Not a piece the decoder found knocked onto the next square by
		// a move's hand, c5 onto b6 as ...Nc4 landed: that is no move.)
		c := costIllegal
		if rv.lifted&rv.placed&P.Occupied()&ill.to.Bitboard() != 0 && P.PieceAt(ill.to) != chess.NoPiece {
			// A capture whose victim was seen taken off and the piece put
			// in its place: the touches fit the move.
			c -= costStrayFar * 2
		}
		// (A piece seen standing on another square is no touch either.)
		c += r.stoodCost(P, rv.touched()&^(ill.from.Bitboard()|ill.to.Bitboard()), 0, &rv)
		if c <= best.cost {
			best = inexact{line: li, cost: c, diff: d0, illegal: true, ill: ill}
		}
	}
	return best
}

// inexactReply tries, after move m from P (reaching q with squares d
// still differing), each reply that explains some of those squares: with
// no clock to separate the moves, a capture, a recapture whose victim
// nobody saw leave and a piece knocked over by the same hand can all fall
// within one still board. Only replies leaving at most left squares out
// of place count. It keeps the cheapest in best.
func (r *Reconstructor) inexactReply(li int, P, q *chess.Position, m chess.Move, d chess.Bitboard, left int, rv *recView, best *inexact) {
	occ := r.v.occ
	if !replyMayFit(q, (q.Occupied()^occ)&^r.overlay, r.overlay, left) {
		return
	}
	// Not r.legal: its cache holds the list the caller is iterating.
	var ml chess.MoveList
	q.GenerateLegal(&ml)
	var two [2]chess.Move
	for _, m2 := range ml.Moves() {
		if m2.IsPromotion() && m2.Promotion() != chess.Queen {
			continue
		}
		if ((q.OccupancyAfter(m2) ^ occ) &^ r.overlay).Count() > left {
			continue
		}
		q2 := *q
		q2.MakeMove(m2)
		d2 := r.v.diff(&q2) &^ r.excused(&q2)
		if d2.Count() > left {
			continue
		}
		// A second move found in one still board is what a
		// re-synchronisation would charge for. (The hands' cost adds to
		// that: a reply already dearer is not priced.)
		c := r.misplacedCost(d2, &q2, m2) + costResyncPly
		if c >= best.cost {
			continue
		}
		two[0], two[1] = m, m2
		rvm := recView{lifted: rv.lifted &^ d2, placed: rv.placed &^ d2, framed: rv.framed}
		sc, _ := r.seqCost(P, r.lastTo(li, 0), two[:], &rvm)
		if c += sc; c < best.cost {
			*best = inexact{line: li, cost: c, move: m, reply: m2, diff: d2}
		}
	}
}

// replyMayFit reports whether some move from q could leave at most left
// squares of the occupancy differing from the board's, d being those that
// differ now (outside overlay): the test each reply must pass, made
// before the replies are generated (most boards fail it for most moves
// tried first). A move changes four squares at most (castling), and only
// the squares it changes can come right: an ordinary move two (its own
// square and where it lands), and a piece leaving a square outside d and
// the overlay puts that square wrong. So with need squares to put right,
// more than two take a castling or en passant, and without a piece of
// the mover's on d the move can put right only where it lands, after
// leaving a square of the overlay.
func replyMayFit(q *chess.Position, d, overlay chess.Bitboard, left int) bool {
	need := d.Count() - left
	if need <= 0 {
		return true
	}
	side := q.SideToMove()
	special := q.EnPassant() != chess.NoSquare || q.Castling()&((chess.WhiteHSide|chess.WhiteASide)<<(2*side)) != 0
	switch {
	case need > 4:
		return false
	case special:
		return true
	case need > 2:
		return false
	}
	own := q.ByColor(side)
	return own&d != 0 || need == 1 && own&overlay != 0
}

// holdKnocked holds the squares of d, out of place after ply by side
// (the game then after), as knocked (silent): alerted only if still out
// of place later. Squares held for an earlier ply and still out of place
// are alerted first: the held squares are one move's.
func (r *Reconstructor) holdKnocked(d chess.Bitboard, ply int, side chess.Color, after *chess.Position, t int64, out []Output) []Output {
	if r.silent != 0 && r.silentPly != ply {
		r.makeView()
		out = r.alertKnocked(t, out)
	}
	r.silent |= d
	r.silentPly, r.silentSide, r.silentAfter = ply, side, *after
	return out
}

// insertBeforeEnd appends o to out, before the first End among out[from:]
// if any: an alert on the move that ended the game comes before its end.
func insertBeforeEnd(out []Output, from int, o Output) []Output {
	for i := from; i < len(out); i++ {
		if out[i].Kind == End {
			out = append(out, Output{})
			copy(out[i+1:], out[i:])
			out[i] = o
			return out
		}
	}
	return append(out, o)
}

// goneDuring reports whether every square of d (game squares) was read
// emptied after move m's piece was lifted, and less than knockMs before
// the press: no piece gone before the move began, which another hand
// knocked, nor one the moving hand knocked and left well before the press
// (alerted at once: the alert timer, run before the press, does not run
// again).
func (r *Reconstructor) goneDuring(d chess.Bitboard, m chess.Move) bool {
	start, ok := r.firstOff(m.From())
	if !ok {
		return false
	}
	for e := d; e != 0; e &= e - 1 {
		if off, ok := r.lastOff(e.First()); !ok || off < start || off < r.pressT-knockMs {
			return false
		}
	}
	return true
}

// knockedAfterPress reports whether every square of d (game squares)
// held a piece of side's in P, is read empty, and was read emptied after
// the press just judged: side's hand knocked them off after pressing.
func (r *Reconstructor) knockedAfterPress(d chess.Bitboard, side chess.Color, P *chess.Position) bool {
	if d == 0 || d&^P.ByColor(side) != 0 || d&r.v.occ != 0 {
		return false
	}
	for e := d; e != 0; e &= e - 1 {
		if off, ok := r.lastOff(e.First()); !ok || off <= r.pressT {
			return false
		}
	}
	return true
}

// actInexact reports an inexact explanation: an illegal move (the game
// position stays), a move with misplaced pieces or an unreplaced pawn
// (the move counts), or pieces out of place.
func (r *Reconstructor) actInexact(ix inexact, side chess.Color, t int64, pressed bool, out []Output) []Output {
	r.ver++
	defer func() { r.ver++ }()
	key := r.viewKey()
	if key == r.alertKey {
		if pressed {
			return r.note(out, NoteExtraPress, t, 0, "the clock was pressed again; the board still shows the irregularity")
		}
		return out
	}
	P := r.lines[ix.line].pos
	toMove := P.SideToMove()
	ply := P.Ply() + 1
	if ix.illegal {
		if ix.move != chess.NoMove {
			// A legal move, then the reply against the rules: the move
			// is published, the reply alerted.
			r.cands = append(r.cands[:0], ix.cand(ix.line))
			out = r.adopt(0, r.lastChange, out)
			ply, toMove = ply+1, toMove.Other()
			key = r.viewKey()
		}
		r.alertKey = key
		r.state = stateIrregular
		ill := ix.ill
		return r.alert(out, Output{Alert: IllegalMove, T: t, Ply: ply, Side: ill.side,
			Squares: ill.from.Bitboard() | ill.to.Bitboard() | ix.diff, From: ill.from, To: ill.to,
			Expected: fmt.Sprintf("a legal move by %s", colourName(toMove)),
			Seen:     ill.seen,
			Text:     ill.text})
	}
	if ix.move != chess.NoMove && (!pressed || side == toMove) {
		// Every hypothesis explained as well by a move and the same
		// misplaced squares stays one.
		r.cands = append(r.cands[:0], ix.cand(ix.line))
		for i := range r.ixs {
			if o := &r.ixs[i]; i != ix.line && o.move != chess.NoMove && !o.illegal && !o.unreplaced &&
				o.diff == ix.diff && o.cost <= ix.cost+uncertainGap {
				r.cands = append(r.cands, o.cand(i))
			}
		}
		// So does a move that leaves other squares out of place when it
		// is nearly as likely (a capture whose piece knocked another onto
		// the square a quiet move would have gone to). Only the best
		// one's squares are accepted either way until put right: the
		// other explains the board once its piece is put back.
		if ix.diff != 0 && ix.reply == chess.NoMove {
			for _, o := range r.ixAlts {
				if o.diff != ix.diff && o.cost <= ix.cost+misplacedAltGap && len(r.cands) < maxLines {
					r.cands = append(r.cands, o.cand(o.line))
				}
			}
		}
		// The moves that leave other squares out of place stay
		// available to revive, should a later board prove one of them.
		var alts []chess.Move
		if ix.diff != 0 {
			for _, o := range r.ixAlts {
				if o.line == ix.line && o.move != ix.move && o.cost <= ix.cost+pruneGap {
					alts = append(alts, o.move)
				}
			}
		}
		// (Who displaced the pieces is read before the adoption forgets
		// the events.)
		last, mover := ix.move, toMove
		if ix.reply != chess.NoMove {
			last, mover = ix.reply, toMove.Other()
		}
		by := r.displacedBy(ix.diff, mover, last)
		// Without a clock, squares changed right after the first move
		// landed, where its hand let go, before the reply began: that
		// hand knocked them (20. Rc2 knocking b3 onto c4 86 ms after
		// it landed, then 20... Kd7: the knock was alerted as Black's).
		byFirst := !r.clock && ix.reply != chess.NoMove && r.knockedByFirst(ix.diff, ix.move, ix.reply)
		knockedAfter := pressed && ix.reply == chess.NoMove && r.knockedAfterPress(ix.diff, toMove, &P)
		theirsGone := pressed && ix.reply == chess.NoMove && ix.diff != 0 && ix.diff&^P.ByColor(toMove.Other()) == 0 && r.v.occ&ix.diff == 0 &&
			r.goneDuring(ix.diff, ix.move)
		after := P
		after.MakeMove(ix.move)
		if ix.reply != chess.NoMove {
			// The hand of the reply, the last to touch the board, knocked
			// the pieces over.
			after.MakeMove(ix.reply)
			ply, toMove = ply+1, toMove.Other()
		}
		n0, n0out := len(r.plies), len(out)
		if pressed {
			out = r.adoptPressed(0, out)
		} else {
			out = r.adopt(0, r.lastChange, out)
		}
		if len(r.plies) == n0+1 && r.plies[n0].move == ix.move {
			r.plies[n0].alts = append(r.plies[n0].alts, alts...)
		}
		r.alertKey = key
		r.setOverlay(ix.diff, &after, n0)
		if ix.unreplaced {
			to := ix.move.To()
			if !r.unreplacedQueen() {
				// (1997: the move is made again with that pawn, the
				// piece the player's choice; a piece board reads it.)
				r.unreplacedPly = ply
			}
			text := fmt.Sprintf("%s pressed the clock with the pawn still on %s; it counts as a queen.", colourName(toMove), to)
			if r.unreplacedPly != 0 {
				text = fmt.Sprintf("%s pressed the clock with the pawn still on %s; the move is completed with the piece %s chooses.",
					colourName(toMove), to, colourName(toMove))
			}
			// (Before the end of the game the move may give, a stalemate
			// or mate with the queen assumed: an alert after the end is
			// no part of the game.)
			al := r.alert(nil, Output{Alert: PromotionUnreplaced, T: t, Ply: ply, Side: toMove,
				Squares: ix.diff, From: ix.move.From(), To: to,
				Expected: fmt.Sprintf("%s: a new piece in place of the pawn", to),
				Seen:     fmt.Sprintf("%s: %s pawn", to, strings.ToLower(colourName(toMove))),
				Text:     text})
			return insertBeforeEnd(out, n0out, al[0])
		}
		if pressed && ix.reply == chess.NoMove && (ix.diff == ix.move.Landing().Bitboard() || ix.move.IsCastling() && ix.diff == ix.move.CastlingRookTo().Bitboard()) && r.v.occ&ix.diff == 0 {
			// The moved piece never read where it landed: taken at once
			// by the reply before a sweep read it (cxb6 e.p. pressed, and
			// Nxb6 lifted 171 ms later on a piece board), or still in the
			// hand (a castling's rook, read on f1 after the reply's
			// press; on an occupancy board 4. Bxc6 pressed with the
			// bishop in the hand, set down 130 ms later). Alerted if the
			// square is still wrong after AlertMs.
			return r.holdKnocked(ix.diff, ply, toMove, &after, t, out)
		}
		if theirsGone {
			// Only pieces of the player to reply read gone: that
			// player's hand may have the piece (its reply begun as the
			// press came), or a piece set off-centre flickers on a reed
			// switch (Black's queen on g1 read gone 136 ms before
			// White's press and back 214 ms after it was alerted at
			// once). Alerted if the square is still wrong after AlertMs.
			return r.holdKnocked(ix.diff, ply, toMove, &after, t, out)
		}
		if knockedAfter {
			// The presser's own pieces knocked off after the press, by
			// the hand landing a piece pressed early: alerted if still
			// off after AlertMs (usually put back at once; 4. Nf3
			// pressed with the knight in the hand, f2 knocked off as it
			// landed and put back 1 s later was alerted at once).
			return r.holdKnocked(ix.diff, ply, toMove, &after, t, out)
		}
		if ix.diff != 0 {
			if byFirst {
				return r.misplaced(out, t, ply-1, toMove.Other(), &after, ix.diff)
			}
			return r.misplaced(out, t, ply, by, &after, ix.diff)
		}
		return out
	}
	r.alertKey = key
	d0 := ix.diff
	if pressed && side == toMove && d0.Count() <= 4 {
		out = r.alert(out, Output{Alert: ClockWithoutMove, T: t, Ply: ply, Side: side,
			Expected: "a move before the clock press", Seen: "no move; pieces out of place",
			Text: fmt.Sprintf("%s pressed the clock without making a move.", colourName(side))})
	}
	// Pieces out of place with no move: most likely knocked by the hand
	// that made the last move.
	mply, mside := ply-1, toMove.Other()
	if len(r.plies) == 0 {
		mply, mside = ply, toMove
	}
	if k := r.knockPly; k > 0 && k <= len(r.plies) && d0 == r.knocked {
		// (The decoder found which move's hand knocked it.)
		mply, mside = r.plyOf(k)
	}
	r.knockPly = 0
	if d0 == 0 {
		// Nothing out of place: a press on the clock that was not running.
		if pressed {
			return r.note(out, NoteExtraPress, t, 0, fmt.Sprintf("%s pressed the clock, which was not running for them", colourName(side)))
		}
		return out
	}
	if d0.Count() <= 4 {
		r.setOverlay(d0, &P, len(r.plies))
		return r.misplaced(out, t, mply, mside, &P, d0)
	}
	r.state = stateIrregular
	if pressed {
		return r.alert(out, Output{Alert: IllegalMove, T: t, Ply: ply, Side: side, Squares: d0,
			Expected: fmt.Sprintf("a legal move by %s", colourName(toMove)),
			Seen:     describeSquares(&r.v, d0, r.sensor),
			Text: fmt.Sprintf("%s pressed the clock but the board shows no legal move; squares that differ: %s.",
				colourName(side), d0.List())})
	}
	return r.misplaced(out, t, mply, mside, &P, d0)
}

// oneMoveMisplaced reports whether ix is one legal move with squares out
// of place.
func (ix *inexact) oneMoveMisplaced() bool {
	return ix.move != chess.NoMove && ix.reply == chess.NoMove && ix.diff != 0 && !ix.illegal && !ix.unreplaced
}

// cand is the candidate that adopts ix's moves on line li.
func (ix *inexact) cand(li int) cand {
	c := cand{line: li, n: 1, cost: ix.cost}
	c.moves[0] = ix.move
	if ix.reply != chess.NoMove {
		c.n, c.moves[1] = 2, ix.reply
	}
	return c
}

// misplacedCost prices squares where the board differs from position p:
// a piece fallen onto a neighbouring square is cheaper than one far away,
// and one seen landing before it was lifted is dearer.
func (r *Reconstructor) misplacedCost(d chess.Bitboard, p *chess.Position, m chess.Move) int {
	n := d.Count()
	if n == 0 {
		return 0
	}
	if n == 2 {
		vac := d & p.Occupied() &^ r.v.occ
		fil := d & r.v.occ &^ p.Occupied()
		if vac != 0 && fil != 0 {
			x, y := vac.First(), fil.First()
			c := 2 * costMisplaced
			if chess.KingAttacks(x).Has(y) {
				c = 2 * costMisplacedN
			}
			// (The last landing: a square a slide crossed before the
			// knock is filled first by the sliding piece. On colour and
			// piece boards a landing reported a few ms before the lift
			// may be one sweep reading both squares in its own order,
			// which says nothing of the hand's.)
			off, ok1 := r.firstOff(x)
			on, ok2 := r.lastOn(y)
			if ok1 && ok2 && on+r.sweepNearMs() < off && !r.crossedFilled(m, y, on) {
				c += costMisplacedOrder
			}
			return c
		}
	}
	if n == 4 && r.sensor != trace.Occupancy {
		// Two pieces each knocked onto a neighbouring square (a move and
		// the next each knocking one). (Not on occupancy boards, where
		// four squares pair up by chance more often.)
		vac := d & p.Occupied() &^ r.v.occ
		fil := d & r.v.occ &^ p.Occupied()
		if vac.Count() == 2 && fil.Count() == 2 {
			x1, x2 := vac.First(), (vac & (vac - 1)).First()
			y1, y2 := fil.First(), (fil & (fil - 1)).First()
			near := chess.KingAttacks
			if near(x1).Has(y1) && near(x2).Has(y2) || near(x1).Has(y2) && near(x2).Has(y1) {
				return 4 * costMisplacedN
			}
		}
	}
	// A piece knocked falls off the board or onto a neighbouring square;
	// more squares filled than emptied need pieces that came from
	// nowhere.
	vac := (d & p.Occupied() &^ r.v.occ).Count()
	fil := (d & r.v.occ &^ p.Occupied()).Count()
	c := n*costMisplaced + max(0, fil-vac)*costFromNowhere
	if r.sensor == trace.Occupancy && fil == 0 {
		// More than two pieces gone and none fallen anywhere: a hand
		// knocks one piece, two at most, not three off the board (at
		// bullet pace on occupancy boards fast captures nobody saw
		// land look like that).
		c += max(0, vac-2) * costFromNowhere
	}
	return c
}

// crossedFilled reports whether square y, last filled at on, is one move
// m's piece slid across (on colour and piece boards), filled by it before its own square emptied (a
// slide shows first on the square next to it; filled after, it may as
// well be the piece carried there and set down): the piece knocked onto
// it while it showed the sliding one was not seen landing (a pawn slid
// from d7 over d6 to d5, its hand knocking the e6 pawn onto d6).
func (r *Reconstructor) crossedFilled(m chess.Move, y chess.Square, on int64) bool {
	if m == chess.NoMove || r.sensor == trace.Occupancy || !chess.Between(m.From(), m.Landing()).Has(y) || !chess.KingAttacks(m.From()).Has(y) {
		return false
	}
	start, ok1 := r.lastOff(m.From())
	land, ok2 := r.lastOn(m.Landing())
	return ok1 && ok2 && on < land && on <= start
}

// sweepMs is the slowest sweep of the board's kind: a change is reported
// up to that much after it was made (occupancy boards scan in 20 ms).
func (r *Reconstructor) sweepMs() int64 {
	switch r.sensor {
	case trace.PieceSensor:
		return 250
	case trace.Colour:
		return 100
	}
	return 20
}

// sweepNearMs is how much later than a square a sweep that reads the
// squares one after another may read a neighbouring one: up to 9
// squares of 64 of the sweep (sweepMs). Two changes there that close may
// be one reading, their order the sweep's, not the hand's. (Occupancy
// boards scan too fast for that: their order is taken as seen.)
func (r *Reconstructor) sweepNearMs() int64 {
	if r.sensor == trace.Occupancy {
		return 0
	}
	return r.sweepMs() * 9 / 64
}

// displacedBy is the side whose hand displaced the pieces on d, of a
// board that shows mover's move m: mover, unless every square of d last
// changed after the other side's last press and before m's lift, and
// either nearer that press than the lift, or too far from m's squares
// for the hand that lifted m's piece so soon after to have knocked it:
// the other side's hand, going back from the clock (c2 knocked onto c3
// 70 ms after 3. Bc4 was pressed and 400 ms before Black lifted g8; h2
// knocked off 300 ms after White pressed and 200 ms before Black lifted
// a7: the alerts named Black).
func (r *Reconstructor) displacedBy(d chess.Bitboard, mover chess.Color, m chess.Move) chess.Color {
	lift := r.changedAt[unrotSquare(m.From(), r.orient)]
	press := r.pressedAt[mover.Other()]
	if d == 0 || press <= 0 || press > lift {
		return mover
	}
	for e := d; e != 0; e &= e - 1 {
		s := e.First()
		at := r.changedAt[unrotSquare(s, r.orient)]
		if at < press || at >= lift-r.sweepNearMs() {
			return mover
		}
		far := lift-at < farKnockMs && chess.Distance(s, m.From()) >= 3 && chess.Distance(s, m.Landing()) >= 3
		if at-press >= lift-at && !far {
			return mover
		}
	}
	return mover.Other()
}

// knockedByFirst reports whether every square of d changed after move
// m landed and before reply's piece was lifted, less than knockMs after
// the landing, within two squares of m's landing or its square, and one
// of them where m's hand let go (handNear): m's hand knocked them.
func (r *Reconstructor) knockedByFirst(d chess.Bitboard, m, reply chess.Move) bool {
	land, ok := r.firstOn(m.Landing())
	lift, ok2 := r.lastOff(reply.From())
	if d == 0 || !ok || !ok2 || d&handNear(m) == 0 {
		return false
	}
	for e := d; e != 0; e &= e - 1 {
		s := e.First()
		at := r.changedAt[unrotSquare(s, r.orient)]
		if at < land || at >= lift || at-land >= knockMs ||
			chess.Distance(s, m.Landing()) > 2 && chess.Distance(s, m.From()) > 2 {
			return false
		}
	}
	return true
}

// farKnockMs: a hand that knocks a piece three squares or more from the
// piece it lifts next needs at least this long to get there.
const farKnockMs = 400

// plyOf is published ply k (1-based): its number and the side that made
// it.
func (r *Reconstructor) plyOf(k int) (int, chess.Color) {
	return r.befores[k-1].Ply() + 1, r.befores[k-1].SideToMove()
}

// misplaced alerts squares that differ from position p, displaced by side
// during ply.
func (r *Reconstructor) misplaced(out []Output, t int64, ply int, side chess.Color, p *chess.Position, d chess.Bitboard) []Output {
	exp := describePosition(p, d)
	seen := describeSquares(&r.v, d, r.sensor)
	return r.alert(out, Output{Alert: MisplacedPieces, T: t, Ply: ply, Side: side, Squares: d,
		Expected: exp, Seen: seen,
		Text: fmt.Sprintf("Pieces are out of place: %s should be %s (the board shows %s).", d.List(), exp, seen)})
}

// wrongSetup alerts a start position that is not the declared one.
func (r *Reconstructor) wrongSetup(t int64, out []Output) []Output {
	key := r.viewKey()
	if key == r.alertKey {
		return out
	}
	r.alertKey = key
	d := r.v.diff(&r.start)
	exp := describePosition(&r.start, d)
	seen := describeSquares(&r.v, d, r.sensor)
	if r.setUp.Key() != r.start.Key() {
		// A game resumed after a restart, or a position the arbiter set:
		// the board being put in it has pieces out of place (7.4.1), not a
		// set-up that would annul the game (7.2.1).
		return r.alert(out, Output{Alert: MisplacedPieces, T: t, Ply: r.start.Ply(), Side: r.start.SideToMove(), Squares: d,
			Expected: exp, Seen: seen,
			Text: fmt.Sprintf("The board does not show the game's position: %s should be %s.", d.List(), exp)})
	}
	return r.alert(out, Output{Alert: WrongSetup, T: t, Ply: r.start.Ply() + 1, Side: r.start.SideToMove(), Squares: d,
		Expected: exp, Seen: seen,
		Text: fmt.Sprintf("The start position is not set up correctly: %s should be %s.", d.List(), exp)})
}

func pieceName(pc chess.Piece) string {
	if pc == chess.NoPiece {
		return "empty"
	}
	return strings.ToLower(colourName(pc.Color())) + " " + pc.Type().String()
}

func describePosition(p *chess.Position, d chess.Bitboard) string {
	var sb strings.Builder
	for b := d; b != 0; b &= b - 1 {
		s := b.First()
		if sb.Len() > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%s: %s", s, pieceName(p.PieceAt(s)))
	}
	return sb.String()
}

func describeSquares(v *view, d chess.Bitboard, _ any) string {
	var sb strings.Builder
	for b := d; b != 0; b &= b - 1 {
		s := b.First()
		if sb.Len() > 0 {
			sb.WriteString(", ")
		}
		bb := s.Bitboard()
		what := "empty"
		switch {
		case v.occ&bb == 0:
		case v.pieceKnown&bb != 0:
			what = pieceName(v.pieceAt(s))
		case v.colourKnown&bb != 0 && v.white&bb != 0:
			what = "a white piece"
		case v.colourKnown&bb != 0:
			what = "a black piece"
		default:
			what = "a piece"
		}
		fmt.Fprintf(&sb, "%s: %s", s, what)
	}
	return sb.String()
}

// illegalDesc describes a recognised illegal move.
type illegalDesc struct {
	side     chess.Color
	from, to chess.Square
	seen     string
	text     string
}

// describeIllegal recognises the board as one piece moved (or a castling
// made) against the rules from p, d being where the board differs from p.
func (r *Reconstructor) describeIllegal(p *chess.Position, d chess.Bitboard, rv *recView) (illegalDesc, bool) {
	occ := p.Occupied()
	vac := d & occ &^ r.v.occ
	fil := d & r.v.occ &^ occ
	chg := d & occ & r.v.occ
	var ill illegalDesc
	if ill, ok := r.castlingShown(p, d); ok {
		// A castling: the king and a rook of its rank where castling
		// puts them (in Chess960 maybe on each other's squares).
		return ill, true
	}
	switch {
	case vac.Count() == 2 && fil.Count() == 1 && chg == 0:
		return describeEnPassant(p, vac, fil.First())
	case vac.Count() != 1 || fil.Count()+chg.Count() > 1:
		return ill, false
	}
	from := vac.First()
	to := chess.NoSquare
	switch {
	case fil != 0:
		to = fil.First()
	case chg != 0:
		to = chg.First()
	default:
		// Occupancy sensors: the destination is the occupied square that
		// was lifted and filled again.
		c := rv.lifted & rv.placed & occ &^ from.Bitboard()
		if c.Count() != 1 {
			return ill, false
		}
		to = c.First()
	}
	pc := p.PieceAt(from)
	if r.v.colourKnown.Has(to) && r.v.seen(pc.Color().Other()).Has(to) || r.v.pieceKnown.Has(to) && r.v.pieceAt(to) != pc {
		// The sensors read another piece there: not this one's move (a
		// knight's hand knocking a pawn onto c2, read before c3 was read
		// emptied, was alerted as the black knight's e5-c2).
		return ill, false
	}
	ill.side, ill.from, ill.to = pc.Color(), from, to
	what := fmt.Sprintf("%s %s-%s", pc.Type(), from, to)
	if p.PieceAt(to) != chess.NoPiece {
		what = fmt.Sprintf("%s %sx%s", pc.Type(), from, to)
	}
	ill.seen = what
	why := illegalReason(p, pc, from, to)
	ill.text = fmt.Sprintf("Illegal move by %s: %s (%s).", colourName(pc.Color()), what, why)
	if pc.Color() != p.SideToMove() {
		ill.text = fmt.Sprintf("Illegal move: %s moved the %s while %s is to move.",
			colourName(pc.Color()), what, colourName(p.SideToMove()))
	}
	return ill, true
}

// illegalReply recognises, without a clock, on an occupancy board (whose
// changes come in the order the hands made them), the squares d where the
// board differs from q (after move m) as the reply made against the
// rules: the piece of the player to move in q lifted illegalReplyMs or
// more after m landed and set down as long after, as a hand carries it,
// and moved the way its kind moves (illegal for the king's safety): no
// knock of m's hand letting go. (Kg1-f1 into the rook's check, lifted
// 269 ms after ...Rxf2 landed and carried in 249 ms, was alerted as
// Black's hand knocking the king.) On colour and piece boards a sweep
// blurs those times.
func (r *Reconstructor) illegalReply(q *chess.Position, m chess.Move, d chess.Bitboard, rv *recView) (illegalDesc, bool) {
	if r.clock || d.Count() != 2 || r.sensor != trace.Occupancy {
		return illegalDesc{}, false
	}
	ill, ok := r.describeIllegal(q, d, rv)
	if !ok || ill.side != q.SideToMove() || ill.from == ill.to || shapeReason(q, q.PieceAt(ill.from), ill.from, ill.to) != "" {
		// (A piece that went where its kind never goes, a pawn backwards,
		// was pushed there: a knock.)
		return illegalDesc{}, false
	}
	// (Not r.legal: its cache holds the list the caller is iterating.)
	var ml chess.MoveList
	q.GenerateLegal(&ml)
	for _, m2 := range ml.Moves() {
		if m2.From() == ill.from && m2.To() == ill.to {
			return illegalDesc{}, false // (the reply is legal: inexactReply's)
		}
	}
	land, ok1 := r.lastOn(m.Landing())
	off, ok2 := r.lastOff(ill.from)
	on, ok3 := r.lastOn(ill.to)
	return ill, ok1 && ok2 && ok3 && off >= land+illegalReplyMs && on >= off+illegalReplyMs
}

// illegalReplyMs: a reply made against the rules is told from a piece
// knocked next door only when it was lifted this long after the move
// before landed and carried this long: a knock as the hand lets go
// lands its piece sooner (the simulator's injected knocks, 102-175 ms
// from lift to landing, 123-172 ms after the move, were alerted as
// illegal replies at 120 and 100 ms).
const illegalReplyMs = 200

// describeEnPassant recognises an en passant capture that is not legal in
// p: a pawn gone from beside an enemy pawn, the enemy pawn gone, and the
// square behind it filled. Most often it is made a move too late: the
// capture is legal only on the move right after the two-square advance.
func describeEnPassant(p *chess.Position, vac chess.Bitboard, to chess.Square) (illegalDesc, bool) {
	var ill illegalDesc
	for b := vac; b != 0; b &= b - 1 {
		from := b.First()
		pc := p.PieceAt(from)
		victim := (vac &^ from.Bitboard()).First()
		vp := p.PieceAt(victim)
		fwd := 1
		if pc.Color() == chess.Black {
			fwd = -1
		}
		if pc.Type() != chess.Pawn || vp.Type() != chess.Pawn || vp.Color() == pc.Color() ||
			victim.Rank() != from.Rank() || to.File() != victim.File() || to.Rank() != from.Rank()+fwd ||
			from.File()-victim.File() != 1 && victim.File()-from.File() != 1 {
			continue
		}
		ill.side, ill.from, ill.to = pc.Color(), from, to
		ill.seen = fmt.Sprintf("pawn %sx%s e.p.", from, to)
		why := "en passant is legal only on the move right after the captured pawn's two-square advance"
		if pc.Color() != p.SideToMove() {
			why = "it is not that side's move"
		}
		ill.text = fmt.Sprintf("Illegal move by %s: %s (%s).", colourName(pc.Color()), ill.seen, why)
		return ill, true
	}
	return ill, false
}

// illegalReason says which rule moving pc from a to b breaks in p.
func illegalReason(p *chess.Position, pc chess.Piece, a, b chess.Square) string {
	if why := shapeReason(p, pc, a, b); why != "" {
		return why
	}
	// The geometry is right: the move must leave the king in check.
	c := pc.Color()
	q := *p
	m := chess.Move(uint16(a)<<6 | uint16(b)) // a plain move, as chess.Move encodes it
	q.MakeMove(m)
	k := q.KingSquare(c)
	if q.Attacked(k, c.Other()) {
		if pc.Type() == chess.King {
			return fmt.Sprintf("the king would be in check on %s", b)
		}
		if p.InCheck() {
			return "it does not get the king out of check"
		}
		return "it would leave the king in check"
	}
	if c != p.SideToMove() {
		return "it is not that side's move"
	}
	return "no legal move goes there"
}

// shapeReason says which rule of the pieces' moves (and captures)
// moving pc from a to b breaks in p, "" if none: only the king's safety
// or the turn can make it illegal then.
func shapeReason(p *chess.Position, pc chess.Piece, a, b chess.Square) string {
	c := pc.Color()
	target := p.PieceAt(b)
	if target != chess.NoPiece && target.Color() == c {
		return "it would capture a piece of its own side"
	}
	if target.Type() == chess.King {
		return "a king cannot be captured"
	}
	df, dr := b.File()-a.File(), b.Rank()-a.Rank()
	abs := func(x int) int {
		if x < 0 {
			return -x
		}
		return x
	}
	blocked := chess.Between(a, b) & p.Occupied()
	switch pc.Type() {
	case chess.Pawn:
		fwd := 1
		if c == chess.Black {
			fwd = -1
		}
		switch {
		case dr*fwd <= 0:
			return "a pawn moves only forward"
		case df == 0 && target != chess.NoPiece:
			return "a pawn cannot capture straight ahead"
		case df == 0 && dr*fwd == 2 && (c == chess.White && a.Rank() != 1 || c == chess.Black && a.Rank() != 6):
			return "a pawn moves two squares only from its starting square"
		case df == 0 && dr*fwd == 2 && blocked != 0:
			return fmt.Sprintf("the pawn's path is blocked on %s", blocked.First())
		case df == 0 && dr*fwd > 2, abs(df) > 1, abs(df) == 1 && dr*fwd != 1:
			return "a pawn does not move that way"
		case abs(df) == 1 && target == chess.NoPiece:
			return "a pawn moves diagonally only to capture"
		}
	case chess.Knight:
		if !chess.KnightAttacks(a).Has(b) {
			return "a knight moves in an L: two squares one way and one to the side"
		}
	case chess.Bishop:
		if abs(df) != abs(dr) {
			return "a bishop moves only diagonally"
		}
	case chess.Rook:
		if df != 0 && dr != 0 {
			return "a rook moves only along a rank or a file"
		}
	case chess.Queen:
		if df != 0 && dr != 0 && abs(df) != abs(dr) {
			return "a queen moves along a rank, a file or a diagonal"
		}
	case chess.King:
		if abs(df) == 2 && dr == 0 {
			return "the king moved two squares, but castling is not possible here (the rook must move too, and castling must be allowed)"
		}
		if abs(df) > 1 || abs(dr) > 1 {
			return "a king moves one square"
		}
	}
	if blocked != 0 && pc.Type() != chess.Knight {
		return fmt.Sprintf("its path is blocked on %s", blocked.First())
	}
	return ""
}

// castlingShown recognises d, where the board differs from p, as a
// castling against the rules: a king on its first rank and a rook of its
// on that rank, both gone from where they stood and shown where castling
// puts them (the sensors' colour and piece agreeing where read), no other
// square changed. In Chess960 the two may trade squares, which only a
// piece board shows (Kf1 and Rg1 to g1 and f1 with the king moved
// before was alerted as a clock press without a move and the pieces as
// Black's misplaced).
func (r *Reconstructor) castlingShown(p *chess.Position, d chess.Bitboard) (illegalDesc, bool) {
	if d == 0 {
		return illegalDesc{}, false
	}
	for c := chess.White; c <= chess.Black; c++ {
		kf := p.KingSquare(c)
		if kf == chess.NoSquare || kf.Rank() != [2]int{0, 7}[c] {
			continue
		}
		rank := kf.Rank() * 8
		for e := p.Pieces(c, chess.Rook) & (chess.Bitboard(0xff) << rank); e != 0; e &= e - 1 {
			rf := e.First()
			kt, rt := chess.Square(rank+2), chess.Square(rank+3)
			if rf > kf {
				kt, rt = chess.Square(rank+6), chess.Square(rank+5)
			}
			sq := kf.Bitboard() | rf.Bitboard() | kt.Bitboard() | rt.Bitboard()
			if d&^sq != 0 || (p.Occupied()&^kf.Bitboard()&^rf.Bitboard())&(kt.Bitboard()|rt.Bitboard()) != 0 {
				continue
			}
			if r.shows(kt, chess.NewPiece(c, chess.King)) && r.shows(rt, chess.NewPiece(c, chess.Rook)) &&
				(kf == kt || kf == rt || !r.v.occ.Has(kf)) && (rf == kt || rf == rt || !r.v.occ.Has(rf)) {
				return r.describeCastling(p, kf, rf, kt, rt)
			}
		}
	}
	return illegalDesc{}, false
}

// shows reports whether the view shows a piece on s that may be pc: the
// square filled, and the colour and piece, where read, pc's.
func (r *Reconstructor) shows(s chess.Square, pc chess.Piece) bool {
	b := s.Bitboard()
	if !r.v.occ.Has(s) || r.v.colourKnown&b != 0 && r.v.seen(pc.Color())&b == 0 {
		return false
	}
	return r.v.pieceKnown&b == 0 || r.v.pieceAt(s) == pc
}

// describeCastling explains why the castling of the king on kf with the
// rook on rf, to kt and rt, that the board shows is illegal.
func (r *Reconstructor) describeCastling(p *chess.Position, kf, rf, kt, rt chess.Square) (illegalDesc, bool) {
	var ill illegalDesc
	c := p.PieceAt(kf).Color()
	hSide := rf > kf
	name := "O-O-O"
	right := chess.WhiteASide
	if hSide {
		name, right = "O-O", chess.WhiteHSide
	}
	if c == chess.Black {
		right <<= 2
	}
	var why string
	switch {
	case c != p.SideToMove():
		why = "it is not that side's move"
	case p.CastlingRook(right) != rf:
		why = "castling is no longer allowed: the king or this rook has already moved"
	case p.InCheck():
		why = "a king in check cannot castle"
	case chess.Between(kf, rf)&p.Occupied() != 0:
		why = fmt.Sprintf("a piece stands between king and rook on %s", (chess.Between(kf, rf) & p.Occupied()).First())
	default:
		why = "the king would cross or end on an attacked square"
		for s := kf; ; {
			if p.Attacked(s, c.Other()) {
				why = fmt.Sprintf("the king would pass through or end on %s, which is attacked", s)
				break
			}
			if s == kt {
				break
			}
			if kt > s {
				s++
			} else {
				s--
			}
		}
	}
	ill.side, ill.from, ill.to = c, kf, kt
	ill.seen = fmt.Sprintf("castling %s (king %s-%s, rook %s-%s)", name, kf, kt, rf, rt)
	ill.text = fmt.Sprintf("Illegal move by %s: %s (%s).", colourName(c), ill.seen, why)
	return ill, true
}
