package chess

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// StartFEN is the standard starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// FENError says which field of a FEN is wrong and why.
type FENError struct {
	FEN    string
	Field  string // "piece placement", "side to move", "castling", "en passant", "halfmove clock", "fullmove number", "position"
	Reason string
}

func (e *FENError) Error() string {
	return fmt.Sprintf("bad FEN %q: %s: %s", e.FEN, e.Field, e.Reason)
}

// NewPosition returns the standard starting position.
func NewPosition() *Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic("chess: start FEN does not parse: " + err.Error()) // unreachable: a constant
	}
	return p
}

// ParseFEN reads a position in Forsyth-Edwards Notation. The castling field
// may be standard (KQkq), X-FEN (KQkq naming the outermost rook, file
// letters for inner rooks) or Shredder-FEN (file letters). The move
// counters may be omitted (as in EPD). A Chess960 position is recognised
// from its castling set-up; use SetChess960 for a 960 game that happens to
// start like standard chess.
//
// The position must be legal in the sense that matters to boardd: one king
// each, no pawn on the first or last rank, the side not to move not in
// check, castling rights backed by king and rook on their squares, an en
// passant square behind a pawn that has just moved two squares. An en
// passant square is kept only if a legal en passant capture exists.
func ParseFEN(fen string) (*Position, error) {
	bad := func(field, format string, args ...any) error {
		return &FENError{FEN: fen, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	fields := strings.Fields(fen)
	if len(fields) < 4 || len(fields) > 6 {
		return nil, bad("position", "%d fields, want 6 (placement, side, castling, en passant, halfmove clock, fullmove number)", len(fields))
	}
	p := &Position{ep: NoSquare, fullmove: 1}

	// Piece placement, rank 8 first.
	var pl [64]Piece
	if err := ParsePlacement(fields[0], &pl); err != nil {
		return nil, bad("piece placement", "%v", err)
	}
	for sq, pc := range pl {
		if pc == NoPiece {
			continue
		}
		if s := Square(sq); pc.Type() == Pawn && (s.Rank() == 0 || s.Rank() == 7) {
			return nil, bad("piece placement", "pawn on %s: no pawn can stand on the first or last rank", s)
		}
		p.put(pc, Square(sq))
	}
	for _, c := range []Color{White, Black} {
		k := p.Pieces(c, King)
		switch {
		case k == 0:
			return nil, bad("piece placement", "no %s king", c)
		case k.More():
			return nil, bad("piece placement", "%d %s kings", k.Count(), c)
		}
		p.kingSq[c] = k.First()
	}

	switch fields[1] {
	case "w":
		p.side = White
	case "b":
		p.side = Black
		p.key ^= zobSide
	default:
		return nil, bad("side to move", "%q, want w or b", fields[1])
	}
	if p.Attacked(p.kingSq[p.side^1], p.side) {
		return nil, bad("position", "%s is in check but it is %s's move", p.side^1, p.side)
	}

	if err := p.parseCastling(fields[2]); err != nil {
		return nil, bad("castling", "%s", err)
	}

	if fields[3] != "-" {
		ep, ok := ParseSquare(fields[3])
		if !ok {
			return nil, bad("en passant", "%q is not a square", fields[3])
		}
		wantRank, dir := 5, -8 // White to move: Black just played a pawn two squares
		if p.side == Black {
			wantRank, dir = 2, 8
		}
		if ep.Rank() != wantRank {
			return nil, bad("en passant", "%s is not on rank %d, where %s's double step would leave it", ep, wantRank+1, p.side^1)
		}
		if p.board[ep] != NoPiece || p.board[ep-Square(dir)] != NoPiece || p.board[ep+Square(dir)] != NewPiece(p.side^1, Pawn) {
			return nil, bad("en passant", "%s: no %s pawn has just moved two squares past it", ep, p.side^1)
		}
		p.maybeSetEP(ep, p.side^1)
	}

	if len(fields) > 4 {
		n, err := strconv.Atoi(fields[4])
		if err != nil || n < 0 || n > 100000 {
			return nil, bad("halfmove clock", "%q is not a number of half-moves", fields[4])
		}
		p.halfmove = int32(n)
	}
	if len(fields) > 5 {
		n, err := strconv.Atoi(fields[5])
		if err != nil || n < 0 || n > 100000 {
			return nil, bad("fullmove number", "%q is not a move number", fields[5])
		}
		if n == 0 { // some programs write 0; the Laws count from 1
			n = 1
		}
		p.fullmove = int32(n)
	}
	return p, nil
}

func (p *Position) parseCastling(field string) error {
	if field == "-" {
		return nil
	}
	shredder, xfen := false, false
	for i := 0; i < len(field); i++ {
		ch := field[i]
		c := White
		if ch >= 'a' && ch <= 'z' {
			c = Black
			ch -= 'a' - 'A'
		}
		backRank := 0
		if c == Black {
			backRank = 7
		}
		ksq := p.kingSq[c]
		if ksq.Rank() != backRank {
			return fmt.Errorf("%q: the %s king is not on its first rank", string(field[i]), c)
		}
		rooks := p.Pieces(c, Rook) & rankBB(backRank)
		var rook Square = NoSquare
		switch {
		case ch == 'K' || ch == 'Q':
			xfen = true
			// The outermost rook on that side of the king.
			if ch == 'K' {
				for f := 7; f > ksq.File(); f-- {
					if rooks.Has(NewSquare(f, backRank)) {
						rook = NewSquare(f, backRank)
						break
					}
				}
			} else {
				for f := 0; f < ksq.File(); f++ {
					if rooks.Has(NewSquare(f, backRank)) {
						rook = NewSquare(f, backRank)
						break
					}
				}
			}
			if rook == NoSquare {
				return fmt.Errorf("%q: no %s rook on the %s side of the king", string(field[i]), c, map[byte]string{'K': "king", 'Q': "queen"}[ch])
			}
		case ch >= 'A' && ch <= 'H':
			shredder = true
			rook = NewSquare(int(ch-'A'), backRank)
			if !rooks.Has(rook) {
				return fmt.Errorf("%q: no %s rook on %s", string(field[i]), c, rook)
			}
			if rook == ksq {
				return fmt.Errorf("%q: the king stands there", string(field[i]))
			}
		default:
			return fmt.Errorf("%q is not a castling letter (KQkq or a file a-h)", string(field[i]))
		}
		idx := castleIndex(c, rook > ksq)
		if p.castle&(1<<idx) != 0 {
			return fmt.Errorf("%q: %s already has a castling right on that side", string(field[i]), c)
		}
		p.setCastling(idx, rook)
	}
	if shredder && !xfen {
		p.shredderFEN = true
	}
	// Anything but king on e and rooks in the corners is Chess960 castling.
	for i := 0; i < 4; i++ {
		if p.castle&(1<<i) == 0 {
			continue
		}
		if p.kingSq[i/2].File() != 4 || (p.castleRook[i].File() != 0 && p.castleRook[i].File() != 7) {
			p.chess960 = true
		}
	}
	return nil
}

// setCastling grants right idx (0-3) with the rook on rf.
func (p *Position) setCastling(idx int, rf Square) {
	p.castle |= 1 << idx
	p.key ^= zobCastle[p.castle&^(1<<idx)] ^ zobCastle[p.castle]
	p.castleRook[idx] = rf
	p.castleRooks |= rf.Bitboard()
}

// castlingSquares returns, for right idx (0-3) of a king on kf castling
// with the rook on rf, the squares that must be empty and those the king
// crosses (its destination included).
func castlingSquares(idx int, kf, rf Square) (empty, path Bitboard) {
	base := int(kf) &^ 7
	kto, rto := Square(base+6), Square(base+5)
	if idx&1 == 1 {
		kto, rto = Square(base+2), Square(base+3)
	}
	path = betweenBB[kf][kto] | kto.Bitboard()
	empty = (path | betweenBB[rf][rto] | rto.Bitboard()) &^ (kf.Bitboard() | rf.Bitboard())
	return empty, path
}

// ParsePlacement reads the piece-placement field of a FEN (rank 8 first,
// "/" between ranks) into pl. It checks the shape only: 8 ranks of 8
// squares and piece letters; the kings and pawns are ParseFEN's business.
func ParsePlacement(s string, pl *[64]Piece) error {
	*pl = [64]Piece{}
	ranks := strings.Split(s, "/")
	if len(ranks) != 8 {
		return fmt.Errorf("%d ranks, want 8", len(ranks))
	}
	for i, row := range ranks {
		r := 7 - i
		f := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '1' && c <= '9' {
				f += int(c - '0')
				if f > 8 {
					return fmt.Errorf("rank %d has %d squares, want 8", r+1, f)
				}
				continue
			}
			pc, ok := PieceFromFEN(c)
			if !ok {
				return fmt.Errorf("rank %d: %q is not a piece letter", r+1, c)
			}
			if f >= 8 {
				return fmt.Errorf("rank %d has more than 8 squares", r+1)
			}
			pl[NewSquare(f, r)] = pc
			f++
		}
		if f != 8 {
			return fmt.Errorf("rank %d has %d squares, want 8", r+1, f)
		}
	}
	return nil
}

// fenLetters is Piece.FENLetter as a table, digits for the runs of empty
// squares being written apart.
var fenLetters = [16]byte{
	WhitePawn: 'P', WhiteKnight: 'N', WhiteBishop: 'B', WhiteRook: 'R', WhiteQueen: 'Q', WhiteKing: 'K',
	BlackPawn: 'p', BlackKnight: 'n', BlackBishop: 'b', BlackRook: 'r', BlackQueen: 'q', BlackKing: 'k',
}

// AppendPlacement appends the piece-placement field of a FEN for pl to b.
func AppendPlacement(b []byte, pl *[64]Piece) []byte {
	var occ Bitboard
	for sq, pc := range pl {
		if pc != NoPiece {
			occ |= 1 << uint(sq)
		}
	}
	return appendPlacement(b, pl, occ)
}

// appendPlacement is AppendPlacement given the occupied squares, which a
// Position keeps. A FEN is written for every move output, so it visits
// the pieces only, not the 64 squares, and writes into room made once.
// A run of empty squares is written whatever its length and kept only
// when not zero: a branch there would be mispredicted at random.
func appendPlacement(b []byte, pl *[64]Piece, occ Bitboard) []byte {
	n := len(b)
	b = slices.Grow(b, placementRoom)[:n+placementRoom]
	w := b[n:]
	i := 0
	for r := 7; r >= 0; r-- {
		f := 0
		for row := uint8(occ >> (8 * uint(r))); row != 0; row &= row - 1 {
			pf := bits.TrailingZeros8(row)
			run := uint(pf - f)
			w[i] = byte('0' + run)
			i += int((run + 7) >> 3) // 1 unless run is 0
			w[i] = fenLetters[pl[8*r+pf]&15]
			i++
			f = pf + 1
		}
		run := uint(8 - f)
		w[i] = byte('0' + run)
		i += int((run + 7) >> 3)
		w[i] = '/'
		i++
	}
	return b[:n+i-1]
}

// FENWriter writes FENs as Position.AppendFEN does, remembering the text
// of each rank it wrote last: the positions of a game written one after
// the other differ in a rank or two, and the ranks that did not change
// are copied. The zero value is ready to use.
type FENWriter struct {
	rank [8]uint64 // the pieces of each rank written last, a byte each
	text [8]uint64 // their text, a byte each
	n    [8]uint8  // its length, 0 before the rank is first written
}

// AppendFEN appends p's FEN to b.
func (w *FENWriter) AppendFEN(b []byte, p *Position) []byte {
	n := len(b)
	b = slices.Grow(b, placementRoom)[:n+placementRoom]
	out := b[n:]
	i := 0
	for r := 7; r >= 0; r-- {
		sq := p.board[8*r : 8*r+8]
		key := uint64(sq[0]) | uint64(sq[1])<<8 | uint64(sq[2])<<16 | uint64(sq[3])<<24 |
			uint64(sq[4])<<32 | uint64(sq[5])<<40 | uint64(sq[6])<<48 | uint64(sq[7])<<56
		if w.n[r] == 0 || w.rank[r] != key {
			var t [8]byte
			k := appendRank(&t, (*[8]Piece)(sq), uint8(p.byType[0]>>(8*uint(r))))
			w.rank[r], w.text[r], w.n[r] = key, binary.LittleEndian.Uint64(t[:]), uint8(k)
		}
		binary.LittleEndian.PutUint64(out[i:i+8], w.text[r])
		i += int(w.n[r])
		out[i] = '/'
		i++
	}
	return p.appendFields(b[:n+i-1])
}

// appendRank writes the text of a rank whose pieces are pl and occupied
// files row into t, and returns its length (at most 8).
func appendRank(t *[8]byte, pl *[8]Piece, row uint8) int {
	var w [9]byte // room for the run written after a full rank
	i, f := 0, 0
	for ; row != 0; row &= row - 1 {
		pf := bits.TrailingZeros8(row)
		run := uint(pf - f)
		w[i] = byte('0' + run)
		i += int((run + 7) >> 3)
		w[i] = fenLetters[pl[pf]&15]
		i++
		f = pf + 1
	}
	run := uint(8 - f)
	w[i] = byte('0' + run)
	i += int((run + 7) >> 3)
	*t = [8]byte(w[:8])
	return i
}

// placementRoom is what appendPlacement writes at most: 64 pieces and
// eight slashes (the last one dropped).
const placementRoom = 64 + 8

// SetChess960 marks the position as a Chess960 game (or not), which
// changes how castling is written in UCI and FEN.
func (p *Position) SetChess960(on bool) { p.chess960 = on }

// FEN writes the position in Forsyth-Edwards Notation. Castling is written
// as KQkq where that names the castling rook unambiguously (X-FEN), with file
// letters otherwise, or always with file letters if the position was read
// from Shredder-FEN. The en passant square is written only when an en
// passant capture is legal.
func (p *Position) FEN() string {
	var buf [96]byte
	return string(p.AppendFEN(buf[:0]))
}

// AppendFEN appends the FEN to b (see FEN); it does not allocate when b
// has room, which matters where a FEN is made for every move.
func (p *Position) AppendFEN(b []byte) []byte {
	return p.appendFields(appendPlacement(b, &p.board, p.byType[0]))
}

// appendFields appends the FEN's fields after the placement, the space
// before them included.
func (p *Position) appendFields(b []byte) []byte {
	if p.side == White {
		b = append(b, " w "...)
	} else {
		b = append(b, " b "...)
	}
	b = p.appendCastling(b)
	b = append(b, ' ')
	if p.ep == NoSquare {
		b = append(b, '-')
	} else {
		b = append(b, byte('a'+p.ep.File()), byte('1'+p.ep.Rank()))
	}
	b = append(b, ' ')
	b = appendCount(b, int(p.halfmove))
	b = append(b, ' ')
	return appendCount(b, int(p.fullmove))
}

// appendCount appends n >= 0 in decimal; the move counters are nearly
// always under 100, which needs no division loop.
func appendCount(b []byte, n int) []byte {
	switch {
	case uint(n) < 10:
		return append(b, byte('0'+n))
	case uint(n) < 100:
		return append(b, byte('0'+n/10), byte('0'+n%10))
	}
	return strconv.AppendInt(b, int64(n), 10)
}

func (p *Position) appendCastling(b []byte) []byte {
	if p.castle == 0 {
		return append(b, '-')
	}
	for i := 0; i < 4; i++ {
		if p.castle&(1<<i) == 0 {
			continue
		}
		c := Color(i / 2)
		rf := p.castleRook[i]
		letter := byte('A' + rf.File())
		if !p.shredderFEN {
			// X-FEN: K/Q when the rook is the outermost one on its side.
			outer := true
			rooks := p.Pieces(c, Rook) & rankBB(rf.Rank())
			if i&1 == 0 {
				outer = rooks&^(rf.Bitboard()-1)&^rf.Bitboard() == 0
				if outer {
					letter = 'K'
				}
			} else {
				outer = rooks&(rf.Bitboard()-1) == 0
				if outer {
					letter = 'Q'
				}
			}
		}
		if c == Black {
			letter += 'a' - 'A'
		}
		b = append(b, letter)
	}
	return b
}

// String is the FEN.
func (p *Position) String() string { return p.FEN() }
