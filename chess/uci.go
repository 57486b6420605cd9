package chess

import "fmt"

// UCI writes m in UCI long algebraic notation (e2e4, e7e8q). Castling is
// written king-to-destination (e1g1) in standard chess and king-to-rook
// (e1h1) in Chess960, as UCI engines expect.
func (p *Position) UCI(m Move) string { return p.UCIWith(m, p.chess960) }

// UCIWith writes m in UCI notation, castling as king-takes-rook when
// kingToRook is set and as the king's two-square step otherwise.
func (p *Position) UCIWith(m Move, kingToRook bool) string {
	if m == NoMove {
		return "0000"
	}
	var buf [5]byte
	return string(p.AppendUCI(buf[:0], m, kingToRook))
}

// AppendUCI appends m (not NoMove) in UCI notation, castling as
// UCIWith writes it.
func (p *Position) AppendUCI(b []byte, m Move, kingToRook bool) []byte {
	to := m.To()
	if m.IsCastling() && !kingToRook {
		to = m.CastlingKingTo()
	}
	b = to.appendTo(m.From().appendTo(b))
	if m.IsPromotion() {
		b = append(b, m.Promotion().Letter()+'a'-'A')
	}
	return b
}

// ParseUCI reads a move in UCI notation and checks that it is legal. Both
// castling encodings are accepted: the king moving onto its rook, and the
// king moving to its castling square (when that is not an ordinary king
// move).
func (p *Position) ParseUCI(s string) (Move, error) {
	if len(s) != 4 && len(s) != 5 {
		return NoMove, fmt.Errorf("UCI move %q: want 4 or 5 characters like e2e4 or e7e8q", s)
	}
	from, ok1 := ParseSquare(s[0:2])
	to, ok2 := ParseSquare(s[2:4])
	if !ok1 || !ok2 {
		return NoMove, fmt.Errorf("UCI move %q: not two squares", s)
	}
	promo := NoPieceType
	if len(s) == 5 {
		switch s[4] {
		case 'q', 'Q':
			promo = Queen
		case 'r', 'R':
			promo = Rook
		case 'b', 'B':
			promo = Bishop
		case 'n', 'N':
			promo = Knight
		default:
			return NoMove, fmt.Errorf("UCI move %q: %q is not a promotion piece", s, s[4])
		}
	}
	var list MoveList
	p.GenerateLegal(&list)
	for _, m := range list.Moves() {
		if m.From() == from && m.To() == to && !m.IsCastling() && m.Promotion() == promo {
			return m, nil
		}
	}
	if promo == NoPieceType {
		for _, m := range list.Moves() {
			if m.IsCastling() && m.From() == from && (m.To() == to || m.CastlingKingTo() == to) {
				return m, nil
			}
		}
	}
	return NoMove, fmt.Errorf("UCI move %q is not legal in %s", s, p.FEN())
}
