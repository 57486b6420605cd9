package reconstruct

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/rules"
	"github.com/boardd/boardd/trace"
)

// adopt makes candidate bi (and the alternatives as good as it that
// explain the board the same number of moves on) the new hypotheses, and
// publishes the difference. t is the board time of the moves.
func (r *Reconstructor) adopt(bi int, t int64, out []Output) []Output {
	r.ver++
	defer func() { r.ver++ }()
	if c := &r.cands[bi]; c.line == 0 && c.back == 1 && c.n == 0 && !c.stale {
		// The last move taken back, the board as before it: when that
		// move's hand may have knocked a piece while making a castling
		// the board cannot show (keepHiddenCastling), the put-back shows
		// the castling was the move.
		if h, ok := r.hiddenCastlingLine(); ok && h.back == 1 {
			c.n, c.moves[0] = 1, h.moves[0]
		}
	}
	if c := &r.cands[bi]; c.line == 0 && c.back == 0 && !c.stale && c.n > 0 && r.mayOrder(c.n) {
		if m, ok := r.inOrder(c.moves[:c.n]); ok {
			if m.n != c.n {
				return r.adoptCatch([]catchMatch{m}, 0, t, out)
			}
			// (Not a move that toppled back put later: its first
			// landing made it, toppledFirst.)
			if (r.sensor != trace.Occupancy || slices.Equal(m.moves[:m.n], c.moves[:c.n]) || r.firstToppled(m.moves[:m.n]) <= r.firstToppled(c.moves[:c.n])) && !r.searchedCheaper(c, m.moves[:m.n]) {
				copy(c.moves[:], m.moves[:m.n])
			}
		}
	}
	best := r.cands[bi]
	var retracted chess.Move
	if best.stale {
		// Back to a history set aside: the published move beyond it was
		// legal only in the history published, and the arbiter set it
		// back.
		S := r.stale[best.line]
		keep := len(S.moves)
		retracted = r.pub[keep]
		moves := append(append(make([]chess.Move, 0, keep+best.n+16), S.moves...), best.moves[:best.n]...)
		pos := S.pos
		for _, m := range best.moves[:best.n] {
			pos.MakeMove(m)
		}
		r.spare = append(r.spare[:0], line{moves: moves, pos: pos, cost: best.cost, stale: true, illegalAt: keep, illegal: retracted})
		r.keepTakenBack(best, keep, retracted)
		r.lines, r.spare = r.spare, r.lines
		r.sortLines()
	} else if best.back > 0 {
		L0 := r.lines[0]
		keep := len(L0.moves) - best.back
		retracted = L0.moves[keep]
		pos := r.befores[keep]
		moves := append(L0.moves[:keep], best.moves[:best.n]...)
		for _, m := range best.moves[:best.n] {
			pos.MakeMove(m)
		}
		r.spare = append(r.spare[:0], line{moves: moves, pos: pos, cost: best.cost})
		r.keepTakenBack(best, keep, retracted)
		r.lines, r.spare = r.spare, r.lines
		r.sortLines()
	} else {
		r.keepStale(&best)
		r.spare = r.spare[:0]
		var used [maxLines]bool
		for i := range r.cands {
			c := &r.cands[i]
			if c.back != 0 || c.n != best.n || c.cost > best.cost+pruneGap {
				continue
			}
			src := &r.lines[c.line]
			mv := src.moves
			if used[c.line] {
				mv = append(make([]chess.Move, 0, len(src.moves)+16), src.moves...)
			}
			used[c.line] = true
			mv = append(mv, c.moves[:c.n]...)
			pos := src.pos
			for _, m := range c.moves[:c.n] {
				pos.MakeMove(m)
			}
			r.spare = append(r.spare, line{moves: mv, pos: pos, cost: keptCost(c, &best),
				stale: src.stale, illegalAt: src.illegalAt, illegal: src.illegal})
		}
		r.lines, r.spare = r.spare, r.lines
		r.sortLines()
	}
	if L := &r.lines[0]; L.stale {
		// Back in a history set aside: the move that was taken back
		// then was legal only in the other one. One legal there too
		// was no illegal move: the board read the history set aside
		// wrongly (another capture nobody saw), and that history
		// explains the moves made since. Nor was a capture whose victim
		// nobody saw lifted: a reading of a swap faster than a scan (39...
		// exf5, read so after 39. Nxd5 was read as Nxf5, when the pawn
		// was seen taking on d5).
		if !r.legalAt(L.illegalAt, L.illegal) && !r.blindAt(L.illegalAt, L.illegal) {
			out = r.alertIllegalTakenBack(L.illegalAt, L.illegal, t, out)
		}
		for i := range r.lines {
			r.lines[i].stale = false
		}
		r.stale = r.stale[:0]
	}
	if r.orientOK&(r.orientOK-1) != 0 && r.orient != 0 {
		// The first move decided which way the board is turned.
		deg := int(r.orient) * 90
		out = r.alert(out, Output{Alert: BoardRotated, T: t, Ply: r.start.Ply() + len(r.plies) + 1, Side: chess.White,
			Expected: "White's pieces on ranks 1 and 2 (a1 at White's left)",
			Seen:     fmt.Sprintf("the board turned %d degrees", deg),
			Text:     fmt.Sprintf("The board is turned %d degrees (seen from the first move); boardd compensates.", deg)})
	}
	n0 := len(r.plies)
	rel := r.released
	r.released = chess.NoMove
	out = r.publish(t, out)
	r.markBlind(best.n)
	if best.back == 0 && len(r.plies) == n0+1 {
		r.keepHiddenCastling(n0)
		r.keepKnockedFrom(n0)
	}
	if rel != chess.NoMove && best.back == 0 && best.n >= 1 && n0 < len(r.plies) {
		// A released move is changed only by picking its piece up again.
		// Swapping the pawn on the last rank for the new piece is how a
		// promotion is made (4.6), not a changed move.
		m := best.moves[0]
		samePromo := m.IsPromotion() && rel.From() == m.From() && rel.To() == m.To()
		if m != rel && r.relPicked && !samePromo && !(m.IsCastling() && rel.From() == m.To()) && !r.madeBefore(&r.befores[n0], m, rel) {
			out = r.alertChanged(n0, rel, t, out)
		}
	}
	// Rook-first castling: among the moves just made, or a published rook
	// move that the king's move turned into castling.
	L := &r.lines[0]
	for i := len(L.moves) - best.n; i < len(L.moves); i++ {
		m := L.moves[i]
		if m.IsCastling() && r.rookFirst(m, prevMove(L.moves, i), retracted, i == len(L.moves)-best.n) {
			out = r.alertRookFirst(i, t, out)
		}
	}
	for i := range best.moves[:best.n] {
		if best.moves[i].IsPromotion() {
			r.promo = chess.NoPieceType
		}
	}
	r.rec.resetExcept(r.changedSince(max(n0-best.back, 0)))
	r.prov = chess.NoMove
	r.alertKey = 0
	// Misplaced squares the board shows as the game now expects them
	// were put right (perhaps just before the move, too briefly for a
	// still board to show it).
	if r.overlay != 0 {
		alerted := r.overlay &^ r.silent
		r.overlay &= r.v.diff(&r.lines[0].pos)
		r.silent &= r.overlay
		out = r.settled(alerted, t, out)
	}
	if r.state == stateSetup || r.state == stateIrregular {
		r.state = statePlay
	}
	r.orientOK = 1 << r.orient
	if len(r.plies) > n0 || best.back > 0 {
		out = r.gameState(t, out)
	}
	return out
}

