package reconstruct

import "github.com/boardd/boardd/chess"

// notation is a move's SAN, its UCI and the FEN of the position after it,
// all empty when the outputs carry no notation (Config.MovesOnly).
type notation struct{ san, uci, fen string }

// write writes the notation of m, legal in p. The three strings share one
// allocation.
func (r *Reconstructor) write(p *chess.Position, m chess.Move) notation {
	if r.cfg.MovesOnly {
		return notation{}
	}
	q := *p
	q.MakeMove(m)
	b := r.appendSAN(r.nbuf[:0], p, &q, m)
	ns := len(b)
	b = appendUCI(b, p, m)
	nu := len(b)
	b = q.AppendFEN(b)
	r.nbuf = b
	s := string(b)
	return notation{san: s[:ns], uci: s[ns:nu], fen: s[nu:]}
}

// plySAN is the SAN of published ply i, written now if the outputs carry
// no notation (for the texts of alerts and corrections).
func (r *Reconstructor) plySAN(i int) string {
	if p := &r.plies[i]; p.san != "" {
		return p.san
	}
	return r.san(&r.befores[i], r.plies[i].move)
}

// san writes m, legal in p, in SAN.
func (r *Reconstructor) san(p *chess.Position, m chess.Move) string {
	var buf [12]byte
	q := *p
	q.MakeMove(m)
	return string(r.appendSAN(buf[:0], p, &q, m))
}

// appendSAN appends m, legal in p (after is the position it leads to), in
// SAN exactly as chess.Position.SAN writes it, but with the legal moves of
// p (for the disambiguation) and of after (for mate) from the
// reconstruction's cache: the explanation of the board and the game-state
// check need those lists anyway, so they are not generated again.
func (r *Reconstructor) appendSAN(b []byte, p, after *chess.Position, m chess.Move) []byte {
	from, to := m.From(), m.To()
	pc := p.PieceAt(from)
	switch {
	case m.IsCastling():
		if to > from {
			b = append(b, "O-O"...)
		} else {
			b = append(b, "O-O-O"...)
		}
	case pc.Type() == chess.Pawn:
		if from.File() != to.File() {
			b = append(b, byte('a'+from.File()), 'x')
		}
		b = appendSquare(b, to)
		if m.IsPromotion() {
			b = append(b, '=', m.Promotion().Letter())
		}
	default:
		b = append(b, pc.Type().Letter())
		// Other pieces of the same kind that could also go to `to`.
		var others, sameFile, sameRank bool
		for _, o := range r.legal(p).Moves() {
			if o.To() != to || o == m || o.IsCastling() || p.PieceAt(o.From()) != pc {
				continue
			}
			others = true
			sameFile = sameFile || o.From().File() == from.File()
			sameRank = sameRank || o.From().Rank() == from.Rank()
		}
		if others {
			switch {
			case !sameFile:
				b = append(b, byte('a'+from.File()))
			case !sameRank:
				b = append(b, byte('1'+from.Rank()))
			default:
				b = appendSquare(b, from)
			}
		}
		if p.PieceAt(to) != chess.NoPiece {
			b = append(b, 'x')
		}
		b = appendSquare(b, to)
	}
	if after.InCheck() {
		if r.legal(after).Len() > 0 {
			b = append(b, '+')
		} else {
			b = append(b, '#')
		}
	}
	return b
}

// appendUCI writes m as chess.Position.UCI does: castling king-to-rook
// in Chess960, else king to its square.
func appendUCI(b []byte, p *chess.Position, m chess.Move) []byte {
	to := m.To()
	if m.IsCastling() && !p.Chess960() {
		to = m.CastlingKingTo()
	}
	b = appendSquare(appendSquare(b, m.From()), to)
	if m.IsPromotion() {
		b = append(b, m.Promotion().Letter()+'a'-'A')
	}
	return b
}

func appendSquare(b []byte, s chess.Square) []byte {
	return append(b, byte('a'+s.File()), byte('1'+s.Rank()))
}
