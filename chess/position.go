package chess

// CastlingRights is a set of castling rights. H-side castling puts the king
// on the g-file and the rook on the f-file ("short" in standard chess);
// a-side castling puts the king on c and the rook on d ("long").
type CastlingRights uint8

// The four castling rights.
const (
	WhiteHSide CastlingRights = 1 << iota
	WhiteASide
	BlackHSide
	BlackASide

	NoCastling  CastlingRights = 0
	AllCastling                = WhiteHSide | WhiteASide | BlackHSide | BlackASide
)

// castleIndex numbers the rights 0-3 in the order of the constants above.
func castleIndex(c Color, hSide bool) int {
	i := int(c) * 2
	if !hSide {
		i++
	}
	return i
}

// Position is a chess position: where the pieces stand, whose move it is,
// castling rights (with the rook each right belongs to, so Chess960 works),
// the en passant square, the move counters and a Zobrist key.
//
// Position is a plain value: copying it copies the position. The zero value
// is not a valid position; use NewPosition, ParseFEN or Chess960Start.
type Position struct {
	board   [64]Piece
	byType  [7]Bitboard // [0] is every occupied square
	byColor [2]Bitboard
	key     uint64
	// Castling geometry, fixed for a game once the FEN is read: the rook
	// each right belongs to (the squares that must be empty and those the
	// king crosses follow from it and the king's square, which a king
	// keeping a right has not left).
	castleRooks Bitboard // union of castleRook, for a quick test in MakeMove
	castleRook  [4]Square

	// The counters are 32 bits and the small fields come last: positions
	// are copied for every move tried, so the struct is kept small.
	halfmove, fullmove int32
	kingSq             [2]Square
	side               Color
	castle             CastlingRights
	ep                 Square // set only when an en passant capture is legal
	chess960           bool
	shredderFEN        bool // write castling as file letters
}

// Undo holds what MakeMove needs to restore the position.
type Undo struct {
	captured Piece
	castle   CastlingRights
	ep       Square
	halfmove int32
	key      uint64
}

// PieceAt returns the piece on s, NoPiece if empty.
func (p *Position) PieceAt(s Square) Piece { return p.board[s] }

// Occupied is the set of occupied squares.
func (p *Position) Occupied() Bitboard { return p.byType[0] }

// ByColor is the set of squares holding c's pieces.
func (p *Position) ByColor(c Color) Bitboard { return p.byColor[c] }

// ByType is the set of squares holding pieces of type t (both colours).
func (p *Position) ByType(t PieceType) Bitboard { return p.byType[t] }

// Pieces is the set of squares holding c's pieces of type t.
func (p *Position) Pieces(c Color, t PieceType) Bitboard { return p.byType[t] & p.byColor[c] }

// SideToMove is the side to move.
func (p *Position) SideToMove() Color { return p.side }

// Castling is the set of castling rights still held.
func (p *Position) Castling() CastlingRights { return p.castle }

// CastlingRook is the square of the rook that right r (one bit) castles with,
// or NoSquare if the right is not held.
func (p *Position) CastlingRook(r CastlingRights) Square {
	if p.castle&r == 0 || r == 0 || r&(r-1) != 0 {
		return NoSquare
	}
	for i := 0; i < 4; i++ {
		if r == 1<<i {
			return p.castleRook[i]
		}
	}
	return NoSquare
}

// EnPassant is the en passant target square, NoSquare unless a legal en
// passant capture exists (the FIDE 9.2.2 notion of "same position").
func (p *Position) EnPassant() Square { return p.ep }

// HalfmoveClock counts half-moves since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return int(p.halfmove) }

// FullmoveNumber is the number of the current full move, starting at 1.
func (p *Position) FullmoveNumber() int { return int(p.fullmove) }

// Ply is the number of half-moves since move 1 with White to move.
func (p *Position) Ply() int { return 2*(int(p.fullmove)-1) + int(p.side) }

// Key is the Zobrist hash of placement, side, castling rights and en passant
// square: equal keys mean the same position in the sense of FIDE 9.2.2.
func (p *Position) Key() uint64 { return p.key }

// Chess960 reports whether the position's castling follows Chess960 rules.
func (p *Position) Chess960() bool { return p.chess960 }

// KingSquare is the square of c's king.
func (p *Position) KingSquare(c Color) Square { return p.kingSq[c] }

