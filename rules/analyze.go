package rules

import (
	"fmt"

	"github.com/boardd/boardd/chess"
)

// Winnability says whether a side can still checkmate by some series of
// legal moves, with the opponent's cooperation (helpmate semantics: the
// test of 2018 5.2.2 and 6.9, 1997 9.6 and 6.9).
type Winnability int8

// The answers of the analyser.
const (
	// Undetermined: the node budget ran out before a proof either way.
	Undetermined Winnability = iota
	// Winnable: a helpmate was found (and replayed to a checkmate).
	Winnable
	// Unwinnable: proved that no series of legal moves mates.
	Unwinnable
)

// String is "undetermined", "winnable" or "unwinnable".
func (w Winnability) String() string {
	switch w {
	case Winnable:
		return "winnable"
	case Unwinnable:
		return "unwinnable"
	}
	return "undetermined"
}

// DefaultNodeBudget is the number of search nodes (moves made) the
// analyser spends at most per side before answering Undetermined. See
// docs/rules.md for what it decides within this budget and how fast.
const DefaultNodeBudget = 6_400_000

// MateAnswer is the analyser's answer for one intended winner.
type MateAnswer struct {
	Winner      chess.Color
	Winnability Winnability
	// Helpmate is a series of legal moves from the position that ends
	// with Winner checkmating, when Winnable.
	Helpmate []chess.Move
	// Method names what decided: "checkmate", "material", "forced-moves",
	// "search" (helpmate found), "exhausted" (every line searched),
	// "static" (reachability proof) or "budget" (undetermined).
	Method string
	// Nodes is the number of moves made while searching.
	Nodes int
}

// DeadAnswer is the analysis of both sides.
type DeadAnswer struct {
	White, Black MateAnswer
}

// Dead reports whether the position is dead (neither side can mate; 2018
// 5.2.2, 1997 9.6). It is false when either side is winnable or undetermined.
func (d DeadAnswer) Dead() bool {
	return d.White.Winnability == Unwinnable && d.Black.Winnability == Unwinnable
}

// For returns the answer for winner c.
func (d DeadAnswer) For(c chess.Color) MateAnswer {
	if c == chess.White {
		return d.White
	}
	return d.Black
}

// Analyzer decides whether a side can still mate: quick material checks,
// forced moves, a static reachability analysis that proves "cannot ever
// mate" (blocked pawn chains, bishops bound to one colour), and a bounded
// helpmate search that proves "can mate" by finding a mate, or "cannot" by
// exhausting every line. Verdicts are never guessed: a side is Winnable
// only with a replayed helpmate and Unwinnable only with a proof.
//
// An Analyzer keeps scratch memory between calls; it is not safe for
// concurrent use. The zero value is not usable; call NewAnalyzer.
type Analyzer struct {
	budget int
	s      search
}

// NewAnalyzer returns an analyser that spends at most budget search nodes
// per side (DefaultNodeBudget if budget <= 0).
func NewAnalyzer(budget int) *Analyzer {
	if budget <= 0 {
		budget = DefaultNodeBudget
	}
	return &Analyzer{budget: budget}
}

// SetStaticCost charges each static reachability analysis (the proof that
// a side can never mate, tried at irreversible nodes) as cost search
// nodes against the budget. A static analysis costs as much time as
// hundreds or thousands of search nodes, so without a cost the time an
// answer takes is not bounded by the budget; with one it is, and a budget
// can stand for a time limit while the answer stays deterministic.
// 0 (the default) counts search nodes only.
func (a *Analyzer) SetStaticCost(cost int) { a.s.staticCost = max(cost, 0) }

// Budget is the node budget per side.
func (a *Analyzer) Budget() int { return a.budget }

// Analyze answers for both sides.
func (a *Analyzer) Analyze(pos *chess.Position) DeadAnswer {
	return DeadAnswer{White: a.CanMate(pos, chess.White), Black: a.CanMate(pos, chess.Black)}
}

// CanMate answers whether winner can checkmate the opponent from pos by
// some series of legal moves.
func (a *Analyzer) CanMate(pos *chess.Position, winner chess.Color) MateAnswer {
	ans := a.canMate(pos, winner)
	ans.Winner = winner
	if ans.Winnability == Winnable {
		if err := verifyHelpmate(pos, winner, ans.Helpmate); err != nil {
			// A search bug must not turn into a wrong verdict.
			return MateAnswer{Winner: winner, Winnability: Undetermined, Method: "budget", Nodes: ans.Nodes}
		}
	}
	return ans
}

