package reconstruct

// Decisions counts the times the reconstruction judged a still or pressed
// board (for the decision-time benchmark).
func Decisions(r *Reconstructor) int { return r.decisions }
