package chess

import (
	"fmt"
	"strings"
)

// SAN writes m in Standard Algebraic Notation as the FIDE Laws (2018,
// Appendix C) define it, with minimal disambiguation and a + or # suffix.
// m must be legal in p.
func (p *Position) SAN(m Move) string {
	var buf [12]byte
	return string(p.AppendSAN(buf[:0], m, nil))
}

// AppendSAN appends m, legal in p, in SAN (see SAN). A caller that keeps
// it passes after, the position m leads to; if nil AppendSAN works it out.
func (p *Position) AppendSAN(b []byte, m Move, after *Position) []byte {
	from, to := m.From(), m.To()
	pc := p.board[from]
	switch {
	case m.IsCastling():
		if to > from {
			b = append(b, "O-O"...)
		} else {
			b = append(b, "O-O-O"...)
		}
	case pc.Type() == Pawn:
		if from.File() != to.File() {
			b = append(b, byte('a'+from.File()), 'x')
		}
		b = to.appendTo(b)
		if m.IsPromotion() {
			b = append(b, '=', m.Promotion().Letter())
		}
	default:
		b = append(b, pc.Type().Letter())
		if others := p.sameKindTo(pc, from, to); others != 0 {
			switch {
			case others&fileBB(from.File()) == 0:
				b = append(b, byte('a'+from.File()))
			case others&rankBB(from.Rank()) == 0:
				b = append(b, byte('1'+from.Rank()))
			default:
				b = from.appendTo(b)
			}
		}
		if p.board[to] != NoPiece {
			b = append(b, 'x')
		}
		b = to.appendTo(b)
	}
	if after == nil {
		q := *p
		q.MakeMove(m)
		after = &q
	}
	// Mate is looked for only after a check: a move that gives no check
	// needs no move generation at all.
	if after.InCheck() {
		if after.HasLegalMove() {
			b = append(b, '+')
		} else {
			b = append(b, '#')
		}
	}
	return b
}

// sameKindTo is the set of the other pieces pc (a knight, bishop, rook,
// queen or king of the side to move, on from) that could legally go to to
// as well: SAN's disambiguation. It asks the attack tables rather than
// generating every legal move, and checks legality only for the rare
// piece that attacks to too.
func (p *Position) sameKindTo(pc Piece, from, to Square) Bitboard {
	occ := p.byType[0]
	var cands Bitboard
	switch pc.Type() {
	case Knight:
		cands = knightAttacks[to]
	case Bishop:
		cands = BishopAttacks(to, occ)
	case Rook:
		cands = RookAttacks(to, occ)
	case Queen:
		cands = QueenAttacks(to, occ)
	default: // one king; castling is written apart
		return 0
	}
	cands &= p.Pieces(pc.Color(), pc.Type()) &^ from.Bitboard()
	var others Bitboard
	for ; cands != 0; cands &= cands - 1 {
		if o := cands.First(); p.pieceMoveLegal(o, to) {
			others |= o.Bitboard()
		}
	}
	return others
}

// pieceMoveLegal reports whether the move of the piece on from (not a
// king, not en passant) to to, which it attacks, leaves its king safe.
func (p *Position) pieceMoveLegal(from, to Square) bool {
	us := p.board[from].Color()
	occ := p.byType[0]&^from.Bitboard() | to.Bitboard()
	// A piece on to is captured, so it no longer attacks.
	return p.attackersTo(p.kingSq[us], occ)&p.byColor[us^1]&^to.Bitboard() == 0
}

// figurines maps chess figurine characters to SAN letters.
var figurines = strings.NewReplacer(
	"♔", "K", "♕", "Q", "♖", "R", "♗", "B", "♘", "N", "♙", "",
	"♚", "K", "♛", "Q", "♜", "R", "♝", "B", "♞", "N", "♟", "",
)

