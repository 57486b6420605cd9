package rules

import (
	"math/bits"

	"github.com/boardd/boardd/chess"
)

func bits64LeadingZeros(b chess.Bitboard) int { return bits.LeadingZeros64(uint64(b)) }

// Static reachability: a proof that the winner can never mate, without
// searching moves.
//
// For every piece on the board (named by its current square) we compute
// reach[i], a set of squares that contains every square the piece can ever
// stand on, whatever the moves. From the reach sets follow the pieces
// that may be captured, and the "steady" pieces: those whose reach is
// their own square and that cannot be captured, so they stand where they
// are for the rest of the game (typically pawns locked head to head). A
// steady piece blocks lines and pawn pushes for good.
//
// The sets are the least fixpoint of a monotone step that starts from
// "every piece stays where it is" and adds each move a piece could make
// from a square it may reach, given only the steady pieces as obstacles.
// Why this is sound (no real move is ever missed): take any legal game
// from the position and assume every position so far keeps each piece
// within its reach and each steady piece on its square. The next move goes
// from a square in the mover's reach along a path that is empty in the
// real position, so no steady piece stands on it; the fixpoint is closed
// under such moves, so the destination is in the reach. A captured piece
// stood on a square the capturer reaches, so it is not steady. The only
// other pruning is king safety: a king never moves to a square that is
// attacked in every future position, and that set is computed from pieces
// that cannot be captured, attacking from every square they may reach
// with every square that may ever be occupied as an obstacle, so it only
// errs towards "not attacked".
//
// Mate test: the loser's king must stand on a square of its reach that
// some winner's piece may attack (the checker), and each of its flight
// squares must be blocked by a loser's piece (one piece per square) or
// attacked by the winner's other pieces or by the winner's king standing
// on one square of its reach. If no square passes, the winner can never
// mate. Attacks here are over-approximated (only steady pieces block,
// and the loser's king does not), so a "no" is a proof.

type staticPiece struct {
	sq    chess.Square
	color chess.Color
	kind  chess.PieceType
	reach chess.Bitboard
	capt  chess.Bitboard // pawns: squares it may capture on
	promo bool           // pawn that may promote
}

type staticAnalysis struct {
	pieces     [32]staticPiece
	n          int
	king       [2]int // index of each king in pieces
	steady     chess.Bitboard
	capturable chess.Bitboard // squares (initial) of pieces that may be captured
	attacked   [2]chess.Bitboard
	promo      [2]bool
	obst       [32]int
	nobst      int
	mayOcc     chess.Bitboard
	// Case assumptions and the case split candidates (staticUnwinnable).
	winner                  chess.Color
	lastPiece               chess.Bitboard // the winner's only piece besides the king
	uncapturableWhileSteady chess.Bitboard
	immovable               chess.Bitboard
	firstSteadyCapturable   chess.Bitboard
}

// maxStaticCache bounds the static results kept per search.
const maxStaticCache = 1 << 16

// staticCache remembers static results by position key within one search.
type staticCache struct {
	results map[uint64]staticResult
	a       staticAnalysis
	runs    int // analyses computed since reset (cache misses)
}

func newStaticCache() *staticCache {
	return &staticCache{results: make(map[uint64]staticResult)}
}

func (c *staticCache) reset() {
	c.runs = 0
	if len(c.results) > 1<<14 {
		c.results = make(map[uint64]staticResult)
	} else {
		clear(c.results)
	}
}

// unwinnable reports whether the static analysis proves that winner can
// never mate from p.
func (c *staticCache) unwinnable(p *chess.Position, winner chess.Color) bool {
	key := p.Key() ^ uint64(winner+1)*0x9E3779B97F4A7C15
	check := uint32(secondaryHash(p))
	if r, ok := c.results[key]; ok && r.check == check {
		return r.unwinnable
	}
	r := staticUnwinnable(&c.a, p, winner)
	c.runs++
	if len(c.results) >= maxStaticCache {
		clear(c.results) // bounded memory; the entries are only a speed-up
	}
	c.results[key] = staticResult{check: check, unwinnable: r}
	return r
}