func (a *Analyzer) canMate(pos *chess.Position, winner chess.Color) MateAnswer {
	p := *pos
	if !p.HasLegalMove() {
		if p.InCheck() && p.SideToMove() != winner {
			return MateAnswer{Winnability: Winnable, Method: "checkmate", Helpmate: []chess.Move{}}
		}
		return MateAnswer{Winnability: Unwinnable, Method: "checkmate"}
	}
	if insufficientMaterial(&p, winner) {
		return MateAnswer{Winnability: Unwinnable, Method: "material"}
	}

	// Forced moves: while the side to move has a single legal move, every
	// mate must go through it.
	var forced []chess.Move
	seen := map[uint64]bool{}
	for {
		var list chess.MoveList
		p.GenerateLegal(&list)
		if list.Len() == 0 {
			if p.InCheck() && p.SideToMove() != winner {
				return MateAnswer{Winnability: Winnable, Method: "forced-moves", Helpmate: forced}
			}
			return MateAnswer{Winnability: Unwinnable, Method: "forced-moves"}
		}
		if list.Len() > 1 {
			break
		}
		if seen[p.Key()] {
			// The game can only cycle through forced moves.
			return MateAnswer{Winnability: Unwinnable, Method: "forced-moves"}
		}
		seen[p.Key()] = true
		m := list.At(0)
		forced = append(forced, m)
		p.MakeMove(m)
		if insufficientMaterial(&p, winner) {
			return MateAnswer{Winnability: Unwinnable, Method: "forced-moves"}
		}
	}

	// The budget is spent in three rounds: a short guided search (most
	// positions end here), a visit of every reachable position (small
	// worlds: locked pawns, trapped pieces), and a long guided search.
	s := &a.s
	// A small budget still gives the first guided search enough nodes to
	// find the common long helpmates (two knights against a king need
	// about 20,000), which a thirty-second of it would not.
	s.reset(&p, winner, max(a.budget/32, min(a.budget/2, 32_000)))
	res := s.run()
	nodes := s.nodes
	if res.Winnability == Undetermined {
		res = s.runClosure(a.budget * 25 / 32)
		nodes += s.nodes
	}
	if res.Winnability == Undetermined {
		s.reset(&p, winner, a.budget*6/32)
		res = s.run()
		nodes += s.nodes
	}
	res.Nodes = nodes
	s.release()
	if res.Winnability == Winnable {
		res.Helpmate = append(forced, res.Helpmate...)
	}
	return res
}

// verifyHelpmate replays moves from pos and checks they end with winner
// checkmating.
func verifyHelpmate(pos *chess.Position, winner chess.Color, moves []chess.Move) error {
	p := *pos
	for i, m := range moves {
		var list chess.MoveList
		p.GenerateLegal(&list)
		if !list.Contains(m) {
			return fmt.Errorf("helpmate move %d (%s) is not legal in %s", i+1, p.UCI(m), p.FEN())
		}
		p.MakeMove(m)
	}
	if !p.IsCheckmate() || p.SideToMove() == winner {
		return fmt.Errorf("helpmate does not end with %s mating: %s", winner, p.FEN())
	}
	return nil
}

// insufficientMaterial reports material with which winner can never mate,
// whatever the moves (every clause is a theorem, not a heuristic):
//   - a lone king;
//   - king and one knight against a king with only queens (a queen that
//     blocks a flight square can always take the checking knight);
//   - king and bishops all on squares of one colour, with no knight, no
//     pawn and no bishop on the other colour anywhere: the mated king's
//     orthogonal neighbours (the other colour) would have to be blocked
//     by its own rooks or queens, which can then always interpose or
//     capture.
func insufficientMaterial(p *chess.Position, winner chess.Color) bool {
	us := p.ByColor(winner)
	them := p.ByColor(winner.Other())
	kings := p.ByType(chess.King)
	ours := us &^ kings
	if ours == 0 {
		return true
	}
	knights, bishops, pawns := p.ByType(chess.Knight), p.ByType(chess.Bishop), p.ByType(chess.Pawn)
	if ours.Count() == 1 && ours&knights != 0 {
		if them&(pawns|knights|bishops|p.ByType(chess.Rook)) == 0 {
			return true
		}
	}
	if ours&^bishops == 0 && knights == 0 && pawns == 0 {
		if bishops&darkSquares == 0 || bishops&^darkSquares == 0 {
			return true
		}
	}
	return false
}

// darkSquares are a1, c1, ..., h8 (a1 is dark).
const darkSquares chess.Bitboard = 0xAA55AA55AA55AA55

// InsufficientMaterial is the material-only rule (as in python-chess
// has_insufficient_material and lichess): c cannot mate with its material
// whatever the position. It is sound but misses blocked structures and
// forced lines; Analyzer.CanMate decides those.
func InsufficientMaterial(pos *chess.Position, c chess.Color) bool {
	return insufficientMaterial(pos, c)
}