// ParseSAN reads a move in Standard Algebraic Notation, leniently: check
// and annotation marks are ignored, castling may be written with zeros,
// promotions as e8=Q, e8Q, e8(Q) or e8/Q, en passant with an "e.p." suffix,
// pieces as figurines, and long algebraic (Ng1-f3, e2e4) is accepted. The
// move must be legal and unambiguous in p.
func (p *Position) ParseSAN(san string) (Move, error) {
	orig := san
	s := figurines.Replace(strings.TrimSpace(san))
	s = strings.TrimSuffix(s, "e.p.")
	s = strings.TrimSuffix(s, "ep")
	s = strings.TrimSpace(s)
	s = strings.TrimRight(s, "+#!?")
	if s == "" {
		return NoMove, fmt.Errorf("SAN %q: empty move", orig)
	}
	var list MoveList
	p.GenerateLegal(&list)

	switch strings.ToUpper(strings.ReplaceAll(s, "0", "O")) {
	case "O-O", "OO":
		return p.findCastling(&list, true, orig)
	case "O-O-O", "OOO":
		return p.findCastling(&list, false, orig)
	}

	piece := Pawn
	if c := s[0]; strings.IndexByte("NBRQK", c) >= 0 {
		pc, _ := PieceFromFEN(c)
		piece = pc.Type()
		s = s[1:]
	}
	promo := NoPieceType
	// Promotion suffix: =Q, (Q), /Q or a bare letter.
	if n := len(s); n >= 2 && piece == Pawn {
		last := s[n-1]
		if last == ')' && n >= 4 && s[n-3] == '(' {
			last = s[n-2]
			s = s[:n-3]
		} else if strings.IndexByte("QRBNqrbn", last) >= 0 {
			s = s[:n-1]
			s = strings.TrimRight(s, "=/")
		} else {
			last = 0
		}
		switch last {
		case 'Q', 'q':
			promo = Queen
		case 'R', 'r':
			promo = Rook
		case 'B', 'b':
			promo = Bishop
		case 'N', 'n':
			promo = Knight
		}
	}
	s = strings.ReplaceAll(s, "x", "")
	s = strings.ReplaceAll(s, ":", "")
	s = strings.ReplaceAll(s, "-", "")
	if len(s) < 2 {
		return NoMove, fmt.Errorf("SAN %q: no destination square", orig)
	}
	to, ok := ParseSquare(s[len(s)-2:])
	if !ok {
		return NoMove, fmt.Errorf("SAN %q: %q is not a square", orig, s[len(s)-2:])
	}
	fromFile, fromRank := -1, -1
	for _, c := range s[:len(s)-2] {
		switch {
		case c >= 'a' && c <= 'h' && fromFile < 0:
			fromFile = int(c - 'a')
		case c >= '1' && c <= '8' && fromRank < 0:
			fromRank = int(c - '1')
		default:
			return NoMove, fmt.Errorf("SAN %q: cannot read %q", orig, s[:len(s)-2])
		}
	}
	found := NoMove
	for _, m := range list.Moves() {
		from := m.From()
		if m.IsCastling() || m.To() != to || p.board[from].Type() != piece ||
			(fromFile >= 0 && from.File() != fromFile) || (fromRank >= 0 && from.Rank() != fromRank) {
			continue
		}
		if m.Promotion() != promo {
			if promo == NoPieceType && m.IsPromotion() {
				return NoMove, fmt.Errorf("SAN %q: a promotion needs its piece (=Q, =R, =B or =N)", orig)
			}
			continue
		}
		if found != NoMove {
			return NoMove, fmt.Errorf("SAN %q is ambiguous in %s", orig, p.FEN())
		}
		found = m
	}
	if found == NoMove {
		// Long algebraic without a piece letter for a piece move (e.g. g1f3).
		if piece == Pawn && fromFile >= 0 && fromRank >= 0 && len(s) == 4 {
			if m, err := p.ParseUCI(s + promoSuffix(promo)); err == nil {
				return m, nil
			}
		}
		return NoMove, fmt.Errorf("SAN %q is not a legal move in %s", orig, p.FEN())
	}
	return found, nil
}

func promoSuffix(t PieceType) string {
	if t == NoPieceType {
		return ""
	}
	return string(t.Letter() + 'a' - 'A')
}

func (p *Position) findCastling(list *MoveList, hSide bool, orig string) (Move, error) {
	for _, m := range list.Moves() {
		if m.IsCastling() && (m.To() > m.From()) == hSide {
			return m, nil
		}
	}
	return NoMove, fmt.Errorf("SAN %q: castling is not legal in %s", orig, p.FEN())
}