// staticResult is a cached answer with a second hash of its position, so
// that a key collision cannot hand one position's proof to another.
type staticResult struct {
	check      uint32
	unwinnable bool
}

// staticUnwinnable runs the static analysis on p for winner.
func staticUnwinnable(a *staticAnalysis, p *chess.Position, winner chess.Color) bool {
	if p.EnPassant() != chess.NoSquare {
		return false // the capture lands behind the pawn; not modelled
	}
	a.init(p, winner, 0, 0)
	a.saturate()
	if !a.canMate(winner) {
		return true
	}
	// Case split on the first pieces found both steady and capturable
	// (typically a piece walled in that an enemy may still take where it
	// stands). Every game either takes such a piece on its square before
	// it ever moves, or never does: if each case rules out a mate, there
	// is none. With two such pieces, all four combinations are needed.
	split := a.firstSteadyCapturable
	if split == 0 || split.Count() > 2 {
		return false
	}
	sq := split.Squares()
	for mask := 0; mask < 1<<len(sq); mask++ {
		var uncapturable, immovable chess.Bitboard
		for i, x := range sq {
			if mask&(1<<i) == 0 {
				uncapturable |= x.Bitboard() // never taken before it moves
			} else {
				immovable |= x.Bitboard() // taken where it stands: never moves
			}
		}
		a.init(p, winner, uncapturable, immovable)
		a.saturate()
		if a.canMate(winner) {
			return false
		}
	}
	return true
}

// init loads p. uncapturable and immovable are case assumptions (see
// staticUnwinnable): no enemy move may land on a square of uncapturable
// while its piece is steady, and the pieces on immovable squares never
// move (they may be captured).
//
// When the winner has a single piece besides the king, that piece is
// treated as never captured: once it is taken the winner has a bare king
// and no mate can follow, so only the games before that matter.
func (a *staticAnalysis) init(p *chess.Position, winner chess.Color, uncapturable, immovable chess.Bitboard) {
	a.n = 0
	a.winner = winner
	a.lastPiece = 0
	if ours := p.ByColor(winner) &^ p.ByType(chess.King); ours.Count() == 1 {
		a.lastPiece = ours
	}
	a.uncapturableWhileSteady, a.immovable = uncapturable, immovable
	a.firstSteadyCapturable = 0
	a.promo = [2]bool{}
	for b := p.Occupied(); b != 0; b &= b - 1 {
		sq := b.First()
		pc := p.PieceAt(sq)
		a.pieces[a.n] = staticPiece{sq: sq, color: pc.Color(), kind: pc.Type(), reach: sq.Bitboard()}
		if pc.Type() == chess.King {
			a.king[pc.Color()] = a.n
		}
		a.n++
	}
	// Castling: the king and rook may reach their castling squares.
	for _, r := range []chess.CastlingRights{chess.WhiteHSide, chess.WhiteASide, chess.BlackHSide, chess.BlackASide} {
		rook := p.CastlingRook(r)
		if rook == chess.NoSquare {
			continue
		}
		c := chess.White
		if r == chess.BlackHSide || r == chess.BlackASide {
			c = chess.Black
		}
		rank := rook.Rank()
		kf, rf := 6, 5
		if r == chess.WhiteASide || r == chess.BlackASide {
			kf, rf = 2, 3
		}
		a.pieces[a.king[c]].reach |= chess.NewSquare(kf, rank).Bitboard()
		for i := 0; i < a.n; i++ {
			if a.pieces[i].sq == rook {
				a.pieces[i].reach |= chess.NewSquare(rf, rank).Bitboard()
			}
		}
	}
	a.steady = 0
	a.capturable = 0
	a.attacked = [2]chess.Bitboard{}
}

