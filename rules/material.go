package rules

import "github.com/boardd/boardd/chess"

// DeadCandidate screens positions for the dead-position analysis: only
// these can be dead without a long search, so the analyser is asked only
// about them. No queen or rook, and either no pawn, or no knight and every
// pawn blocked by the piece in front of it (a locked chain).
func DeadCandidate(p *chess.Position) bool {
	if p.ByType(chess.Queen)|p.ByType(chess.Rook) != 0 {
		return false
	}
	pawns := p.ByType(chess.Pawn)
	if pawns == 0 {
		return true
	}
	if p.ByType(chess.Knight) != 0 {
		return false
	}
	occ := p.Occupied()
	wp, bp := p.Pieces(chess.White, chess.Pawn), p.Pieces(chess.Black, chess.Pawn)
	return (wp<<8)&^occ == 0 && (bp>>8)&^occ == 0
}

// TwoKnightsAgainstBareKing reports whether winner has only its king and
// two knights and the other side only its king: the case the 1997 blitz
// rules (C4) name as having no mating potential.
func TwoKnightsAgainstBareKing(p *chess.Position, winner chess.Color) bool {
	loser := winner.Other()
	if p.ByColor(loser) != p.Pieces(loser, chess.King) {
		return false
	}
	own := p.ByColor(winner)
	knights := p.Pieces(winner, chess.Knight)
	return own == knights|p.Pieces(winner, chess.King) && knights.Count() == 2
}
