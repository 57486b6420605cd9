package reconstruct

import (
	"math/bits"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// physBoard is what the sensors show, in the board's own (raw) square
// numbering. Colour and piece information exists only where the sensor
// reported it: white is meaningful on colourKnown, pieces on pieceKnown.
type physBoard struct {
	occ         chess.Bitboard
	white       chess.Bitboard
	colourKnown chess.Bitboard
	pieceKnown  chess.Bitboard
	pieces      [64]chess.Piece
}

// view is the board in game coordinates (after compensating a turned
// board), with piece bitboards for fast comparison with a position.
type view struct {
	occ         chess.Bitboard
	white       chess.Bitboard
	colourKnown chess.Bitboard
	pieceKnown  chess.Bitboard
	byPiece     [16]chess.Bitboard // indexed by chess.Piece, on pieceKnown squares
}

// drop shows the squares of b empty: what stands there is no part of the
// game being compared.
func (v *view) drop(b chess.Bitboard) {
	v.occ &^= b
	v.white &^= b
	v.colourKnown &^= b
	v.pieceKnown &^= b
}

// setColour shows a piece of colour c, of a kind unread, on the squares
// of b.
func (v *view) setColour(b chess.Bitboard, c chess.Color) {
	v.occ |= b
	v.colourKnown |= b
	v.pieceKnown &^= b
	for i := range v.byPiece {
		v.byPiece[i] &^= b
	}
	if c == chess.White {
		v.white |= b
	} else {
		v.white &^= b
	}
}

// seen is the squares the sensors show a piece of colour c on.
func (v *view) seen(c chess.Color) chess.Bitboard {
	if c == chess.White {
		return v.occ & v.colourKnown & v.white
	}
	return v.occ & v.colourKnown &^ v.white
}

// pieceAt is the piece the sensors report on s (NoPiece if empty or unknown).
func (v *view) pieceAt(s chess.Square) chess.Piece {
	b := s.Bitboard()
	if v.pieceKnown&b == 0 {
		return chess.NoPiece
	}
	for pc := chess.WhitePawn; pc <= chess.BlackKing; pc++ {
		if v.byPiece[pc]&b != 0 {
			return pc
		}
	}
	return chess.NoPiece
}

// rotSquare maps a raw square to game coordinates for a board turned q
// quarter turns clockwise (as seen from White's side).
func rotSquare(s chess.Square, q uint8) chess.Square {
	if q&3 == 0 {
		return s // (the board turned no quarter, nearly always)
	}
	f, r := s.File(), s.Rank()
	switch q & 3 {
	case 1:
		f, r = 7-r, f
	case 2:
		f, r = 7-f, 7-r
	case 3:
		f, r = r, 7-f
	}
	return chess.NewSquare(f, r)
}

// rotBB maps a raw bitboard to game coordinates.
func rotBB(b chess.Bitboard, q uint8) chess.Bitboard {
	switch q & 3 {
	case 0:
		return b
	case 2:
		return chess.Bitboard(bits.Reverse64(uint64(b)))
	}
	var out chess.Bitboard
	for ; b != 0; b &= b - 1 {
		out |= rotSquare(b.First(), q).Bitboard()
	}
	return out
}

// unrotSquare maps a game square back to the raw square (for messages).
func unrotSquare(s chess.Square, q uint8) chess.Square { return rotSquare(s, (4-q)&3) }

// unrotBB maps a game bitboard back to raw squares.
func unrotBB(b chess.Bitboard, q uint8) chess.Bitboard { return rotBB(b, (4-q)&3) }

// makeView renders the raw board in game coordinates.
func (pb *physBoard) makeView(q uint8, v *view) {
	if q&3 == 0 {
		// The board turned no quarter (nearly always): the squares stay.
		v.occ, v.white, v.colourKnown, v.pieceKnown = pb.occ, pb.white, pb.colourKnown, pb.pieceKnown
		v.byPiece = [16]chess.Bitboard{}
		for b := pb.pieceKnown; b != 0; b &= b - 1 {
			v.byPiece[pb.pieces[b.First()]] |= b & -b
		}
		return
	}
	v.occ = rotBB(pb.occ, q)
	v.white = rotBB(pb.white, q)
	v.colourKnown = rotBB(pb.colourKnown, q)
	v.pieceKnown = rotBB(pb.pieceKnown, q)
	v.byPiece = [16]chess.Bitboard{}
	for b := pb.pieceKnown; b != 0; b &= b - 1 {
		s := b.First()
		v.byPiece[pb.pieces[s]] |= rotSquare(s, q).Bitboard()
	}
}

// agrees reports whether raw square s, filled, shows nothing against
// piece pc: its colour and its piece, as far as the sensors read them.
func (pb *physBoard) agrees(s chess.Square, pc chess.Piece) bool {
	b := s.Bitboard()
	if pb.colourKnown&b != 0 && (pb.white&b != 0) != (pc.Color() == chess.White) {
		return false
	}
	return pb.pieceKnown&b == 0 || pb.pieces[s] == pc
}

// clear empties square s.
func (pb *physBoard) clear(s chess.Square) {
	b := s.Bitboard()
	pb.occ &^= b
	pb.white &^= b
	pb.colourKnown &^= b
	pb.pieceKnown &^= b
	pb.pieces[s] = chess.NoPiece
}

// set shows piece pc on square s, its colour and type only as far as the
// sensor told them.
func (pb *physBoard) set(s chess.Square, pc chess.Piece, hasColour, hasPiece bool) {
	pb.clear(s)
	b := s.Bitboard()
	pb.occ |= b
	if hasColour {
		pb.colourKnown |= b
		if pc.Color() == chess.White {
			pb.white |= b
		}
	}
	if hasPiece {
		pb.pieceKnown |= b
		pb.pieces[s] = pc
	}
}

// setFromPosition makes the raw board show p (in orientation 0) as a
// sensor of kind k would report it.
func (pb *physBoard) setFromPosition(p *chess.Position, k trace.Sensor) {
	*pb = physBoard{occ: p.Occupied()}
	if k == trace.Occupancy {
		return
	}
	pb.white = p.ByColor(chess.White)
	pb.colourKnown = pb.occ
	if k == trace.PieceSensor {
		pb.pieceKnown = pb.occ
		for b := pb.occ; b != 0; b &= b - 1 {
			s := b.First()
			pb.pieces[s] = p.PieceAt(s)
		}
	}
}

// matchMask reports the squares outside mask where p differs from what v
// shows, by what the sensor can tell.
func (v *view) diff(p *chess.Position) chess.Bitboard {
	d := p.Occupied() ^ v.occ
	d |= (p.ByColor(chess.White) ^ v.white) & v.colourKnown & v.occ
	if v.pieceKnown != 0 {
		// Both colours of each piece type, masked once at the end.
		white, black := p.ByColor(chess.White), p.ByColor(chess.Black)
		var pd chess.Bitboard
		for t := chess.Pawn; t <= chess.King; t++ {
			bt := p.ByType(t)
			pd |= (bt&white ^ v.byPiece[chess.NewPiece(chess.White, t)]) | (bt&black ^ v.byPiece[chess.NewPiece(chess.Black, t)])
		}
		d |= pd & v.pieceKnown & v.occ
	}
	return d
}

// record is what hands did since the last committed move: which squares
// were emptied or filled, and when first, so that the order of a castling
// or a capture can be told and a capture's victim square confirmed.
type record struct {
	lifted   chess.Bitboard // squares seen going empty (or changing piece)
	placed   chess.Bitboard // squares seen being filled
	firstOff [64]int64
	firstOn  [64]int64
	lastOff  [64]int64 // the lift that began a move (earlier ones were touches)
	lastOn   [64]int64
	// What was seen put on each square: pieces of each colour (colour and
	// piece boards), the pieces themselves (piece boards), and pieces
	// whose colour no sensor told.
	placedWhite, placedBlack, placedBlind chess.Bitboard
	placedPieces                          [64]uint16 // bit per chess.Piece
	events                                int
	framed                                bool // a full frame changed squares: what happened between is unseen
	// back: squares a piece the last move's hand knocked was put back
	// on (its put-back's events, no move's).
	back chess.Bitboard
}

// resetExcept forgets everything but the squares in keep.
func (rc *record) resetExcept(keep chess.Bitboard) {
	rc.lifted &= keep
	rc.placed &= keep
	rc.back &= keep
	if keep == 0 {
		rc.events = 0
		rc.framed = false
	}
}

func (rc *record) off(s chess.Square, t int64) {
	b := s.Bitboard()
	if rc.lifted&b == 0 {
		rc.lifted |= b
		rc.firstOff[s] = t
	}
	rc.lastOff[s] = t
	rc.events++
}

// on records square s filled at t by pc, whose colour (hasColour) and
// piece (hasPiece) the sensor may tell.
func (rc *record) on(s chess.Square, t int64, pc chess.Piece, hasColour, hasPiece bool) {
	b := s.Bitboard()
	if rc.placed&b == 0 {
		rc.placed |= b
		rc.firstOn[s] = t
		rc.placedWhite &^= b
		rc.placedBlack &^= b
		rc.placedBlind &^= b
		rc.placedPieces[s] = 0
	}
	switch {
	case !hasColour:
		rc.placedBlind |= b
	case pc.Color() == chess.White:
		rc.placedWhite |= b
	default:
		rc.placedBlack |= b
	}
	if hasPiece {
		rc.placedPieces[s] |= 1 << pc
	}
	rc.lastOn[s] = t
	rc.events++
}

// placedOther reports whether raw square s was seen filled, but only by
// pieces the sensor told apart from pc: by colour, or on a piece board
// by piece.
func (rc *record) placedOther(s chess.Square, pc chess.Piece) bool {
	b := s.Bitboard()
	if rc.placed&b == 0 || rc.placedBlind&b != 0 {
		return false
	}
	mine, theirs := rc.placedWhite, rc.placedBlack
	if pc.Color() == chess.Black {
		mine, theirs = theirs, mine
	}
	if theirs&b != 0 && mine&b == 0 {
		return true
	}
	ps := rc.placedPieces[s]
	return ps != 0 && ps&(1<<pc) == 0
}

// around is the squares next to a square of b (a king's step away).
func around(b chess.Bitboard) chess.Bitboard {
	var a chess.Bitboard
	for e := b; e != 0; e &= e - 1 {
		a |= chess.KingAttacks(e.First())
	}
	return a
}
