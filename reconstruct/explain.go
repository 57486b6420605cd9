package reconstruct

import (
	"slices"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// recView is the record in game coordinates.
type recView struct {
	lifted, placed chess.Bitboard
	// framed: a full frame jumped over the moves, which nobody saw made
	// (their lifts, landings and order are no evidence).
	framed bool
}

func (rv *recView) touched() chess.Bitboard { return rv.lifted | rv.placed }

func (r *Reconstructor) recView() recView {
	return recView{lifted: rotBB(r.rec.lifted, r.orient), placed: rotBB(r.rec.placed, r.orient), framed: r.rec.framed}
}

// firstOff is when game square s was first seen emptied (ok false if never).
func (r *Reconstructor) firstOff(s chess.Square) (int64, bool) {
	raw := unrotSquare(s, r.orient)
	return r.rec.firstOff[raw], r.rec.lifted.Has(raw)
}

// lastOff is when game square s was last seen emptied (ok false if never).
func (r *Reconstructor) lastOff(s chess.Square) (int64, bool) {
	raw := unrotSquare(s, r.orient)
	return r.rec.lastOff[raw], r.rec.lifted.Has(raw)
}

// lastOn is when game square s was last seen filled (ok false if never).
func (r *Reconstructor) lastOn(s chess.Square) (int64, bool) {
	raw := unrotSquare(s, r.orient)
	return r.rec.lastOn[raw], r.rec.placed.Has(raw)
}

// firstOn is when game square s was first seen filled (ok false if never).
func (r *Reconstructor) firstOn(s chess.Square) (int64, bool) {
	raw := unrotSquare(s, r.orient)
	return r.rec.firstOn[raw], r.rec.placed.Has(raw)
}

// lastTo is the destination of the last move of hypothesis li after
// taking back back plies of it, NoSquare if none: a capture there is a
// recapture.
func (r *Reconstructor) lastTo(li, back int) chess.Square {
	ms := r.lines[li].moves
	if len(ms) <= back {
		return chess.NoSquare
	}
	return ms[len(ms)-1-back].Landing()
}

// tradesSquares reports whether m is a castling whose king and rook
// trade squares (Chess960: it changes no square the board shows).
func tradesSquares(m chess.Move) bool {
	return m.IsCastling() && m.To() == m.CastlingKingTo() && m.From() == m.CastlingRookTo()
}

// filledAfter reports whether game square s was last read filled after
// t. (A lift next to a knight's landing, that landing read before it,
// was read as Nxa4 and d4-d5 begun early: the knight had knocked d4.)
func (r *Reconstructor) filledAfter(s chess.Square, t int64) bool {
	on, ok := r.lastOn(s)
	return ok && on > t
}

// overlapMs is how long before the move it answers was down a reply's
// first lift may come: a quick carry (100 ms), and on occupancy boards,
// which read the order as it came, a sweep more (an occupancy board read
// e7 lifted 106 ms before f4 filled). (With a colour or piece board's
// sweep more, a knock slid across a landing was read as two moves.)
func (r *Reconstructor) overlapMs() int64 {
	if r.sensor == trace.Occupancy {
		return minQuickCarryMs + r.sweepMs()
	}
	return minQuickCarryMs
}

// promoCostIn prices promotion m from q followed by the later moves of its
// sequence: the piece a piece board read set down is free and another
// costs (a8=B Rxa8: the bishop stood one sweep); else the queen is free,
// another piece costs unless a promote input chose it. The input chooses
// the last promotion's piece, not an earlier one's (b1=Q waiting for an
// input that never came, then g8=N and its input: both were published as
// knights).
func (r *Reconstructor) promoCostIn(m chess.Move, q *chess.Position, later []chess.Move) int {
	t := m.Promotion()
	if read := r.promoRead(m, q.SideToMove(), len(r.log.evs)); read != chess.NoPieceType {
		if t == read {
			return 0
		}
		return costPromoOther
	}
	input := r.promo != chess.NoPieceType
	for _, l := range later {
		if l.IsPromotion() {
			input = false
		}
	}
	if input {
		if t == r.promo {
			return 0
		}
		return costPromoOther
	}
	switch t {
	case chess.Queen:
		return 0
	case chess.Knight:
		return costPromoN
	}
	return costPromoRB
}

// promoRead is the piece a piece board read set down on m's square, of
// colour c and a type a pawn promotes to, first after the pawn's last lift
// among the first upto logged changes: the promotion's piece, even when it
// was taken before any decision saw it stand (NoPieceType if none was
// read, or the log was lost).
func (r *Reconstructor) promoRead(m chess.Move, c chess.Color, upto int) chess.PieceType {
	if r.sensor != trace.PieceSensor || !r.log.ok {
		return chess.NoPieceType
	}
	from, to := unrotSquare(m.From(), r.orient), unrotSquare(m.To(), r.orient)
	read, lifted := chess.NoPieceType, false
	for i := range r.log.evs[:min(upto, len(r.log.evs))] {
		ev := &r.log.evs[i]
		switch {
		case ev.Kind == trace.Off && ev.Square == from:
			read, lifted = chess.NoPieceType, true
		case lifted && read == chess.NoPieceType && ev.Kind == trace.On && ev.Square == to && ev.HasColour && ev.Piece.Color() != c:
			// The other side's piece read there first: it took the new
			// piece before any sweep read it, and a piece of c read there
			// later is a recapture's (d1=Q taken by Bxd1, then Bxd1: no
			// d1=B).
			lifted = false
		case lifted && read == chess.NoPieceType && ev.Kind == trace.On && ev.Square == to && ev.HasPieces && ev.Piece.Color() == c:
			switch t := ev.Piece.Type(); t {
			case chess.Knight, chess.Bishop, chess.Rook, chess.Queen:
				read = t
			}
		}
	}
	return read
}

// promoExpect is the promotion piece tried first for m from p among the
// first upto logged changes: the one a piece board read, else the guess.
func (r *Reconstructor) promoExpect(p *chess.Position, m chess.Move, upto int) chess.PieceType {
	if t := r.promoRead(m, p.SideToMove(), upto); t != chess.NoPieceType {
		return t
	}
	return r.promoGuess()
}

// moveSquares are the squares a hand must change to make m in p, and
// those whose occupancy does not change although a piece must have been
// lifted there (a capture's victim, overlapping Chess960 castling).
func moveSquares(p *chess.Position, m chess.Move) (all, needLift chess.Bitboard) {
	from, to := m.From(), m.To()
	switch {
	case m.IsCastling():
		kTo, rTo := m.CastlingKingTo(), m.CastlingRookTo()
		f := from.Bitboard() | to.Bitboard()
		dst := kTo.Bitboard() | rTo.Bitboard()
		// A square one piece leaves and another fills needs a lift seen
		// there; a Chess960 king or rook already on its square need not
		// be lifted at all (the hand may only touch it).
		need := f & dst
		if from == kTo {
			need &^= from.Bitboard()
		}
		if to == rTo {
			need &^= to.Bitboard()
		}
		return f | dst, need
	case m.IsEnPassant():
		return from.Bitboard() | to.Bitboard() | (to ^ 8).Bitboard(), 0
	}
	all = from.Bitboard() | to.Bitboard()
	if p.PieceAt(to) != chess.NoPiece {
		needLift = to.Bitboard()
	}
	return all, needLift
}

// seqCost scores moves made from p (lastTo: where the move before them
// landed) against what the hands were seen doing.
// missed reports that the last move is a capture whose victim was never
// seen lifted.
func (r *Reconstructor) seqCost(p *chess.Position, lastTo chess.Square, moves []chess.Move, rv *recView) (cost int, missed bool) {
	var expl, need, zone, way, captured, backFirst chess.Bitboard
	// q is the position each move is made from: p itself for the first,
	// a copy made on only when there is a next move.
	q := p
	var after chess.Position
	prevOff := int64(-1)
	var lastNeed chess.Bitboard
	prevDone, prevOn, prevLand := int64(-1), int64(-1), chess.NoSquare
	prevFrom := chess.NoSquare
	// prevQuick: when the move before was done if its unseen capture next
	// door was pushed off by a hand in a hurry (-1: as prevDone).
	prevQuick := int64(-1)
	prevEst := false  // prevDone is a carry assumed, the landing unseen
	var movers uint16 // bit per chess.Piece the sequence moves
	// castleRooks: the rooks' squares of castlings that fill and empty
	// the same squares as a king move of the sequence (sameCastling), and
	// the kings' squares of castlings that do as a rook move of it does.
	var castleRooks chess.Bitboard
	for i, m := range moves {
		if !m.IsCastling() {
			// (A castling's king and rook go only to their castling
			// squares: no piece of theirs stood anywhere else.)
			movers |= 1 << q.PieceAt(m.From())
		}
		all, nl := moveSquares(q, m)
		earlier := expl
		expl |= all
		if m.IsEnPassant() && i > 0 && moves[i-1].To() == m.To()^8 {
			// The pawn taken was set down in this sequence too: its
			// square ends as it began, and it is priced as a plain
			// capture's victim is, its removal needing a lift seen
			// there (22... b5 23. cxb6 e.p. was cheaper than 22... b6
			// 23. cxb6, b6 never read filled nor emptied).
			nl = (m.To() ^ 8).Bitboard()
		}
		need |= nl
		lastNeed = nl
		from, to := m.From(), m.To()
		// A piece's move begins with its last lift (earlier ones were
		// touches: an adjustment, a hesitation), unless a later move of
		// the sequence passes over or onto its square: then its lifts
		// there are the later move's, and this one's is the first.
		lift, lifted := r.lastOff(from)
		// land: where the move sets its piece down, which the next
		// move's timing is judged from.
		land := m.Landing()
		if m.IsCastling() && from == m.CastlingKingTo() {
			// A Chess960 castling whose king stays moves only the rook:
			// it begins with the rook's lift and is down when the rook
			// is (the king may only be touched).
			lift, lifted = r.lastOff(to)
			land = m.CastlingRookTo()
		}
		if lifted && (i+1 < len(moves) && crossedLater(moves[i+1:], from, rv) || m.IsCastling() && m.CastlingRookTo() == from) {
			// (A Chess960 castling whose rook lands where the king stood,
			// king f1-g1 and rook h1-f1: a later lift at f1 is the rook
			// adjusted; the king's began the castling.)
			lift, lifted = r.firstOff(from)
		} else if lifted && !m.IsCastling() && !rv.framed && r.sensor != trace.Occupancy &&
			r.rec.placedOther(unrotSquare(from, r.orient), q.PieceAt(from)) {
			// Its square filled since only by pieces the sensor told
			// apart from it: a later lift there was of one of those (a
			// piece the reply's hand knocked there, picked up to be put
			// back), and the move began with the first.
			lift, lifted = r.firstOff(from)
		} else if lifted && !m.IsCastling() && !rv.framed {
			// Nor a lift after the piece, seen on its destination, left
			// it and its own square was filled again: it was knocked
			// back there, and that lift picked it up to put it right.
			land, ok1 := r.firstOn(to)
			gone, ok2 := r.lastOff(to)
			back, ok3 := r.lastOn(from)
			if first, _ := r.firstOff(from); ok1 && ok2 && ok3 && first < land && land < gone && gone < back && back < lift {
				lift = first
			} else if first < lift && (i+1 < len(moves) && r.touchedDown(moves[len(moves)-1], from, first) || r.knockedThere(from, first)) {
				// Nor a lift of a piece a later move's hand set down
				// there on its way (Bf5 touching down on f6 after 10...
				// Nxd5 11. exd5, both pushed off), or of a piece knocked
				// there from next door and put back (18... f5, 19. gxf5
				// pushed off, its hand knocking e6 onto f7): this move
				// began with the first.
				lift = first
			}
		}
		if nl&captured != 0 && !m.IsCastling() && !rv.framed {
			// The second capture on a square in the sequence needs a
			// second lift there (the first is priced below).
			first, _ := r.firstOff(to)
			if last, ok := r.lastOff(to); !ok || last == first {
				cost += costMissedLift
			}
		}
		if !m.IsCastling() {
			captured |= nl
		}
		if nl != 0 && lifted {
			// (A victim put back before the capturing piece was lifted:
			// a knock that took it off says nothing of this capture.)
			if on, ok := r.lastOn(nl.First()); ok && on < lift {
				backFirst |= nl
			}
		}
		if lifted && !m.IsCastling() && !rv.framed && !r.clock && r.sensor != trace.Occupancy {
			cost += r.setDownOnWay(q, m, lift)
		}
		if nl != 0 && !m.IsCastling() && rv.lifted&nl != 0 {
			// The square last filled well before the capturing piece
			// was lifted: its events were something else (a touch, an
			// earlier move), and the capture itself was not seen.
			on, ok2 := r.lastOn(to)
			if lifted && ok2 && on+slideSlackMs < lift {
				cost += costMissedLift
			}
		}
		if nl == 0 && !m.IsCastling() && lifted && !rv.framed {
			// Its square filled only before the piece was lifted (more
			// than a slide shows first): that was another piece (a
			// Chess960 king set on c1 before the rook was lifted from a1
			// is castling, not Rc1), and this landing was not seen.
			if on, ok := r.lastOn(to); ok && on+slideSlackMs < lift {
				cost += costMisplacedOrder
			}
		}
		if nl != 0 && !m.IsCastling() && rv.lifted&nl != 0 && nl&earlier == 0 && i > 0 && prevDone >= 0 &&
			!rv.framed && !r.clock && r.sensor == trace.Occupancy {
			// Its victim's square, none of the moves before's, emptied
			// only sooner after the move before was done than any reply
			// begins: the mover's hand knocked that piece, and the
			// capture itself was not seen (a push-off elsewhere is as
			// likely).
			if off, ok := r.lastOff(nl.First()); ok && off < prevDone+minReplyMs {
				cost += costMissedLift + r.capturePrices(q, m.From(), lastTo).relative(r, q, m, lastTo)
			}
		}
		if nl != 0 && !m.IsCastling() && rv.lifted&nl == 0 {
			// Nothing shows which piece was taken: of the captures this
			// piece could have made, the one a player would have chosen
			// is the likelier.
			cost += r.capturePrices(q, m.From(), lastTo).relative(r, q, m, lastTo)
		}
		if !m.IsCastling() {
			way |= chess.Between(from, to)
			zone |= chess.Between(from, to) | chess.KingAttacks(from)&chess.KingAttacks(to)
		}
		if !m.IsCastling() && from == q.KingSquare(q.SideToMove()) && q.Castling()&castleRights(q.SideToMove()) != 0 {
			castleRooks |= r.sameCastling(q, m)
		} else if !m.IsCastling() && q.PieceAt(from).Type() == chess.Rook && q.Castling()&castleRights(q.SideToMove()) != 0 &&
			(r.sensor != trace.Occupancy || lifted && r.kingHeldAround(q, lift, to)) {
			// (On occupancy boards, where a touched square may be any
			// piece's, only when the king was lifted before the rook and
			// its square filled again after the rook's landing: one hand
			// holding the king through the whole rook move is castling,
			// a touch of the king that encloses a rook move would bind
			// the player to move the king, 4.3. Without that, seed 2 of
			// the stress grid had 12 more games behind.)
			castleRooks |= r.sameCastlingKing(q, m)
		}
		if m.IsPromotion() {
			cost += r.promoCostIn(m, q, moves[i+1:])
		}
		// Moves found together (re-synchronisation) should come in the order
		// their pieces were lifted, and be seen at all: a piece put on an
		// empty square, or taken off one, unseen needs a sensor to fail,
		// much rarer than a capture faster than a scan. A frame shows only
		// where pieces ended, so after one nothing was seen and nothing is
		// charged: a king stepped aside and back while the other side
		// moved twice is the game, not a piece knocked out of place.
		unseen := costUnseen
		if rv.framed {
			unseen = 0
		}
		if len(moves) > 1 && !rv.lifted.Has(from) && !(m.IsCastling() && from == m.CastlingKingTo() && rv.lifted.Has(to)) {
			// (A Chess960 castling whose king stays moves only the rook.)
			cost += unseen
		}
		if len(moves) > 1 && nl == 0 && !m.IsCastling() && (!rv.placed.Has(to) || r.placedOther(q, m) || r.filledBeforeLift(to, lift, lifted, moves[i+1:], rv)) {
			cost += unseen
			if lifted && !rv.placed.Has(to) && !rv.framed && !r.clock && r.sensor != trace.Occupancy && r.standsUnread(to, lift, moves[i+1:]) {
				cost += unseen
			}
		}
		if len(moves) > 1 && nl != 0 && !m.IsCastling() && r.sensor != trace.Occupancy && !rv.placed.Has(to) {
			// On colour and piece boards a capture shows where it lands:
			// the square changes colour, even swapped faster than a scan.
			cost += unseen
		}
		if t := lift; lifted {
			if i > 0 && prevOff >= 0 && t < prevOff {
				cost += costOrder
			}
			// A player does not start a move before the opponent's is
			// on the board, nor faster than a human reacts: that is a
			// knocked piece, not a reply.
			done := prevDone
			if prevQuick >= 0 && (!chess.KingAttacks(prevLand).Has(from) || nl == prevLand.Bitboard()) {
				// The move before, a capture next door swapped faster than
				// a scan, may have been pushed off at once: a reply from
				// away from its landing (as replyBegins's carried), or one
				// recapturing there, needs only the quickest carry before
				// it; a piece next to the landing lifted for anything else
				// may be the withdrawing hand's knock.
				done = prevQuick
			}
			early := prevDone >= 0 && t < done+minReplyMs && t != prevDone
			// short: by how much, when the move before's landing was
			// not seen and its time is only the carry assumed (-1: seen,
			// or the early start is seen).
			short := int64(-1)
			if early && prevEst {
				short = done + minReplyMs - t
			}
			if on, ok := r.firstOn(to); ok && i > 0 && nl == 0 && !m.IsCastling() && on < t && on+slideSlackMs >= t {
				// A slid piece shows on its square before it leaves its
				// own: the move began with that landing.
				if prevDone >= 0 && on < prevDone+minReplyMs {
					early, short = true, -1
				}
			}
			if prevDone >= 0 && prevOn >= 0 && nl == prevLand.Bitboard() {
				// A capture of the piece the move before put down, whose
				// square shows one landing: either that landing was the
				// move before's (prevOn) and this capture was not seen,
				// or this one's, and the lift seen on the square was this
				// move's first act (its victim taken off).
				start := t
				if off, ok := r.lastOff(to); ok {
					start = min(start, off)
				}
				// Under the first, the move before was done at its
				// piece's last landing before this lift (it may have
				// bounced); not one seen less than a quick carry before
				// this lift: that is this capture's own landing, a scan
				// reporting it before the lift (swapped faster than a
				// scan).
				done := prevOn
				if last, ok := r.lastOn(to); ok && last > done && last+minQuickCarryMs <= t {
					done = last
				}
				pd := prevDone
				if prevQuick >= 0 && t < prevOn {
					// The move before a push-off next door, the landing
					// after this piece was lifted: this one's, carried
					// (not slid) while the hand that pushed withdrew.
					pd = prevQuick
				}
				early = t < done+minReplyMs && start < pd+minReplyMs
				short = pd + minReplyMs - start
			}
			if on, ok := r.lastOn(land); ok && i > 0 && prevOff >= 0 && on < prevOff && !rv.framed &&
				r.sensor != trace.Occupancy && !laterTouch(moves[i+1:], land, rv) {
				// Down before the move it answers was begun: done before
				// it, not after (a knocked piece). (On occupancy boards
				// a square's last filling may be any piece's: there the
				// grid's worst cell fell from 75.8% to 70.2%.)
				cost += costOverlap
			}
			if early && !rv.framed && !r.clock && r.sensor != trace.Occupancy && i > 0 {
				// A reply lifted and set down before the piece of the
				// move it answers was first seen on its square is done
				// before it: the order is the other way round, or the
				// landing another (150... Rb6 151. Rc4, then the rook
				// slid b6-b5-b4, read as Rb5 Rc4 with b6 a touch). The
				// early start alone is priced below; this is more.
				// (Not on occupancy boards, whose fillings may be any
				// piece's. Nor when the two readings are near enough to
				// be one sweep's, whose order is the sweep's: 13...
				// Bc8-a6 read on a6 4 ms after 14. Qd1-h5 was read on h5,
				// a 250 ms sweep, and the game went dark.)
				if pf, ok := r.firstOn(prevLand); ok && t < pf && !r.knockedFirst(q, prevFrom, prevLand, pf) {
					if on, ok := r.lastOn(land); ok && on > t && on+r.sweepNearMs() < pf {
						cost += costOverlap
					}
				}
			}
			if early && !rv.framed {
				// (A frame's changes all carry its one time: they say
				// nothing of the order.)
				if short >= 0 && !r.clock && nl == prevLand.Bitboard() {
					// A recapture that only the carry assumed makes
					// early: a hand in a hurry carries a little faster,
					// so one a few ms inside the ordinary carry is no
					// knock, one a quick carry (100 ms) inside it is.
					// (Not another capture: a hand knocking the pawn next
					// to the landing 22 ms inside it looks like one.) On
					// an occupancy board, which reads the order as it
					// came, a recapture by a piece away from the landing,
					// lifted after it, is a hand that had it ready: no
					// more than a quick reply (Na5xb7 lifted 200 ms after
					// Bxb7 landed, the board then still 7 s: a5 was
					// alerted and the recapture never published).
					c := costOverlap * int(min(short, minQuickCarryMs)) / minQuickCarryMs
					if r.sensor == trace.Occupancy && t > prevDone && !chess.KingAttacks(prevLand).Has(from) {
						c = min(c, costQuickReply)
					}
					cost += c
				} else if short < 0 && t >= prevDone+minReadyReplyMs && !chess.KingAttacks(prevLand).Has(from) &&
					(r.sensor != trace.Occupancy || m.IsCastling() && rv.placed&landings(m) == landings(m)) {
					// Lifted after the move before was seen down and away
					// from where it landed: the mover's releasing hand
					// knocks the pieces next to its landing, and a player
					// who had the reply ready (a king out of check) may
					// begin it this soon, though not before seeing the
					// piece down (a visual reaction takes about 150 ms
					// at the quickest). (On occupancy boards only a
					// castling with both its pieces seen set down, which no
					// knocking hand leaves: elsewhere such a lift may be an
					// unseen capture's victim, and there the stress grid
					// lost 6 games and gained 36 false alerts; a quiet move
					// seen set down, 25 false alerts: a knocked pawn looks
					// like its move.)
					cost += costQuickReply
				} else if short < 0 && i > 0 && (t < prevDone || r.sensor == trace.Occupancy) && prevDone-t <= r.overlapMs() && !handNear(moves[i-1]).Has(from) && (r.filledAfter(land, t) || nl == to.Bitboard() && rv.lifted&nl == 0) && !r.clock {
					// Lifted at most a quick carry before the move before
					// was down (or, on an occupancy board, which reads the
					// order as it came, as it was: Kg5's king lifted 11 ms
					// after Ke2 was down), away from where that move's
					// hand went, its own landing filled after: no knock of
					// that hand, the other player's reply begun as the
					// piece was let go (Kg2 down 73 ms after a6 was lifted
					// for a5: Kg2 was published, a5 and a6 alerted); or
					// its victim pushed off, never seen lifted (Kxa2 down
					// 74 ms after d7 was lifted for ...Rxd1: d7 was
					// alerted). (Sooner, the order of two moves of a
					// transposition was taken the wrong way round.)
					cost += costQuickReply
				} else {
					cost += costOverlap
				}
			}
			prevOff = t
		}
		prevDone, prevOn, prevLand, prevFrom = -1, -1, land, from
		prevQuick, prevEst = -1, false
		later := laterTouch(moves[i+1:], land, rv)
		// (Readings there only of other pieces are none of this move's
		// landing: 1. e3 taken at once by dxe3, e3 read only as the
		// black pawn, was timed by that reading, the capture seemed
		// begun too early, and 1. e4 dxe3 e.p. was published.)
		// (A promotion's square may be read with the pawn first.)
		other := !m.IsCastling() && !m.IsPromotion() && r.placedOther(q, m)
		if t := r.restedOn(land, later, moves[i+1:], rv); t >= 0 && !other {
			prevDone = t
		} else if t, ok := r.firstOn(land); ok && !later && !other {
			prevDone = t
		} else if ok && later && r.sensor == trace.Occupancy && (nl == 0 || r.emptiedBefore(land, lift)) && !m.IsCastling() && lifted && t > lift && i+1 < len(moves) && moves[i+1].To() == land &&
			r.emptiedAfter(land, t) {
			// A move's square, empty before it (a quiet move, or a
			// capture whose victim was taken off before its piece was
			// lifted), first filled after its lift, and the next move
			// captures there: that filling was its landing, the
			// capture's own changes come after it (Rh5 down 87 ms before
			// h3 was lifted for Rxh5, on a 10 ms scan: not a carry
			// assumed from f5's lift, which made the recapture look
			// begun before Rh5 was down, and Rxf4 with the pawn pushed
			// off unseen was published; 6. Bxf6, victim first, and
			// ...Bxf6 222 ms after it on a 20 ms scan were alerted as
			// two bishops knocked off). Only when the capture's victim
			// is seen taken off after it: a recapture pushing it off
			// unseen may have begun before it was down. (Not a capture
			// whose victim left after its piece's lift: on the corpus
			// that lost a game and added 11 false alerts.)
			prevDone, prevOn = t, t
		} else if t := lift; lifted {
			// Not seen landing (a capture faster than a scan): the hand
			// still had to carry the piece there.
			prevDone, prevEst = t+minCarryMs, true
			if !r.clock && chess.KingAttacks(from).Has(land) {
				// Next door, a hand in a hurry is quicker (a push-off).
				prevQuick = t + minQuickCarryMs
			}
			if on, ok := r.firstOn(land); ok && on > t && !other {
				prevOn = on
			}
		}
		lastTo = to
		if i+1 < len(moves) {
			if q == p {
				after = *p
				q = &after
			}
			q.MakeMove(m)
		}
	}
	if !rv.framed {
		// (A frame shows only where pieces ended, never their lifts.)
		cost += costMissedLift * (need &^ rv.lifted).Count()
	}
	stray := rv.touched() &^ expl
	cost += costStrayNear*(stray&zone).Count() + costStrayFar*(stray&^zone).Count()
	cost += r.stoodCost(p, stray, movers, rv)
	if r.sensor == trace.Occupancy {
		// (Not a square on a move's way: a capture sliding there.)
		cost += costMisplacedN * r.wentNextDoor(need&rv.lifted&^backFirst, stray&rv.lifted&rv.placed&^p.Occupied()&^way)
	}
	if len(moves) > 0 && stray&rv.lifted&rv.placed != 0 {
		// An opponent's piece the first move's piece could have taken,
		// lifted and a piece put back on its square: what a capture there
		// looks like, not a touch.
		m := moves[0]
		own := p.ByColor(p.SideToMove())
		shaped := stray & rv.lifted & rv.placed & p.Occupied() &^ own & r.v.occ & attacksFrom(p, m.From())
		for b := shaped; b != 0; b &= b - 1 {
			sq := b.First()
			if off, ok := r.firstOff(sq); ok {
				if on, ok := r.lastOn(sq); ok && on > off {
					cost += costCaptureTouch
				}
			}
		}
	}
	if stray&rv.lifted&rv.placed&castleRooks != 0 {
		// A king move that leaves its castling rook lifted and set back
		// while a castling fills and empties the same squares: what the
		// castling looks like (a Chess960 king stepping onto the rook's
		// square as the rook goes next to it), not a touch. The same for
		// a rook move that leaves its castling king lifted and set back
		// (Rc1 from a1 with the king on d1 touched is O-O-O, the king
		// going to c1 and the rook to d1: on a colour board the game was
		// 34 plies behind, seed 39; colour and piece boards only).
		cost += costCaptureTouch
	}
	if len(moves) > 0 && stray&rv.lifted&rv.placed&(p.Pieces(chess.White, chess.King)|p.Pieces(chess.Black, chess.King)) != 0 {
		cost += r.castlingTouch(q, moves[len(moves)-1], stray&rv.lifted&rv.placed)
	}
	// Only a last move can be a piece still in the air.
	return cost, lastNeed&^rv.lifted != 0
}

// wentNextDoor counts the squares of victims (game squares of captures'
// victims seen lifted) whose piece the board shows fallen onto an empty
// square next door and put back: that square filled less than knockMs
// after the victim's square emptied, and emptied again before the
// victim's square filled last. A hand knocked it there; no capture took
// it (28... Qxe5 pushing the rook off unseen, its hand knocking d4 onto
// e3 and putting it back, read as Qxd4, then alerted three times). nb:
// the squares filled and emptied that no move of the reading explains.
func (r *Reconstructor) wentNextDoor(victims, nb chess.Bitboard) int {
	n := 0
	for v := victims; v != 0; v &= v - 1 {
		sq := v.First()
		off, ok1 := r.firstOff(sq)
		on, ok2 := r.lastOn(sq)
		if !ok1 || !ok2 || on < off {
			continue
		}
		for b := nb & chess.KingAttacks(sq); b != 0; b &= b - 1 {
			s := b.First()
			fill, ok3 := r.firstOn(s)
			gone, ok4 := r.lastOff(s)
			if ok3 && ok4 && fill > off && fill-off < knockMs && gone > fill && gone < on {
				n++
				break
			}
		}
	}
	return n
}

// standsUnread reports whether a piece set on to, never read there, would
// have stood there longer than two sweeps: lifted at lift, and the later
// move of rest that leaves to read landed only that much later (Qb7-f7,
// f7 never read by a 250 ms sweep, then ...Qe5 and Qf7-f8 read on f8
// 1 s after b7 emptied: the queen had stood on e7, knocked onto f8).
func (r *Reconstructor) standsUnread(to chess.Square, lift int64, rest []chess.Move) bool {
	for _, m := range rest {
		if m.From() != to || m.IsCastling() {
			continue
		}
		on, ok := r.firstOn(m.Landing())
		return ok && on-lift > 2*r.sweepMs()+minCarryMs
	}
	return false
}

// knockedFirst reports whether the piece first seen on game square land
// at pf (moved from from, standing there in q) was seen on a square next
// door before, which emptied as land filled: a hand knocked it off its
// landing before the sweep read it there, and put it back (c2-c4,
// knocked onto b5 by ...Bc6-e4's hand and put back: the reply was made
// before c4 was read, and no sooner than the pawn got there). On piece
// boards the same piece, on colour boards the same colour.
func (r *Reconstructor) knockedFirst(q *chess.Position, from, land chess.Square, pf int64) bool {
	rc := &r.rec
	raw := unrotSquare(land, r.orient)
	// Not a square the piece could have gone to from where it stood: it
	// may have gone there first and on to land (Rb4-b6, then b6-b5: a
	// move and a slide, or two moves).
	pc := q.PieceAt(land)
	reach := chess.Attacks(pc.Type(), pc.Color(), from, q.Occupied()&^land.Bitboard()) | from.Bitboard()
	if pc.Type() == chess.Pawn {
		reach |= chess.Between(from, land) | chess.FileA<<uint(from.File())
	}
	for b := chess.KingAttacks(land) &^ reach; b != 0; b &= b - 1 {
		n := b.First()
		on, ok1 := r.firstOn(n)
		off, ok2 := r.lastOff(n)
		if !ok1 || !ok2 || on >= pf || off < on || off+r.sweepMs() < pf {
			continue
		}
		nr := unrotSquare(n, r.orient)
		if r.sensor == trace.PieceSensor && rc.placedPieces[nr]&rc.placedPieces[raw] != 0 ||
			r.sensor == trace.Colour && (rc.placedWhite.Has(nr) && rc.placedWhite.Has(raw) || rc.placedBlack.Has(nr) && rc.placedBlack.Has(raw)) {
			return true
		}
	}
	return false
}

// restedOn is when a move's piece came to rest on land, its square, where
// the record shows more than its first filling (-1: that filling, or
// unknown). Without a clock on colour and piece boards: a first filling
// gone again sooner than a reply begins was the moving hand carrying or
// sliding the piece on across its square (no other hand knocks it that
// soon), and it came to rest at the last filling (a rook slid h1-e1
// across f1, standing on e1 a second before it went to f1 as the reply
// was made, was not done when it first showed on f1). When a later move of the
// sequence only leaves land (later: one touches it), its lift there is
// the last, and the move was done at a filling before it (the rook's on
// f1 for Rhf1 before Rfe1, not the carry assumed from its lift).
func (r *Reconstructor) restedOn(land chess.Square, later bool, rest []chess.Move, rv *recView) int64 {
	if r.clock || r.sensor == trace.Occupancy || rv.framed {
		return -1
	}
	on, ok := r.firstOn(land)
	if !ok {
		return -1
	}
	gone := int64(-1)
	if later {
		if gone, _ = r.lastOff(land); on > gone || !leftLater(rest, land) {
			return -1
		}
	}
	if off, ok := r.firstOff(land); ok && off > on && off < on+minReplyMs {
		if last, _ := r.lastOn(land); last > off && (!later || last < gone) {
			return last
		}
	}
	if later {
		return on
	}
	return -1
}

// leftLater reports whether the later moves that touch s only leave it
// (lift the piece standing there): none lands on it.
func leftLater(moves []chess.Move, s chess.Square) bool {
	for _, m := range moves {
		if m.To() == s || m.IsCastling() && (m.CastlingKingTo() == s || m.CastlingRookTo() == s) || m.IsEnPassant() && m.To()^8 == s {
			return false
		}
	}
	return true
}

// setDownOnWay prices the squares move m from q crosses that were seen
// filled after its piece was lifted (at lift), a touch-down or more
// before it landed, and not emptied again until a sweep after the
// landing, or standing there standMs or longer while the reply was made
// (repliedDuring): a piece set down there (that never left, or a
// landing, Re5-c5 standing 871 ms while the reply was made, then Rc5-a5:
// not Re5-b5 paused on c5), not the moving one
// touching down on its way (e6 with its hand knocking the d6 pawn onto e5
// is no e5 with the pawn knocked onto e6, unseen as it fell just as the
// moving pawn left e6). A slid piece's first square, filled before its
// own square emptied (crossedFilled), and a square filled less than a
// touch-down before the landing (the slide seen crossing it) are the
// slide's: a knocked piece may fall there unseen (Rbg1 slid over f1, its
// hand knocking the g2 rook onto f1).
func (r *Reconstructor) setDownOnWay(q *chess.Position, m chess.Move, lift int64) int {
	path := chess.Between(m.From(), m.Landing()) &^ q.Occupied()
	if path == 0 {
		return 0
	}
	land, ok := r.firstOn(m.Landing())
	if !ok {
		return 0
	}
	cost := 0
	mover := q.PieceAt(m.From())
	for b := path; b != 0; b &= b - 1 {
		y := b.First()
		on, ok1 := r.firstOn(y)
		if !ok1 || on <= lift || on+minTouchMs > land {
			continue
		}
		if pc := r.v.pieceAt(y); pc != chess.NoPiece && pc != mover || r.fellFrom(y, on, m.From()) {
			// (A piece board reads another piece standing there, or it
			// filled sooner after a square next to it emptied than a
			// hand carries a piece: one the hand knocked onto the path,
			// not the moving one set down. 3. Bc4 knocking d2 onto d3,
			// 20 ms apart, was read as d3 or Bd3 with a piece out of
			// place.)
			continue
		}
		if off, ok2 := r.firstOff(y); ok2 && off <= land+r.sweepMs() && (off-on < standMs || !r.repliedDuring(q, on, off)) {
			continue
		}
		cost += costUnseen
	}
	return cost
}

// fellFrom reports whether a square next to y other than from was read
// emptied less than minQuickCarryMs before y was read filled at on: a
// piece fell from there.
func (r *Reconstructor) fellFrom(y chess.Square, on int64, from chess.Square) bool {
	for b := chess.KingAttacks(y) &^ from.Bitboard(); b != 0; b &= b - 1 {
		if off, ok := r.lastOff(b.First()); ok && off <= on && on-off < minQuickCarryMs {
			return true
		}
	}
	return false
}

// repliedDuring reports whether, between on and off, a piece of the
// player to reply in q (the position the move is made from, so its
// opponent) was read lifted and a square read filled after that, a
// sweep's neighbours before off: the reply made while the moving piece
// stood. (A hand may hold its piece still on the way longer than
// standMs; the opponent does not move meanwhile: Bg4-c8 paused 608 ms
// on d7, Ra8-d8 709 ms on c8.)
func (r *Reconstructor) repliedDuring(q *chess.Position, on, off int64) bool {
	opp := q.ByColor(q.SideToMove().Other())
	for b := rotBB(r.rec.lifted, r.orient) & opp; b != 0; b &= b - 1 {
		a := b.First()
		up, ok := r.lastOff(a)
		if !ok || up <= on || up >= off {
			continue
		}
		for c := rotBB(r.rec.placed, r.orient); c != 0; c &= c - 1 {
			if down, ok := r.lastOn(c.First()); ok && down > up && down+r.sweepNearMs() < off {
				return true
			}
		}
	}
	return false
}

// stoodCost prices the squares of stray (touched squares an explanation
// from p leaves unexplained) that are empty in p and on the board, where
// the sensors saw a piece set down that stood there standMs or more before
// it was lifted again: on colour and piece boards, when it was (by colour,
// or on piece boards by piece) a piece the explanation moves (movers, a
// bit per chess.Piece) or one that could move there from where it stands
// in the published position. That is a move there and one away, not a touch: a king seen
// standing on e2 for a second between f3 and f2 went there. (A knocked
// piece lands where it cannot move, or is not the one that moved, or was
// pushed there from next door: pushedOnto.)
func (r *Reconstructor) stoodCost(p *chess.Position, stray chess.Bitboard, movers uint16, rv *recView) int {
	cand := stray & r.stoodSquares(rv) &^ p.Occupied()
	if cand == 0 {
		return 0
	}
	rc := &r.rec
	cost := 0
	// Whether a piece could have moved there is asked of the published
	// position, the same for every hypothesis: else the price would
	// choose between histories the square says nothing about.
	pub := &r.lines[0].pos
	for b := cand; b != 0; b &= b - 1 {
		s := b.First()
		raw := unrotSquare(s, r.orient)
		rb := raw.Bitboard()
		var c chess.Color
		switch {
		case rc.placedWhite&rb != 0 && rc.placedBlack&rb == 0:
			c = chess.White
		case rc.placedBlack&rb != 0 && rc.placedWhite&rb == 0:
			c = chess.Black
		default:
			continue
		}
		ps := rc.placedPieces[raw]
		could := false
		if ps == 0 {
			// A colour board: a piece of that colour.
			could = pub.AttackersTo(s, c) != 0
			for pc := chess.NewPiece(c, chess.Pawn); !could && pc <= chess.NewPiece(c, chess.King); pc++ {
				could = movers&(1<<pc) != 0
			}
		} else if ps&(ps-1) == 0 {
			for pc := chess.NewPiece(c, chess.Pawn); !could && pc <= chess.NewPiece(c, chess.King); pc++ {
				could = ps&(1<<pc) != 0 && (movers&(1<<pc) != 0 || pub.AttackersTo(s, c)&pub.Pieces(c, pc.Type()) != 0)
			}
		}
		if could {
			cost += costStood
		}
	}
	return cost
}

// stoodSquares is the squares empty on the board where the sensors saw a
// piece set down, and told its colour, that stood there standMs or more
// before it was lifted again (colour and piece boards without a clock;
// with one the presses say which moves were made: there a game of the
// stress grid took a Chess960 castling for a rook move on a colour board).
func (r *Reconstructor) stoodSquares(rv *recView) chess.Bitboard {
	b := rv.lifted & rv.placed &^ r.v.occ
	if b == 0 || r.clock || r.sensor == trace.Occupancy || rv.framed {
		return 0
	}
	// Seen filled since the published game last changed: the landing of
	// a published move (counted as seen when it is changed or taken
	// back) stood there as that move, whatever replaces it.
	if b &= rotBB(r.rec.placed, r.orient); b == 0 {
		return 0
	}
	var st chess.Bitboard
	rc := &r.rec
	for ; b != 0; b &= b - 1 {
		s := b.First()
		raw := unrotSquare(s, r.orient)
		if (rc.lastOff[raw] >= rc.lastOn[raw]+standMs || r.stoodThroughReply(raw)) && rc.placedBlind&raw.Bitboard() == 0 && !r.pushedOnto(raw) {
			st |= s.Bitboard()
		}
	}
	return st
}

// stoodThroughReply reports whether the piece last set down on raw square
// s, of one colour, stood there minReadyReplyMs or more while a square
// last filled by the other colour changed: the other side moved while it
// stood, so it had landed (Ra6-a1 paused on a3 and stood on a1 while
// Kh7 was made, read as Ra3 with a1 a touch).
func (r *Reconstructor) stoodThroughReply(s chess.Square) bool {
	rc := &r.rec
	on, off := rc.lastOn[s], rc.lastOff[s]
	if off < on+minReadyReplyMs {
		return false
	}
	b := s.Bitboard()
	other := rc.placedBlack
	switch {
	case rc.placedWhite&b != 0 && rc.placedBlack&b == 0:
	case rc.placedBlack&b != 0 && rc.placedWhite&b == 0:
		other = rc.placedWhite
	default:
		return false
	}
	for o := other &^ b; o != 0; o &= o - 1 {
		x := o.First()
		if t := rc.lastOn[x]; t > on && t < off {
			return true
		}
	}
	return false
}

// pushedOnto reports whether raw square s was last filled by a piece
// pushed from the square next to it: that square emptied within a sweep's
// reading of neighbours after s filled (a knocked piece slides over; a
// piece put down by a hand was carried, its own square emptied first).
func (r *Reconstructor) pushedOnto(s chess.Square) bool {
	rc := &r.rec
	on := rc.lastOn[s]
	for b := chess.KingAttacks(s) & rc.lifted; b != 0; b &= b - 1 {
		n := b.First()
		if off := rc.lastOff[n]; off >= on && off <= on+r.sweepNearMs() && !r.slidThrough(n, on) {
			return true
		}
	}
	return false
}

// slidThrough reports whether raw square n, emptied as the square next to
// it filled at on, had been filled from empty sooner than a reply begins
// before: a piece slid across n and on by its own hand, not one standing
// on n that a hand pushed over (no other hand reaches it that soon).
func (r *Reconstructor) slidThrough(n chess.Square, on int64) bool {
	rc := &r.rec
	if rc.placed&n.Bitboard() == 0 || rc.firstOn[n] > on || rc.firstOn[n]+minReplyMs <= on {
		return false
	}
	// Empty when the record began: its first event was a filling.
	return rc.lifted&n.Bitboard() == 0 || rc.firstOff[n] > rc.firstOn[n]
}

// castlingTouch prices touched squares, each lifted and filled again,
// that hold the king and rook of a Chess960 castling which changes no
// square, legal for the player to move after last (made from q): that is
// what the castling looks like (king and rook trading squares), not
// touches (castlingPair adds the sequence that makes it).
func (r *Reconstructor) castlingTouch(q *chess.Position, last chess.Move, again chess.Bitboard) int {
	if !again.More() {
		return 0
	}
	end := *q
	end.MakeMove(last)
	if end.Castling()&castleRights(end.SideToMove()) == 0 || !again.Has(end.KingSquare(end.SideToMove())) {
		return 0
	}
	// (Not r.legal: its cache backs the move lists callers iterate over.)
	var ml chess.MoveList
	end.GenerateLegal(&ml)
	occ := end.Occupied()
	for _, m := range ml.Moves() {
		if m.IsCastling() && again.Has(m.From()) && again.Has(m.To()) && end.OccupancyAfter(m) == occ {
			return costCaptureTouch
		}
	}
	return 0
}

// sameCastlingKing returns the king squares of the legal castlings in q
// with rook move m's rook whose squares filled and emptied are m's (a
// Chess960 king on d1 castling long to c1, its rook from a1 to d1, looks
// like Rc1 on occupancy and colour boards).
func (r *Reconstructor) sameCastlingKing(q *chess.Position, m chess.Move) chess.Bitboard {
	// Only when the king stands, and the rook lands, where a castling
	// puts one of them (files c, d, f and g, on the king's rank): its
	// square then stays filled.
	k, to := q.KingSquare(q.SideToMove()), m.To()
	if k.Rank() != to.Rank() || k.Rank() != m.From().Rank() || !castleFile(k.File()) || !castleFile(to.File()) {
		return 0
	}
	return castlingsLike(q, m, false)
}

// emptiedBefore reports whether game square s was seen emptied before t.
func (r *Reconstructor) emptiedBefore(s chess.Square, t int64) bool {
	off, ok := r.firstOff(s)
	return ok && off < t
}

// emptiedAfter reports whether game square s was last seen emptied
// after t.
func (r *Reconstructor) emptiedAfter(s chess.Square, t int64) bool {
	off, ok := r.lastOff(s)
	return ok && off > t
}

// kingHeldAround reports whether the king of the player to move in q was
// lifted before lift, a rook's, and its square filled again only after
// the rook's landing on to was seen.
func (r *Reconstructor) kingHeldAround(q *chess.Position, lift int64, to chess.Square) bool {
	k := q.KingSquare(q.SideToMove())
	off, ok1 := r.firstOff(k)
	back, ok2 := r.lastOn(k)
	land, ok3 := r.firstOn(to)
	return ok1 && ok2 && ok3 && off < lift && back > land
}

// castleFile reports whether a castling sets a king or rook down on file
// f (c, d, f, g).
func castleFile(f int) bool { return f == 2 || f == 3 || f == 5 || f == 6 }

// landings are the squares move m sets its pieces down on.
func landings(m chess.Move) chess.Bitboard {
	if m.IsCastling() {
		return m.CastlingKingTo().Bitboard() | m.CastlingRookTo().Bitboard()
	}
	return m.To().Bitboard()
}

// sameCastling returns the rook squares of the legal castlings in q whose
// squares filled and emptied are king move m's (an occupancy board cannot
// tell them apart: a Chess960 king on e1 castling long to c1, its rook
// from c1 to d1, looks like Kd1).
func (r *Reconstructor) sameCastling(q *chess.Position, m chess.Move) chess.Bitboard {
	return castlingsLike(q, m, true)
}

// castlingsLike returns, of the legal castlings in q that fill and empty
// the squares m does, the rook squares of those whose king m moves
// (kingMove), else the king squares of those whose rook m moves.
func castlingsLike(q *chess.Position, m chess.Move, kingMove bool) chess.Bitboard {
	// (Not r.legal: its cache backs the move lists callers iterate over.)
	var ml chess.MoveList
	q.GenerateLegal(&ml)
	occ := q.OccupancyAfter(m)
	var b chess.Bitboard
	for _, c := range ml.Moves() {
		if !c.IsCastling() || q.OccupancyAfter(c) != occ {
			continue
		}
		if kingMove && c.From() == m.From() {
			b |= c.To().Bitboard()
		} else if !kingMove && c.To() == m.From() {
			b |= c.From().Bitboard()
		}
	}
	return b
}

// filledBeforeLift reports whether square to, where a quiet move whose
// piece was last lifted at lift lands, was last seen filled before that
// lift (more than a slide's slack before it) and no later move of the
// sequence touches it: that filling was another piece's, and this move's
// landing was not seen.
func (r *Reconstructor) filledBeforeLift(to chess.Square, lift int64, lifted bool, later []chess.Move, rv *recView) bool {
	if !lifted || rv.framed {
		return false
	}
	on, ok := r.lastOn(to)
	return ok && on+slideSlackMs < lift && !laterTouch(later, to, rv)
}

// placedOther reports whether the square quiet move m of p lands on was
// seen filled only by pieces the sensor told apart from m's (another
// colour, or on a piece board another piece): its landing was not seen,
// another piece was (a knocked one).
func (r *Reconstructor) placedOther(p *chess.Position, m chess.Move) bool {
	pc := p.PieceAt(m.From())
	if m.IsPromotion() {
		pc = chess.NewPiece(pc.Color(), m.Promotion())
	}
	return r.rec.placedOther(unrotSquare(m.To(), r.orient), pc)
}

// refilled reports when game square s, emptied at first, was first
// filled again since (on) and last emptied after that (off).
func (r *Reconstructor) refilled(s chess.Square, first int64) (on, off int64, ok bool) {
	on, ok1 := r.firstOn(s)
	off, ok2 := r.lastOff(s)
	return on, off, ok1 && ok2 && first <= on && on <= off
}

// knockedThere reports whether game square s, emptied at first, was
// filled since by a piece knocked there from a neighbouring square (its
// first emptying less than knockMs before) and emptied again to put that
// piece back (the neighbour's first filling less than knockMs after):
// the lifts of s after first were that piece's.
func (r *Reconstructor) knockedThere(s chess.Square, first int64) bool {
	on, off, ok := r.refilled(s, first)
	if !ok {
		return false
	}
	for b := chess.KingAttacks(s); b != 0; b &= b - 1 {
		n := b.First()
		gone, ok3 := r.firstOff(n)
		back, ok4 := r.firstOn(n)
		if ok3 && ok4 && gone <= on && on-gone < knockMs && off <= back && back-off < knockMs {
			return true
		}
	}
	return false
}

// touchedDown reports whether game square s, filled again after first
// and emptied since, was a touch-down of m, the last move of a sequence:
// its piece lifted before s filled and set down on its landing after s
// emptied, s resting less than a stand and next to where the piece came
// from or passed before its landing (not beyond it: a queen slid on
// through s onto that landing is another move). (Of a move inside the
// sequence, the lifts and landings its reading takes may be knocks and
// slides of others: 31... Qh4 32. Qxa6 Qxe4 with knocks on h5 and e5,
// and a queen slid through f4, read as 31... Qf5 32. exf5 e4, then a
// false alert and five more.)
func (r *Reconstructor) touchedDown(m chess.Move, s chess.Square, first int64) bool {
	on, off, ok := r.refilled(s, first)
	if !ok || off-on >= standMs || m.IsCastling() {
		return false
	}
	lift, ok3 := r.lastOff(m.From())
	land, ok4 := r.lastOn(m.To())
	if !ok3 || !ok4 || on < lift || land < off {
		return false
	}
	way := chess.KingAttacks(m.From())
	for b := chess.Between(m.From(), m.To()); b != 0; b &= b - 1 {
		way |= chess.KingAttacks(b.First())
	}
	return way.Has(s)
}

// crossedLater reports whether a later move of a sequence leaves events on
// s: it starts or lands there (laterTouch), or slides across it.
func crossedLater(moves []chess.Move, s chess.Square, rv *recView) bool {
	for _, m := range moves {
		if !m.IsCastling() && chess.Between(m.From(), m.To()).Has(s) {
			return true
		}
	}
	return laterTouch(moves, s, rv)
}

// laterTouch reports whether any of moves involves s in a way that leaves
// events on it, so that the record of s cannot be told apart between
// them. A later capture on s that was never seen lifted leaves none.
func laterTouch(moves []chess.Move, s chess.Square, rv *recView) bool {
	for _, m := range moves {
		if m.From() == s || m.To() == s && rv.lifted.Has(s) ||
			m.IsCastling() && (m.To() == s || m.CastlingKingTo() == s || m.CastlingRookTo() == s) ||
			m.IsEnPassant() && m.To()^8 == s {
			return true
		}
	}
	return false
}

// see is the static exchange evaluation of capture m in p, in pawns: the
// material the mover gains when both sides keep capturing on the target
// square with their least valuable piece, as long as it pays.
func see(p *chess.Position, m chess.Move) int {
	from, to := m.From(), m.To()
	occ := p.Occupied() &^ from.Bitboard()
	var gain [34]int
	gain[0] = pieceValue[p.PieceAt(to).Type()]
	last := pieceValue[p.PieceAt(from).Type()]
	side := p.SideToMove().Other()
	d := 0
	for d < len(gain)-1 {
		sq, v, ok := leastAttacker(p, to, side, occ)
		if !ok {
			break
		}
		d++
		gain[d] = last - gain[d-1]
		occ &^= sq.Bitboard()
		last = v
		side = side.Other()
	}
	for ; d > 0; d-- {
		gain[d-1] = -max(-gain[d-1], gain[d])
	}
	return gain[0]
}

// capturePrior prices capture m in p as a player's choice: a recapture
// (on lastTo), a valuable victim, a check or a mate are likelier; a
// capture that loses the exchange on its square or leaves material for
// the reply to take is less likely.
func (r *Reconstructor) capturePrior(p *chess.Position, m chess.Move, lastTo chess.Square) int {
	c := 0
	if m.To() == lastTo {
		c -= costRecapture
	}
	// What the exchange on that square wins (in pawns) is what a player
	// would have gone for.
	c -= max(-9, min(9, see(p, m))) * costExchange
	if p.PieceAt(m.To()).Type() == chess.King {
		return c // (a hypothesis gone wrong: no position to look at after it)
	}
	after := *p
	after.MakeMove(m)
	// Captures that check, and above all mate, are what attacks end with.
	if after.InCheck() {
		c -= costCheckingCapture
		var ml chess.MoveList
		if after.GenerateLegal(&ml); ml.Len() == 0 {
			c -= costMatingCapture
		}
	}
	// Nor would a player leave material for the reply to take.
	return c + hanging(&after)*costExchange
}

// capturePrices holds the capturePrior of every capture one piece can
// make in a position, and the lowest: the same board is explained again
// at every settle, press and timer, so the last few are kept.
type capturePrices struct {
	key          uint64
	from, lastTo chess.Square
	n            int
	moves        [28]chess.Move
	price        [28]int
	best         int
}

// relative is the price of capture m relative to the likeliest capture
// of its piece: a capture nobody saw costs what a missed lift costs,
// whichever piece it took, and the prior only ranks the alternatives.
func (cp *capturePrices) relative(r *Reconstructor, p *chess.Position, m chess.Move, lastTo chess.Square) int {
	for i, a := range cp.moves[:cp.n] {
		if a == m {
			return cp.price[i] - cp.best
		}
	}
	return max(0, r.capturePrior(p, m, lastTo)-cp.best) // (an under-promotion)
}

// capturePrices returns the prices of the captures the piece on from can
// make in p.
func (r *Reconstructor) capturePrices(p *chess.Position, from, lastTo chess.Square) *capturePrices {
	key := p.Key()
	for i := range r.prices {
		if c := &r.prices[i]; c.key == key && c.from == from && c.lastTo == lastTo && key != 0 {
			return c
		}
	}
	c := &r.prices[r.pnext]
	r.pnext = (r.pnext + 1) % len(r.prices)
	*c = capturePrices{key: key, from: from, lastTo: lastTo}
	// (Not from the move cache: a caller may be going through a list
	// there.)
	var ml chess.MoveList
	p.GenerateCaptures(&ml)
	for _, a := range ml.Moves() {
		if a.From() != from || a.IsCastling() || a.IsEnPassant() || p.PieceAt(a.To()) == chess.NoPiece ||
			a.IsPromotion() && a.Promotion() != chess.Queen || c.n == len(c.moves) {
			continue
		}
		c.moves[c.n], c.price[c.n] = a, r.capturePrior(p, a, lastTo)
		if c.n == 0 || c.price[c.n] < c.best {
			c.best = c.price[c.n]
		}
		c.n++
	}
	return c
}

// hanging is what the side to move in p wins, in pawns (at most 9), by
// its best legal capture, as the static exchange counts it. A position no
// legal game reaches (kings side by side, the side not to move in check:
// a hypothesis gone wrong) counts nothing.
func hanging(p *chess.Position) int {
	side := p.SideToMove()
	wk, bk := p.Pieces(chess.White, chess.King), p.Pieces(chess.Black, chess.King)
	if wk.Count() != 1 || bk.Count() != 1 || chess.KingAttacks(wk.First())&bk != 0 ||
		p.Attacked(p.KingSquare(side.Other()), side) {
		return 0
	}
	var ml chess.MoveList
	p.GenerateCaptures(&ml)
	best := 0
	for _, m := range ml.Moves() {
		if !m.IsCastling() && p.PieceAt(m.To()) != chess.NoPiece {
			best = max(best, see(p, m))
		}
	}
	return min(best, 9)
}

// leastAttacker finds side's least valuable piece attacking s through occ.
// The sliders' attacks are looked up only when no cheaper piece attacks.
func leastAttacker(p *chess.Position, s chess.Square, side chess.Color, occ chess.Bitboard) (chess.Square, int, bool) {
	own := p.ByColor(side) & occ
	if b := chess.PawnAttacks(side.Other(), s) & own & p.ByType(chess.Pawn); b != 0 {
		return b.First(), pieceValue[chess.Pawn], true
	}
	if b := chess.KnightAttacks(s) & own & p.ByType(chess.Knight); b != 0 {
		return b.First(), pieceValue[chess.Knight], true
	}
	diag := chess.BishopAttacks(s, occ)
	if b := diag & own & p.ByType(chess.Bishop); b != 0 {
		return b.First(), pieceValue[chess.Bishop], true
	}
	orth := chess.RookAttacks(s, occ)
	if b := orth & own & p.ByType(chess.Rook); b != 0 {
		return b.First(), pieceValue[chess.Rook], true
	}
	if b := (diag | orth) & own & p.ByType(chess.Queen); b != 0 {
		return b.First(), pieceValue[chess.Queen], true
	}
	if b := chess.KingAttacks(s) & own & p.ByType(chess.King); b != 0 {
		return b.First(), 100, true
	}
	return chess.NoSquare, 0, false
}

var pieceValue = [8]int{chess.Pawn: 1, chess.Knight: 3, chess.Bishop: 3, chess.Rook: 5, chess.Queen: 9, chess.King: 0}

// nullCost prices the board as a hypothesis's position with no move: every
// touched square is a touch that nothing explains.
func (r *Reconstructor) nullCost(p *chess.Position, rv *recView) int {
	c := costStrayFar*rv.touched().Count() + r.stoodCost(p, rv.touched(), 0, rv)
	// A square out of place since an alert that the hands filled and
	// emptied again: the piece put back and taken off again, which is
	// what a move from that square looks like, not a touch.
	again := r.overlay & rv.lifted & rv.placed &^ r.v.occ
	return c + costMisplaced*again.Count()
}

// explain lists in r.cands every exact explanation of the board view:
// each hypothesis line unchanged or one move further; with allowBack also
// the last one or two published moves taken back, or the last one changed;
// with allowResync, if nothing closer fits, up to maxResync moves. It
// returns the index of the cheapest, -1 if none.
func (r *Reconstructor) explain(allowBack, allowResync bool) int {
	// The same still board with the same hypotheses explains the same way
	// (a settle, then the press): reuse the answer.
	// An answer found without re-synchronising serves a question that
	// allows it too: the search runs only when nothing closer fits (or
	// only a takeback does).
	key := explainKey{t: r.lastChange, ver: r.ver, orient: r.orient, back: allowBack, promo: r.promo, deep: r.fastResync(),
		edit: r.viewEdit}
	if r.explained && key == r.explKey && (r.explResync || !allowResync || r.explBest >= 0 && r.cands[r.explBest].back == 0 && !r.explStood) &&
		!(r.judgingPress && r.explBest >= 0 && r.cands[r.explBest].n > 1 && !r.fitsPress(&r.cands[r.explBest], r.pressSide)) {
		// (Sequences found before the press, which now ends them on
		// the other side's move, are searched again: see resync.)
		return r.explBest
	}
	r.explBest = r.explainNow(allowBack, allowResync)
	r.explKey, r.explained, r.explResync = key, true, allowResync
	return r.explBest
}

// explainKey identifies what an explanation depends on.
type explainKey struct {
	// edit: the view as edited, which a press judges with the reply's
	// squares taken off (standReply), at the same change.
	edit   uint32
	t      int64
	ver    uint32
	orient uint8
	back   bool
	promo  chess.PieceType
	deep   bool
}

func (r *Reconstructor) explainNow(allowBack, allowResync bool) int {
	r.cands = r.cands[:0]
	rv := r.recView()
	for li := range r.lines {
		L := &r.lines[li]
		if r.v.diff(&L.pos)&^r.excused(&L.pos) == 0 {
			r.cands = append(r.cands, cand{line: li, cost: L.cost + r.nullCost(&L.pos, &rv)})
		}
		n0 := len(r.cands)
		r.oneMove(cand{line: li, cost: L.cost}, &L.pos, r.lastTo(li, 0), chess.NoMove, &rv)
		r.castlingPair(n0, &L.pos, &rv)
	}
	if allowBack && len(r.plies) > 0 {
		n := len(r.plies)
		back := backCost(r.clock)
		for k := 1; k <= 2 && k <= n; k++ {
			p := &r.befores[n-k]
			if r.v.diff(p)&^r.excused(p) == 0 {
				r.cands = append(r.cands, cand{line: 0, back: k, cost: r.lines[0].cost + back*k + r.nullCost(p, &rv)})
			}
		}
		// The move changed was seen made: its squares' events, gone
		// from the record when it was published, count for its
		// replacement.
		rvb := r.lastSeen(&rv)
		pm, pb := r.plies[n-1].move, &r.befores[n-1]
		r.oneMove(cand{back: 1, cost: r.lines[0].cost + back}, pb, r.lastTo(0, 1), pm, &rvb)
		// A history set aside for a move that was legal only in the one
		// published (keepStale): the arbiter set that move back, and the
		// board shows the history as it was, or one move on.
		for si := range r.stale {
			S := &r.stale[si]
			k := n - len(S.moves)
			if k < 1 || k > 2 {
				continue
			}
			if r.v.diff(&S.pos)&^r.excused(&S.pos) == 0 {
				r.cands = append(r.cands, cand{line: si, stale: true, back: k, cost: S.cost + r.nullCost(&S.pos, &rv)})
			}
			last := chess.NoSquare
			if len(S.moves) > 0 {
				last = S.moves[len(S.moves)-1].Landing()
			}
			r.oneMove(cand{line: si, stale: true, back: k, cost: S.cost}, &S.pos, last, chess.NoMove, &rv)
		}
	}
	best := r.best()
	// A move in progress is no reason to search, unless hands touched
	// squares it does not explain (a missed capture and a reply). A
	// takeback is searched past: a repetition played fast shows an earlier
	// position that moves forward reach too.
	// Nor is an explanation that leaves a piece seen set down and
	// standing on a square none of its moves reaches: moves further on
	// may have put it there.
	r.explStood = best >= 0 && r.cands[best].back == 0 && r.leavesStood(&r.cands[best], &rv)
	if (best < 0 || r.cands[best].back > 0 || r.explStood) && allowResync && !r.inProgress(true) {
		k := r.viewKey()
		if r.fastResync() {
			k ^= 0x9e3779b97f4a7c15 // (a deeper search than one that failed)
		}
		if k != r.resyncKey {
			r.resync(&rv)
			best = r.best()
			if best < 0 && r.deepResync {
				r.resyncBack(&rv)
				best = r.best()
			}
			if best < 0 {
				r.resyncKey = k
			}
		}
	}
	if best >= 0 && r.movesOnLast(&r.cands[best]) {
		// The searches read the board, not the order of its changes: a
		// piece let go and moved on before the reply began is a move
		// after the reply to them (Bh6 moved on to g7, then e4 d6 Be2,
		// read as e4 d6 Be2 Bg7). The ordered decoder reads the last ply
		// changed instead.
		r.decodeAsSeen = true
		b, ok := r.decodeBack()
		r.decodeAsSeen = false
		if !ok {
			b, ok = r.movedOnDirect()
		} else {
			ok = r.movedOnFirst(&b)
		}
		if ok && b.n <= len(r.cands[best].moves) && r.sameEnd(&b, &r.cands[best]) {
			c := cand{back: 1, n: b.n, cost: r.cands[best].cost, ordered: true}
			copy(c.moves[:], b.moves[:b.n])
			r.cands[best] = c
		}
	}
	if best < 0 || r.cands[best].n >= 2 || r.cands[best].back > 0 || r.cands[best].missed {
		// (Against one move that changes the published game, the
		// piece seen standing on the step, not paused there on its way:
		// Rh8-h6 paused on h7, then Nf3 and Rh6-h8 paused on h7 again,
		// read Rh6 Nf3 Rh7, is the last ply changed, not Rh7 knocked.)
		amend := best >= 0 && r.cands[best].n < 2 && !r.cands[best].missed
		if c, ok := r.knockRevert(amend, best < 0); ok {
			if best >= 0 {
				c.cost = r.cands[best].cost
			}
			r.cands = append(r.cands, c)
			best = len(r.cands) - 1
		} else if c, ok := r.movedOnBeforeReply(best); ok {
			r.cands = append(r.cands, c)
			best = len(r.cands) - 1
		}
	}
	if best >= 0 && r.changedLast(&r.cands[best]) {
		// The same the other way: the last ply changed, where the
		// changes in their order are the other side's moves between
		// (Qe7+ Rf7 Qd8 Rf8, the rook back where it stood, read as
		// Qe7+ changed into Qd8).
		// (Not a reading that leaves a square where a piece stood
		// unexplained: Rg5-d5 paused on f5, then Ke3 and Rd5-g5, read
		// Rf5 Ke3 Rg5 with the rook's stand on d5 a touch.)
		if m, ok := r.decodeOrdered(); ok && m.n >= 2 && m.n <= len(r.cands[best].moves) && m.knocked == 0 && r.sameEnd(&m, &r.cands[best]) {
			c := cand{n: m.n, cost: r.cands[best].cost, ordered: true}
			copy(c.moves[:], m.moves[:m.n])
			if !r.leavesStood(&c, &rv) {
				r.cands[best] = c
			}
		}
	}
	return best
}

// knockRevert reads the ply before the last, amended to a step next door
// of its piece, as first published, when the board shows that piece back
// where it first stood and the same player's next move made: the
// replying hand knocked it over, and it was put back (25. Qf4 read as
// Qg5 when d5's hand knocked it, put back after d5, then 26. Rd1: not
// 25. Qg5 d5 26. Qf4 with Rd1 a second move). Only once that next move
// shows it: a piece stepped back as the next move (10... d6, later
// d6-d5) shows the same board before it. The same when the put-back was
// published as a move of its own, if the knocked ply was amended from the
// step or its piece was seen set down there first (Bb5 then Bc4 is no
// knock: the bishop was never on c4 before b5). With stood, against one
// move that changes the published game, a stand on the step is asked;
// alone (nothing else explains the board), the piece put back with no
// move after it will do.
func (r *Reconstructor) knockRevert(stood, alone bool) (cand, bool) {
	n := len(r.plies)
	if r.clock || n < 2 || r.state != statePlay {
		return cand{}, false
	}
	if i := r.stepped.ply; i == n-2 {
		orig, now := r.stepped.orig, r.plies[i].move
		if orig.From() == now.From() && orig != now {
			if c, ok := r.knockedBack(2, orig, false); ok {
				return c, true
			}
		}
	}
	// The knock published as the move (the piece seen standing on the
	// step first), put back unread before the next move: Qd1-b3 knocked
	// onto c2 before it was read, Bxc3, the queen put back, then bxc3.
	if x := r.plies[n-2].move; r.plies[n-2].step.seen != 0 && !r.v.occ.Has(x.To()) && plainMove(x) && r.knockedForReply(n-2) {
		seen := r.plies[n-2].step.seen
		if stood {
			seen = r.plies[n-2].step.stood
		}
		for a := nbSquares(x.To(), seen) & r.v.occ; a != 0; a &= a - 1 {
			if orig, ok := r.stepFrom(&r.befores[n-2], x, a.First()); ok {
				if c, ok := r.knockedBack(2, orig, alone); ok {
					return c, true
				}
			}
		}
	}
	if c, ok := r.putBackUnread(alone); ok {
		return c, true
	}
	if c, ok := r.knockReadAsMove(alone); ok {
		return c, true
	}
	// The put-back read as a move of its own, the knock published as the
	// move or amended to it (14... e5 knocked to e6 before it was read, 15.
	// d5, the pawn put back, then 16... c6: not 14... e6 15. d5 16... e5
	// and c6 a second move).
	if n >= 3 {
		x, pb := r.plies[n-3].move, r.plies[n-1].move
		if pb.From() == x.To() && pb.To() != x.From() && chess.KingAttacks(x.To()).Has(pb.To()) && !x.IsCastling() && !pb.IsCastling() {
			// (Or alone on colour and piece boards: nothing else
			// explains the board, the same player having moved again,
			// and the landing never read before the knock: 24. Bd3-c4
			// knocked onto b5 by the replying hand, put back after the
			// reply and read 25. Bb5-c4, then 25. Nf3 made: nothing
			// more was published.)
			if (r.knockShown(n-3, pb.To(), stood) || alone && r.sensor != trace.Occupancy) && !r.landedBeside(x.To(), pb.To()) {
				if orig, ok := r.stepFrom(&r.befores[n-3], x, pb.To()); ok {
					if c, ok := r.knockedBack(3, orig, false); ok {
						return c, true
					}
				}
			}
		}
	}
	return cand{}, false
}

// maxPutBackPlies is how far back putBackUnread looks for the ply read
// where its piece was knocked: a pawn knocked stays there while the
// game goes on, often for a few moves.
const maxPutBackPlies = 6

// putBackUnread is knockRevert's reading of a piece put back whose
// landing no sweep read: one of the last maxPutBackPlies published plies
// read where the replying hand knocked its piece, the piece then put
// back next to there, on a square it could have moved to, and gone from
// where it was read. Such a move was taken at the knock, and the
// put-back, made after the reply or a few moves later, read as a move
// of its own or as none (4... d6 knocked onto d5, read d7-d5, put back
// after 5. f3; 24. Bd3-c4 knocked onto b5, put back after 24... Qf8:
// both games went dark). For a pawn, which steps back nowhere, the
// square is its other step's. Then the plies published after it as they
// were, and up to four more moves that leave the board shown, landed
// in the order they were read. Only alone, when nothing else explains
// the board (21... b6 22. c5 b5 is as likely), and once two of those
// moves landed after the piece was put back: a piece knocked as the
// reply's hand withdrew is put forward again before two more moves are
// made (a2-a4, knocked onto a3 98 ms after ...b4 landed, put back after
// 11. d4, in the simulator's x0.03 cells). On colour and piece boards,
// which see the piece set down.
func (r *Reconstructor) putBackUnread(alone bool) (cand, bool) {
	n := len(r.plies)
	if r.sensor == trace.Occupancy || !alone {
		return cand{}, false
	}
	for i := n - 1; i >= n-maxPutBackPlies && i >= 0; i-- {
		x := r.plies[i].move
		if !plainMove(x) || r.v.occ.Has(x.To()) || r.movedFrom(i, x.To()) {
			continue
		}
		if i+1 < n {
			// (Not a piece that stood where it landed for the alert
			// timer before the reply's was lifted: the reply's hand did
			// not knock it there. 10. Nbd2, standing on d2 for 7 s, was
			// amended to Nc3 when 11. Rad1's hand knocked it onto c3.)
			if land, lift := r.plies[i].landT(), r.plies[i+1].liftT(); land >= 0 && lift-land >= r.timing.AlertMs {
				continue
			}
		}
		before := &r.befores[i]
		pc := before.PieceAt(x.From())
		alts := chess.KingAttacks(x.To()) &^ x.From().Bitboard()
		if d := int(x.To()) - int(x.From()); pc.Type() == chess.Pawn {
			switch d {
			case 8, -8:
				alts = chess.Square(int(x.To()) + d).Bitboard() // the double step
			case 16, -16:
				alts = chess.Square(int(x.From()) + d/2).Bitboard() // the square crossed
			default:
				continue
			}
		}
		alts &= r.v.occ & r.v.colourKnown
		if pc.Color() == chess.White {
			alts &= r.v.white
		} else {
			alts &^= r.v.white
		}
		for ; alts != 0; alts &= alts - 1 {
			alt := alts.First()
			if r.v.pieceKnown.Has(alt) && !r.v.byPiece[pc].Has(alt) || !reaches(pc, x.From(), alt, true) {
				continue // (before putBackAt's move generation)
			}
			if r.landedBeside(x.To(), alt) {
				continue
			}
			if c, ok := r.putBackAt(i, alt); ok {
				return c, true
			}
		}
	}
	return cand{}, false
}

// landedBeside reports whether a square next to game square sq, where a
// published ply was read landing and which is empty now, other than alt,
// was filled less than knockMs before sq emptied: a move landing there
// (published or not yet) whose hand knocked the piece, which had stood
// where it was read. (10. Nbd2, knocked onto c3 by 11. Rad1's hand 225
// ms after the rook landed on d1, had been amended to Nc3; 11... a6,
// knocked onto a5 as 13. cxb5 landed, to a5; 13. Qf3, knocked onto e2
// as 13... dxe4 landed, to Qe2: each game then dark for 12-100 plies.)
func (r *Reconstructor) landedBeside(sq, alt chess.Square) bool {
	// (The record forgets which squares were touched at each decision,
	// not when each was last: sq is empty now, so that is when it
	// emptied, and a square filled now was filled last then; the log
	// keeps those filled and changed since.)
	if r.v.occ.Has(sq) {
		return false
	}
	gone := r.rec.lastOff[unrotSquare(sq, r.orient)]
	near := chess.KingAttacks(sq) &^ alt.Bitboard()
	landed := func(s chess.Square, on int64) bool {
		return near.Has(s) && on <= gone && gone < on+knockMs
	}
	for b := near & r.v.occ; b != 0; b &= b - 1 {
		if landed(b.First(), r.rec.lastOn[unrotSquare(b.First(), r.orient)]) {
			return true
		}
	}
	for _, evs := range r.logWindow(true) {
		for _, e := range evs {
			if e.Kind == trace.On && landed(rotSquare(e.Square, r.orient), e.T) {
				return true
			}
		}
	}
	return false
}

// knockReadSearch bounds the positions knockReadAsMove tries.
const knockReadSearch = 20000

// knockReadAsMove is knockRevert's reading of a piece knocked next door
// where a move of its side goes, read as that side's move, and put back
// where it stood some moves later: one of the last maxPutBackPlies
// published plies stepped its piece next door, the board shows it back
// where it came from and its landing empty, and no ply since changed
// either square (c4 knocked onto c5 as 7... Bb4 landed, read 8. c5, the
// queen's 8. Qe2 and 9. Qe3 read 9. Qd2-e3, the pawn put back before
// 9... Bxe1: the game went dark). The plies from the first that landed
// after the knock are read again: the fewest moves, none of them the
// knock, that leave the board shown, each changing a square the board
// shows changed, in the order their landings were read where a
// published ply with the same piece and landing tells it, and every
// other ply published since landing again where it did (not 78. Re5+
// Kc6 79. Qa8+ Kb6, the rook knocked back onto e6 by 80. Qd5's hand,
// read as 78. Qa8 Kb6 79. Qd5: the king's c6 was read). Only alone, on
// colour and piece boards, which see what was put back.
func (r *Reconstructor) knockReadAsMove(alone bool) (cand, bool) {
	n := len(r.plies)
	if r.sensor == trace.Occupancy || !alone {
		return cand{}, false
	}
	budget := knockReadSearch // (all the plies' searches together)
	for i := n - 1; i >= n-maxPutBackPlies && i >= 0 && budget > 0; i-- {
		x := r.plies[i].move
		if !plainMove(x) || !chess.KingAttacks(x.From()).Has(x.To()) || r.v.occ.Has(x.To()) || !r.v.occ.Has(x.From()) {
			continue
		}
		pc := r.befores[i].PieceAt(x.From())
		if r.v.colourKnown.Has(x.From()) && r.v.white.Has(x.From()) != (pc.Color() == chess.White) || r.v.pieceKnown.Has(x.From()) && !r.v.byPiece[pc].Has(x.From()) {
			continue
		}
		if r.touchedAfter(i, x.From().Bitboard()|x.To().Bitboard()) {
			continue
		}
		lift := r.plies[i].liftT()
		if lift < 0 {
			continue
		}
		j := i
		for j > 0 && j > n-len(cand{}.moves) && r.plies[j-1].landT() > lift {
			j--
		}
		// (The knock is a hand's while its move was made, or as it
		// withdrew.)
		knocked := false
		for k := max(j-1, 0); k < n; k++ {
			t1, t2 := r.plies[k].liftT(), r.plies[k].landT()
			if k != i && t2 >= 0 && (t2-knockMs <= lift && lift <= t2+knockMs || t1 >= 0 && t1 <= lift && lift <= t2) {
				knocked = true
			}
		}
		if !knocked {
			continue
		}
		// A landing a published ply of the same piece (and colour) made
		// tells when; one where such a ply's piece was seen set down
		// first, one read since, or one alerted out of place that the
		// board shows changed since ply j (2. d3 after 2. Qd1-e2 knocked:
		// a pawn moved out of turn) is allowed; no other (any square
		// changed since: 36 more false alerts in the stress grid).
		alerted := r.v.diff(&r.befores[j]) & r.overlay
		landAt := func(p *chess.Position, m chess.Move) (int64, bool) {
			to, pc := m.Landing(), p.PieceAt(m.From())
			t, ok := r.lastOn(to)
			if !ok {
				t, ok = -1, alerted.Has(to)
			}
			for k := j; k < n; k++ {
				pm := r.plies[k].move
				if k == i || r.befores[k].PieceAt(pm.From()) != pc {
					continue
				}
				if pm.Landing() == to && r.plies[k].landT() >= 0 {
					t, ok = max(t, r.plies[k].landT()), true
				} else if nbSquares(pm.Landing(), r.plies[k].step.seen).Has(to) {
					ok = true
				}
			}
			return t, ok
		}
		// (Then with the squares alerted out of place since the knock
		// read as the moves' too: 2... d3 after 2. Qd1-e2 knocked, a
		// pawn moved out of turn.)
		s := shownSearch{r: r, landAt: landAt, budget: budget}
		for pass := 0; pass < 2 && (pass == 0 || r.overlay != 0); pass++ {
			s.plain = pass == 1
			for L := n - j - 1; L <= n-j+3 && L <= len(cand{}.moves); L++ {
				c := cand{back: n - j, cost: r.lines[0].cost, ordered: true}
				p := r.befores[j]
				if s.moves(&c, &p, L, -1) && c.n == L && !slices.Contains(c.moves[:c.n], x) && r.landingsKept(&c, j, i) {
					return c, true
				}
			}
		}
		budget = s.budget
	}
	return cand{}, false
}

// movedOnBeforeReply reads the last published ply's piece, gone from
// where it was published and read set down two or more squares away
// before the reply landed, as that ply amended to where it went: the
// piece, set down and let go, moved on while the reply was under way.
// With best, moves after that ply whose second is its piece moved on
// (2... Qe6, its hand taking c4's pawn off, 3. f2 lifted, the queen
// moved on to c4 before f3 landed: not 3. f3 Qxc4, whose queen would
// have landed before the move it answers, but 2... Qxc4 3. f3; read Qe6
// and f3 with the queen's capture misplaced pieces, the game went dark
// when the queen was taken on c3); alone (best < 0), where no move
// takes the piece on (2. Ng1-h3, then on to f3 as 2... e6 was made:
// nothing more was published), up to two moves after it, landed later,
// that leave the board shown. Not next door, where a replying hand
// knocks pieces (even on along their line: Bc4 knocked onto b5). Without
// a clock (no press completes the move) on colour and piece boards,
// which see the piece set down.
func (r *Reconstructor) movedOnBeforeReply(best int) (cand, bool) {
	n := len(r.plies)
	if r.clock || r.sensor == trace.Occupancy || r.state != statePlay || n == 0 {
		return cand{}, false
	}
	x := r.plies[n-1].move
	left, ok := r.lastOff(x.To())
	if !plainMove(x) || r.v.occ.Has(x.To()) || !ok {
		return cand{}, false
	}
	// (What amending a published ply costs: less than a sequence whose
	// piece landed before the move it answers, or squares misplaced.)
	c := cand{back: 1, cost: r.lines[0].cost + backCost(r.clock), ordered: true}
	if best >= 0 {
		if c, ok := r.movedOnRead(&r.cands[best], c, x, left); ok {
			return c, true
		}
		if r.cands[best].cost <= c.cost {
			return cand{}, false
		}
		// (Or as alone, against moves that cost more: 13... Qd8-c8 on to
		// e7 as 14. Rg1 was made, read Rf1 Qc5 Rg1 Qe7.)
	}
	before := &r.befores[n-1]
	for _, m := range r.legal(before).Moves() {
		if m.From() != x.From() || m == x || !plainMove(m) || !r.v.occ.Has(m.To()) || chess.KingAttacks(x.To()).Has(m.To()) {
			continue
		}
		landOn, ok := r.lastOn(m.To())
		if !ok || landOn < left {
			continue
		}
		p := *before
		p.MakeMove(m)
		c.moves[0], c.n = m, 1
		if !r.movesShown(&c, &p, 2, landOn) || c.n < 2 {
			continue
		}
		// (The reply first landed after it, not a knock's put-back there;
		// or it took the piece.)
		if to := c.moves[1].Landing(); to == m.To() {
			return c, true
		} else if reply, ok := r.firstOn(to); ok && reply > landOn {
			return c, true
		}
	}
	return cand{}, false
}

// movedOnRead is movedOnBeforeReply's reading of b, moves after the last
// published ply x whose second is x's piece moved on, as c.
func (r *Reconstructor) movedOnRead(b *cand, c cand, x chess.Move, left int64) (cand, bool) {
	n := len(r.plies)
	if b.back != 0 || b.n < 2 || b.line != 0 || b.stale {
		return cand{}, false
	}
	on := b.moves[1]
	if !plainMove(on) || on.From() != x.To() || on.To() == x.From() || chess.KingAttacks(x.To()).Has(on.To()) {
		return cand{}, false
	}
	landOn, ok1 := r.lastOn(on.To())
	reply, ok2 := r.firstOn(b.moves[0].Landing()) // (not a knock's put-back there)
	if !ok1 || !ok2 || landOn >= reply || left >= reply || landOn < left {
		return cand{}, false
	}
	m, ok := r.stepFrom(&r.befores[n-1], x, on.To())
	if !ok {
		return cand{}, false
	}
	// m, then b's moves but the piece's moving on.
	p := r.befores[n-1]
	p.MakeMove(m)
	c.moves[0], c.n = m, 1
	for k, mv := range b.moves[:b.n] {
		if k != 1 && !r.playOn(&c, &p, mv) {
			return cand{}, false
		}
	}
	return c, r.v.diff(&p)&^r.excused(&p) == 0
}

// playOn makes m in p and adds it to c, if it is legal there.
func (r *Reconstructor) playOn(c *cand, p *chess.Position, m chess.Move) bool {
	if !r.legal(p).Contains(m) {
		return false
	}
	p.MakeMove(m)
	c.moves[c.n] = m
	c.n++
	return true
}

// landingsKept reports whether c, read again from published ply j, has
// every published ply from j on but ply i land where it was published,
// the same piece: the same move, or one from a landing that no published
// ply made (Qd2-e3 read again as Qd2-e2 and Qe2-e3: the queen's stand
// on e2 a move; not Bd3 and Bxc4 read again as Bxc4 and Bd3).
func (r *Reconstructor) landingsKept(c *cand, j, i int) bool {
	p := r.befores[j]
	var pcs [len(cand{}.moves)]chess.Piece
	for q, m := range c.moves[:c.n] {
		pcs[q] = p.PieceAt(m.From())
		p.MakeMove(m)
	}
	published := func(q int) bool {
		for k := j; k < len(r.plies); k++ {
			pm := r.plies[k].move
			if k != i && pm.Landing() == c.moves[q].Landing() && r.befores[k].PieceAt(pm.From()) == pcs[q] {
				return true
			}
		}
		return false
	}
	for k := j; k < len(r.plies); k++ {
		if k == i {
			continue
		}
		pm := r.plies[k].move
		pc, to, found := r.befores[k].PieceAt(pm.From()), pm.Landing(), false
		for q, m := range c.moves[:c.n] {
			if m.Landing() != to || pcs[q] != pc {
				continue
			}
			if m == pm {
				found = true
				break
			}
			for q2 := range q {
				if c.moves[q2].Landing() == m.From() && pcs[q2] == pc && !published(q2) {
					found = true
				}
			}
			break
		}
		if !found {
			return false
		}
	}
	return true
}

// touchedAfter reports whether a published ply after ply i changed a
// square of b.
func (r *Reconstructor) touchedAfter(i int, b chess.Bitboard) bool {
	for k := i + 1; k < len(r.plies); k++ {
		if all, _ := moveSquares(&r.befores[k], r.plies[k].move); all&b != 0 {
			return true
		}
	}
	return false
}

// movedFrom reports whether the first published ply after ply i to
// change square s moved a piece from it: ply i's piece moved on, no
// reading of it elsewhere keeps that ply legal.
func (r *Reconstructor) movedFrom(i int, s chess.Square) bool {
	for _, pr := range r.plies[i+1:] {
		if pr.move.From() == s {
			return true
		}
		if pr.move.To() == s {
			return false
		}
	}
	return false
}

// putBackAt is putBackUnread's reading with published ply i's piece put
// back on alt.
func (r *Reconstructor) putBackAt(i int, alt chess.Square) (cand, bool) {
	n := len(r.plies)
	x, before := r.plies[i].move, &r.befores[i]
	orig, ok := r.stepFrom(before, x, alt)
	if !ok {
		return cand{}, false
	}
	p := *before
	p.MakeMove(orig)
	c := cand{back: n - i, cost: r.lines[0].cost, ordered: true}
	c.moves[0], c.n = orig, 1
	for _, m := range r.plies[i+1:] {
		if !r.playOn(&c, &p, m.move) {
			return cand{}, false
		}
	}
	if !r.movesShown(&c, &p, 4, -1) {
		return cand{}, false
	}
	// Two moves landed after the piece was put back, and none of its
	// side's was in the air then: that hand knocked it there (Qd2
	// knocked onto e2 as Bg5-e3 was carried, read 31 ms before e3).
	// (The published plies' own times: their squares may have changed
	// since.)
	put, _ := r.lastOn(alt)
	after := 0
	for k := 1; k < c.n; k++ {
		m := c.moves[k]
		var lift, land int64
		var ok1, ok2 bool
		if i+k < n {
			lift, land = r.plies[i+k].liftT(), r.plies[i+k].landT()
			ok1, ok2 = lift >= 0, land >= 0
		} else {
			lift, ok1 = r.lastOff(m.From())
			land, ok2 = r.lastOn(m.Landing())
		}
		if ok1 && ok2 && k%2 == 0 && lift < put && put < land {
			return cand{}, false // (moves[k], k even, is the piece's side's)
		}
		if ok2 && put < land {
			after++
		}
	}
	return c, after >= 2
}

// movesShown appends to c up to max moves from p, in turn, that leave
// the board shown, each changing a square the board shows changed (a
// move undone later is not looked for), each landing last read no
// sooner than the one before (landed; -1 for none; a recapture lands
// where the capture did).
func (r *Reconstructor) movesShown(c *cand, p *chess.Position, max int, landed int64) bool {
	s := shownSearch{r: r, budget: -1}
	return s.moves(c, p, max, landed)
}

// shownSearch is movesShown's search: landAt, when set, tells when a
// move landed (-1: not known, no order asked of it; ok false: the move
// is not allowed) instead of the record; budget, when not negative,
// bounds the positions tried.
type shownSearch struct {
	r      *Reconstructor
	landAt func(p *chess.Position, m chess.Move) (int64, bool)
	budget int
	// plain: the squares the arbiter was told are out of place are not
	// excused (the moves read again may be what put them there).
	plain bool
}

func (s *shownSearch) moves(c *cand, p *chess.Position, max int, landed int64) bool {
	r := s.r
	d := r.v.diff(p)
	if !s.plain {
		d &^= r.excused(p)
	}
	if d == 0 {
		return true
	}
	if max == 0 || c.n == len(c.moves) || s.budget == 0 {
		return false
	}
	// (Not r.legal: makeView may use its cache.)
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	// Double steps first: c7-c5 and dxc6 e.p. leave the board c7-c6 and
	// dxc6 do, and only the double step explains c5 read filled.
	moves := ml.Moves()
	for pass := 0; pass < 2; pass++ {
		for _, m := range moves {
			if doubleStep(p, m) != (pass == 0) {
				continue
			}
			if s.try(c, p, m, d, max, landed) {
				return true
			}
		}
	}
	return false
}

// try is moves with m, which changes a square of d, next.
func (s *shownSearch) try(c *cand, p *chess.Position, m chess.Move, d chess.Bitboard, max int, landed int64) bool {
	if all, _ := moveSquares(p, m); all&d == 0 {
		return false
	}
	var land int64
	if s.landAt != nil {
		t, ok := s.landAt(p, m)
		if !ok || t >= 0 && t < landed {
			return false
		}
		land = landed
		if t > land {
			land = t
		}
	} else {
		t, ok := s.r.lastOn(m.Landing())
		if !ok || t < landed {
			return false
		}
		land = t
	}
	if s.budget > 0 {
		s.budget--
	}
	q := *p
	q.MakeMove(m)
	c.moves[c.n] = m
	c.n++
	if s.moves(c, &q, max-1, land) {
		return true
	}
	c.n--
	return false
}

// doubleStep reports whether m is a pawn's double step in p.
func doubleStep(p *chess.Position, m chess.Move) bool {
	d := int(m.To()) - int(m.From())
	return p.PieceAt(m.From()).Type() == chess.Pawn && (d == 16 || d == -16)
}

// knockShown reports whether the record shows ply i's piece on to before
// the square it was published on: the ply was amended from a move there,
// or the piece was seen set down there first (standing there, if stood),
// or it went back there before the reply after it landed (a piece moved
// on, the reply begun at once: Bh6, then Bg5 as dxc4 was made, read as
// Bh6 dxc4 Bg5).
func (r *Reconstructor) knockShown(i int, to chess.Square, stood bool) bool {
	seen := r.plies[i].step.seen
	if stood {
		seen = r.plies[i].step.stood
	}
	x := r.plies[i].move
	if r.stepped.ply == i && r.stepped.orig.From() == x.From() && r.stepped.orig.To() == to || nbSquares(x.To(), seen).Has(to) && r.knockedForReply(i) {
		return true
	}
	pb, reply := &r.plies[i+2], &r.plies[i+1]
	return pb.liftT() >= 0 && reply.landT() >= 0 && pb.liftT() < reply.landT()
}

// knockedForReply reports whether the reply to ply i began within knockMs
// of that ply's landing: the replying hand knocked the piece there, and
// lifted its own. (58... a6, the pawn set on a5 first, then 59. Bxc6 40 s
// later: Ra7's hand pushing the pawn onto a5 is no sign a5 was the move.)
func (r *Reconstructor) knockedForReply(i int) bool {
	x, reply := &r.plies[i], &r.plies[i+1]
	return x.landT() >= 0 && reply.liftT() >= 0 && reply.liftT()-x.landT() <= knockMs
}

// knockedBackRead reports whether c is knockRevert's reading: a move
// made after a knock put back needs no more squares than the move's own.
func (r *Reconstructor) knockedBackRead(c *cand) bool {
	return c.ordered && c.back >= 2 && c.n == 3 && c.line == 0 && !c.stale
}

// stepFrom is the legal move in p of x's piece from where x started to to,
// promoting as x does.
func (r *Reconstructor) stepFrom(p *chess.Position, x chess.Move, to chess.Square) (chess.Move, bool) {
	for _, m := range r.legal(p).Moves() {
		if m.From() == x.From() && m.To() == to && m.IsPromotion() == x.IsPromotion() && (!m.IsPromotion() || m.Promotion() == x.Promotion()) {
			return m, true
		}
	}
	return chess.NoMove, false
}

// knockedBack is the candidate that takes back the last back plies and
// reads orig for the first of them, then the reply after it as published,
// then one move of orig's side that leaves the board shown (or none, if
// bare and the board shows the reply's position).
func (r *Reconstructor) knockedBack(back int, orig chess.Move, bare bool) (cand, bool) {
	n := len(r.plies)
	p := r.befores[n-back]
	for _, m := range [2]chess.Move{orig, r.plies[n-back+1].move} {
		if !r.legal(&p).Contains(m) {
			return cand{}, false
		}
		p.MakeMove(m)
	}
	if bare && r.v.diff(&p)&^r.excused(&p) == 0 {
		// The piece put back where no move of its own goes (h7-h6
		// knocked onto h5, read h5, the pawn put back), nothing after:
		// nothing else explains the board.
		c := cand{back: back, n: 2, cost: r.lines[0].cost, ordered: true}
		c.moves[0], c.moves[1] = orig, r.plies[n-back+1].move
		return c, true
	}
	// (Not r.legal: makeView below may use its cache.)
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Moves() {
		q := p
		q.MakeMove(m)
		if r.v.diff(&q)&^r.excused(&q) == 0 {
			c := cand{back: back, n: 3, cost: r.lines[0].cost, ordered: true}
			c.moves[0], c.moves[1], c.moves[2] = orig, r.plies[n-back+1].move, m
			return c, true
		}
	}
	return cand{}, false
}

// changedLast reports whether c, without a clock, changes the last
// published ply and adds none.
func (r *Reconstructor) changedLast(c *cand) bool {
	return !r.clock && c.back == 1 && c.n == 1 && c.line == 0 && !c.stale && !c.ordered && len(r.plies) > 0
}

// sameEnd reports whether b leaves the pieces where c, a candidate from
// line 0, does (a ply more or fewer: a piece moved on is no ply).
func (r *Reconstructor) sameEnd(b *catchMatch, c *cand) bool {
	p := r.candStart(c)
	for _, m := range c.moves[:c.n] {
		p.MakeMove(m)
	}
	return samePlacement(&p, &b.pos)
}

// movesOnLast reports whether c, without a clock, adds two plies or more
// to the published game, one of them a move of the last ply's piece from
// where it landed.
func (r *Reconstructor) movesOnLast(c *cand) bool {
	n := len(r.plies)
	if r.clock || n == 0 || c.back != 0 || c.line != 0 || c.stale || c.n < 2 {
		return false
	}
	to := r.plies[n-1].move.To()
	for i := 1; i < c.n; i += 2 {
		if c.moves[i].From() == to {
			return true
		}
	}
	return false
}

// lastSeen is rv with the squares of the last published move counted as
// seen: its events, gone from the record when it was published, count for
// what replaces it.
func (r *Reconstructor) lastSeen(rv *recView) recView {
	rvb := *rv
	r.seenPly(&rvb, len(r.plies)-1)
	return rvb
}

// seenPly adds to rv the squares published ply i was seen to change (not
// the landing of a capture whose victim nobody saw lifted).
func (r *Reconstructor) seenPly(rv *recView, i int) {
	pm, pb := r.plies[i].move, &r.befores[i]
	all, _ := moveSquares(pb, pm)
	seen := all & pb.Occupied()
	if r.plies[i].blind {
		seen &^= pm.To().Bitboard()
	}
	rv.lifted |= seen
	rv.placed |= landings(pm)
}

// backCost is the cost of taking back one published ply.
func backCost(clock bool) int {
	if clock {
		return 2 * costBack // a move completed by the press is rarely taken back
	}
	return costBack
}

// oneMove adds the legal moves from p that explain the board, as
// candidates like c0 (its line, back and stale, its cost the base): lastTo
// is where the move before p landed, skip a move not to count (the one
// taken back).
func (r *Reconstructor) oneMove(c0 cand, p *chess.Position, lastTo chess.Square, skip chess.Move, rv *recView) {
	if !r.oneMovePossible(p, rv) {
		return
	}
	occ := r.v.occ
	// Without an overlay the board must be the move's occupancy exactly,
	// so a move other than castling empties a square the board shows
	// empty and fills one it shows full: only the pieces on those squares
	// (and a king that may castle) are asked for their moves.
	vac, full := p.Occupied()&^occ, occ
	var ml *chess.MoveList
	if r.overlay != 0 {
		vac, full = ^chess.Bitboard(0), ^chess.Bitboard(0)
		ml = r.legal(p)
	} else {
		// A castling leaves its king's square full only when the king
		// or the rook lands there (the king on the c, d, f or g file,
		// Chess960): else it empties a square the board shows full, and
		// the king, not on vac, is not asked (nor the squares it may
		// step to worked out).
		from := vac
		side := p.SideToMove()
		castles := false
		if ksq := p.KingSquare(side); p.Castling()&castleRights(side) != 0 {
			if f := ksq.File(); f == 2 || f == 3 || f == 5 || f == 6 {
				from |= ksq.Bitboard()
			}
			castles = from.Has(ksq)
		}
		if vac.More() && !castles && p.EnPassant() == chess.NoSquare {
			// Two squares emptied are a castling's or an en passant
			// capture's: any other move empties one (its own).
			return
		}
		ml = &r.fromList
		ml.Reset()
		p.GenerateFrom(ml, from)
	}
	for _, m := range ml.Moves() {
		if !(vac.Has(m.From()) && full.Has(m.To())) && !m.IsCastling() {
			continue
		}
		if (p.OccupancyAfter(m)^occ)&^r.overlay != 0 || m == skip {
			continue
		}
		if r.sensor != 0 || r.overlay != 0 {
			q := *p
			q.MakeMove(m)
			if r.v.diff(&q)&^r.excused(&q) != 0 {
				continue
			}
		}
		c := c0
		c.n = 1
		c.moves[0] = m
		sc, missed := r.seqCost(p, lastTo, c.moves[:1], rv)
		c.cost += sc
		c.missed = missed
		r.cands = append(r.cands, c)
	}
}

// castlingPair adds, after each one-move candidate from r.cands[n0:],
// the opponent's Chess960 castling that changes no square (king and rook
// trading squares), when that side's king was lifted too: after a
// castling that changes none either (both players castling so leave the
// board as it was, and a piece of the first player's then lifted is its
// next move, no part of the first castling), or after any other move
// when the castling's two squares were each lifted and filled again off
// that move's squares (the castling is otherwise invisible, and the move
// alone left them as touches: at bullet pace the next plies were then
// read without it).
func (r *Reconstructor) castlingPair(n0 int, p *chess.Position, rv *recView) {
	// (The replying side's king and rights before any move: a move can
	// only take rights away, and its king stands where it stood.)
	other := p.SideToMove().Other()
	if p.Castling()&castleRights(other) == 0 || !rv.lifted.Has(p.KingSquare(other)) {
		return
	}
	occ := p.Occupied()
	for i := n0; i < len(r.cands); i++ {
		if r.cands[i].n != 1 {
			continue
		}
		c := r.cands[i]
		m := c.moves[0]
		swap := m.IsCastling() && p.OccupancyAfter(m) == occ
		q := *p
		q.MakeMove(m)
		k := q.KingSquare(q.SideToMove())
		if q.Castling()&castleRights(q.SideToMove()) == 0 || !rv.lifted.Has(k) {
			continue
		}
		again := rv.lifted & rv.placed
		if !swap {
			all, _ := moveSquares(p, m)
			if again &^= all; !again.Has(k) {
				continue
			}
		}
		qocc := q.Occupied()
		for _, m2 := range r.legal(&q).Moves() {
			if !m2.IsCastling() || q.OccupancyAfter(m2) != qocc || !swap && !(again.Has(m2.From()) && again.Has(m2.To())) {
				continue
			}
			q2 := q
			q2.MakeMove(m2)
			if r.v.diff(&q2)&^r.excused(&q2) != 0 {
				continue
			}
			c2 := c
			c2.n = 2
			c2.moves[1] = m2
			sc, missed := r.seqCost(p, r.lastTo(c.line, 0), c2.moves[:2], rv)
			c2.cost = r.lines[c.line].cost + sc
			c2.missed = missed
			r.cands = append(r.cands, c2)
		}
	}
}

// legal returns the legal moves of p from a small cache: the same few
// positions (the hypotheses' tips, the position before the last move) are
// asked about at every still board.
func (r *Reconstructor) legal(p *chess.Position) *chess.MoveList {
	k := p.Key()
	for i := range r.mcache {
		if c := &r.mcache[i]; c.ok && c.key == k {
			return &c.ml
		}
	}
	c := &r.mcache[r.mnext]
	r.mnext = (r.mnext + 1) % len(r.mcache)
	c.ml.Reset()
	p.GenerateLegal(&c.ml)
	c.key, c.ok = k, true
	return &c.ml
}

// oneMovePossible is a quick test, before generating moves, of whether one
// move could turn p into the board: a move empties one or two squares
// (two for castling and en passant) and fills no more than it empties;
// Chess960 castling may change nothing, and only with the king and rook
// squares touched. A capture changes the colour (or piece) on its square
// where the sensor can tell.
func (r *Reconstructor) oneMovePossible(p *chess.Position, rv *recView) bool {
	if r.overlay != 0 {
		return true
	}
	occ := p.Occupied()
	vac := occ &^ r.v.occ
	fil := r.v.occ &^ occ
	nv, nf := vac.Count(), fil.Count()
	switch {
	case nv > 2 || nf > nv:
		return false
	case nv == 0:
		return p.Castling() != 0 && rv.lifted&p.ByType(chess.King) != 0
	case nv == 1 && nf == 0 && r.sensor != 0:
		// A capture: its square must show the mover's colour now.
		changed := (p.ByColor(chess.White) ^ r.v.white) & r.v.colourKnown & occ & r.v.occ
		if r.v.pieceKnown != 0 {
			for pc := chess.WhitePawn; pc <= chess.BlackKing; pc++ {
				if t := pc.Type(); t >= chess.Pawn && t <= chess.King {
					changed |= (p.Pieces(pc.Color(), t) ^ r.v.byPiece[pc]) & r.v.pieceKnown & occ & r.v.occ
				}
			}
		}
		return changed != 0 || r.v.colourKnown&occ&r.v.occ != occ&r.v.occ
	}
	return true
}

// best is the index of the cheapest candidate (the first of equals), -1 if none.
func (r *Reconstructor) best() int {
	bi := -1
	for i := range r.cands {
		if bi < 0 || r.cands[i].cost < r.cands[bi].cost {
			bi = i
		}
	}
	return bi
}

// fastResync reports whether resync searches five and six plies without
// a full frame: without a clock on occupancy boards, where fast plies
// with a capture nobody saw may be that many before one explanation is
// adopted; on colour and piece boards only on a board still for the
// commit or alert timer. Sooner, a move with a knocked piece is likelier
// than five plies and the next events show which, but a run of replies
// each begun within a quarter second of the move before has no earlier
// decision point, and without this the game would stop there for good.
func (r *Reconstructor) fastResync() bool {
	// (Five plies need ten changes at least: fewer are a move and a knock,
	// and searching them made the replay a tenth slower.)
	return !r.clock && !r.rec.framed && (r.sensor == trace.Occupancy || r.deepResync && r.rec.events >= 10)
}

// resync searches 2 to maxResync plies from the best hypotheses for move
// sequences that reach the board, and adds those of the smallest depth.
func (r *Reconstructor) resync(rv *recView) {
	var rs resyncState
	rs.r, rs.rv = r, rv
	// (A takeback among the candidates already is no reason to stop: a
	// repetition played fast shows an earlier position that moves forward
	// reach too, three plies on as well as one back.)
	n0 := len(r.cands)
	// The last move's piece seen lifted from where it landed and a piece
	// put where it came from (not on occupancy boards, which do not tell
	// which piece came back: there it made a clean game of the corpus
	// inexact).
	var rvb recView
	putBack := false
	if n := len(r.plies); n > 0 && !r.clock && !r.rec.framed && r.sensor != trace.Occupancy {
		m := r.pub[n-1]
		putBack = !m.IsCastling() && rv.lifted.Has(m.To()) && rv.placed.Has(m.From())
		rvb = r.lastSeen(rv)
	}
	fast := r.fastResync()
	found := 0   // the depth sequences were first found at
	misfit := n0 // cands from n0 up to this end with the wrong side's move for the press
	for d := 2; d <= maxResync && (d <= 4 || (r.rec.framed || fast) && rs.nodes < resyncBudget); d++ {
		if d > 4 {
			// Deeper only while the budget lasts: a restart after a long
			// gap may need it, a garbled board should not cost more.
			rs.budget = resyncBudget
			if fast {
				rs.budget = fastResyncBudget
			}
		}
		rs.depth = d
		// From every hypothesis kept, so that an alternative (another
		// capture that nobody saw taken) survives the missed events.
		for li := range r.lines[:min(len(r.lines), maxResyncLines)] {
			rs.line = li
			pos := r.lines[li].pos
			rs.search(&pos, 0)
		}
		if putBack {
			// The last move changed and more made: a piece knocked by
			// the mover's hand read as the reply, then put back while
			// the real reply and the next move are made.
			rs.line, rs.back = 0, 1
			rs.rv = &rvb
			pos := r.befores[len(r.plies)-1]
			rs.search(&pos, 0)
			rs.back, rs.rv = 0, rv
		}
		if len(r.cands) > misfit && r.judgingPress && !r.anyFitsPress(r.cands[misfit:]) {
			// After a restart the board shows 4 plies on, the clock
			// pressed by Black, and a piece of White's moved away and
			// back: 3 plies reach the board too, but end with White's
			// move (an illegal move of Black's was alerted). Deeper
			// sequences that end with the presser's move replace them.
			misfit = len(r.cands)
			continue
		}
		if misfit > n0 && len(r.cands) > misfit {
			r.cands = append(r.cands[:n0], r.cands[misfit:]...)
			misfit = n0
		}
		if len(r.cands) > n0 {
			if found == 0 {
				found = d
			}
			// Sequences that all leave a piece seen standing on a square
			// none of their moves reach: a deeper one may (a king seen
			// on e2 for a second between f3 and f2, the other side
			// moving meanwhile, is a ply more), up to two plies deeper.
			if d >= found+2 || !r.allStood(r.cands[n0:], rv) && !r.deeperCheaper(r.cands[n0:], d) {
				return
			}
		}
	}
}

// minBackEvents: the changes since the last decision before resyncBack
// searches from before it (two plies or more made since: with fewer, the
// still board's and the reply's rules decide it better).
const minBackEvents = 8

// resyncBack searches, when nothing reaches the board from the published
// game, from one and two plies before its end: a published ply that was
// another (a touch-down published as the move, then the capture made
// with a victim nobody saw lifted) left no position the moves after it
// reach, and the game would stop there for good.
func (r *Reconstructor) resyncBack(rv *recView) {
	n := len(r.plies)
	if r.clock || r.rec.framed || r.state != statePlay {
		return
	}
	if r.rec.events < minBackEvents || r.sensor != trace.Occupancy {
		// (A search from the published game may yet find it. On colour
		// and piece boards a piece knocked onto the next square, which
		// the still board's rules read, looks like a ply read wrong:
		// 46... Rhf8 over g8, its hand knocking Be7 onto f6.)
		return
	}
	var rs resyncState
	rs.r, rs.line, rs.budget = r, 0, fastResyncBudget
	rvb := *rv
	extra := r.v.occ &^ r.lines[0].pos.Occupied()
	gone := false // a ply taken back left its landing empty on the board
	for k := 1; k <= 2 && k <= n; k++ {
		i := n - k
		if r.plies[i].framed {
			return
		}
		r.seenPly(&rvb, i)
		// (Only from before a ply whose piece is no longer where it was
		// published: one still standing there was likely made, and the
		// board is lost for another reason. Nor one knocked onto the
		// next square, which fills a square there that the published
		// game leaves empty: a5 knocked onto b6 by b5's hand is no a5
		// read wrong.)
		land := r.pub[i].Landing()
		if gone = gone || !r.v.occ.Has(land) && extra&chess.KingAttacks(land) == 0; !gone {
			continue
		}
		rs.back, rs.rv = k, &rvb
		for d := 2; d <= 4; d++ {
			rs.depth, rs.nodes = d, 0
			pos := r.befores[i]
			rs.search(&pos, 0)
			if r.best() >= 0 {
				return
			}
		}
	}
}

// leavesStood reports whether explanation c leaves a square where a piece
// was seen set down and standing (stoodCost) unexplained.
func (r *Reconstructor) leavesStood(c *cand, rv *recView) bool {
	if r.stoodSquares(rv) == 0 {
		return false
	}
	p := r.candStart(c)
	return r.seqStood(&p, c.moves[:c.n], rv)
}

// candStart is the position candidate c's moves are made from.
func (r *Reconstructor) candStart(c *cand) chess.Position {
	switch {
	case c.stale:
		return r.stale[c.line].pos
	case c.back > 0:
		return r.befores[len(r.plies)-c.back]
	}
	return r.lines[c.line].pos
}

// allStood reports whether every one of cs leaves a stood square
// unexplained.
func (r *Reconstructor) allStood(cs []cand, rv *recView) bool {
	for i := range cs {
		if !r.leavesStood(&cs[i], rv) {
			return false
		}
	}
	return true
}

// seqStood reports whether moves from p leave a stood square unexplained.
func (r *Reconstructor) seqStood(p *chess.Position, moves []chess.Move, rv *recView) bool {
	var expl chess.Bitboard
	var movers uint16
	q := *p
	for _, m := range moves {
		if !m.IsCastling() {
			movers |= 1 << q.PieceAt(m.From())
		}
		all, _ := moveSquares(&q, m)
		expl |= all
		q.MakeMove(m)
	}
	return r.stoodCost(p, rv.touched()&^expl, movers, rv) > 0
}

// deeperCheaper reports whether a sequence a ply longer than depth d may
// yet cost less than every one found (cs): what it costs at least, its
// plies beyond the first, is below the cheapest found. A sequence read
// with a missed capture and a hand out of order (3... Ne5 4. dxe5 for
// 3... dxc4 4. d5 Ne5, the capture's landing never seen emptied) pays
// for the evidence it does not fit; the true one a ply deeper does not.
func (r *Reconstructor) deeperCheaper(cs []cand, d int) bool {
	if d >= 4 || r.rec.framed {
		return false
	}
	least := cs[0].cost
	for i := range cs {
		least = min(least, cs[i].cost)
	}
	floor := r.lines[0].cost
	for li := range r.lines[:min(len(r.lines), maxResyncLines)] {
		floor = min(floor, r.lines[li].cost)
	}
	// (Without a clock a first capture nobody saw taken waits for the
	// reply: its ply is not priced.)
	return floor+costResyncPly*(d-1) < least
}

type resyncState struct {
	line    int // the hypothesis searched from
	back    int // ... after taking back its last ply (line 0 only)
	budget  int // node limit, 0 for none
	r       *Reconstructor
	rv      *recView
	reached chess.Bitboard // squares the sequence so far moved pieces to
	depth   int
	seq     [maxResync]chess.Move
	start   chess.Position
	nodes   int
}

// pending reports whether the first move of the sequence is one that is
// not published on its own without a clock: a capture whose victim's
// square was not seen lifted before the second move began, or a
// promotion whose piece no input told.
func (rs *resyncState) pending() bool {
	r, m := rs.r, rs.seq[0]
	if m.IsPromotion() && r.promo == chess.NoPieceType && r.sensor != trace.PieceSensor {
		return true
	}
	if m.IsCastling() || rs.start.PieceAt(m.To()) == chess.NoPiece {
		return false
	}
	off, ok := r.firstOff(m.To())
	next, ok2 := r.lastOff(rs.seq[1].From())
	return !ok || ok2 && off > next
}

func (rs *resyncState) search(p *chess.Position, ply int) {
	r := rs.r
	if ply == 0 {
		rs.start = *p
	}
	left := rs.depth - ply
	target := r.v.occ
	rs.nodes++
	if rs.budget > 0 && rs.nodes > rs.budget {
		return
	}
	// Each ply empties at most two squares and fills at most two.
	if (p.Occupied()&^target).Count() > 2*left || (target&^p.Occupied()).Count() > 2*left {
		return
	}
	// Every move starts on a square seen emptied, or one an earlier move
	// of the sequence filled; after a full frame any square may have been.
	from := rs.rv.lifted | rs.reached
	if r.rec.framed {
		from = ^chess.Bitboard(0)
	}
	if from&p.ByColor(p.SideToMove()) == 0 {
		return // the side to move touched none of its pieces
	}
	var ml chess.MoveList
	if left == 1 {
		p.MovesToOccupancy(target, &ml)
		for _, m := range ml.Moves() {
			if !from.Has(m.From()) && !(m.IsCastling() && from.Has(m.To())) {
				continue
			}
			if r.sensor != 0 {
				q := *p
				q.MakeMove(m)
				if r.v.diff(&q) != 0 {
					continue
				}
			}
			rs.seq[ply] = m
			per := costResyncPly
			if r.rec.framed {
				per = costFramePly
			}
			plies := rs.depth - 1
			if !r.clock && !r.rec.framed && rs.pending() {
				// Without a clock a capture nobody saw taken, or a
				// promotion without its piece, waits for the reply:
				// the two moves together are what the board is expected
				// to show, not a sign of missed events.
				plies--
			}
			c := cand{line: rs.line, back: rs.back, n: rs.depth, cost: r.lines[rs.line].cost + per*plies + backCost(r.clock)*rs.back}
			copy(c.moves[:], rs.seq[:rs.depth])
			sc, missed := r.seqCost(&rs.start, r.lastTo(rs.line, rs.back), c.moves[:c.n], rs.rv)
			c.cost += sc
			c.missed = missed
			if len(r.cands) < cap(r.cands) {
				r.cands = append(r.cands, c)
			}
		}
		return
	}
	p.GenerateLegal(&ml)
	for _, m := range ml.Moves() {
		if !from.Has(m.From()) && !(m.IsCastling() && from.Has(m.To())) {
			continue
		}
		if ply == 0 && rs.back > 0 && m == r.pub[len(r.pub)-rs.back] {
			continue // found without taking it back
		}
		u := p.MakeMove(m)
		rs.seq[ply] = m
		saved := rs.reached
		rs.reached |= m.To().Bitboard() | landings(m)
		rs.search(p, ply+1)
		rs.reached = saved
		p.UnmakeMove(m, u)
		if rs.budget > 0 && rs.nodes > rs.budget {
			return
		}
	}
}

// attacksFrom is the squares the piece on s attacks in p.
func attacksFrom(p *chess.Position, s chess.Square) chess.Bitboard {
	pc := p.PieceAt(s)
	return chess.Attacks(pc.Type(), pc.Color(), s, p.Occupied())
}