// derived recomputes what follows from the reach sets.
func (a *staticAnalysis) derived() {
	// Capturable: some enemy piece may stand (pawns: capture) where the
	// piece may stand.
	var hit [2]chess.Bitboard
	for i := 0; i < a.n; i++ {
		pi := &a.pieces[i]
		if pi.kind == chess.Pawn && !pi.promo {
			hit[pi.color] |= pi.capt
		} else {
			hit[pi.color] |= pi.reach
		}
	}
	var capt chess.Bitboard
	for j := 0; j < a.n; j++ {
		pj := &a.pieces[j]
		if pj.kind != chess.King && pj.reach&hit[pj.color.Other()] != 0 && !a.lastPiece.Has(pj.sq) {
			capt |= pj.sq.Bitboard()
		}
	}
	if fsc := capt & a.steady; fsc != 0 && a.firstSteadyCapturable == 0 && !a.promo[0] && !a.promo[1] {
		a.firstSteadyCapturable = fsc
	}
	a.capturable = capt
	var steady chess.Bitboard
	for i := 0; i < a.n; i++ {
		pi := &a.pieces[i]
		if pi.reach == pi.sq.Bitboard() && !capt.Has(pi.sq) {
			steady |= pi.sq.Bitboard()
		}
	}
	a.steady = steady

	// Squares attacked in every future position, by pieces that stay on
	// the board, with every square that may be occupied as an obstacle.
	var mayOcc chess.Bitboard
	for i := 0; i < a.n; i++ {
		mayOcc |= a.pieces[i].reach
	}
	a.mayOcc = mayOcc
	a.attacked = [2]chess.Bitboard{}
	for i := 0; i < a.n; i++ {
		pi := &a.pieces[i]
		if capt.Has(pi.sq) || pi.promo {
			continue
		}
		att := ^chess.Bitboard(0)
		for r := pi.reach; r != 0 && att != 0; r &= r - 1 {
			att &= chess.Attacks(pi.kind, pi.color, r.First(), mayOcc)
		}
		a.attacked[pi.color] |= att
	}
	a.groupAttacks(capt)
}

// groupAttacks adds what several pieces of one colour and kind attack
// together: if n such pieces, never captured, share a region of m squares
// they never leave, at most m-n of those squares are ever free of them, so
// a square attacked from more than m-n squares of the region is always
// attacked (bishops walled in a corner guard each other's pawns).
func (a *staticAnalysis) groupAttacks(capt chess.Bitboard) {
	for c := chess.White; c <= chess.Black; c++ {
		for kind := chess.Knight; kind <= chess.Queen; kind++ {
			var region chess.Bitboard
			n := 0
			for i := 0; i < a.n; i++ {
				pi := &a.pieces[i]
				if pi.color != c || pi.kind != kind || pi.promo || capt.Has(pi.sq) {
					continue
				}
				region |= pi.reach
				n++
			}
			if n < 2 {
				continue
			}
			free := region.Count() - n
			// Region squares no other piece may enter hold only pieces of
			// the group, and a group piece in the way of another's ray
			// attacks along the same ray: treat them as transparent.
			var others chess.Bitboard
			for i := 0; i < a.n; i++ {
				pi := &a.pieces[i]
				if pi.color != c || pi.kind != kind || pi.promo || capt.Has(pi.sq) {
					others |= pi.reach
				}
			}
			occ := a.mayOcc &^ (region &^ others)
			var counts [64]int8
			for r := region; r != 0; r &= r - 1 {
				for x := chess.Attacks(kind, c, r.First(), occ); x != 0; x &= x - 1 {
					counts[x.First()]++
				}
			}
			for sq := range counts {
				if int(counts[sq]) > free {
					a.attacked[c] |= chess.Square(sq).Bitboard()
				}
			}
		}
	}
}

