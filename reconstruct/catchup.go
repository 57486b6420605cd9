package reconstruct

import (
	"fmt"
	"math"
	"strings"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// Catch-up: once a published move is wrong, every later board is
// explained from it, and a board reachable only from an earlier ply is
// never found by the searches above (one move, a takeback of two, a
// re-synchronisation forward). When a still board has no exact
// explanation, the catch-up searches from the published positions of the
// last maxCatchBack plies, for each the fewest new plies, for legal move
// sequences that reach the board exactly by what the sensor tells. The
// likeliest, if it is likelier than pieces out of place, is published as
// retractions, amendments and moves, and ends the alert it explains.
const (
	maxCatchBack = 12 // published plies a catch-up may take back
	// maxCatchAhead: new plies beyond those taken back (the board may be
	// that far ahead of the true game at the first still moment).
	maxCatchAhead = 4
	maxCatchPlies = maxCatchBack + maxCatchAhead
	// catchBudget bounds the positions searched for one board, so that a
	// decision stays within a millisecond or two (BenchmarkDecision).
	catchBudget = 4000
	// maxCatchMatches: sequences kept, over all the retractions.
	maxCatchMatches = 16
)

// catchMatch is a sequence that reaches the board: back published plies
// taken back, then moves.
type catchMatch struct {
	back  int
	n     int
	moves [maxDecodePlies]chess.Move
	pos   chess.Position
	cost  int
	// knocked: the ordered decoder's piece left knocked off (0: none),
	// by the hand of moves[knockAt].
	knocked chess.Bitboard
	knockAt int
	// putBack: the piece knocked off was put back (the ordered decoder's
	// readings).
	putBack bool
	// quick: bit i set when moves[i] began sooner than a reply is ready,
	// next to where the move before landed (it may be that hand's knock),
	// or is a capture taken at its piece's lift (the piece may be in the
	// hand): the ordered decoder's weak plies.
	quick uint32
	// inHand: the log's last change, a lift, is the next move's: the
	// capturing piece taken up before its victim (capturerInHand).
	inHand bool
	// handLate: the board is the sequence's position but for one piece
	// of the player to move, lifted before the last ply's landing was
	// read (replyInHand).
	handLate bool
}

// structural is what a catch-up taking back back plies and making n
// costs before the evidence: each ply taken back, and each new ply beyond
// the first past those. A guessed ply costs nothing to take back.
func (r *Reconstructor) structural(back, n int) int {
	c := costResyncPly * max(0, n-back-1)
	for i := len(r.plies) - back; i < len(r.plies); i++ {
		if !r.guessed(i) && !r.castlingPart(i) {
			c += backCost(r.clock)
		}
	}
	return c
}

// castlingPart reports whether published ply i is a king's or a rook's
// move that a castling legal there begins (rookPartOf, kingPartOf): the
// other piece following makes it the castling, and taking it back for
// that costs nothing (O-O rook first, Rf1 published; the king read
// lifted from g1 by a flicker as Black's reply began: Rf1 was kept, and
// the king on g1 alerted out of place).
func (r *Reconstructor) castlingPart(i int) bool {
	return r.castlingBegun(&r.befores[i], r.pub[i])
}

// castlingBegun reports whether pm, a move from p, is a king's or a
// rook's move that a castling legal in p begins (rookPartOf, kingPartOf):
// the other piece may follow.
func (r *Reconstructor) castlingBegun(p *chess.Position, pm chess.Move) bool {
	if pm.IsCastling() || pm.IsPromotion() || pm.IsEnPassant() {
		return false
	}
	if pt := p.PieceAt(pm.From()).Type(); pt != chess.King && pt != chess.Rook || p.Castling()&castleRights(p.SideToMove()) == 0 {
		return false
	}
	for _, m := range r.legal(p).Moves() {
		if rookPartOf(m, pm) || kingPartOf(m, pm) {
			return true
		}
	}
	return false
}

// guessed reports whether published ply i was published in one decision
// with others after a full frame, or among which a piece moved to an
// empty square and was taken there at once: nobody saw it stand there (a piece held in the hand
// read as captured), so the order and the moves of that decision were a
// guess from events that had lost them, not moves the board showed.
func (r *Reconstructor) guessed(i int) bool {
	if i >= r.overlayFrom && r.staleOv > 0 {
		return true
	}
	if r.contradicted(i) {
		return true
	}
	a, b := r.decision(i)
	if r.plies[i].framed && b-a > 1 {
		// Several moves a frame jumped over: their number and order
		// were the shortest that reach it, not what the board showed.
		return true
	}
	for j := a; j+1 < b; j++ {
		if to := r.pub[j].Landing(); r.befores[j].PieceAt(to) == chess.NoPiece && !r.plies[j].landSeen {
			// (Not a piece a colour or piece sensor saw set down
			// there: it stood there, whatever took it.) Taken there by
			// a later ply of the decision, no ply moving it on first:
			// d4-d5 and Bxd5 three plies later, d5 never seen filled,
			// were a pawn knocked off the board as Bd3 landed.
			for k := j + 1; k < b; k++ {
				m := r.pub[k]
				if !m.IsCastling() && m.To() == to {
					return true
				}
				if m.From() == to {
					break
				}
			}
		}
		if r.plies[j+1].slidFirst {
			// A capture nobody saw, and a piece next door slid to where
			// the hand may have landed another (a rook landing on a3 and
			// the queen on a4 knocked off, read as Rxe4 and Qa3).
			return true
		}
	}
	return false
}

// contradicted reports whether published ply i is the last, and set its
// piece on a square the board shows empty as the press of the reply to it
// is judged: the board no longer shows the move as published, the piece
// went on (3. Bb5 slid via d3, d3 read filled and the reply's lift read
// before d3 was read emptied: Bd3 was published, d3 and b5 alerted, and
// every later move was lost). Not without that press: a piece knocked off
// its landing is as likely (b4 knocked back onto b3 was amended to b3,
// and the game lost when it was put back). Not on occupancy boards:
// there a square emptied and one filled fit too many other moves.
func (r *Reconstructor) contradicted(i int) bool {
	if i != len(r.plies)-1 || !r.catchPressed || r.sensor == trace.Occupancy || r.pub[i].IsCastling() {
		return false
	}
	return !r.v.occ.Has(r.pub[i].Landing())
}

// staleOverlay is how many plies were published past the first after
// the open misplaced-pieces alert while its pieces stayed out of place,
// 0 unless both players moved on. A displaced piece is put right by the
// player who displaced it before the game goes on (Art. 7.4.1); still
// out of place after a move of each side, it more likely marks a
// published move that was wrong (a capture read on the square next
// door, a recapture nobody saw), so those plies are a guess, like the
// guessed plies above, and the pieces out of place cost more with
// each ply.
func (r *Reconstructor) staleOverlay(ixPlies int) int {
	if r.overlay&^r.silent == 0 || r.knockedAsRead() {
		return 0
	}
	return max(0, len(r.plies)+ixPlies-r.overlayAfter-1)
}

// knockedAsRead reports, on a piece board, whether the squares alerted out
// of place show the game's pieces knocked off, or onto a square next to
// their own, each read as the piece it is: that names no published move
// wrong, however long it stays (the g6 pawn knocked onto f5 by 8...
// Nf6's hand and left: 18 plies later 18. Qf5 gxf5 was invented to
// explain it).
func (r *Reconstructor) knockedAsRead() bool {
	if r.sensor != trace.PieceSensor {
		return false
	}
	r.makeView()
	P := &r.lines[0].pos
	ov := r.overlay &^ r.silent
	vac := ov & P.Occupied() &^ r.v.occ
	fil := ov & r.v.occ &^ P.Occupied()
	if ov != vac|fil || fil.Count() > vac.Count() {
		return false
	}
	for b := fil; b != 0; b &= b - 1 {
		s := b.First()
		if !r.v.pieceKnown.Has(s) {
			return false
		}
		found := false
		for n := chess.KingAttacks(s) & vac; n != 0; n &= n - 1 {
			if P.PieceAt(n.First()) == r.v.pieceAt(s) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// catchMargin is what a catch-up taking back back plies must beat the
// pieces out of place by: plies taken back and replayed in another order
// are not priced by their events (forgotten when they were published), so
// one that takes any back needs two misplaced squares more; not when one
// of them was guessed.
func (r *Reconstructor) catchMargin(back int) int {
	if back == 0 {
		return 0
	}
	for i := max(0, len(r.plies)-back); i < len(r.plies); i++ {
		if r.guessed(i) || r.castlingPart(i) {
			return 0
		}
	}
	return 2 * costMisplaced
}

type catchState struct {
	r       *Reconstructor
	depth   int
	nodes   int
	from0   chess.Bitboard // squares where the root differs from the board
	reached chess.Bitboard // squares the sequence so far moved pieces to
	// touched: on occupancy boards, squares the plies taken back moved
	// pieces from or to, and squares lifted since: another piece may have
	// filled a square one of them emptied, which the board cannot show.
	touched chess.Bitboard
	// lifted, stood: for relocations (reloc), squares seen emptied since
	// the published game last changed, and squares stood on on the way.
	lifted, stood chess.Bitboard
	seq           [maxRelocPlies]chess.Move
	back          int
	found         []catchMatch
	added         int // matches kept so far
}

// catchSearch finds, for each retraction of 0 to maxCatchBack published
// plies, the sequences of the fewest new plies that reach the board
// exactly, while the budget of catchBudget positions lasts and they can
// cost less than maxCost, with pieces also moving from squares touched
// (catchState) if touched. It returns them (in r.catchBuf).
func (r *Reconstructor) catchSearch(maxCost int, touched bool) []catchMatch {
	cs := catchState{r: r, found: r.catchBuf[:0]}
	n := len(r.plies)
	// try searches from k plies back; false: no retraction further back
	// can cost less.
	try := func(k int) bool {
		if r.structural(k, k)+r.catchMargin(k) >= maxCost {
			return false
		}
		root := r.lines[0].pos
		if k > 0 {
			root = r.befores[n-k]
		}
		cs.back = k
		cs.from0 = r.v.diff(&root)
		cs.touched = 0
		if touched && k > 0 {
			for j := n - k; j < n; j++ {
				all, _ := moveSquares(&r.befores[j], r.pub[j])
				cs.touched |= all
			}
			cs.touched |= rotBB(r.rec.lifted, r.orient)
		}
		if cs.from0 == 0 {
			if k == 0 {
				return false // the board is the game position
			}
			// The board set back k plies.
			cs.keep(&root, 0)
			return true
		}
		n0 := cs.added
		for d := 1; d <= k+maxCatchAhead && cs.added == n0 && cs.nodes < catchBudget; d++ {
			if r.structural(k, d)+r.catchMargin(k) >= maxCost {
				break
			}
			cs.depth = d
			cs.reached = 0
			p := root
			cs.search(&p, 0)
		}
		return true
	}
	// The last decision's plies, when they were a guess, are the first
	// retraction tried, with a budget of its own: the shorter ones could
	// spend the budget first (d5 Bb7 Nbd2 Bxd5 Bd3 Bb7 published for a
	// pawn knocked off the board and put back: the six were never taken
	// back, the game dark for 22 plies).
	g := r.lastGuess()
	if g == 0 || !try(g) {
		g = -1 // none tried
	}
	cs.nodes = 0
	for k := 0; k <= min(maxCatchBack, n) && cs.nodes < catchBudget; k++ {
		if k != g && !try(k) {
			break
		}
	}
	r.catchBuf = cs.found
	return cs.found
}

// Relocations: the board stood still, and no search above reaches it
// within maxCatchAhead plies. Hands that never paused may have made many
// more (a landing the sensor reported only as the piece left again hid
// every later ply: 1. e4 e5 published, and the board still after Nf3 Nc6
// d3 d6 Be2 Be7). Most of such plies set their piece where the board
// shows it, so the search below tries mostly moves from a square where
// the position differs from the board to squares that differ too and
// then match it (reloc): the plies are then at most as many as those
// squares and two. Positions are visited once, whatever the order of the
// moves that reach them (six relocations have 36 orders).
const (
	maxRelocPlies = 24
	relocBudget   = 20000
	// maxRelocExtra: plies that leave as many squares differing
	// (catchState.reloc).
	maxRelocExtra = 2
)

// relocSearch returns the relocations from the published position that
// reach the board and cost less than maxCost before the evidence (in
// r.catchBuf).
func (r *Reconstructor) relocSearch(maxCost int) []catchMatch {
	if r.relocSeen == nil {
		r.relocSeen = make(map[uint64]struct{})
	}
	clear(r.relocSeen)
	cs := catchState{r: r, found: r.catchBuf[:0]}
	// (depth: the most plies that cost less than maxCost.)
	for cs.depth < maxRelocPlies && r.structural(0, cs.depth+1) < maxCost {
		cs.depth++
	}
	rv := r.recView()
	cs.lifted = rv.lifted
	// Stood: squares, empty on the board, where a piece was last seen
	// set down and left standMs or more before it was taken up: a ply
	// may land there on its way (b7-b5-b4). (Not a square a sliding piece
	// passed: Rd7-d3 slid over d6 and d5 on an occupancy board, a rook
	// knocked onto b6, was read Rd6 Rd5 Rb6 Rd3.)
	for b := rv.lifted & rv.placed &^ r.v.occ; b != 0; b &= b - 1 {
		s := b.First()
		on, ok1 := r.lastOn(s)
		off, ok2 := r.lastOff(s)
		if ok1 && ok2 && off-on >= standMs {
			cs.stood |= s.Bitboard()
		}
	}
	p := r.lines[0].pos
	cs.reloc(&p, 0, 0, r.v.diff(&p))
	r.spent += cs.nodes
	r.catchBuf = cs.found
	return cs.found
}

// relocOver reports whether the relocation search has used its budget,
// or the decision all of its own.
func (cs *catchState) relocOver() bool {
	return cs.nodes > relocBudget || cs.r.spent+cs.nodes > decisionBudget
}

// reloc extends the relocation sequence cs.seq[:ply] from p, which
// differs from the board on diff. A ply's piece leaves a square that
// differs, or one seen lifted, and lands on a square that differs and
// then matches the board, or captures on a square seen emptied (which an
// occupancy board shows filled before and after). Such a ply leaves fewer
// squares differing. At most maxRelocExtra plies (extra: how many so
// far) leave as many: one from a square seen lifted that another piece
// filled after it (e5 then Be7 leave e7 filled on a colour board), or one
// that lands on its way on a square seen filled and emptied again
// (b7-b5-b4).
func (cs *catchState) reloc(p *chess.Position, ply, extra int, diff chess.Bitboard) {
	r := cs.r
	cs.nodes++
	k := p.Key() ^ uint64(extra)*0x9e3779b97f4a7c15
	if _, ok := r.relocSeen[k]; ok {
		return
	}
	r.relocSeen[k] = struct{}{}
	if diff == 0 {
		if ply > 0 {
			cs.keep(p, ply)
		}
		return
	}
	if ply == cs.depth || cs.relocOver() || len(cs.found) == maxCatchMatches {
		return
	}
	lifted, stood := cs.lifted, cs.stood
	if (diff|lifted)&p.ByColor(p.SideToMove()) == 0 || !cs.bound(p, min(diff.Count()+maxRelocExtra-extra, cs.depth-ply)) {
		return
	}
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	// The first found is published: the moves whose pieces were lifted
	// first come first (a piece never seen lifted last).
	var cand [64]chess.Move
	var at [64]int64
	n := 0
	for _, m := range ml.Moves() {
		land := landings(m)
		if !(diff | lifted).Has(m.From()) || n == len(cand) ||
			land&^diff != 0 && land&^stood != 0 && !(!m.IsCastling() && p.PieceAt(m.To()) != chess.NoPiece && lifted.Has(m.To())) {
			continue
		}
		t, ok := r.firstOff(m.From())
		if !ok {
			t = math.MaxInt64
		}
		j := n
		for ; j > 0 && at[j-1] > t; j-- {
			cand[j], at[j] = cand[j-1], at[j-1]
		}
		cand[j], at[j] = m, t
		n++
	}
	for _, m := range cand[:n] {
		land := landings(m)
		u := p.MakeMove(m)
		nd := r.v.diff(p)
		cs.seq[ply] = m
		switch c := nd.Count(); {
		case nd&land == 0 && c < diff.Count():
			cs.reloc(p, ply+1, extra, nd)
		case c == diff.Count() && extra < maxRelocExtra && (nd&land == 0 && lifted.Has(m.From()) || land&^stood == 0):
			cs.reloc(p, ply+1, extra+1, nd)
		}
		p.UnmakeMove(m, u)
		if cs.relocOver() {
			return
		}
	}
}

// lastGuess is the number of plies the last decision published, when
// they were a guess (guessed) and no more than maxCatchBack: 0 otherwise.
func (r *Reconstructor) lastGuess() int {
	n := len(r.plies)
	if n == 0 || !r.guessed(n-1) {
		return 0
	}
	if a, _ := r.decision(n - 1); n-a >= 2 && n-a <= maxCatchBack {
		return n - a
	}
	return 0
}

// decision is the published plies a..b-1 that were published in one
// decision with ply i.
func (r *Reconstructor) decision(i int) (a, b int) {
	t := r.plies[i].t
	a, b = i, i+1
	for a > 0 && r.plies[a-1].t == t {
		a--
	}
	for b < len(r.plies) && r.plies[b].t == t {
		b++
	}
	return a, b
}

// bound reports whether the board can still be reached from p in left
// plies. Each ply changes a bounded number of squares: a move empties one
// square and fills at most one (castling two of each, en passant empties
// two); by colour, a move changes its side's squares on two (castling
// four) and the other side's on at most one (a capture).
func (cs *catchState) bound(p *chess.Position, left int) bool {
	v := &cs.r.v
	stm := p.SideToMove()
	mine := (left + 1) / 2 // plies of the side to move
	theirs := left / 2
	var own, opp int // castlings still possible, in squares beyond two
	if p.Castling()&castleRights(stm) != 0 && mine > 0 {
		own = 2
	}
	if p.Castling()&castleRights(stm.Other()) != 0 && theirs > 0 {
		opp = 2
	}
	ep := (left + 1) / 2 // en passant captures at most every other ply
	occ := p.Occupied()
	if (occ&^v.occ).Count() > left+own/2+opp/2+ep || (v.occ&^occ).Count() > left+own/2+opp/2 {
		return false
	}
	if v.colourKnown == 0 {
		return true
	}
	known := v.colourKnown & v.occ
	white := p.ByColor(chess.White)
	black := p.ByColor(chess.Black)
	// On squares whose colour the sensor tells: where the board shows a
	// side's piece and p does not, or p has one and the board shows the
	// other side's.
	wd := ((white ^ v.white) & known) | (white &^ v.occ)
	bd := ((black ^ (v.occ &^ v.white)) & known) | (black &^ v.occ)
	wDiff, bDiff := wd.Count(), bd.Count()
	if stm == chess.Black {
		wDiff, bDiff = bDiff, wDiff
	}
	return wDiff <= 2*mine+own+theirs && bDiff <= 2*theirs+opp+mine
}

// castleRights are side c's castling rights.
func castleRights(c chess.Color) chess.CastlingRights {
	if c == chess.White {
		return chess.WhiteHSide | chess.WhiteASide
	}
	return chess.BlackHSide | chess.BlackASide
}

// keep records the sequence searched, cs.seq[:n], which reaches p, the
// board. When
// maxCatchMatches are kept, it replaces the one that costs most before the
// evidence if it costs less: a retraction of more plies published
// together may explain in two plies what fewer explain only in five.
func (cs *catchState) keep(p *chess.Position, n int) {
	i := len(cs.found)
	if i == maxCatchMatches {
		st := cs.r.structural(cs.back, n)
		for j := range cs.found {
			if s := cs.r.structural(cs.found[j].back, cs.found[j].n); s > st {
				i, st = j, s
			}
		}
		if i == len(cs.found) {
			return
		}
	} else {
		cs.found = append(cs.found, catchMatch{})
	}
	m := &cs.found[i]
	*m = catchMatch{back: cs.back, n: n, pos: *p}
	copy(m.moves[:], cs.seq[:n])
	cs.added++
}

func (cs *catchState) search(p *chess.Position, ply int) {
	r := cs.r
	cs.nodes++
	left := cs.depth - ply
	if left == 0 {
		if r.v.diff(p) == 0 {
			cs.keep(p, cs.depth)
		}
		return
	}
	if cs.nodes > catchBudget || !cs.bound(p, left) {
		return
	}
	// A piece moves from a square where the root differs from the board,
	// or one an earlier move of the sequence filled: a piece that leaves
	// a square and comes back is not the shortest explanation. (Or, on
	// occupancy boards, one touched: 42... Qg4 and 43. e6 leave e6
	// filled.)
	from := cs.from0 | cs.reached | cs.touched
	if from&p.ByColor(p.SideToMove()) == 0 {
		return
	}
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Moves() {
		if !from.Has(m.From()) && !(m.IsCastling() && from.Has(m.To())) {
			continue
		}
		if ply == 0 && cs.back > 0 && m == cs.r.pub[len(cs.r.pub)-cs.back] {
			continue // found taking back one ply fewer
		}
		u := p.MakeMove(m)
		cs.seq[ply] = m
		saved := cs.reached
		cs.reached |= m.To().Bitboard() | landings(m)
		cs.search(p, ply+1)
		cs.reached = saved
		p.UnmakeMove(m, u)
		if cs.nodes > catchBudget {
			return
		}
	}
}

// catchUp looks for a catch-up when a still board has no exact
// explanation (ixCost: what the best inexact one costs) and publishes
// it. final says the board has stood still long enough that waiting
// shows nothing more: sequences that tie and reach different positions
// are then taken as hypotheses (the best published, marked uncertain)
// rather than left for a later board to settle.
//
// After a clock press by side, only sequences that end with side's move
// count: one that ends with the opponent's is a reply begun before the
// press, or a knock that looks like it (judgePress).
//
// ixPlies is how many plies the inexact explanation makes; -1 when that
// is the published game with the pieces out of place and the board has
// moved on: each sequence found then says by how many plies.
func (r *Reconstructor) catchUp(t int64, final bool, ixCost, ixPlies int, pressed bool, side chess.Color, out []Output) ([]Output, bool) {
	// (Also from the start set-up seen, no move published, once the
	// board has been still: a run of fast plies from the first.)
	if r.state != statePlay && r.state != stateIrregular && !(final && r.state == stateSetup && r.sawStart) || len(r.lines) == 0 {
		return out, false
	}
	// Pieces out of place through plies of both players cost more with
	// each ply (staleOverlay).
	movedOn := ixPlies < 0
	if movedOn {
		ixPlies = maxCatchAhead
	}
	r.staleOv = r.staleOverlay(ixPlies)
	r.catchPressed = pressed
	defer func() { r.staleOv, r.catchPressed = 0, false }()
	misplaced := costMisplaced * (r.overlay &^ r.silent).Count()
	limit := ixCost + misplaced*r.staleOv
	// (What the search may cost is part of the question: a later decision
	// may allow more.)
	key := r.viewKey() ^ uint64(len(r.plies))<<48 ^ uint64(limit)*0x9e3779b97f4a7c15
	seen := final && (r.catchSeen != 0 || r.catchIll != chess.NoMove) // (seenCatch)
	if seen {
		// (Another search than the one the decision before made.)
		key ^= (uint64(r.catchSeen) + uint64(r.catchIll)) * 0xbf58476d1ce4e5b9
	}
	if final {
		// (The relocations are searched only then.)
		key ^= 0x94d049bb133111eb
	}
	if key == r.catchKey {
		return out, false
	}
	found := r.catchSearch(limit, false)
	if len(found) == 0 && seen {
		// (Dearer plies are taken only as seenMoved; against a move
		// read illegal, with two plies taken back.)
		more := costOverlap
		if r.catchIll != chess.NoMove {
			more += 2*costBack + r.catchMargin(2)
		}
		found = r.catchSearch(limit+more, false)
	}
	if len(found) == 0 && r.sensor == trace.Occupancy {
		// Then with pieces moving from squares touched (catchState):
		// a second search, so that the first keeps its budget for
		// what it finds alone.
		found = r.catchSearch(limit, true)
	}
	if len(found) == 0 && final {
		found = r.relocSearch(limit)
	}
	if pressed || r.catchKeep {
		// (Plies taken back against a move read illegal only where that
		// move is one of theirs, made as the board saw: seenCatch.)
		k := 0
		for _, f := range found {
			if pressed && f.n > 0 && f.pos.SideToMove() != side || !pressed && (f.back == 0 || seen && r.catchIll != chess.NoMove && r.seenCatch(&f)) {
				found[k] = f
				k++
			}
		}
		found = found[:k]
	}
	if len(found) == 0 {
		r.catchKey = key
		return out, false
	}
	// Rank the matches by what the hands were seen doing. The events of
	// the plies taken back were forgotten when they were published:
	// their squares count as seen for the moves that replace them.
	// (Each match counts only the plies it takes back: those it keeps
	// were not touched for it.)
	rv0 := r.recView()
	n := len(r.plies)
	bi := 0
	for i := range found {
		f := &found[i]
		p := r.lines[0].pos
		if f.back > 0 {
			p = r.befores[n-f.back]
		}
		rv := rv0
		if f.back > 0 && r.plies[n-f.back].framed {
			// Moves a frame jumped over, taken back: those that replace
			// them were not seen made either.
			rv.framed = true
		}
		for j := n - f.back; j < n; j++ {
			all, _ := moveSquares(&r.befores[j], r.pub[j])
			rv.lifted |= all & r.befores[j].Occupied()
			rv.placed |= all &^ r.befores[j].Occupied()
			rv.placed |= landings(r.pub[j])
		}
		// Squares only the plies taken back emptied: their events came
		// before any seen since (seqCost orders only the lifts it has
		// times for).
		gone := rv.lifted &^ rv0.lifted
		sc, _ := r.seqCost(&p, r.lastTo(0, f.back), f.moves[:f.n], &rv)
		f.cost = r.structural(f.back, f.n) + sc
		later := false
		for _, m := range f.moves[:f.n] {
			if gone.Has(m.From()) && later {
				f.cost += costOrder
			}
			later = later || rv0.lifted.Has(m.From())
		}
		if f.n == 1 && !f.moves[0].IsCastling() && !rv.lifted.Has(f.moves[0].From()) {
			// A move whose piece nobody saw leave (seqCost charges this
			// only within a sequence).
			f.cost += costUnseen
		}
		if f.cost < found[bi].cost || f.cost == found[bi].cost && f.back < found[bi].back {
			bi = i
		}
	}
	best := found[bi]
	ambiguous := false
	for i := range found {
		if found[i].cost <= best.cost+uncertainGap && found[i].pos.Key() != best.pos.Key() {
			ambiguous = true
		}
	}
	// A piece knocked off the board looks like one captured, one knocked
	// a square forward like a pawn's move: the catch-up must be likelier
	// than the pieces out of place.
	if movedOn {
		// The plies the board moved on by, less the one that explains
		// the pieces out of place, the alert's reading needs too.
		stale := r.staleOverlay(best.n - best.back - 1)
		if stale == 0 {
			return out, false
		}
		limit -= misplaced * (r.staleOv - stale)
	}
	if best.cost+r.catchMargin(best.back) >= limit {
		// At the alert timer, pieces gone that plies found move where
		// the board saw them go are no pieces knocked off (seenMoved).
		if !seen {
			return out, false
		}
		bi = -1
		for i := range found {
			if f := &found[i]; (bi < 0 || f.cost < found[bi].cost) && r.seenCatch(f) {
				bi = i
			}
		}
		if bi < 0 {
			return out, false
		}
		best = found[bi]
	}
	if ambiguous && !final {
		// A later board may tell them apart.
		return out, false
	}
	r.catchKey = key
	return r.adoptCatch(found, bi, t, out), true
}

// seenCatch reports whether catch-up match f moves the pieces as the
// board saw (seenMoved): those of the squares read gone (catchSeen), from
// the published game; or the piece of the move read illegal (catchIll),
// as one of its plies, with at most two published plies taken back.
func (r *Reconstructor) seenCatch(f *catchMatch) bool {
	if m := r.catchIll; m != chess.NoMove {
		return f.back <= 2 && r.playsSeen(f.moves[:f.n], &f.pos, m, f.back)
	}
	return f.back == 0 && r.seenMoved(f.moves[:f.n], &f.pos, r.catchSeen, 0, false)
}

// adoptCatch makes the catch-up matches within pruneGap of found[bi]
// the hypotheses and publishes the difference.
func (r *Reconstructor) adoptCatch(found []catchMatch, bi int, t int64, out []Output) []Output {
	r.ver++
	defer func() { r.ver++ }()
	if f := &found[bi]; f.back == 0 && r.mayOrder(f.n) {
		if m, ok := r.inOrder(f.moves[:f.n]); ok {
			m.cost = f.cost
			*f = m
		}
	}
	best := found[bi]
	n := len(r.plies)
	base := r.lines[0].cost
	r.spare = r.spare[:0]
	for i := range found {
		f := &found[i]
		if f.cost > best.cost+pruneGap {
			continue
		}
		keep := n - f.back
		moves := make([]chess.Move, 0, keep+f.n+16)
		moves = append(append(moves, r.pub[:keep]...), f.moves[:f.n]...)
		r.spare = append(r.spare, line{moves: moves, pos: f.pos, cost: base + f.cost})
	}
	r.lines, r.spare = r.spare, r.lines
	r.stale = r.stale[:0]
	r.sortLines()
	wasAlert := r.state == stateIrregular || r.overlay != 0
	// Squares alerted out of place that the position found still does
	// not explain stay so (g2 knocked off for good by 16. Kh1's hand,
	// then five plies found at once: the alert was dropped, and every
	// later move was read against a pawn on g2).
	r.makeView()
	still := r.overlay & r.v.diff(&r.lines[0].pos)
	var sb strings.Builder
	fmt.Fprintf(&sb, "the board shows a position the published game did not reach: plies taken back %d, moves found %d", best.back, best.n)
	if wasAlert && still == 0 {
		sb.WriteString("; the pieces reported out of place are explained")
	} else if wasAlert {
		fmt.Fprintf(&sb, "; still out of place: %s", still.List())
	}
	from := chess.Bitboard(0)
	for _, m := range best.moves[:best.n] {
		from |= m.From().Bitboard()
	}
	out = r.note(out, NoteResync, t, from, sb.String())
	if r.prov != chess.NoMove {
		out = append(out, Output{Kind: Retract, T: t, Ply: r.provPly, Side: r.lines[0].pos.SideToMove(),
			Old: r.prov, OldSAN: r.provN.san, OldUCI: r.provN.uci, Provisional: true, ClockMs: -1,
			Text: "the board shows another position"})
		r.prov = chess.NoMove
	}
	div := 0
	for L := r.lines[0].moves; div < len(r.pub) && div < len(L) && r.pub[div] == L[div]; {
		div++
	}
	// (The ply taken back first may be the castling's rook move,
	// published on its own.)
	retracted := chess.NoMove
	if div < len(r.pub) {
		retracted = r.pub[div]
	}
	out = r.publish(t, out)
	r.markBlind(len(r.plies) - div)
	for i := div; i < len(r.plies); i++ {
		// A rook-first castling among the plies found is alerted as
		// when it is adopted alone (it went unalerted in fast play).
		if m := r.plies[i].move; m.IsCastling() && r.rookFirst(m, prevMove(r.pub, i), retracted, i == div) {
			out = r.alertRookFirst(i, t, out)
		}
	}
	r.released = chess.NoMove
	r.rec.resetExcept(0)
	r.alertKey = 0
	r.overlay, r.silent = still, r.silent&still
	r.state = statePlay
	r.orientOK = 1 << r.orient
	return r.gameState(t, out)
}