// settled says which of the squares alerted out of place (alerted) the
// game published now expects as the board shows them:
// the move made settled them (4. Bxc6, the bishop taken off 350 ms after
// it landed and held 5 s, alerted missing, then 4... dxc6: the alert
// stayed open to the end).
func (r *Reconstructor) settled(alerted chess.Bitboard, t int64, out []Output) []Output {
	fixed := alerted &^ r.overlay
	switch {
	case fixed == 0:
		return out
	case r.overlay&^r.silent == 0:
		return r.note(out, NoteRestored, t, fixed, "the squares alerted out of place are as the game now has them: "+fixed.List())
	default:
		return r.note(out, NotePartlyRestored, t, r.overlay&^r.silent,
			"the squares alerted out of place are as the game now has them but for "+(r.overlay&^r.silent).List())
	}
}

// dropOtherPromos drops the hypotheses in which published ply i, a
// promotion whose piece its input chose, promoted to another piece: the
// choice is final (1. e8=N with its input, then Kg7 into the knight's
// check, was amended to e8=Q+ Kg7 rather than alerted).
func (r *Reconstructor) dropOtherPromos(i int) {
	m := r.plies[i].move
	keep := r.lines[:1]
	for _, L := range r.lines[1:] {
		if i < len(L.moves) && L.moves[i] != m && L.moves[i].From() == m.From() && L.moves[i].To() == m.To() {
			continue
		}
		keep = append(keep, L)
	}
	r.lines = keep
}

// markBlind marks which of the last n published moves are captures whose
// victims were never seen lifted, and promotions whose piece no sensor or
// input told (revive looks back at them).
func (r *Reconstructor) markBlind(n int) {
	rv := r.recView()
	for i := max(len(r.plies)-n, 0); i < len(r.plies); i++ {
		m, before := r.plies[i].move, &r.befores[i]
		r.plies[i].blind = !r.rec.framed && !m.IsCastling() && before.PieceAt(m.To()) != chess.NoPiece && !rv.lifted.Has(m.To())
		r.plies[i].blindPromo = m.IsPromotion() && r.sensor != trace.PieceSensor && r.promo == chess.NoPieceType
		if m.IsPromotion() && m.Promotion() == r.promo {
			// (Its input chose the piece: final once on the square,
			// 4.4.4 / 4.6.)
			r.dropOtherPromos(i)
		}
		r.plies[i].framed = r.rec.framed
		r.plies[i].slidFirst = false
		if r.sensor == trace.Occupancy && i > len(r.plies)-n && !m.IsCastling() &&
			chess.KingAttacks(m.From()).Has(m.To()) && before.PieceAt(m.To()) == chess.NoPiece {
			on, ok1 := r.lastOn(m.To())
			off, ok2 := r.lastOff(m.From())
			// (Or read landed before the move it answers was: 42...
			// Qxe5 g4 published for Qg4 with the g3 pawn knocked off
			// and e5 touched, g4 filled before e5; the board then showed
			// the game with e6 played, and the game went dark.)
			prev, ok3 := r.lastOn(r.plies[i-1].move.Landing())
			r.plies[i].slidFirst = ok1 && ok2 && on < off && (r.plies[i-1].blind || ok3 && on < prev)
		}
	}
}

// keepHiddenCastling keeps for revive a castling that the board cannot
// show (a Chess960 king and rook trading squares, on colour and occupancy
// sensors) as the alternative of published move i when every square of it
// was lifted and filled again while the move was made: the move may have
// been a piece the castling hand knocked, which a later put-back shows.
func (r *Reconstructor) keepHiddenCastling(i int) {
	if r.sensor == trace.PieceSensor || r.rec.framed {
		return
	}
	m, before := r.plies[i].move, &r.befores[i]
	rv := r.recView()
	mAll, _ := moveSquares(before, m)
	again := rv.lifted & rv.placed &^ mAll
	if again.Count() < 2 || before.Castling() == 0 {
		return
	}
	for _, a := range r.legal(before).Moves() {
		if !a.IsCastling() || a == m {
			continue
		}
		all, _ := moveSquares(before, a)
		from := a.From().Bitboard() | a.To().Bitboard()
		if all == from && all&^again == 0 && !slices.Contains(r.plies[i].alts, a) {
			r.plies[i].alts = append(r.plies[i].alts, a)
		}
	}
}

// keepKnockedFrom keeps for revive, on occupancy and colour boards, the
// moves that land where quiet move i landed from a square next to its
// piece's, lifted before that piece and filled again since: the move may
// have been that one, its hand knocking the piece of i next door onto the
// square it left. (2. Nf3 knocking f2 onto g1 shows on these boards as 2.
// f3; the pawn put back while Black replied then read as an illegal
// knight move g1-f2, and the game stayed wrong.)
func (r *Reconstructor) keepKnockedFrom(i int) {
	m, before := r.plies[i].move, &r.befores[i]
	if r.sensor == trace.PieceSensor || r.rec.framed || m.IsCastling() || m.IsPromotion() || before.PieceAt(m.To()) != chess.NoPiece {
		return
	}
	lift, ok := r.lastOff(m.From())
	if !ok {
		return
	}
	// (The squares first: a published move rarely has one, and the legal
	// moves are not asked for then.)
	rv := r.recView()
	var from chess.Bitboard
	for b := chess.KingAttacks(m.From()) & before.ByColor(before.SideToMove()) & rv.lifted & rv.placed; b != 0; b &= b - 1 {
		s := b.First()
		off, _ := r.firstOff(s)
		on, _ := r.lastOn(s)
		if off < lift && lift <= on {
			from |= s.Bitboard()
		}
	}
	if from == 0 {
		return
	}
	for _, a := range r.legal(before).Moves() {
		if a.To() == m.To() && from.Has(a.From()) && !a.IsCastling() && !a.IsPromotion() && !slices.Contains(r.plies[i].alts, a) {
			r.plies[i].alts = append(r.plies[i].alts, a)
		}
	}
}

