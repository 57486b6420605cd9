package reconstruct

import "github.com/boardd/boardd/chess"

// Decisions counts the times the reconstruction judged a still or pressed
// board (for the decision-time benchmark).
func Decisions(r *Reconstructor) int {
	if r == nil {
		return 0
	}
	return r.decisions
}

// SAN is the reconstruction's own SAN writer (which uses its move cache).
func SAN(r *Reconstructor, p *chess.Position, m chess.Move) string { return r.san(p, m) }

// ViewInStep reports whether the view the reconstruction holds for the
// raw board, when it claims to be current, is the one makeView renders.
func ViewInStep(r *Reconstructor) bool {
	if !r.viewOK || r.viewRaw != r.rawVer || r.viewOrient != r.orient {
		return true
	}
	var v view
	r.raw.makeView(r.orient, &v)
	return v == r.v
}