// stalemates reports whether king i moving from s to t (capturing what may
// stand there) always stalemates the opponent, so the game ends there and
// t need not be added to the king's reach. It is checked directly on the
// position after the move, using only facts that hold before it (the
// opponent king's reach, the steady pieces, where our other pieces may
// stand), so it does not rely on the fixpoint being right about t:
//   - no square the opponent king may stand on, other than next to t, has
//     a flight square that is not next to t, not a steady piece of its
//     own and not attacked by our other pieces that are never captured;
//   - no other opponent piece has a pseudo-legal move: pawns blocked by
//     steady pieces or our king and with nothing of ours to capture,
//     pieces surrounded by their own steady pieces;
//   - vacating s cannot uncover a check (no slider of ours may stand on a
//     line through s).
func (a *staticAnalysis) stalemates(i int, s, t chess.Square, oursNonKing chess.Bitboard) bool {
	us := a.pieces[i].color
	them := us.Other()
	ok := &a.pieces[a.king[them]]
	near := chess.KingAttacks(t) | t.Bitboard()
	qs := ok.reach &^ near
	if qs == 0 || qs.Count() > 12 {
		return false
	}
	// Flight squares not covered by our king at t.
	var flights chess.Bitboard
	for q := qs; q != 0; q &= q - 1 {
		flights |= chess.KingAttacks(q.First())
	}
	flights &^= near | qs&^ok.reach
	var steadyThem chess.Bitboard
	for j := 0; j < a.n; j++ {
		pj := &a.pieces[j]
		if pj.color == them && a.steady.Has(pj.sq) && pj.sq != t {
			steadyThem |= pj.sq.Bitboard()
		}
	}
	flights &^= steadyThem
	if flights != 0 {
		// Our other pieces that are never captured, attacking from every
		// square they may stand on, with t occupied too.
		occ := a.mayOcc | t.Bitboard()
		for j := 0; j < a.n && flights != 0; j++ {
			pj := &a.pieces[j]
			if pj.color != us || pj.kind == chess.King || pj.promo || a.capturable.Has(pj.sq) {
				continue
			}
			att := ^chess.Bitboard(0)
			for r := pj.reach; r != 0 && att != 0; r &= r - 1 {
				att &= chess.Attacks(pj.kind, us, r.First(), occ)
			}
			flights &^= att
		}
		if flights != 0 {
			return false
		}
	}
	// The opponent's other pieces must have no move at all.
	block := a.steady&^t.Bitboard() | t.Bitboard()
	for j := 0; j < a.n; j++ {
		pj := &a.pieces[j]
		if pj.color != them || pj.kind == chess.King || pj.sq == t {
			continue
		}
		if pj.reach != pj.sq.Bitboard() || pj.promo {
			return false
		}
		switch pj.kind {
		case chess.Pawn:
			fwd := 8
			if them == chess.Black {
				fwd = -8
			}
			if !block.Has(chess.Square(int(pj.sq)+fwd)) || chess.PawnAttacks(them, pj.sq)&oursNonKing != 0 {
				return false
			}
		default:
			moves := chess.Attacks(pj.kind, them, pj.sq, block)
			if moves&^steadyThem&^t.Bitboard() != 0 {
				return false
			}
		}
	}
	// Vacating s must not open a line from one of our sliders, through s,
	// to a square where the opponent king may stand.
	block = a.steady | t.Bitboard()
	var diag, line chess.Bitboard
	for q := qs; q != 0; q &= q - 1 {
		k := q.First()
		if chess.Between(k, s)&block != 0 {
			continue
		}
		for x := chess.BishopAttacks(s, block); x != 0; x &= x - 1 {
			if chess.Between(k, x.First()).Has(s) {
				diag |= x.First().Bitboard()
			}
		}
		for x := chess.RookAttacks(s, block); x != 0; x &= x - 1 {
			if chess.Between(k, x.First()).Has(s) {
				line |= x.First().Bitboard()
			}
		}
	}
	for j := 0; j < a.n && diag|line != 0; j++ {
		pj := &a.pieces[j]
		if pj.color != us {
			continue
		}
		switch {
		case pj.promo:
			return false
		case (pj.kind == chess.Bishop || pj.kind == chess.Queen) && pj.reach&diag != 0:
			return false
		case (pj.kind == chess.Rook || pj.kind == chess.Queen) && pj.reach&line != 0:
			return false
		}
	}
	return true
}