// hiddenCastlingLine returns, as a candidate taking back the plies from
// one to the last published and making them again, the history in which a
// recent published move was the castling kept as its alternative
// (keepHiddenCastling) and the moves after it were the same, when the
// still board shows that history and no published move since touched the
// castling's squares or the move's: the piece the castling hand knocked
// (read as the move) was put back, here while the opponent replied or
// before the board showed anything else. (Without a clock: a Chess960
// castling with a knocked g2 pawn read as g3 and put back during the
// reply left the game 81 plies behind.)
func (r *Reconstructor) hiddenCastlingLine() (cand, bool) {
	n := len(r.plies)
	if r.sensor == trace.PieceSensor || r.rec.framed {
		return cand{}, false
	}
	for i := n - 1; i >= 0 && i >= n-maxHiddenBack; i-- {
		for _, a := range r.plies[i].alts {
			if !a.IsCastling() {
				continue
			}
			before := &r.befores[i]
			mAll, _ := moveSquares(before, r.plies[i].move)
			aAll, _ := moveSquares(before, a)
			pos := *before
			pos.MakeMove(a)
			ok := true
			for _, m := range r.pub[i+1:] {
				if all, _ := moveSquares(&pos, m); all&(mAll|aAll) != 0 || !r.legal(&pos).Contains(m) {
					ok = false
					break
				}
				pos.MakeMove(m)
			}
			if !ok || r.v.diff(&pos) != 0 {
				continue
			}
			c := cand{line: 0, back: n - i, n: n - i, cost: r.lines[0].cost}
			c.moves[0] = a
			copy(c.moves[1:], r.pub[i+1:])
			return c, true
		}
	}
	return cand{}, false
}

// keepStale sets aside the published history when best changes it to
// explain the board (another capture nobody saw taken, another promotion
// piece): the move that needed the change may be an illegal one that the
// arbiter then takes back, and the takeback must be able to return to the
// history it interrupted. The stale line costs what an illegal move would
// have; it is kept for two more plies.
func (r *Reconstructor) keepStale(best *cand) {
	same := true
	if L := &r.lines[best.line]; best.line != 0 {
		for i := range min(len(L.moves), len(r.pub)) {
			if L.moves[i] != r.pub[i] {
				same = false
				break
			}
		}
	}
	if !same {
		old := &r.lines[0]
		r.stale = append(r.stale[:0], line{moves: append([]chess.Move(nil), old.moves...), pos: old.pos,
			cost: old.cost + costIllegal})
		return
	}
	k := 0
	for _, s := range r.stale {
		if len(s.moves)+2 >= len(r.pub)+best.n {
			r.stale[k] = s
			k++
		}
	}
	r.stale = r.stale[:k]
}

// keepTakenBack adds to r.spare the other hypotheses taken back as far as
// the best (to keep moves), with best's moves made, where that explains
// the board too: a takeback must not lose the alternative to an earlier
// uncertain move (another capture that nobody saw taken), nor the history
// set aside for a move that is now taken back (keepStale).
//
// When best returns to a history set aside, the published hypotheses
// taken back as far are the alternatives, at the cost of a takeback.
func (r *Reconstructor) keepTakenBack(best cand, keep int, retracted chess.Move) {
	j0, src := 1, r.lines[0].cost
	if best.stale {
		j0, src = 0, r.stale[best.line].cost
	}
	for j := j0; j < len(r.lines)+len(r.stale); j++ {
		var Lj *line
		extra := 0
		if j < len(r.lines) {
			Lj = &r.lines[j]
			if len(Lj.moves) <= keep {
				continue
			}
			if Lj.cost > r.lines[0].cost+pruneGap {
				continue
			}
			if best.stale {
				extra = backCost(r.clock) * (len(Lj.moves) - keep)
			}
		} else if best.stale && j-len(r.lines) == best.line {
			continue
		} else if Lj = &r.stale[j-len(r.lines)]; len(Lj.moves) != keep {
			continue // (only back to where it was set aside)
		}
		pos := r.start
		for _, m := range Lj.moves[:keep] {
			pos.MakeMove(m)
		}
		ok := true
		for _, m := range best.moves[:best.n] {
			if !r.legal(&pos).Contains(m) {
				ok = false
				break
			}
			pos.MakeMove(m)
		}
		if !ok || r.v.diff(&pos)&^r.excused(&pos) != 0 {
			continue
		}
		moves := append(append(make([]chess.Move, 0, keep+best.n+16), Lj.moves[:keep]...), best.moves[:best.n]...)
		L := line{moves: moves, pos: pos, cost: best.cost + Lj.cost - src + extra}
		if j >= len(r.lines) {
			// The arbiter setting the position back after an illegal
			// move is no takeback in that history.
			L.cost -= backCost(r.clock) * best.back
			L.stale, L.illegalAt, L.illegal = true, keep, retracted
		}
		r.spare = append(r.spare, L)
	}
}

// bestBefore is the position before ply index i of the best hypothesis.
func (r *Reconstructor) bestBefore(i int) chess.Position {
	p := r.start
	for _, mv := range r.lines[0].moves[:i] {
		p.MakeMove(mv)
	}
	return p
}

// legalAt reports whether move m is legal at ply index i of the best
// hypothesis.
func (r *Reconstructor) legalAt(i int, m chess.Move) bool {
	p := r.bestBefore(i)
	return r.legal(&p).Contains(m)
}

// blindAt reports whether move m was published at ply index i as a
// capture whose victim nobody saw lifted.
func (r *Reconstructor) blindAt(i int, m chess.Move) bool {
	return i < len(r.plies) && r.plies[i].move == m && r.plies[i].blind
}

// alertIllegalTakenBack reports move m, made at ply index i and now taken
// back, as the illegal move it was in the history the game returned to.
func (r *Reconstructor) alertIllegalTakenBack(i int, m chess.Move, t int64, out []Output) []Output {
	p := r.bestBefore(i)
	from, to := m.From(), m.To()
	pc := p.PieceAt(from)
	what := fmt.Sprintf("%s %s-%s", pc.Type(), from, to)
	if p.PieceAt(to) != chess.NoPiece {
		what = fmt.Sprintf("%s %sx%s", pc.Type(), from, to)
	}
	return r.alert(out, Output{Alert: IllegalMove, T: t, Ply: p.Ply() + 1, Side: pc.Color(),
		Squares: from.Bitboard() | to.Bitboard(), From: from, To: to,
		Expected: fmt.Sprintf("a legal move by %s", colourName(p.SideToMove())), Seen: what,
		Text: fmt.Sprintf("Illegal move by %s: %s (%s); the position before it was set back.",
			colourName(pc.Color()), what, illegalReason(&p, pc, from, to))})
}

