package chess

import "math/bits"

// Square is a board square, a1 = 0, b1 = 1, ..., h8 = 63.
type Square int8

// NoSquare marks the absence of a square (no en passant target, say).
const NoSquare Square = -1

// Square constants for the squares the code names explicitly.
const (
	A1, B1, C1, D1, E1, F1, G1, H1 Square = 0, 1, 2, 3, 4, 5, 6, 7
	A8, B8, C8, D8, E8, F8, G8, H8 Square = 56, 57, 58, 59, 60, 61, 62, 63
)

// NewSquare returns the square on file f and rank r (both 0-7).
func NewSquare(file, rank int) Square { return Square(rank*8 + file) }

// File is the square's file, 0 (a) to 7 (h).
func (s Square) File() int { return int(s) & 7 }

// Rank is the square's rank, 0 (rank 1) to 7 (rank 8).
func (s Square) Rank() int { return int(s) >> 3 }

// Distance is the king's distance between a and b: the most of their
// file and rank differences.
func Distance(a, b Square) int {
	df, dr := a.File()-b.File(), a.Rank()-b.Rank()
	return max(df, -df, dr, -dr)
}

// Bitboard is the set holding only s.
func (s Square) Bitboard() Bitboard { return 1 << uint(s) }

// Valid reports whether s is one of the 64 squares.
func (s Square) Valid() bool { return s >= 0 && s < 64 }

func (s Square) String() string {
	if !s.Valid() {
		return "-"
	}
	return string(s.appendTo(make([]byte, 0, 2)))
}

// appendTo appends the square's name (s must be valid).
func (s Square) appendTo(b []byte) []byte {
	return append(b, byte('a'+s.File()), byte('1'+s.Rank()))
}

// ParseSquare reads a square name such as "e4".
func ParseSquare(name string) (Square, bool) {
	if len(name) != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8' {
		return NoSquare, false
	}
	return NewSquare(int(name[0]-'a'), int(name[1]-'1')), true
}

// Color is a side: White or Black.
type Color uint8

// The two sides.
const (
	White Color = 0
	Black Color = 1
)

// Other is the opponent of c.
func (c Color) Other() Color { return c ^ 1 }

func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// PieceType is a kind of piece regardless of colour.
type PieceType uint8

// Piece types. NoPieceType is zero so that an empty square reads as nothing.
const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// Letter is the upper-case FEN/SAN letter of the type ("" for a pawn in SAN
// is the caller's business: this returns 'P').
func (t PieceType) Letter() byte { return " PNBRQK"[t&7] }

func (t PieceType) String() string {
	return [...]string{"none", "pawn", "knight", "bishop", "rook", "queen", "king", "?"}[t&7]
}

// Piece is a coloured piece: colour<<3 | type. NoPiece (0) is an empty square.
type Piece uint8

// NoPiece is an empty square.
const NoPiece Piece = 0

// Coloured pieces.
const (
	WhitePawn   = Piece(White<<3) | Piece(Pawn)
	WhiteKnight = Piece(White<<3) | Piece(Knight)
	WhiteBishop = Piece(White<<3) | Piece(Bishop)
	WhiteRook   = Piece(White<<3) | Piece(Rook)
	WhiteQueen  = Piece(White<<3) | Piece(Queen)
	WhiteKing   = Piece(White<<3) | Piece(King)
	BlackPawn   = Piece(Black<<3) | Piece(Pawn)
	BlackKnight = Piece(Black<<3) | Piece(Knight)
	BlackBishop = Piece(Black<<3) | Piece(Bishop)
	BlackRook   = Piece(Black<<3) | Piece(Rook)
	BlackQueen  = Piece(Black<<3) | Piece(Queen)
	BlackKing   = Piece(Black<<3) | Piece(King)
)

// NewPiece makes a piece of colour c and type t.
func NewPiece(c Color, t PieceType) Piece { return Piece(c<<3) | Piece(t) }

// Color is the piece's colour (meaningless for NoPiece).
func (p Piece) Color() Color { return Color(p >> 3) }

// Type is the piece's type; NoPieceType for NoPiece.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// FENLetter is the piece's FEN letter: upper case white, lower case black;
// '.' for an empty square.
func (p Piece) FENLetter() byte {
	if p == NoPiece {
		return '.'
	}
	l := p.Type().Letter()
	if p.Color() == Black {
		l += 'a' - 'A'
	}
	return l
}

// PieceFromFEN returns the piece for a FEN letter (PNBRQK, pnbrqk).
func PieceFromFEN(b byte) (Piece, bool) {
	c := White
	if b >= 'a' && b <= 'z' {
		c = Black
		b -= 'a' - 'A'
	}
	switch b {
	case 'P':
		return NewPiece(c, Pawn), true
	case 'N':
		return NewPiece(c, Knight), true
	case 'B':
		return NewPiece(c, Bishop), true
	case 'R':
		return NewPiece(c, Rook), true
	case 'Q':
		return NewPiece(c, Queen), true
	case 'K':
		return NewPiece(c, King), true
	}
	return NoPiece, false
}

func (p Piece) String() string { return string(p.FENLetter()) }

// Bitboard is a set of squares, bit i standing for square i.
type Bitboard uint64

// Has reports whether s is in b.
func (b Bitboard) Has(s Square) bool { return b&(1<<uint(s)) != 0 }

// Count is the number of squares in b.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// First is the lowest square in b; b must not be empty.
func (b Bitboard) First() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// More reports whether b holds more than one square.
func (b Bitboard) More() bool { return b&(b-1) != 0 }

// Squares lists the squares of b in ascending order (allocates; not for hot paths).
func (b Bitboard) Squares() []Square {
	out := make([]Square, 0, b.Count())
	for ; b != 0; b &= b - 1 {
		out = append(out, b.First())
	}
	return out
}