// gameEnders returns the targets (among cand) of piece i moving from s
// after which, whatever happens, the winner can no longer mate, so the
// positions that follow need not be reached:
//   - the loser checkmates the winner's king (which never moves): the line
//     of the check can never be blocked, no piece of the winner may ever
//     attack the checking square, and every flight square of the king is
//     held by the winner's own steady pieces or attacked by the loser's
//     pieces that are never captured;
//   - the winner's last piece gives a contact check to the loser's king
//     (which never moves), the king has no flight square, and the piece
//     can be taken (by the king where the winner's king can never guard
//     it, or by a steady piece that always attacks the square): it must be
//     taken and the winner is left with a bare king.
//
// Like stalemates, both are checked on the position after the move with
// facts that hold before it.
func (a *staticAnalysis) gameEnders(i int, s chess.Square, cand chess.Bitboard) chess.Bitboard {
	pi := &a.pieces[i]
	var out chess.Bitboard
	if pi.color != a.winner {
		for t := cand; t != 0; t &= t - 1 {
			if pi.kind == chess.Pawn && (int(s)-int(t.First()) == 16 || int(t.First())-int(s) == 16) {
				continue // a double step may be taken en passant
			}
			if a.matesWinner(i, t.First()) {
				out |= t.First().Bitboard()
			}
		}
		return out
	}
	if a.lastPiece.Has(pi.sq) {
		for t := cand; t != 0; t &= t - 1 {
			if a.lastPieceLost(i, t.First()) {
				out |= t.First().Bitboard()
			}
		}
	}
	return out
}

// alwaysAttackedWithout is what the pieces of colour c that are never
// captured attack in every position, piece skip excepted, with every
// square that may be occupied, and extra, as an obstacle.
func (a *staticAnalysis) alwaysAttackedWithout(c chess.Color, skip int, extra chess.Bitboard) chess.Bitboard {
	occ := a.mayOcc | extra
	var cover chess.Bitboard
	for j := 0; j < a.n; j++ {
		pj := &a.pieces[j]
		if j == skip || pj.color != c || pj.promo || a.capturable.Has(pj.sq) {
			continue
		}
		att := ^chess.Bitboard(0)
		for r := pj.reach; r != 0 && att != 0; r &= r - 1 {
			att &= chess.Attacks(pj.kind, c, r.First(), occ)
		}
		cover |= att
	}
	return cover
}

func (a *staticAnalysis) matesWinner(i int, t chess.Square) bool {
	pi := &a.pieces[i]
	wk := &a.pieces[a.king[a.winner]]
	kw := wk.sq
	if !a.steady.Has(kw) || a.promo[a.winner] {
		return false
	}
	occ := a.mayOcc | t.Bitboard()
	check := chess.Attacks(pi.kind, pi.color, t, occ&^kw.Bitboard())
	if !check.Has(kw) {
		return false
	}
	var steadyW chess.Bitboard
	for j := 0; j < a.n; j++ {
		pj := &a.pieces[j]
		if pj.color != a.winner {
			continue
		}
		if a.steady.Has(pj.sq) && pj.sq != t {
			steadyW |= pj.sq.Bitboard()
		}
		if pj.kind == chess.King {
			continue
		}
		for r := pj.reach; r != 0; r &= r - 1 {
			if chess.Attacks(pj.kind, pj.color, r.First(), a.steady).Has(t) {
				return false // the checking piece may be taken
			}
		}
	}
	cover := check | a.alwaysAttackedWithout(pi.color, i, t.Bitboard())
	flights := chess.KingAttacks(kw) &^ (steadyW &^ t.Bitboard())
	return flights&^cover == 0
}

