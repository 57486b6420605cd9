package sim

import (
	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// injectSpacing keeps injected irregularities this many moves apart, so
// that each can be judged on its own.
const injectSpacing = 4

// planInjections decides which irregularities this game gets and at which
// move. Kinds that need a clock (an illegal move is completed by the press;
// the others are defined by it) are planned only in clocked games; an
// unreplaced promotion only with piece sensors (occupancy and colour cannot
// tell a pawn from the piece that replaces it).
func (s *Source) planInjections() {
	ir := s.r.Inject
	p := s.pos
	var queenPromos, castles []int
	for i, m := range s.moves {
		if m.Promotion() == chess.Queen {
			queenPromos = append(queenPromos, i)
		}
		if rookFirstPossible(m) {
			castles = append(castles, i)
		}
		p.MakeMove(m)
	}
	all := make([]int, 0, len(s.moves))
	for i := 1; i < len(s.moves); i++ {
		all = append(all, i)
	}
	pick := func(kind int, rate float64, cands []int) {
		if len(cands) == 0 || !s.chance(rate) {
			return
		}
		for try := 0; try < 8; try++ {
			i := cands[s.rng.IntN(len(cands))]
			if s.spaced(i) {
				s.plan[kind] = i
				return
			}
		}
	}
	if s.clocked && s.opts.Sensor == trace.PieceSensor {
		pick(injUnreplaced, ir.UnreplacedPromo, queenPromos)
	}
	pick(injRookFirst, ir.RookFirst, castles)
	if s.clocked {
		pick(injIllegal, ir.IllegalMove, all)
		pick(injClockOnly, ir.ClockWithoutMove, all)
		pick(injChanged, ir.MoveChanged, all)
	}
	pick(injMisplaced, ir.Misplaced, all)
}

func (s *Source) spaced(i int) bool {
	for _, p := range s.plan {
		if p >= 0 && p-i < injectSpacing && i-p < injectSpacing {
			return false
		}
	}
	return true
}

// senseBoard is what a sensor of the source's kind reads for a board.
func (s *Source) senseBoard(board *[64]chess.Piece) [64]chess.Piece {
	var out [64]chess.Piece
	for sq, pc := range board {
		out[sq] = s.sense(pc)
	}
	return out
}

func boardOf(p *chess.Position) [64]chess.Piece {
	var b [64]chess.Piece
	for sq := chess.Square(0); sq < 64; sq++ {
		b[sq] = p.PieceAt(sq)
	}
	return b
}

// illegalCandidates lists moves by side that break a rule: first those a
// piece could make by its geometry but that leave the own king in check
// (a pinned piece, the king walking into check, a check ignored), then
// plain geometry errors (a piece one step where it cannot go, a pawn
// sideways-diagonal onto an empty square). Only moves whose result the
// sensors can tell from every legal move are kept.
func (s *Source) illegalCandidates(side chess.Color) (selfCheck, geometry [][2]chess.Square) {
	p := &s.pos
	legal := p.LegalMoves()
	isLegal := func(from, to chess.Square) bool {
		for _, m := range legal {
			if m.From() == from && m.To() == to && !m.IsCastling() {
				return true
			}
		}
		return false
	}
	seen := make([][64]chess.Piece, 0, len(legal))
	for _, m := range legal {
		q := *p
		q.MakeMove(m)
		b := boardOf(&q)
		seen = append(seen, s.senseBoard(&b))
	}
	now := boardOf(p)
	distinct := func(from, to chess.Square) bool {
		b := now
		b[to], b[from] = b[from], chess.NoPiece
		got := s.senseBoard(&b)
		for i := range seen {
			if seen[i] == got {
				return false
			}
		}
		return true
	}
	own, opp, occ := p.ByColor(side), p.ByColor(side.Other()), p.Occupied()
	oppKing := p.Pieces(side.Other(), chess.King)
	lastRank := chess.Rank8
	dir := 8
	if side == chess.Black {
		lastRank, dir = chess.Rank1, -8
	}
	for bb := own; bb != 0; bb &= bb - 1 {
		from := bb.First()
		pc := p.PieceAt(from)
		var pseudo chess.Bitboard
		switch pc.Type() {
		case chess.Knight:
			pseudo = chess.KnightAttacks(from)
		case chess.Bishop:
			pseudo = chess.BishopAttacks(from, occ)
		case chess.Rook:
			pseudo = chess.RookAttacks(from, occ)
		case chess.Queen:
			pseudo = chess.QueenAttacks(from, occ)
		case chess.King:
			pseudo = chess.KingAttacks(from)
		case chess.Pawn:
			pseudo = chess.PawnAttacks(side, from) & opp
			if one := chess.Square(int(from) + dir); !occ.Has(one) {
				pseudo |= one.Bitboard()
				startRank := 1
				if side == chess.Black {
					startRank = 6
				}
				if two := chess.Square(int(from) + 2*dir); from.Rank() == startRank && !occ.Has(two) {
					pseudo |= two.Bitboard()
				}
			}
		}
		pseudo &^= own | oppKing
		if pc.Type() == chess.Pawn {
			pseudo &^= lastRank
		}
		for t := pseudo; t != 0; t &= t - 1 {
			to := t.First()
			if !isLegal(from, to) && distinct(from, to) {
				selfCheck = append(selfCheck, [2]chess.Square{from, to})
			}
		}
		var wrong chess.Bitboard
		switch pc.Type() {
		case chess.King:
		case chess.Pawn:
			wrong = chess.PawnAttacks(side, from) &^ occ &^ lastRank
			if ep := p.EnPassant(); ep != chess.NoSquare {
				wrong &^= ep.Bitboard()
			}
		default:
			wrong = chess.KingAttacks(from) &^ occ &^ pseudo
		}
		for t := wrong; t != 0; t &= t - 1 {
			if to := t.First(); distinct(from, to) {
				geometry = append(geometry, [2]chess.Square{from, to})
			}
		}
	}
	return selfCheck, geometry
}

// illegalFirst makes an illegal move, presses the clock, and after the
// arbiter's intervention the position is set back; the game move follows.
// It reports false (and does nothing) when no illegal move the sensors
// could see exists.
func (s *Source) illegalFirst(side chess.Color) bool {
	selfCheck, geometry := s.illegalCandidates(side)
	cands := geometry
	if len(selfCheck) > 0 && (len(geometry) == 0 || s.rng.IntN(10) < 7) {
		cands = selfCheck
	}
	if len(cands) == 0 {
		return false
	}
	c := cands[s.rng.IntN(len(cands))]
	a, b := c[0], c[1]
	s.reach()
	s.inject(injIllegal, side, a, b)
	victim := s.phys[b]
	if victim != chess.NoPiece {
		s.lift(b)
		s.aside()
		s.reach()
	}
	pc := s.carry(a, b)
	s.wait(300, 900)
	s.press(side)
	s.wait(5000, 40000) // the arbiter comes and restores the position
	s.lift(b)
	s.travel(b, a)
	s.place(a, pc)
	if victim != chess.NoPiece {
		s.wait(200, 800)
		s.place(b, victim)
	}
	s.wait(1000, 8000)
	return true
}

// changedMove makes another legal move first, releases it, and some
// seconds later changes it into the game move m (FIDE 2018 Art. 4.7). It
// reports false when there is no quiet alternative move.
func (s *Source) changedMove(m chess.Move, side chess.Color) bool {
	var same, other []chess.Move
	for _, a := range s.pos.LegalMoves() {
		if a == m || a.IsCastling() || a.IsEnPassant() || a.IsPromotion() ||
			s.phys[a.To()] != chess.NoPiece || a.To() == m.To() {
			continue
		}
		if a.From() == m.From() {
			same = append(same, a)
		} else {
			other = append(other, a)
		}
	}
	cands := same
	if len(cands) == 0 {
		cands = other
	}
	if len(cands) == 0 {
		return false
	}
	a := cands[s.rng.IntN(len(cands))]
	s.reach()
	s.inject(injChanged, side, a.From(), a.To())
	pc := s.carry(a.From(), a.To())
	s.wait(2000, 6000)
	s.lift(a.To())
	plain := !m.IsCastling() && !m.IsEnPassant() && !m.IsPromotion() && s.phys[m.To()] == chess.NoPiece
	if a.From() == m.From() && plain {
		s.travel(a.To(), m.To())
		s.place(m.To(), pc)
		return true
	}
	s.travel(a.To(), a.From())
	s.place(a.From(), pc)
	s.wait(500, 2000)
	s.playMove(m, side, false)
	return true
}

// unreplacedPromotion puts the pawn on the last rank and presses the clock
// without replacing it (FIDE 2018 Art. 7.5.2); the arbiter then puts a
// queen there. m must promote to a queen.
func (s *Source) unreplacedPromotion(m chess.Move, side chess.Color) bool {
	if m.Promotion() != chess.Queen {
		return false
	}
	from, to := m.From(), m.To()
	s.reach()
	s.inject(injUnreplaced, side, to)
	if s.phys[to] != chess.NoPiece {
		s.lift(to)
		s.aside()
		s.reach()
	}
	pawn := s.lift(from)
	s.travel(from, to)
	s.place(to, pawn)
	s.wait(300, 900)
	s.press(side)
	s.wait(3000, 20000)
	s.lift(to)
	s.wait(300, 1500)
	s.place(to, chess.NewPiece(side, chess.Queen))
	return true
}