// rookFirst reports whether castling m, played after move prev (NoMove:
// not known), was made by moving the rook onto its square before the
// king was lifted.
func (r *Reconstructor) rookFirst(m, prev, retracted chess.Move, first bool) bool {
	kf, rf, rt := m.From(), m.To(), m.CastlingRookTo()
	if first && rookPartOf(m, retracted) {
		return true // the rook's move was published on its own
	}
	kOff, ok1 := r.firstOff(kf)
	rOff, ok2 := r.firstOff(rf)
	rOn, ok3 := r.firstOn(rt)
	if t, ok := r.landedAt(prev, kOff); ok2 && ok && rOff < t {
		// The rook touched before the move the castling answers landed,
		// in the player's turn before (Chess960: h8 adjusted, Ne6, d3,
		// then O-O king first, all decided at once): only a lift in
		// this turn counts.
		if rOff, ok2 = r.lastOff(rf); ok2 && rOff < t {
			return false
		}
	}
	// The rook must have stood on its square a moment before the king
	// was lifted: a board that scans its squares one after another (a
	// resonance board sweeps in about 250 ms) can report the lifts and
	// placements of king and rook moved together in either order.
	slack := int64(50)
	if r.sensor == trace.PieceSensor {
		slack = 150
	}
	if !ok1 || !ok2 || !ok3 || rOff >= kOff {
		return false
	}
	if rOn < rOff-r.sweepMs() {
		// Its square filled a sweep or more before the rook was lifted
		// (several plies decided at once; a sweep sooner is the order a
		// piece board reads them in): the rook's landing is the first
		// filling after its lift (the bounce of f8 as the bishop left
		// it, five seconds before O-O made with both hands, was taken
		// for it).
		if rOn, ok3 = r.onSince(rt, rOff); !ok3 {
			return false
		}
	}
	if kf == m.CastlingKingTo() && rOn < kOff {
		// A Chess960 castling whose king stays: the rook's move is the
		// whole castling (the king may only be touched), and the king
		// lifted once the rook is down is adjusted, not moved.
		return false
	}
	if rf == rt && rOn >= rOff && rOn-rOff < rookTouchedFirstMs {
		// A Chess960 castling whose rook stays: the king's move is the
		// whole castling, and the rook lifted and put straight back on
		// its square before it was adjusted, not moved (the king's
		// adjustment above, the other way round).
		return false
	}
	// Or the rook was clearly in the hand before the king was touched
	// (2018 4.4.2, 1997 4.4b: touched first), even if it came down after:
	// longer than a sweep of the board and a two-handed castling's
	// spread.
	return rOn+slack < kOff || kOff-rOff >= rookTouchedFirstMs
}

// onSince is when game square s was first read filled at or after t,
// from the log of changes (the record keeps only the first and last).
func (r *Reconstructor) onSince(s chess.Square, t int64) (int64, bool) {
	if !r.log.ok {
		return 0, false
	}
	raw := unrotSquare(s, r.orient)
	prev := r.log.prev
	if !r.log.prevOK {
		prev = nil
	}
	for _, evs := range [2][]logEvent{prev, r.log.evs} {
		for i := range evs {
			if e := &evs[i]; e.T >= t && e.Square == raw && e.Kind == trace.On {
				return e.T, true
			}
		}
	}
	return 0, false
}

// prevMove is the move before index i of moves, NoMove if none.
func prevMove(moves []chess.Move, i int) chess.Move {
	if i == 0 {
		return chess.NoMove
	}
	return moves[i-1]
}

// landedAt is when the piece of move m was set on its square, before
// time before (ok false if m is NoMove or no such placement is kept).
func (r *Reconstructor) landedAt(m chess.Move, before int64) (int64, bool) {
	if m == chess.NoMove {
		return 0, false
	}
	s := m.Landing()
	if t, ok := r.lastOn(s); ok && t < before {
		return t, true
	}
	if t, ok := r.firstOn(s); ok && t < before {
		return t, true
	}
	return 0, false
}

// rookPartOf reports whether rm is castling m's rook move made on its
// own (the rook onto its castled square, the king not yet moved).
func rookPartOf(m, rm chess.Move) bool {
	return m.IsCastling() && rm != chess.NoMove && !rm.IsCastling() && rm.From() == m.To() && rm.To() == m.CastlingRookTo()
}

// kingPartOf reports whether km is castling m's king move made on its own
// (the king onto its castled square, a legal move of its own, the rook
// not yet moved).
func kingPartOf(m, km chess.Move) bool {
	return m.IsCastling() && km != chess.NoMove && !km.IsCastling() && km.From() == m.From() && km.To() == m.CastlingKingTo()
}

// rookTouchedFirstMs: a rook lifted this long before its king was
// touched first.
const rookTouchedFirstMs = 600

// madeBefore reports whether move m (from position p) was complete
// before the piece of rel, a move that stood on the board long enough to
// have been released, was first lifted: rel was a piece knocked after m
// and put back (a bishop knocked onto f3 after castling), not a move
// changed into m.
func (r *Reconstructor) madeBefore(p *chess.Position, m, rel chess.Move) bool {
	lift, ok := r.firstOff(rel.From())
	if !ok {
		return false
	}
	all, _ := moveSquares(p, m)
	for b := all; b != 0; b &= b - 1 {
		s := b.First()
		if t, ok := r.lastOff(s); ok && t >= lift {
			return false
		}
		// (A landing next to rel's square read by the same sweep may be
		// reported just after the lift its hand caused: a rook set on f8
		// as castling's last act, knocking the pawn from g7.)
		near := int64(0)
		if chess.KingAttacks(s).Has(rel.From()) {
			near = r.sweepNearMs()
		}
		if t, ok := r.lastOn(s); ok && t >= lift+near {
			return false
		}
	}
	return true
}

// alertChanged reports that the move of ply index i replaced the move rel,
// which had stood on the board long enough to have been released.
func (r *Reconstructor) alertChanged(i int, rel chess.Move, t int64, out []Output) []Output {
	p := &r.plies[i]
	before := &r.befores[i]
	side := before.SideToMove()
	relSAN := r.san(before, rel)
	san := r.plySAN(i)
	return r.alert(out, Output{Alert: MoveChanged, T: t, Ply: before.Ply() + 1, Side: side,
		Squares: rel.From().Bitboard() | rel.To().Bitboard() | p.move.From().Bitboard() | p.move.To().Bitboard(),
		From:    rel.From(), To: rel.To(),
		Expected: fmt.Sprintf("%s, released first", relSAN), Seen: san,
		Text: fmt.Sprintf("%s released %s on the board and then played %s instead before pressing the clock.",
			colourName(side), relSAN, san)})
}