func (a *staticAnalysis) lastPieceLost(i int, t chess.Square) bool {
	pi := &a.pieces[i]
	lk := &a.pieces[a.king[a.winner.Other()]]
	wk := &a.pieces[a.king[a.winner]]
	kl := lk.sq
	if !a.steady.Has(kl) || !chess.KingAttacks(kl).Has(t) || pi.promo {
		return false
	}
	occ := a.mayOcc | t.Bitboard()
	att := chess.Attacks(pi.kind, pi.color, t, occ)
	if !att.Has(kl) {
		return false
	}
	// Someone must be able to take the piece: the king if the winner's
	// king can never guard t, or a steady piece that always attacks t (no
	// pin is possible: the winner has nothing else to pin with).
	taken := wk.reach&chess.KingAttacks(t) == 0
	var steadyL chess.Bitboard
	for j := 0; j < a.n; j++ {
		pj := &a.pieces[j]
		if pj.color != a.winner && a.steady.Has(pj.sq) && pj.sq != t {
			steadyL |= pj.sq.Bitboard()
			if pj.kind != chess.King && chess.Attacks(pj.kind, pj.color, pj.sq, occ).Has(t) {
				taken = true
			}
		}
	}
	if !taken {
		return false
	}
	cover := att | a.alwaysAttackedWithout(a.winner, i, t.Bitboard())
	flights := chess.KingAttacks(kl) &^ t.Bitboard() &^ steadyL
	return flights&^cover == 0
}

// collectObstacles lists the pieces that cannot be captured and may stand
// on only a few squares: they are in the way of any move whose path holds
// all of those squares.
func (a *staticAnalysis) collectObstacles() {
	a.nobst = 0
	for i := 0; i < a.n; i++ {
		pi := &a.pieces[i]
		if a.capturable.Has(pi.sq) || pi.promo || pi.reach.Count() > 6 {
			continue
		}
		a.obst[a.nobst] = i
		a.nobst++
	}
}

// obstructed reports whether the move of piece i from s to t is impossible
// because a piece that is never captured is always somewhere on its path.
// An enemy piece is an obstacle only if it always stands strictly between
// (on t it would be captured); a friendly piece, or any piece in front of
// a pawn push, also when it may stand on t.
func (a *staticAnalysis) obstructed(i int, s, t chess.Square, push bool) bool {
	between := chess.Between(s, t)
	for k := 0; k < a.nobst; k++ {
		j := a.obst[k]
		if j == i {
			continue
		}
		pj := &a.pieces[j]
		path := between
		if push || pj.color == a.pieces[i].color {
			path |= t.Bitboard()
		}
		if pj.reach&^path == 0 {
			return true
		}
	}
	return false
}

// fileLimit returns the squares on its file that pawn i can never reach
// because another pawn ahead of it on the file never leaves the file and
// is never captured, while pawn i itself never leaves the file: pawns on a
// file cannot pass each other. Behind an enemy pawn the limit is that
// pawn's square (it only comes closer); behind a friendly pawn, the
// farthest square it may advance to.
func (a *staticAnalysis) fileLimit(i int) chess.Bitboard {
	pi := &a.pieces[i]
	file := chess.FileA << uint(pi.sq.File())
	if pi.reach&^file != 0 {
		return 0
	}
	up := pi.color == chess.White
	var limit chess.Bitboard
	for j := 0; j < a.n; j++ {
		pj := &a.pieces[j]
		if j == i || pj.kind != chess.Pawn || pj.promo || pj.sq.File() != pi.sq.File() ||
			pj.reach&^file != 0 || a.capturable.Has(pj.sq) {
			continue
		}
		if up != (pj.sq > pi.sq) {
			continue // behind pawn i
		}
		// far: the square of pj that is farthest in pawn i's direction.
		var far chess.Square
		if pj.color == pi.color {
			if up {
				far = chess.Square(63 - bits64LeadingZeros(pj.reach))
			} else {
				far = pj.reach.First()
			}
		} else {
			far = pj.sq
		}
		// Everything from far on, in pawn i's direction, on the file.
		var beyond chess.Bitboard
		if up {
			beyond = file & ^(far.Bitboard() - 1)
		} else {
			beyond = file & (far.Bitboard()<<1 - 1)
		}
		limit |= beyond
	}
	return limit
}