// List names b's squares in a1..h8 order, separated by spaces ("e2 e4"),
// as alerts and notes write them.
func (b Bitboard) List() string {
	buf := make([]byte, 0, 3*b.Count())
	for ; b != 0; b &= b - 1 {
		if len(buf) > 0 {
			buf = append(buf, ' ')
		}
		buf = append(buf, b.First().String()...)
	}
	return string(buf)
}

// String draws b as an 8x8 picture, rank 8 first, for debugging and diagnostics.
func (b Bitboard) String() string {
	buf := make([]byte, 0, 72)
	for r := 7; r >= 0; r-- {
		for f := 0; f < 8; f++ {
			if b.Has(NewSquare(f, r)) {
				buf = append(buf, 'x')
			} else {
				buf = append(buf, '.')
			}
		}
		buf = append(buf, '\n')
	}
	return string(buf)
}

// Files and ranks as bitboards.
const (
	FileA Bitboard = 0x0101010101010101
	FileH Bitboard = FileA << 7
	Rank1 Bitboard = 0xff
	Rank2 Bitboard = Rank1 << 8
	Rank3 Bitboard = Rank1 << 16
	Rank4 Bitboard = Rank1 << 24
	Rank5 Bitboard = Rank1 << 32
	Rank6 Bitboard = Rank1 << 40
	Rank7 Bitboard = Rank1 << 48
	Rank8 Bitboard = Rank1 << 56
)

// Move is a move in 16 bits: to (0-5), from (6-11), promotion type
// (12-13: knight, bishop, rook, queen) and kind (14-15). Castling is
// encoded internally as the king moving onto its own rook's square, which
// describes standard and Chess960 castling alike; UCI and SAN convert.
type Move uint16

// NoMove is the zero move; no legal move encodes to it (a1a1 is impossible).
const NoMove Move = 0

// Move kinds.
const (
	moveNormal    = 0
	movePromotion = 1 << 14
	moveEnPassant = 2 << 14
	moveCastling  = 3 << 14
)

func newMove(from, to Square) Move { return Move(uint16(from)<<6 | uint16(to)) }

// NewMove makes an ordinary move (no promotion, en passant or castling)
// from one square to another. It says nothing about legality: callers use
// it to name a move a hand made, legal or not.
func NewMove(from, to Square) Move { return newMove(from, to) }

func newPromotion(from, to Square, t PieceType) Move {
	return Move(movePromotion | uint16(t-Knight)<<12 | uint16(from)<<6 | uint16(to))
}

func newEnPassant(from, to Square) Move { return Move(moveEnPassant | uint16(from)<<6 | uint16(to)) }

func newCastling(kingFrom, rookFrom Square) Move {
	return Move(moveCastling | uint16(kingFrom)<<6 | uint16(rookFrom))
}

// From is the square the moving piece leaves (the king's square for castling).
func (m Move) From() Square { return Square(m>>6) & 63 }

// To is the destination; for castling it is the castling rook's square.
func (m Move) To() Square { return Square(m) & 63 }

// IsPromotion reports whether m promotes a pawn.
func (m Move) IsPromotion() bool { return m&(3<<14) == movePromotion }

// IsEnPassant reports whether m captures en passant.
func (m Move) IsEnPassant() bool { return m&(3<<14) == moveEnPassant }

// IsCastling reports whether m castles.
func (m Move) IsCastling() bool { return m&(3<<14) == moveCastling }

// Promotion is the piece type a promotion makes, NoPieceType otherwise.
func (m Move) Promotion() PieceType {
	if !m.IsPromotion() {
		return NoPieceType
	}
	return Knight + PieceType(m>>12&3)
}

// WithPromotion returns the promotion m with another piece type; m must be a
// promotion and t one of knight, bishop, rook or queen.
func (m Move) WithPromotion(t PieceType) Move {
	return m&^(3<<12) | Move(uint16(t-Knight)<<12)
}

// Landing is the square m's piece is set down on: its destination, or for
// a castling the king's square (To is the rook's there).
func (m Move) Landing() Square {
	if m.IsCastling() {
		return m.CastlingKingTo()
	}
	return m.To()
}

// CastlingKingTo is where the king ends after castling move m.
func (m Move) CastlingKingTo() Square {
	r := m.From().Rank() * 8
	if m.To() > m.From() {
		return Square(r + 6)
	}
	return Square(r + 2)
}

// CastlingRookTo is where the rook ends after castling move m.
func (m Move) CastlingRookTo() Square {
	r := m.From().Rank() * 8
	if m.To() > m.From() {
		return Square(r + 5)
	}
	return Square(r + 3)
}

// MoveList is a fixed-capacity list of moves that lives on the stack. No
// legal chess position has more than 218 moves.
type MoveList struct {
	moves [256]Move
	n     int
}

// Len is the number of moves in the list.
func (l *MoveList) Len() int { return l.n }

// At returns the i-th move.
func (l *MoveList) At(i int) Move { return l.moves[i] }

// Moves returns the moves as a slice aliasing the list's storage.
func (l *MoveList) Moves() []Move { return l.moves[:l.n] }

// Reset empties the list.
func (l *MoveList) Reset() { l.n = 0 }

// Contains reports whether m is in the list.
func (l *MoveList) Contains(m Move) bool {
	for _, x := range l.moves[:l.n] {
		if x == m {
			return true
		}
	}
	return false
}

// add appends m. The index is taken as a byte, which the 256-move array
// cannot overflow, so that no bounds check is made on every move.
func (l *MoveList) add(m Move) {
	l.moves[uint8(l.n)] = m
	l.n++
}