func (r *Reconstructor) alertRookFirst(i int, t int64, out []Output) []Output {
	p := &r.plies[i]
	m := p.move
	before := &r.befores[i]
	side := before.SideToMove()
	rf, rt := m.To(), m.CastlingRookTo()
	return r.alert(out, Output{Alert: CastlingRookFirst, T: t, Ply: before.Ply() + 1, Side: side,
		Squares: m.From().Bitboard() | rf.Bitboard() | rt.Bitboard(), From: m.From(), To: m.CastlingKingTo(),
		Expected: "the king moved first (or king and rook together)",
		Seen:     fmt.Sprintf("the rook moved %s-%s before the king", rf, rt),
		Text: fmt.Sprintf("%s castled (%s) by moving the rook %s-%s before touching the king.",
			colourName(side), r.plySAN(i), rf, rt)})
}

// keptCost is what the history kept with c costs once best is adopted:
// c's cost, but no more than missedTargetGap over best when the two differ
// only in where the last move's piece took a victim nobody saw leave (a
// swap faster than a scan), whatever the choice of a player
// (capturePrior) said. The next moves' evidence must be able to outweigh
// that choice (28. Qxa5, the queen taken at once by ...Nxa5, read as
// Qxb5 and the knight's capture as Nxd4 with a5 touched, until six plies
// later).
func keptCost(c, best *cand) int {
	n := best.n
	if !c.missed || !best.missed || c.n != n || n == 0 || c.line != best.line ||
		!slices.Equal(c.moves[:n-1], best.moves[:n-1]) || c.moves[n-1].From() != best.moves[n-1].From() {
		return c.cost
	}
	return min(c.cost, best.cost+missedTargetGap)
}

// sortLines orders the hypotheses by cost (stable), drops duplicates of a
// position, those far worse than the best and those beyond maxLines, and
// makes the best cost zero.
func (r *Reconstructor) sortLines() {
	ls := r.lines
	for i := 1; i < len(ls); i++ {
		for j := i; j > 0 && ls[j].cost < ls[j-1].cost; j-- {
			ls[j], ls[j-1] = ls[j-1], ls[j]
		}
	}
	n := 0
	for i := range ls {
		dup := false
		for j := 0; j < n; j++ {
			if ls[j].pos.Key() == ls[i].pos.Key() && ls[j].pos.HalfmoveClock() == ls[i].pos.HalfmoveClock() {
				dup = true
				break
			}
		}
		if dup || ls[i].cost > ls[0].cost+pruneGap || n >= maxLines {
			continue
		}
		if n != i {
			ls[n] = ls[i]
		}
		n++
	}
	base := ls[0].cost
	for i := 0; i < n; i++ {
		ls[i].cost -= base
	}
	for i := range r.stale {
		r.stale[i].cost -= base
	}
	r.lines = ls[:n]
}

// uncertain reports whether another close hypothesis disagrees on ply i.
func (r *Reconstructor) uncertain(i int, m chess.Move) bool {
	for j := 1; j < len(r.lines); j++ {
		L := &r.lines[j]
		if L.cost <= r.lines[0].cost+uncertainGap && (len(L.moves) <= i || L.moves[i] != m) {
			return true
		}
	}
	return false
}

// blindChoice reports whether m, to be published as ply index i from
// before, is a capture whose victim nobody saw taken while its piece had
// another capture: a board that sees only occupancy cannot tell them
// apart, whether or not the other is still a hypothesis, so the move is
// uncertain.
func (r *Reconstructor) blindChoice(i int, before *chess.Position, m chess.Move) bool {
	if m.IsCastling() || before.PieceAt(m.To()) == chess.NoPiece {
		return false
	}
	var blind bool
	if i < len(r.plies) {
		blind = r.plies[i].blind && r.plies[i].move.From() == m.From()
	} else {
		blind = !r.rec.framed && !r.recView().lifted.Has(m.To())
	}
	if !blind {
		return false
	}
	var ml chess.MoveList
	before.GenerateLegal(&ml)
	for _, a := range ml.Moves() {
		if a.From() == m.From() && a.To() != m.To() && !a.IsCastling() && before.PieceAt(a.To()) != chess.NoPiece {
			return true
		}
	}
	return false
}

// changedSince is the raw squares, none of the published plies' from
// index k on, first changed after the last change of theirs, without a
// clock on colour and piece boards: a hand at work after those moves were
// done, kept for the next decision (22. Nh3 lifted, and 22... f5 begun
// before the knight was down, as 21... g5 was published: the pawn's lift
// was forgotten with g5's events, and 27 plies went unpublished).
func (r *Reconstructor) changedSince(k int) chess.Bitboard {
	if r.clock || r.sensor == trace.Occupancy || k >= len(r.plies) || r.rec.framed {
		return 0
	}
	var own chess.Bitboard
	for i := k; i < len(r.plies); i++ {
		m := r.plies[i].move
		all, nl := moveSquares(&r.befores[i], m)
		if !m.IsCastling() {
			all |= chess.Between(m.From(), m.To())
		}
		own |= unrotBB(all|nl, r.orient)
	}
	done := int64(-1)
	for e := own & (r.rec.lifted | r.rec.placed); e != 0; e &= e - 1 {
		s := e.First()
		if r.rec.lifted.Has(s) {
			done = max(done, r.rec.lastOff[s])
		}
		if r.rec.placed.Has(s) {
			done = max(done, r.rec.lastOn[s])
		}
	}
	if done < 0 {
		return 0
	}
	// (Not a piece within two squares of them changed sooner than
	// knockMs after: the mover's hand knocking it, or where it fell,
	// alerted or put back as such.)
	near := around(own)
	near |= around(near)
	var keep chess.Bitboard
	for e := (r.rec.lifted | r.rec.placed) &^ own; e != 0; e &= e - 1 {
		s := e.First()
		first := int64(math.MaxInt64)
		if r.rec.lifted.Has(s) {
			first = r.rec.firstOff[s]
		}
		if r.rec.placed.Has(s) {
			first = min(first, r.rec.firstOn[s])
		}
		if first > done && (first-done >= knockMs || !near.Has(s)) {
			keep |= s.Bitboard()
		}
	}
	return keep
}