// saturate grows the reach sets to the fixpoint.
func (a *staticAnalysis) saturate() {
	// Every round adds squares to some set or stops, so this ends.
	for {
		a.derived()
		var steadyOwn [2]chess.Bitboard
		var mayOccNonKing [2]chess.Bitboard
		var steadyKings chess.Bitboard
		for i := 0; i < a.n; i++ {
			pi := &a.pieces[i]
			if a.steady.Has(pi.sq) {
				steadyOwn[pi.color] |= pi.sq.Bitboard()
				if pi.kind == chess.King {
					steadyKings |= pi.sq.Bitboard()
				}
			}
			if pi.kind != chess.King && !a.lastPiece.Has(pi.sq) {
				mayOccNonKing[pi.color] |= pi.reach
			}
		}
		a.collectObstacles()
		changed := false
		for i := 0; i < a.n; i++ {
			pi := &a.pieces[i]
			us := pi.color
			if pi.promo {
				// A promoted pawn may become any piece and go anywhere
				// except onto its own steady pieces or a steady king.
				if r := pi.reach | ^(steadyOwn[us] | steadyKings); r != pi.reach {
					pi.reach = r
					changed = true
				}
				continue
			}
			if a.immovable.Has(pi.sq) {
				continue
			}
			reach, capt := pi.reach, pi.capt
			for r := pi.reach; r != 0; r &= r - 1 {
				s := r.First()
				var to chess.Bitboard
				switch pi.kind {
				case chess.Pawn:
					fwd, start := 8, 1
					if us == chess.Black {
						fwd, start = -8, 6
					}
					limit := a.fileLimit(i)
					one := chess.Square(int(s) + fwd)
					if !a.steady.Has(one) && !limit.Has(one) && !a.obstructed(i, s, one, true) {
						to |= one.Bitboard()
						if s.Rank() == start {
							two := chess.Square(int(s) + 2*fwd)
							if !a.steady.Has(two) && !limit.Has(two) && !a.obstructed(i, s, two, true) {
								to |= two.Bitboard()
							}
						}
					}
					c := chess.PawnAttacks(us, s) & mayOccNonKing[us.Other()] &^ (steadyOwn[us] | a.uncapturableWhileSteady&a.steady)
					to |= c
					to &^= a.gameEnders(i, s, to&^reach)
					capt |= c & to
				case chess.King:
					to = chess.KingAttacks(s) &^ a.attacked[us.Other()]
					for t := to &^ reach; t != 0; t &= t - 1 {
						if a.stalemates(i, s, t.First(), mayOccNonKing[us]) {
							to &^= t.First().Bitboard()
						}
					}
				case chess.Knight:
					to = chess.KnightAttacks(s)
					to &^= a.gameEnders(i, s, to&^reach)
				default:
					to = chess.Attacks(pi.kind, us, s, a.steady)
					for t := to &^ reach; t != 0; t &= t - 1 {
						if a.obstructed(i, s, t.First(), false) {
							to &^= t.First().Bitboard()
						}
					}
					to &^= a.gameEnders(i, s, to&^reach)
				}
				reach |= to &^ (steadyOwn[us] | steadyKings | a.uncapturableWhileSteady&a.steady)
			}
			if pi.kind == chess.Pawn && reach&(chess.Rank1|chess.Rank8) != 0 {
				pi.promo = true
				a.promo[us] = true
				reach = ^(steadyOwn[us] | steadyKings)
			}
			if reach != pi.reach || capt != pi.capt {
				pi.reach, pi.capt = reach, capt
				changed = true
			}
		}
		if !changed {
			a.derived()
			return
		}
	}
}

