package reconstruct

import (
	"strings"

	"github.com/boardd/boardd/chess"
)

// notation is a move's SAN, its UCI and the FEN of the position after it,
// all empty when the outputs carry no notation (Config.MovesOnly).
type notation struct{ san, uci, fen string }

// write writes the notation of m, legal in p. The three strings are cut
// from r.notes, with the notations written before.
func (r *Reconstructor) write(p *chess.Position, m chess.Move) notation {
	if r.cfg.MovesOnly {
		return notation{}
	}
	q := *p
	q.MakeMove(m)
	return r.writeAfter(p, &q, m)
}

// writeAfter is write for a caller that has made the move already: after
// is the position m leads to.
func (r *Reconstructor) writeAfter(p, after *chess.Position, m chess.Move) notation {
	if r.cfg.MovesOnly {
		return notation{}
	}
	b := r.appendSAN(r.nbuf[:0], p, after, m)
	ns := len(b)
	b = p.AppendUCI(b, m, p.Chess960())
	nu := len(b)
	b = r.fen.AppendFEN(b, after)
	r.nbuf = b
	if r.notes.Cap()-r.notes.Len() < len(b) {
		r.notes = strings.Builder{}
		r.notes.Grow(notesBlock)
	}
	n0 := r.notes.Len()
	r.notes.Write(b)
	s := r.notes.String()[n0:]
	return notation{san: s[:ns], uci: s[ns:nu], fen: s[nu:]}
}

// notesBlock is the size of the blocks the notations' text is cut from
// (some forty moves' notation each).
const notesBlock = 4096

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
// SAN.
func (r *Reconstructor) appendSAN(b []byte, p, after *chess.Position, m chess.Move) []byte {
	return p.AppendSAN(b, m, after)
}