// resetLog starts the ordered decoder's log afresh after the published
// game changed (outputs from n0 on, nOld plies published before): from
// the change at which the plies added were done, keeping the changes
// after it, when the plies were only added and were made in the order
// of the changes; else from the board as it is now.
func (r *Reconstructor) resetLog(n0, nOld int, out []Output) {
	if l := &r.log; l.reread && l.ok && l.prevOK && l.nPrev <= len(r.plies) {
		// (decodeBack's decision: its changes, read again, go on from
		// the same position, for the next one to read again too: Ra5
		// published at a slide's pause in the plies it amended.)
		l.prev = append(l.prev, l.evs...)
		l.evs, l.start = l.evs[:0], r.raw
		return
	}
	added := !r.clock && len(r.plies) > nOld && r.log.ok
	div := len(r.plies) // the first ply retracted or amended
	for i := n0; i < len(out); i++ {
		if out[i].Kind == Retract || out[i].Kind == Amend {
			added = false
			div = min(div, out[i].Ply-1-r.start.Ply())
		}
	}
	if l := &r.log; !added && !r.clock && l.ok && l.prevOK && l.nPrev <= div && l.nPrev < len(r.befores) && r.befores[l.nPrev].Key() == l.prevKey {
		// (A decision that changed only plies the one before it
		// published, from the same position: their changes and its
		// own go on from there, for the next one to read again (dxc6
		// amended to dxe6 with Bxe2 h3 read from a knock, then the
		// pawn put back: nothing read the changes in order again, and
		// the game stayed 176 plies behind).)
		l.prev = append(l.prev, l.evs...)
		l.evs, l.start = l.evs[:0], r.raw
		return
	}
	if !added {
		r.log.reset(&r.raw)
		return
	}
	// (Only when the board has moved on from the game published: else
	// there is no next ply's change to keep, and the search costs a
	// quarter of a replay's time.)
	// (The changes this decision read are kept for decodeBack; the log
	// goes on after them.)
	k := len(r.log.evs)
	if r.movedOn() {
		if idx := r.takenThrough(&r.befores[nOld], r.pub[nOld:]); idx >= 0 && idx < k-1 {
			k = idx + 1
		}
	}
	r.log.split(k, nOld, r.befores[nOld].Key())
}

// movedOn reports whether the board differs from the published game,
// judged in a view of its own (the caller's may be edited: standReply).
func (r *Reconstructor) movedOn() bool {
	var v view
	r.raw.makeView(r.orient, &v)
	return v.diff(&r.lines[0].pos) != 0
}

// takebackNote tells the arbiter, on a board without a clock, that the
// board went back to the position before published ply n: the plies from
// n on, the last standing for ReleaseMs or more (let go: not a reading
// corrected a moment after it was published), are taken back. A released
// move stands (Art. 4.7 in every edition), but the board cannot tell a
// takeback the players agreed in a friendly game from a player moving a
// piece back out of turn; the arbiter can.
func (r *Reconstructor) takebackNote(t int64, n int, out []Output) []Output {
	var sq chess.Bitboard
	var b strings.Builder
	for i := n; i < len(r.plies); i++ {
		m := r.plies[i].move
		sq |= m.From().Bitboard() | m.To().Bitboard()
		if i > n {
			b.WriteByte(' ')
		}
		if before := &r.befores[i]; i == n || before.SideToMove() == chess.White {
			b.WriteString(before.MoveNumber())
			b.WriteByte(' ')
		}
		b.WriteString(r.plySAN(i))
	}
	what := "the move is"
	if len(r.plies)-n > 1 {
		what = "the moves are"
	}
	return r.note(out, NoteTakeback, t, sq, "the board went back to the position before "+b.String()+", and "+what+
		" taken back: a move let go on its square stands (Art. 4.7) unless the players agreed")
}

// publish brings the published moves in line with the best hypothesis:
// retractions, amendments, then new moves.
func (r *Reconstructor) publish(t int64, out []Output) []Output {
	n0, nOld := len(out), len(r.plies)
	defer func() {
		if len(out) > n0 {
			// The published game changed: the ordered decoder starts
			// from it, and from the board as it was when the moves
			// added were done: the changes since are the next plies'
			// (3... Nf4, then 4. Bxf4 pushed off and 4... exf4 begun
			// before Nf4 was published: forgotten with its changes,
			// nothing more was published for 11 plies).
			r.resetLog(n0, nOld, out)
		}
	}()
	L := &r.lines[0]
	// (Both sliced to one length up front: the loops then run without
	// bounds checks or reloads of L.moves. Four moves are one word, and
	// the published game nearly always agrees to its end.)
	nc := min(len(r.pub), len(L.moves))
	k, pub, lm := 0, r.pub[:nc], L.moves[:nc]
	for k+4 <= len(pub) && [4]chess.Move(pub[k:k+4]) == [4]chess.Move(lm[k:k+4]) {
		k += 4
	}
	for k < len(pub) && pub[k] == lm[k] {
		k++
	}
	if n := len(L.moves); !r.clock && r.state == statePlay && len(r.plies) > n && k >= n && t-r.plies[len(r.plies)-1].shown >= r.timing.ReleaseMs {
		out = r.takebackNote(t, n, out)
	}
	for len(r.plies) > len(L.moves) {
		p := &r.plies[len(r.plies)-1]
		before := &r.befores[len(r.plies)-1]
		out = append(out, Output{Kind: Retract, T: t, Ply: before.Ply() + 1, Side: before.SideToMove(),
			Old: p.move, OldSAN: p.san, OldUCI: p.uci, ClockMs: -1,
			Text: fmt.Sprintf("%s is taken back", r.plySAN(len(r.plies)-1))})
		r.plies = r.plies[:len(r.plies)-1]
		r.befores = r.befores[:len(r.plies)]
		r.pub = r.pub[:len(r.plies)]
	}
	var pos chess.Position
	switch {
	case k < len(r.plies):
		pos = r.befores[k]
	case k > 0 && r.tipPlies == k:
		pos = r.tip
	case k > 0:
		pos = r.befores[k-1]
		pos.MakeMove(r.plies[k-1].move)
	default:
		pos = r.start
	}
	for i := k; i < len(L.moves); i++ {
		m := L.moves[i]
		before := pos
		pos.MakeMove(m)
		var n notation
		if m == r.prov && before.Key() == r.provKey && r.prov != chess.NoMove {
			n = r.provN
		} else {
			n = r.writeAfter(&before, &pos, m)
		}
		unc := r.uncertain(i, m) || r.blindChoice(i, &before, m)
		o := Output{T: t, Ply: before.Ply() + 1, Side: before.SideToMove(), Move: m, SAN: n.san, UCI: n.uci,
			FEN: n.fen, Uncertain: unc, ClockMs: -1, From: chess.NoSquare, To: chess.NoSquare}
		if i < len(r.plies) {
			old := &r.plies[i]
			switch {
			case old.move != m || old.san != n.san:
				o.Kind = Amend
				o.Old, o.OldSAN, o.OldUCI = old.move, old.san, old.uci
				if old.move.From() == m.From() && chess.KingAttacks(old.move.To()).Has(m.To()) {
					r.stepped.ply, r.stepped.orig = i, old.move
				}
				o.Text = fmt.Sprintf("%s is corrected to %s", r.plySAN(i), r.san(&before, m))
				out = append(out, o)
			case r.befores[i].Key() != before.Key():
				// The same move after an earlier one amended: its
				// position is another, and a reader of the FENs must
				// see it (the knight put back on d6 and 26. Qb3 still
				// showing it on c5).
				o.Kind = Amend
				o.Old, o.OldSAN, o.OldUCI = old.move, old.san, old.uci
				o.Text = fmt.Sprintf("%s stands; an earlier move was corrected", n.san)
				out = append(out, o)
			}
			// (An amended capture by the same piece is still one whose
			// victim nobody saw.)
			blind := old.blind && old.move.From() == m.From()
			blindPromo := old.blindPromo && old.move.From() == m.From()
			var alts []chess.Move
			if old.move == m {
				alts = old.alts
			}
			step := old.step
			shown := old.shown
			if old.move != m {
				shown = t
			}
			*old = plyRec{move: m, t: old.t, shown: shown, san: n.san, uci: n.uci, uncertain: unc, blind: blind, blindPromo: blindPromo, alts: alts,
				landSeen: old.landSeen && old.move == m}
			if old.move == m {
				r.plies[i].step = step
			} else if !r.clock {
				r.plies[i].step = r.stepOf(&before, m, old.t, false)
			}
			r.pub[i] = m
			r.befores[i] = before
			continue
		}
		o.Kind = Move
		out = append(out, o)
		r.plies = append(r.plies, plyRec{move: m, t: t, shown: t, san: n.san, uci: n.uci, uncertain: unc, landSeen: r.landSeen(&before, m)})
		if !r.clock {
			// (Only knockRevert, without a clock, asks these.)
			r.plies[len(r.plies)-1].step = r.stepOf(&before, m, t, true)
		}
		r.pub = append(r.pub, m)
		r.befores = append(r.befores, before)
	}
	r.tip, r.tipPlies = pos, len(r.plies)
	return out
}