// canMate reports whether the saturated analysis leaves a possible mate of
// winner's opponent (true means "not disproved").
func (a *staticAnalysis) canMate(winner chess.Color) bool {
	if a.promo[winner] {
		return true
	}
	loser := winner.Other()
	lk := &a.pieces[a.king[loser]]
	wk := &a.pieces[a.king[winner]]
	// Obstacles for the winner's attacks: steady pieces, but not the
	// loser's king (a king does not shield the squares behind it).
	block := a.steady &^ lk.sq.Bitboard()
	var checkers chess.Bitboard // squares some winner's piece may attack
	var blockers []chess.Bitboard
	for i := 0; i < a.n; i++ {
		pi := &a.pieces[i]
		// Under the case assumption "taken where it stands", mates while
		// the piece is still there are covered by the other case (it has
		// not been taken yet); after it is taken it is gone.
		if pi.kind == chess.King || a.immovable.Has(pi.sq) {
			continue
		}
		if pi.color == winner {
			for r := pi.reach; r != 0; r &= r - 1 {
				checkers |= chess.Attacks(pi.kind, pi.color, r.First(), block)
			}
		} else {
			blockers = append(blockers, pi.reach)
		}
	}
	if a.lastPiece != 0 && !a.immovable.Has(a.lastPiece.First()) {
		return a.canMateWithOnePiece(winner, block, blockers)
	}
	for ks := lk.reach & checkers; ks != 0; ks &= ks - 1 {
		k := ks.First()
		flights := chess.KingAttacks(k)
		need := flights &^ checkers
		if need == 0 {
			return true
		}
		// The winner's king may cover some of the rest from one square.
		if a.blockable(need, blockers) {
			return true
		}
		for ws := wk.reach &^ (chess.KingAttacks(k) | k.Bitboard()); ws != 0; ws &= ws - 1 {
			rest := need &^ chess.KingAttacks(ws.First())
			if rest != need && a.blockable(rest, blockers) {
				return true
			}
		}
	}
	return false
}

// canMateWithOnePiece is canMate when the winner has a single piece besides
// the king: that piece stands on one square in the mating position, so its
// attacks are taken from that square alone, and a check from next to the
// king needs the winner's king to guard the checking piece.
func (a *staticAnalysis) canMateWithOnePiece(winner chess.Color, block chess.Bitboard, blockers []chess.Bitboard) bool {
	loser := winner.Other()
	lk := &a.pieces[a.king[loser]]
	wk := &a.pieces[a.king[winner]]
	var pc *staticPiece
	for i := 0; i < a.n; i++ {
		if a.lastPiece.Has(a.pieces[i].sq) {
			pc = &a.pieces[i]
		}
	}
	for cs := pc.reach; cs != 0; cs &= cs - 1 {
		c := cs.First()
		att := chess.Attacks(pc.kind, winner, c, block&^c.Bitboard())
		for ks := lk.reach & att &^ c.Bitboard(); ks != 0; ks &= ks - 1 {
			k := ks.First()
			need := chess.KingAttacks(k) &^ att
			contact := chess.KingAttacks(k).Has(c)
			if !contact && a.blockable(need&^c.Bitboard(), blockers) {
				return true
			}
			for ws := wk.reach &^ (chess.KingAttacks(k) | k.Bitboard() | c.Bitboard()); ws != 0; ws &= ws - 1 {
				w := ws.First()
				guard := chess.KingAttacks(w)
				if contact && !guard.Has(c) {
					continue
				}
				if a.blockable(need&^guard&^c.Bitboard(), blockers) {
					return true
				}
			}
		}
	}
	return false
}

// blockable reports whether every square of need can hold a distinct
// loser's piece (a bipartite matching of squares to pieces that may reach
// them).
func (a *staticAnalysis) blockable(need chess.Bitboard, blockers []chess.Bitboard) bool {
	if need == 0 {
		return true
	}
	if need.Count() > len(blockers) {
		return false
	}
	var squares [8]chess.Square
	n := 0
	for b := need; b != 0; b &= b - 1 {
		squares[n] = b.First()
		n++
	}
	owner := make([]int, len(blockers))
	for i := range owner {
		owner[i] = -1
	}
	var try func(si int, seen []bool) bool
	try = func(si int, seen []bool) bool {
		for j, r := range blockers {
			if !r.Has(squares[si]) || seen[j] {
				continue
			}
			seen[j] = true
			if owner[j] < 0 || try(owner[j], seen) {
				owner[j] = si
				return true
			}
		}
		return false
	}
	for si := 0; si < n; si++ {
		if !try(si, make([]bool, len(blockers))) {
			return false
		}
	}
	return true
}
