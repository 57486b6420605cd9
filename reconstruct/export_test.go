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