// landSeen reports whether a colour or piece sensor saw a piece of m's
// colour set down on m's landing since the last published move (m made
// from before).
func (r *Reconstructor) landSeen(before *chess.Position, m chess.Move) bool {
	if r.sensor == trace.Occupancy || r.rec.framed {
		return false
	}
	b := unrotSquare(m.Landing(), r.orient).Bitboard()
	if before.SideToMove() == chess.White {
		return r.rec.placedWhite&b != 0
	}
	return r.rec.placedBlack&b != 0
}

// stepSeen is the set of empty squares next to m's landing that were
// filled, then emptied, before the landing last filled while m was made
// (on m's way there, filled longer than a touch-down), and stood those of
// them filled standMs or longer, if on the way (not a pause on a slide).
func (r *Reconstructor) stepSeen(before *chess.Position, m chess.Move) (seen, stood chess.Bitboard) {
	if r.rec.framed || m.IsCastling() {
		return 0, 0
	}
	land, ok := r.lastOn(m.To())
	if !ok {
		return 0, 0
	}
	// (Most moves have no such square: one test on the record first.)
	near := chess.KingAttacks(m.To()) &^ before.Occupied()
	if near&rotBB(r.rec.placed&r.rec.lifted, r.orient) == 0 {
		return 0, 0
	}
	path := chess.Between(m.From(), m.To())
	for s := near; s != 0; s &= s - 1 {
		a := s.First()
		if on, ok := r.firstOn(a); ok && on < land {
			// (On the way to the landing, a stand, not a touch-down.)
			if off, ok := r.lastOff(a); ok && off > on && (!path.Has(a) || off-on > maxTouchMs) {
				seen |= a.Bitboard()
				if !path.Has(a) || off-on >= standMs {
					stood |= a.Bitboard()
				}
			}
		}
	}
	return seen, stood
}

// stepOf is the stepRec of m, published at t (its squares next door
// only if steps).
func (r *Reconstructor) stepOf(before *chess.Position, m chess.Move, t int64, steps bool) stepRec {
	var st stepRec
	if steps {
		seen, stood := r.stepSeen(before, m)
		st.seen, st.stood = nbMask(m.To(), seen), nbMask(m.To(), stood)
	}
	lift, land := r.moveTimes(before, m)
	if lift >= 0 {
		st.lift, st.known = int32(lift-t), st.known|liftKnown
	}
	if land >= 0 {
		st.land, st.known = int32(land-t), st.known|landKnown
	}
	return st
}

// moveTimes is when m's hand began (its piece last lifted, or its
// victim, if taken off first) and set its piece down on its landing in
// the record (-1 when not seen).
func (r *Reconstructor) moveTimes(before *chess.Position, m chess.Move) (lift, land int64) {
	lift, land = -1, -1
	if r.rec.framed {
		return lift, land
	}
	if t, ok := r.lastOff(m.From()); ok {
		lift = t
	}
	if before.PieceAt(m.To()) != chess.NoPiece && !m.IsCastling() {
		if t, ok := r.lastOff(m.To()); ok && (lift < 0 || t < lift) {
			lift = t
		}
	}
	if t, ok := r.lastOn(m.Landing()); ok {
		land = t
	}
	return lift, land
}

// occurrences is the number of times position p, the position after the
// published moves, has stood on the board in the game: p itself and the
// positions before the published moves since the last capture or pawn
// move (one before it cannot come back).
func (r *Reconstructor) occurrences(p *chess.Position) int {
	k, n := p.Key(), 1
	for i := max(len(r.befores)-p.HalfmoveClock(), 0); i < len(r.befores); i++ {
		if r.befores[i].Key() == k {
			n++
		}
	}
	return n
}