func (p *Position) put(pc Piece, s Square) {
	b := s.Bitboard()
	p.board[s] = pc
	p.byType[0] |= b
	p.byType[pc.Type()] |= b
	p.byColor[pc.Color()] |= b
	p.key ^= zobPiece[pc][s]
}

func (p *Position) remove(s Square) {
	pc := p.board[s]
	b := s.Bitboard()
	p.board[s] = NoPiece
	p.byType[0] &^= b
	p.byType[pc.Type()] &^= b
	p.byColor[pc.Color()] &^= b
	p.key ^= zobPiece[pc][s]
}

func (p *Position) shift(from, to Square) {
	pc := p.board[from]
	b := from.Bitboard() | to.Bitboard()
	p.board[from] = NoPiece
	p.board[to] = pc
	p.byType[0] ^= b
	p.byType[pc.Type()] ^= b
	p.byColor[pc.Color()] ^= b
	p.key ^= zobPiece[pc][from] ^ zobPiece[pc][to]
}

// attackersTo is every piece of either colour attacking s given occupancy occ.
// (A slider is looked up only when a piece that moves like it stands on
// its lines.)
func (p *Position) attackersTo(s Square, occ Bitboard) Bitboard {
	a := (pawnAttacks[Black][s] & p.Pieces(White, Pawn)) |
		(pawnAttacks[White][s] & p.Pieces(Black, Pawn)) |
		(knightAttacks[s] & p.byType[Knight]) |
		(kingAttacks[s] & p.byType[King])
	if rq := p.byType[Rook] | p.byType[Queen]; rookRays[s]&rq != 0 {
		a |= RookAttacks(s, occ) & rq
	}
	if bq := p.byType[Bishop] | p.byType[Queen]; bishopRays[s]&bq != 0 {
		a |= BishopAttacks(s, occ) & bq
	}
	return a
}

// AttackersTo is the set of c's pieces attacking s.
func (p *Position) AttackersTo(s Square, c Color) Bitboard {
	return p.attackersTo(s, p.byType[0]) & p.byColor[c]
}

// Attacked reports whether any piece of colour by attacks s.
func (p *Position) Attacked(s Square, by Color) bool {
	return p.attackedWith(s, by, p.byType[0])
}

func (p *Position) attackedWith(s Square, by Color, occ Bitboard) bool {
	them := p.byColor[by]
	if pawnAttacks[by^1][s]&p.byType[Pawn]&them != 0 ||
		knightAttacks[s]&p.byType[Knight]&them != 0 ||
		kingAttacks[s]&p.byType[King]&them != 0 {
		return true
	}
	if rq := (p.byType[Rook] | p.byType[Queen]) & them; rookRays[s]&rq != 0 && RookAttacks(s, occ)&rq != 0 {
		return true
	}
	bq := (p.byType[Bishop] | p.byType[Queen]) & them
	return bishopRays[s]&bq != 0 && BishopAttacks(s, occ)&bq != 0
}

// Checkers is the set of pieces giving check to the side to move.
func (p *Position) Checkers() Bitboard {
	return p.attackersTo(p.kingSq[p.side], p.byType[0]) & p.byColor[p.side^1]
}

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool { return p.Attacked(p.kingSq[p.side], p.side^1) }

// OccupancyAfter is the occupied set after move m, without making it.
func (p *Position) OccupancyAfter(m Move) Bitboard {
	occ := p.byType[0]
	from, to := m.From(), m.To()
	switch {
	case m.IsCastling():
		return occ&^(from.Bitboard()|to.Bitboard()) | m.CastlingKingTo().Bitboard() | m.CastlingRookTo().Bitboard()
	case m.IsEnPassant():
		return occ&^(from.Bitboard()|(to^8).Bitboard()) | to.Bitboard()
	}
	return occ&^from.Bitboard() | to.Bitboard()
}

