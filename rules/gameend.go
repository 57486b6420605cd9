package rules

import (
	"fmt"

	"github.com/boardd/boardd/chess"
)

// GameEnd reports whether the game is over in pos, the latest position of
// h, and how, as a Verdict of kind checkmate, stalemate, draw-fivefold,
// draw-75-moves or dead-position. Checkmate is tested first: a mate on the
// move that also completes 75 moves or a fivefold repetition wins (2018
// 9.6.2). The automatic draws exist only in profiles that have them (not
// 1997). A dead position is decided by a; an undetermined analysis does
// not end the game. ok is false while the game goes on.
func (p *Profile) GameEnd(pos *chess.Position, h *History, a *Analyzer) (v Verdict, ok bool) {
	side := pos.SideToMove()
	if !pos.HasLegalMove() {
		if pos.InCheck() {
			return p.Verdict(KindCheckmate, side, 0), true
		}
		return p.Verdict(KindStalemate, side, 0), true
	}
	if p.AutomaticDraws {
		if kind := AutomaticDraw(pos, h); kind != "" {
			return p.Verdict(kind, side, 0), true
		}
	}
	if a != nil && a.Analyze(pos).Dead() {
		return p.Verdict(KindDeadPosition, side, 0), true
	}
	return Verdict{}, false
}

// FlagFallen is the verdict when side's flag has fallen in pos (6.9; 1997 B7
// and 2018 A.4.3 for unsupervised rapid): the game is lost, or drawn if the
// opponent cannot mate by any series of legal moves. When the analyser
// cannot decide within its budget the verdict says so and leaves the
// result to the arbiter.
func (p *Profile) FlagFallen(pos *chess.Position, side chess.Color, a *Analyzer) Verdict {
	return a.Resolve(p.Verdict(KindFlagFall, side, 0), pos)
}

// Resolve settles a verdict whose result depends on whether the opponent
// of v.Side can mate in pos (v.DrawIfOpponentCannotMate: a flag fall, a
// losing illegal move, for which pos is the position reinstated). Other
// verdicts are returned unchanged.
func (a *Analyzer) Resolve(v Verdict, pos *chess.Position) Verdict {
	if !v.DrawIfOpponentCannotMate {
		return v
	}
	opp := v.Side.Other()
	ans := a.CanMate(pos, opp)
	switch ans.Winnability {
	case Unwinnable:
		v.Result = "1/2-1/2"
		if v.Action == Loss {
			// (Said as what happens: a verdict reading "loss" with a
			// drawn result read as a contradiction to the arbiter.)
			v.Action = GameDrawn
		}
		if v.Action == OpponentMayClaimWin {
			v.Text += fmt.Sprintf("; a claim would give a draw: %s cannot mate", colourName(opp))
		} else {
			v.Text += fmt.Sprintf("; drawn: %s cannot mate by any series of legal moves", colourName(opp))
		}
	case Winnable:
		if v.Action == Loss {
			v.Text += fmt.Sprintf("; %s can still mate, so %s loses", colourName(opp), colourName(v.Side))
		}
	default:
		v.Result = ""
		v.Undetermined = true
		v.Text += fmt.Sprintf("; could not establish within %d nodes whether %s can mate: the arbiter decides", a.budget, colourName(opp))
	}
	return v
}