// gameState reports checkmate, stalemate, dead positions, automatic draws
// and claimable draws after the last published move.
func (r *Reconstructor) gameState(t int64, out []Output) []Output {
	if len(r.plies) == 0 || r.state == stateEnded {
		return out
	}
	p := &r.lines[0].pos
	ply := p.Ply()
	mover := p.SideToMove().Other()
	// Checkmate and stalemate leave no move to make. The other endings are
	// reported once, but moves still made on the board are followed and
	// published (an arbiter decides; no data is lost).
	end := func(k AlertKind, result, reason, text string) []Output {
		if r.result != "" {
			return out
		}
		out = r.alert(out, Output{Alert: k, T: t, Ply: ply, Side: p.SideToMove(), Text: text})
		r.result, r.reason = result, reason
		if k == Checkmate || k == Stalemate {
			r.state = stateEnded
			// A capture nobody saw taken, this move or one before it,
			// may have taken another piece: another hypothesis
			// disagrees, or revive may find one.
			n := len(r.plies)
			r.endDisputed = false
			for _, L := range r.lines[1:] {
				r.endDisputed = r.endDisputed || len(L.moves) >= n && !slices.Equal(L.moves[:n], r.pub)
			}
			for i := max(n-maxRevive, 0); i < n && !r.endDisputed; i++ {
				pr := &r.plies[i]
				r.endDisputed = pr.blind || pr.blindPromo || len(pr.alts) > 0
			}
		}
		return append(out, Output{Kind: End, T: t, Ply: ply, Result: result, Reason: reason, ClockMs: -1,
			From: chess.NoSquare, To: chess.NoSquare, Text: text})
	}
	inCheck, moves := p.InCheck(), p.HasLegalMove()
	switch {
	case inCheck && !moves:
		res := "1-0"
		if mover == chess.Black {
			res = "0-1"
		}
		return end(Checkmate, res, "checkmate", fmt.Sprintf("%s is checkmated.", colourName(mover.Other())))
	case !moves:
		return end(Stalemate, "1/2-1/2", "stalemate", fmt.Sprintf("%s is stalemated.", colourName(mover.Other())))
	case r.dead(p):
		return end(DeadPosition, "1/2-1/2", "dead position", "Neither side can checkmate by any series of legal moves.")
	case r.occurrences(p) >= 5:
		return end(DrawFivefold, "1/2-1/2", "fivefold repetition", "The same position has appeared five times.")
	case p.HalfmoveClock() >= 150:
		return end(Draw75Moves, "1/2-1/2", "75-move rule", "75 moves by each side without a capture or a pawn move.")
	}
	if r.occurrences(p) == 3 {
		out = r.alert(out, Output{Alert: ThreefoldClaimable, T: t, Ply: ply, Side: p.SideToMove(),
			Text: "The same position has appeared three times: a draw may be claimed."})
	}
	if p.HalfmoveClock() == 100 {
		out = r.alert(out, Output{Alert: FiftyMovesClaimable, T: t, Ply: ply, Side: p.SideToMove(),
			Text: "50 moves by each side without a capture or a pawn move: a draw may be claimed."})
	}
	return out
}

// dead reports a dead position (2018 and 2023 5.2.2, 1997 9.6): neither
// side can checkmate by any series of legal moves, as rules.Analyzer
// proves it (an undetermined answer is not a dead position). The
// analyser is asked only after a capture or a pawn move, since a move that
// can be undone does not make a live position dead, and only where a
// position can be dead without a long search: kings and minor pieces
// (the material cases), or kings, bishops and pawns none of which can
// advance (a locked pawn chain). It spends at most deadBudget nodes per
// side, so that a replay stays fast.
func (r *Reconstructor) dead(p *chess.Position) bool {
	if r.cfg.NoDeadAnalysis || p.HalfmoveClock() != 0 || !rules.DeadCandidate(p) {
		return false
	}
	if r.analyzer == nil {
		r.analyzer = rules.NewAnalyzer(deadBudget)
	}
	return r.analyzer.Analyze(p).Dead()
}

// flagFall reports that side's time ran out before its press. The game
// is not ended here: the flag counts when it is claimed or the arbiter
// calls it, and moves still made are followed.
func (r *Reconstructor) flagFall(side chess.Color, t int64, out []Output) []Output {
	if r.flagged[side] {
		return out
	}
	r.flagged[side] = true
	p := &r.lines[0].pos
	return r.alert(out, Output{Alert: FlagFall, T: t, Ply: p.Ply(), Side: side,
		Text: fmt.Sprintf("%s's flag fell before the move was completed.", colourName(side))})
}

// checkNewGame starts a new game when the start set-up stands on the
// board after a game (or part of one).
func (r *Reconstructor) checkNewGame(t int64, out []Output) []Output {
	// A game resumed from the middle (its set-up is not its start) may be
	// replaced by a new one before any move of its own.
	resumed := r.setUp.Key() != r.start.Key()
	if len(r.plies) == 0 && r.state != stateEnded && !resumed || r.v.occ.Count() != r.setUp.Occupied().Count() {
		return out
	}
	if len(r.plies) == 1 && r.state != stateEnded && !resumed {
		// One move taken back is a first move changed (1. e4 let go and
		// taken back, then 1. d4), far likelier than a game given up
		// after it and the pieces set up again.
		return out
	}
	var v view
	fits := uint8(0)
	for q := uint8(0); q < 4; q++ {
		r.raw.makeView(q, &v)
		if v.diff(&r.setUp) == 0 {
			fits |= 1 << q
		}
	}
	if fits == 0 {
		return out
	}
	r.start = r.setUp
	if r.state != stateEnded {
		out = append(out, Output{Kind: End, T: t, Ply: r.lines[0].pos.Ply(), Result: "*", Reason: ReasonNewGame,
			ClockMs: -1, From: chess.NoSquare, To: chess.NoSquare})
	}
	r.newGame()
	// The arbiter sets the clock up again; it is taken to start with the game.
	r.clk.reset(r.clk.tc, r.start.SideToMove())
	r.clk.start(t)
	r.rec.resetExcept(0)
	out = append(out, Output{Kind: NewGame, T: t, Ply: r.start.Ply(), Side: r.start.SideToMove(), FEN: r.start.FEN(),
		ClockMs: -1, From: chess.NoSquare, To: chess.NoSquare, Text: "the start position is set up: a new game"})
	return r.checkOrientation(t, out)
}

// inProgress reports whether the board differs from the game position only
// on squares one legal move changes: a move being made. With hands set, the
// squares touched since the last move must be that move's too (or on its
// path): touches elsewhere say that more happened than one move.
func (r *Reconstructor) inProgress(hands bool) bool {
	p := &r.lines[0].pos
	d := r.v.diff(p) &^ r.excused(p)
	var touched chess.Bitboard
	if hands {
		touched = rotBB(r.rec.lifted|r.rec.placed, r.orient) &^ r.overlay
	}
	for _, m := range r.legal(p).Moves() {
		all, _ := moveSquares(p, m)
		if d&^all == 0 && touched&^(all|chess.Between(m.From(), m.To())) == 0 {
			return true
		}
	}
	return false
}