// MakeMove plays m, which must be legal in p, and returns what UnmakeMove
// needs to take it back.
func (p *Position) MakeMove(m Move) Undo {
	u := Undo{castle: p.castle, ep: p.ep, halfmove: p.halfmove, key: p.key}
	us := p.side
	from, to := m.From(), m.To()
	pc := p.board[from]

	if p.ep != NoSquare {
		p.key ^= zobEP[p.ep.File()]
		p.ep = NoSquare
	}
	p.halfmove++

	switch m & (3 << 14) {
	case moveNormal:
		if cap := p.board[to]; cap != NoPiece {
			u.captured = cap
			p.remove(to)
			p.halfmove = 0
		}
		p.shift(from, to)
		if pc.Type() == Pawn {
			p.halfmove = 0
			if int(to)-int(from) == 16 || int(from)-int(to) == 16 {
				p.maybeSetEP(Square((int(from)+int(to))/2), us)
			}
		} else if pc.Type() == King {
			p.kingSq[us] = to
		}
	case movePromotion:
		if cap := p.board[to]; cap != NoPiece {
			u.captured = cap
			p.remove(to)
		}
		p.remove(from)
		p.put(NewPiece(us, m.Promotion()), to)
		p.halfmove = 0
	case moveEnPassant:
		capSq := to ^ 8
		u.captured = p.board[capSq]
		p.remove(capSq)
		p.shift(from, to)
		p.halfmove = 0
	case moveCastling:
		kto, rto := m.CastlingKingTo(), m.CastlingRookTo()
		rook := p.board[to]
		p.remove(from)
		p.remove(to)
		p.put(pc, kto)
		p.put(rook, rto)
		p.kingSq[us] = kto
	}

	if p.castle != 0 {
		nc := p.castle
		if pc.Type() == King {
			nc &^= (WhiteHSide | WhiteASide) << (2 * us)
		}
		for i := 0; i < 4 && (from.Bitboard()|to.Bitboard())&p.castleRooks != 0; i++ {
			if nc&(1<<i) != 0 && (p.castleRook[i] == from || p.castleRook[i] == to) {
				nc &^= 1 << i
			}
		}
		if nc != p.castle {
			p.key ^= zobCastle[p.castle] ^ zobCastle[nc]
			p.castle = nc
		}
	}

	p.side ^= 1
	p.key ^= zobSide
	if us == Black {
		p.fullmove++
	}
	return u
}

// UnmakeMove takes back m, which must be the last move made, using the Undo
// MakeMove returned.
func (p *Position) UnmakeMove(m Move, u Undo) {
	p.side ^= 1
	us := p.side
	if us == Black {
		p.fullmove--
	}
	from, to := m.From(), m.To()
	switch m & (3 << 14) {
	case moveNormal:
		p.shift(to, from)
		if p.board[from].Type() == King {
			p.kingSq[us] = from
		}
		if u.captured != NoPiece {
			p.put(u.captured, to)
		}
	case movePromotion:
		p.remove(to)
		p.put(NewPiece(us, Pawn), from)
		if u.captured != NoPiece {
			p.put(u.captured, to)
		}
	case moveEnPassant:
		p.shift(to, from)
		p.put(u.captured, to^8)
	case moveCastling:
		kto, rto := m.CastlingKingTo(), m.CastlingRookTo()
		king, rook := p.board[kto], p.board[rto]
		p.remove(kto)
		p.remove(rto)
		p.put(king, from)
		p.put(rook, to)
		p.kingSq[us] = from
	}
	p.castle, p.ep, p.halfmove, p.key = u.castle, u.ep, u.halfmove, u.key
}

// maybeSetEP records ep as the en passant square after a double step by
// mover, but only if the opponent (now to move) has a legal capture there.
func (p *Position) maybeSetEP(ep Square, mover Color) {
	them := mover ^ 1
	for b := pawnAttacks[mover][ep] & p.Pieces(them, Pawn); b != 0; b &= b - 1 {
		if p.epLegal(b.First(), ep, them) {
			p.ep = ep
			p.key ^= zobEP[ep.File()]
			return
		}
	}
}

// epLegal reports whether c's pawn on from may capture en passant on ep
// without leaving c's king attacked.
func (p *Position) epLegal(from, ep Square, c Color) bool {
	capSq := ep ^ 8
	occ := p.byType[0]&^(from.Bitboard()|capSq.Bitboard()) | ep.Bitboard()
	ksq := p.kingSq[c]
	them := p.byColor[c^1] &^ capSq.Bitboard()
	if RookAttacks(ksq, occ)&(p.byType[Rook]|p.byType[Queen])&them != 0 {
		return false
	}
	if BishopAttacks(ksq, occ)&(p.byType[Bishop]|p.byType[Queen])&them != 0 {
		return false
	}
	// Knights, pawns and the king are not affected by the capture unless the
	// captured pawn was the checker; it is removed from them above.
	return knightAttacks[ksq]&p.byType[Knight]&them == 0 &&
		pawnAttacks[c][ksq]&p.byType[Pawn]&them == 0
}
