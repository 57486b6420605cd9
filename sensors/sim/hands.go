package sim

import (
	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// playMove makes game move m on the physical board the way a hand does.
func (s *Source) playMove(m chess.Move, side chess.Color, rookFirst bool) {
	switch {
	case m.IsCastling():
		s.castle(m, side, rookFirst)
	case m.IsEnPassant():
		s.enPassant(m)
	default:
		s.normal(m, side)
	}
}

// path returns the squares strictly between from and to, from's side
// first, if they are on one line.
func path(from, to chess.Square) []chess.Square {
	bb := chess.Between(from, to)
	if bb == 0 {
		return nil
	}
	df, dr := sign(to.File()-from.File()), sign(to.Rank()-from.Rank())
	var out []chess.Square
	for sq := from; ; {
		sq = chess.NewSquare(sq.File()+df, sq.Rank()+dr)
		if sq == to {
			return out
		}
		out = append(out, sq)
	}
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// canSlide reports whether the piece on from could be slid to to: a
// straight line (or a king's step) over empty squares; knights jump.
func (s *Source) canSlide(from, to chess.Square) bool {
	pc := s.phys[from]
	if pc.Type() == chess.Knight {
		return false
	}
	if chess.Distance(from, to) > 1 && chess.Between(from, to) == 0 {
		return false
	}
	for _, sq := range path(from, to) {
		if s.phys[sq] != chess.NoPiece {
			return false
		}
	}
	return true
}

// slide moves the piece on from to to without lifting it: its magnet
// passes over the squares between, each read as occupied while the piece
// covers it (neighbouring squares overlap, so the next square may read
// occupied before the previous one is clear).
func (s *Source) slide(from, to chess.Square) {
	sqs := path(from, to)
	seg := s.between(70, 160) // ms per square
	t0 := s.t
	pc := s.phys[from]
	s.t = t0 + seg*6/10
	s.lift(from)
	for k, sq := range sqs {
		on := t0 + int64(k+1)*seg - seg*s.between(4, 7)/10
		off := t0 + int64(k+1)*seg + seg*s.between(4, 7)/10
		s.set(on, sq, pc)
		s.set(off, sq, chess.NoPiece)
	}
	n := int64(len(sqs) + 1)
	s.t = t0 + n*seg - seg*4/10
	s.place(to, pc)
	s.t = t0 + n*seg + minGap
	s.notef("slide")
}

// captureStyle picks how a capture on to is made.
type captureStyle int

const (
	victimFirst captureStyle = iota
	moverFirst
	pushOff    // the mover shoves the victim off its square: the square never reads empty
	forcedSwap // Rates.FastSwap: swapped between two samples of the square, whatever the scan period
)

func (s *Source) pickCapture() captureStyle {
	push := s.r.PushOff
	if s.hurry {
		push = s.r.PushOffHurry
	}
	switch {
	case s.chance(s.r.FastSwap):
		return forcedSwap
	case s.chance(push):
		return pushOff
	case s.chance(s.r.CaptureVictimFirst):
		return victimFirst
	}
	return moverFirst
}

// swapGap draws how long the victim of a mover-first capture is off its
// square before the mover lands: the hand holds the mover, plucks the
// victim and lowers the mover, in one quick motion or in two. Whether any
// scan sees the square empty in between is left to the sampling (flush).
func (s *Source) swapGap() (gap int64, quick bool) {
	p := s.r.QuickSwap
	if s.hurry {
		p = s.r.QuickSwapHurry
	}
	if s.chance(p) {
		return s.r.QuickGap.draw(s.rng), true
	}
	return s.r.SwapGap.draw(s.rng), false
}

// liftVictim takes a captured piece off sq and marks the change, so that
// flush can tell whether a scan saw the square empty before the mover
// landed (Stats).
func (s *Source) liftVictim(sq chess.Square) {
	i := len(s.changes)
	s.lift(sq)
	s.changes[i].victim = true
}

// swapIn removes the piece on sq and puts pc there between two samples of
// sq, so the scan never sees sq empty: the hand does it within less than a
// scan period, and flush aligns it with the scan.
func (s *Source) swapIn(sq chess.Square, pc chess.Piece) {
	s.ngrp++
	s.grp = s.ngrp
	s.phys[sq] = chess.NoPiece
	s.changes = append(s.changes, change{t: s.t, sq: sq, pc: chess.NoPiece, grp: s.grp, victim: true})
	s.t += s.between(0, s.period-2)
	// No contact bounce: a bounce sampled after the landing would show the
	// square empty, and the miss is forced.
	s.phys[sq] = pc
	s.set(s.t, sq, pc)
	s.grp = 0
	s.t += s.period + minGap
}

// normal plays a move that is neither castling nor en passant.
func (s *Source) normal(m chess.Move, side chess.Color) {
	from, to := m.From(), m.To()
	pawn := s.phys[from]
	final := pawn
	if pt := m.Promotion(); pt != chess.NoPieceType {
		final = chess.NewPiece(side, pt)
	}
	onLastRank := final != pawn && s.chance(s.r.PromoOnLastRank)
	first := final
	if onLastRank {
		first = pawn
	}
	s.reach()
	if s.phys[to] == chess.NoPiece {
		if final == pawn && s.canSlide(from, to) && s.chance(s.r.Slide) {
			s.slide(from, to)
			return
		}
		s.lift(from)
		s.changeMind(from, to, pawn)
		s.travel(from, to)
		s.arrive(to, pawn, final, onLastRank)
		return
	}
	switch style := s.pickCapture(); style {
	case victimFirst:
		s.notef("capture victim-first")
		s.liftVictim(to)
		s.aside()
		s.reach()
		if final == pawn && s.canSlide(from, to) && s.chance(s.r.Slide) {
			s.slide(from, to)
			return
		}
		s.lift(from)
		s.travel(from, to)
		s.arrive(to, pawn, final, onLastRank)
	case moverFirst:
		gap, quick := s.swapGap()
		if quick {
			s.notef("capture quick-swap gap=%dms", gap)
		} else {
			s.notef("capture mover-first gap=%dms", gap)
		}
		s.lift(from)
		s.travel(from, to)
		s.liftVictim(to)
		s.t += gap
		s.arrive(to, pawn, final, onLastRank)
	case pushOff, forcedSwap:
		if style == pushOff {
			s.notef("capture push-off")
		} else {
			s.notef("capture fast-swap")
		}
		s.lift(from)
		s.travel(from, to)
		if first != final {
			s.swapIn(to, first)
			s.arrive(to, pawn, final, true)
			return
		}
		if final != pawn {
			// The hand holds the new piece, not the pawn.
			s.swapIn(to, final)
			s.promoteChoice(final.Type())
			return
		}
		s.swapIn(to, final)
	}
}

// arrive puts the moving piece down on to. For a promotion the pawn is
// either placed on the last rank and then swapped for the new piece, or
// put aside and the new piece placed; with placedPawn the pawn already
// stands on to.
func (s *Source) arrive(to chess.Square, pawn, final chess.Piece, onLastRank bool) {
	if final == pawn {
		s.place(to, pawn)
		return
	}
	if onLastRank {
		if s.phys[to] == chess.NoPiece {
			s.place(to, pawn)
		}
		s.notef("promotion pawn-on-last-rank")
		s.wait(400, 2500) // fetching the new piece
		s.lift(to)
		s.wait(150, 500)
	} else {
		s.wait(500, 2000)
	}
	s.place(to, final)
	s.promoteChoice(final.Type())
}

// promoteChoice gives a board without piece recognition the promotion
// piece (a button on the board or clock), unless Options.NoPromote.
func (s *Source) promoteChoice(pt chess.PieceType) {
	if pt == chess.Queen || s.opts.Sensor == trace.PieceSensor || s.opts.NoPromote {
		return
	}
	s.wait(200, 1500)
	s.direct = append(s.direct, trace.Event{T: s.t, Kind: trace.Promote, Promo: pt})
	s.notef("promote %c", pt.Letter())
}

// changeMind sometimes touches the lifted piece down on another square
// briefly before it goes to its destination.
func (s *Source) changeMind(from, to chess.Square, pc chess.Piece) {
	if !s.chance(s.r.ChangeMind) {
		return
	}
	var cands []chess.Square
	for bb := chess.KingAttacks(to) &^ (from.Bitboard() | s.busy); bb != 0; bb &= bb - 1 {
		if sq := bb.First(); s.phys[sq] == chess.NoPiece {
			cands = append(cands, sq)
		}
	}
	if len(cands) == 0 {
		return
	}
	x := cands[s.rng.IntN(len(cands))]
	s.travel(from, x)
	s.place(x, pc)
	s.wait(120, 350)
	s.lift(x)
	s.notef("touch-down %s", x)
}

// castle plays castling move m: king first, king and rook together, or
// (an injected irregularity) rook first. Chess960 castling where the king
// or rook already stands on its destination, or where they swap squares,
// follows the same styles with the pieces the hand has to move.
func (s *Source) castle(m chess.Move, side chess.Color, rookFirst bool) {
	kFrom, rFrom := m.From(), m.To()
	kTo, rTo := m.CastlingKingTo(), m.CastlingRookTo()
	king, rook := s.phys[kFrom], s.phys[rFrom]
	s.reach()
	switch {
	case rookFirst:
		s.inject(injRookFirst, side, kFrom, rFrom)
		s.notef("castling rook-first")
		s.carry(rFrom, rTo)
		s.wait(300, 2000)
		s.carry(kFrom, kTo)
	case kFrom == kTo:
		// Only the rook changes square.
		if s.chance(s.r.KingTouchOnly) {
			s.notef("castling king-touched")
			s.carry(rFrom, rTo)
			return
		}
		s.notef("castling king-lifted")
		s.lift(kFrom)
		s.wait(100, 500)
		s.carry(rFrom, rTo)
		s.wait(80, 400)
		s.place(kFrom, king)
	case rFrom == rTo:
		// Only the king changes square.
		s.notef("castling king-only")
		s.carry(kFrom, kTo)
	case kTo == rFrom || s.chance(s.r.CastleTogether):
		// Both in the hand at once (needed when the king goes where the
		// rook stands).
		s.notef("castling together")
		s.lift(kFrom)
		s.wait(minGap, 250)
		s.lift(rFrom)
		s.travel(kFrom, kTo)
		if s.rng.IntN(2) == 0 || kTo == rFrom {
			s.place(kTo, king)
			s.wait(60, 400)
			s.place(rTo, rook)
		} else {
			s.place(rTo, rook)
			s.wait(60, 400)
			s.place(kTo, king)
		}
	default:
		s.notef("castling king-first")
		s.carry(kFrom, kTo)
		s.wait(150, 700)
		s.carry(rFrom, rTo)
	}
}

// rookFirstPossible reports whether castling move m can be made rook
// first in a way that is visible: both pieces move and the rook's
// destination is free before the king moves.
func rookFirstPossible(m chess.Move) bool {
	if !m.IsCastling() {
		return false
	}
	kFrom, rFrom := m.From(), m.To()
	kTo, rTo := m.CastlingKingTo(), m.CastlingRookTo()
	return kFrom != kTo && rFrom != rTo && rTo != kFrom
}

// enPassant plays an en passant capture with the captured pawn removed
// before, during or after the capturing pawn's move.
func (s *Source) enPassant(m chess.Move) {
	from, to := m.From(), m.To()
	victim := chess.NewSquare(to.File(), from.Rank())
	s.reach()
	switch s.rng.IntN(3) {
	case 0:
		s.notef("en-passant victim-first")
		s.lift(victim)
		s.aside()
		s.reach()
		s.carry(from, to)
	case 1:
		s.notef("en-passant victim-during")
		pc := s.lift(from)
		s.travel(from, victim)
		s.lift(victim)
		s.wait(100, 400)
		s.place(to, pc)
	default:
		s.notef("en-passant victim-after")
		s.carry(from, to)
		s.wait(300, 1500)
		s.lift(victim)
	}
}

// ownPiece picks a random piece of side on the physical board.
func (s *Source) ownPiece(side chess.Color) chess.Square {
	var sqs [16]chess.Square
	n := 0
	for sq, pc := range s.phys {
		if pc != chess.NoPiece && pc.Color() == side && n < len(sqs) && !s.busy.Has(chess.Square(sq)) {
			sqs[n] = chess.Square(sq)
			n++
		}
	}
	if n == 0 {
		return chess.NoSquare
	}
	return sqs[s.rng.IntN(n)]
}

// preExtras: before the move the player may lift a piece and put it back
// (a hesitation, the moving piece itself or another) or adjust one.
func (s *Source) preExtras(m chess.Move, side chess.Color) {
	if s.chance(s.r.Hesitation) {
		sq := m.From()
		if s.rng.IntN(2) == 0 {
			sq = s.ownPiece(side)
		}
		s.reach()
		pc := s.lift(sq)
		s.wait(300, 2500)
		s.place(sq, pc)
		s.wait(300, 1500)
		s.notef("hesitation %s", sq)
	}
	if s.chance(s.r.Adjustment / 2) {
		s.adjust(side)
	}
}

// postExtras: after the move the player may adjust a piece or knock one
// over and put it back.
func (s *Source) postExtras(m chess.Move, side chess.Color) {
	if s.chance(s.r.Adjustment / 2) {
		s.adjust(side)
	}
	if s.chance(s.r.Knock) && s.canKnock(m) {
		s.knock(m, side, false)
	}
}

// adjust lifts one of side's pieces a moment and sets it down again.
func (s *Source) adjust(side chess.Color) {
	sq := s.ownPiece(side)
	if sq == chess.NoSquare {
		return
	}
	s.reach()
	pc := s.lift(sq)
	s.wait(60, 250)
	s.place(sq, pc)
	s.wait(minGap, 300)
	s.notef("adjust %s", sq)
}

// knockable returns the squares next to move m's destination holding a
// piece other than a king that could be knocked over: not the castling
// rook the hand has just set down.
func (s *Source) knockable(m chess.Move) []chess.Square {
	to, keep := m.To(), chess.NoSquare
	if m.IsCastling() {
		to, keep = m.CastlingKingTo(), m.CastlingRookTo()
	}
	var out []chess.Square
	for bb := chess.KingAttacks(to); bb != 0; bb &= bb - 1 {
		sq := bb.First()
		if pc := s.phys[sq]; pc != chess.NoPiece && pc.Type() != chess.King && sq != keep && !s.busy.Has(sq) {
			out = append(out, sq)
		}
	}
	return out
}

func (s *Source) canKnock(m chess.Move) bool {
	// The physical board equals the position before the move here; after
	// the move the neighbours of the destination are the same squares.
	p := s.pos
	p.MakeMove(m)
	to, keep := m.To(), chess.NoSquare
	if m.IsCastling() {
		to, keep = m.CastlingKingTo(), m.CastlingRookTo()
	}
	for bb := chess.KingAttacks(to); bb != 0; bb &= bb - 1 {
		if sq := bb.First(); sq != keep {
			if pc := p.PieceAt(sq); pc != chess.NoPiece && pc.Type() != chess.King {
				return true
			}
		}
	}
	return false
}

// knock has the withdrawing hand knock a neighbour of the destination
// over: it falls onto an empty neighbouring square or off the board. A
// careful player puts it back at once; with leave (an injected
// irregularity) it stays misplaced until after the press and is put back
// in the next move (before or after the opponent's move).
func (s *Source) knock(m chess.Move, side chess.Color, leave bool) {
	cands := s.knockable(m)
	if len(cands) == 0 {
		return
	}
	origin := cands[s.rng.IntN(len(cands))]
	landing := chess.NoSquare
	if s.rng.IntN(10) < 6 {
		// Not onto a square the move emptied: the board would then show
		// another move (the knocked piece's) as plausibly as the real one.
		// Left lying there, it must not look like a move either player
		// could have made.
		emptied := s.physAt0Occ() &^ s.physOcc()
		var free []chess.Square
		for bb := chess.KingAttacks(origin) &^ emptied; bb != 0; bb &= bb - 1 {
			if sq := bb.First(); s.phys[sq] == chess.NoPiece && !s.busy.Has(sq) && !(leave && s.looksLikeMove(m, origin, sq)) {
				free = append(free, sq)
			}
		}
		if len(free) > 0 {
			landing = free[s.rng.IntN(len(free))]
		}
	}
	s.wait(minGap, 150)
	if leave {
		if landing == chess.NoSquare {
			s.inject(injMisplaced, side, origin)
		} else {
			s.inject(injMisplaced, side, origin, landing)
		}
	}
	pc := s.lift(origin)
	if landing != chess.NoSquare {
		s.wait(40, 200)
		s.place(landing, pc)
	}
	f := &fixLater{origin: origin, landing: landing, pc: pc}
	if leave {
		f.afterMove = s.fixAfterMove(f)
		s.fix = f
		return
	}
	s.notef("knock %s", origin)
	if s.chance(s.r.KnockOverlap) && s.canOverlap(f) {
		s.overlap, s.overlapAt = f, s.t+s.between(400, 2500)
		return
	}
	s.wait(400, 2500)
	s.doFix(f)
}

// canOverlap reports whether knocked piece f can be put back while the
// opponent's next move is made: in a game without a clock (with one, the
// player puts it back before pressing, or it would be misplaced at the
// press), when there is a next move, with no injection planned, that does
// not involve the squares the piece lies on or goes back to.
func (s *Source) canOverlap(f *fixLater) bool {
	i := s.ply + 1
	if s.clocked || i >= len(s.moves) {
		return false
	}
	for _, p := range s.plan {
		if p == i {
			return false
		}
	}
	next := s.moves[i]
	touched := next.From().Bitboard() | next.To().Bitboard() | chess.Between(next.From(), next.To())
	if next.IsCastling() {
		touched |= next.CastlingKingTo().Bitboard() | next.CastlingRookTo().Bitboard()
	}
	if next.IsEnPassant() {
		touched |= chess.NewSquare(next.To().File(), next.From().Rank()).Bitboard()
	}
	if f.landing != chess.NoSquare && touched.Has(f.landing) {
		return false
	}
	return !touched.Has(f.origin)
}

// fixAfterMove decides whether a piece left misplaced can stay so during
// the opponent's next move: only in a clocked game, when it lies off the
// board and that move does not involve its square.
func (s *Source) fixAfterMove(f *fixLater) bool {
	// Without a clock nothing marks the end of the knocker's move: the
	// misplaced board must stand still a while on its own.
	if !s.clocked || f.landing != chess.NoSquare || s.ply+1 >= len(s.moves) || s.rng.IntN(2) == 0 {
		return false
	}
	next := s.moves[s.ply+1]
	touched := next.From().Bitboard() | next.To().Bitboard()
	if next.IsCastling() {
		touched |= next.CastlingKingTo().Bitboard() | next.CastlingRookTo().Bitboard()
	}
	if next.IsEnPassant() {
		touched |= chess.NewSquare(next.To().File(), next.From().Rank()).Bitboard()
	}
	return !touched.Has(f.origin)
}

// looksLikeMove reports whether a piece going from a to b is a legal move
// before or after move m.
func (s *Source) looksLikeMove(m chess.Move, a, b chess.Square) bool {
	p := s.pos
	for k := 0; k < 2; k++ {
		for _, lm := range p.LegalMoves() {
			if lm.From() == a && lm.To() == b {
				return true
			}
		}
		p.MakeMove(m)
	}
	return false
}

// doFix puts a knocked piece back on its square.
func (s *Source) doFix(f *fixLater) {
	s.reach()
	if f.landing != chess.NoSquare {
		s.lift(f.landing)
		s.travel(f.landing, f.origin)
	}
	s.place(f.origin, f.pc)
	s.wait(minGap, 300)
	s.notef("put back %s", f.origin)
}

func occOf(b *[64]chess.Piece) chess.Bitboard {
	var occ chess.Bitboard
	for sq, pc := range b {
		if pc != chess.NoPiece {
			occ |= chess.Square(sq).Bitboard()
		}
	}
	return occ
}

func (s *Source) physOcc() chess.Bitboard    { return occOf(&s.phys) }
func (s *Source) physAt0Occ() chess.Bitboard { return occOf(&s.physAt0) }
