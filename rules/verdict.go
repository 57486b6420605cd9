package rules

import (
	"fmt"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
)

// Alert kinds (docs/rules.md, "Alert kinds"): the one definition of their
// names, which the trace, MQTT and the pages parse at their edges.
// Reconstruction and the game session raise them; Verdict decorates
// them with the article and consequence of the configured profile.
const (
	KindIllegalMove         = "illegal-move"
	KindClockWithoutMove    = "clock-without-move"
	KindPromotionUnreplaced = "promotion-unreplaced"
	KindCastlingRookFirst   = "castling-rook-first"
	KindMoveChanged         = "move-changed"
	KindMisplacedPieces     = "misplaced-pieces"
	KindWrongSetup          = "wrong-setup"
	KindBoardRotated        = "board-rotated"
	KindFlagFall            = "flag-fall"
	KindCheckmate           = "checkmate"
	KindStalemate           = "stalemate"
	KindDeadPosition        = "dead-position"
	KindDrawFivefold        = "draw-fivefold"
	KindDraw75Moves         = "draw-75-moves"
	KindThreefoldClaimable  = "threefold-claimable"
	KindFiftyMovesClaimable = "fifty-moves-claimable"
	KindBothFlags           = "both-flags"
)

// Kinds lists every alert kind Verdict knows, in the order of docs/rules.md.
var Kinds = [...]string{
	KindIllegalMove, KindClockWithoutMove, KindPromotionUnreplaced, KindCastlingRookFirst,
	KindMoveChanged, KindMisplacedPieces, KindWrongSetup, KindBoardRotated, KindFlagFall,
	KindCheckmate, KindStalemate, KindDeadPosition, KindDrawFivefold, KindDraw75Moves,
	KindThreefoldClaimable, KindFiftyMovesClaimable, KindBothFlags,
}

// Verdict is what the Laws say about an alert: the article of the
// profile's edition, one line for the arbiter and the consequence.
type Verdict struct {
	Kind    string
	Side    chess.Color // the player concerned (see Profile.Verdict)
	Edition Edition
	Profile string // profile name, e.g. "2018 blitz (supervised)"
	// Article governs the alert in Edition, e.g. "7.5.3". Empty for an
	// unknown kind.
	Article string
	// PenaltyArticle is the article of the penalty when it differs from
	// Article (a 7.5.3 clock press is penalised under 7.5.5).
	PenaltyArticle string
	Text           string // one line for the arbiter
	Action         Action
	// Time is added to the opponent's clock (AddTime; for a wrong claim
	// see Profile.WrongClaimCutHalfMax too).
	Time time.Duration
	// DrawIfOpponentCannotMate: a Loss (or claimed win) becomes a draw
	// when the opponent cannot mate by any legal series of moves; use
	// Resolve with the position to decide.
	DrawIfOpponentCannotMate bool
	// Result is "1-0", "0-1" or "1/2-1/2" when the verdict ends the game
	// (with OnClaim: when a claim would end it, the result it gives), ""
	// when it does not. A Loss that is a draw when the opponent cannot
	// mate gives the loss here; Resolve refines it (and the Action).
	Result string
	// OnClaim: the arbiter acts only if a player claims or asks.
	OnClaim bool
	// CountsAsIllegal: the alert adds one to the player's count of
	// completed illegal moves.
	CountsAsIllegal bool
	// Undetermined: Resolve could not establish within its budget whether
	// the opponent can mate; Result is empty and the arbiter decides.
	Undetermined bool
}

// Verdict decorates an alert of the given kind.
//
// side is the player concerned: the one who made the illegal move, pressed
// the clock, displaced pieces or whose flag fell; for checkmate the player
// who is mated; for draws and claims the player to move. priorIllegal is
// that player's number of earlier completed illegal moves (used by the
// kinds that count as illegal moves). An unknown kind gives a Verdict with
// an empty Article and Action NoAction.
func (p *Profile) Verdict(kind string, side chess.Color, priorIllegal int) Verdict {
	v := Verdict{Kind: kind, Side: side, Edition: p.Edition, Profile: p.Name}
	who, opp := colourName(side), colourName(side.Other())
	fromRule := func(r Rule) {
		v.Article, v.Action, v.Text = r.Article, r.Action, upperFirst(r.Text)
	}
	switch kind {
	case KindIllegalMove:
		v.Article = p.IllegalMoveArticle
		p.illegal(&v, priorIllegal, fmt.Sprintf("Illegal move by %s", who))
	case KindClockWithoutMove:
		p.ruleCountingAsIllegal(&v, p.ClockWithoutMove, priorIllegal, fmt.Sprintf("%s pressed the clock without a move", who))
	case KindPromotionUnreplaced:
		p.ruleCountingAsIllegal(&v, p.PromotionUnreplaced, priorIllegal, fmt.Sprintf("%s pressed the clock with a pawn on the last rank", who))
	case KindCastlingRookFirst:
		fromRule(p.CastlingRookFirst)
		v.OnClaim = true
	case KindMoveChanged:
		fromRule(p.MoveChanged)
		v.OnClaim = true
	case KindMisplacedPieces:
		fromRule(p.MisplacedPieces)
	case KindWrongSetup:
		fromRule(p.WrongSetup)
	case KindBoardRotated:
		fromRule(p.BoardRotated)
	case KindFlagFall:
		fromRule(p.FlagFall)
		v.DrawIfOpponentCannotMate = true
		v.Result = lossResult(side)
		v.OnClaim = !p.ArbiterCallsFlags
		v.Text = fmt.Sprintf("%s's flag fell: %s", who, p.FlagFall.Text)
		if !p.ArbiterCallsFlags {
			v.Text += fmt.Sprintf("; only %s's claim counts (%s)", opp, p.FlagCallArticle)
		}
	case KindCheckmate:
		fromRule(p.Checkmate)
		v.Result = lossResult(side)
		v.Text = fmt.Sprintf("%s is checkmated: %s wins", who, opp)
	case KindStalemate:
		fromRule(p.Stalemate)
		v.Result = "1/2-1/2"
	case KindDeadPosition:
		fromRule(p.DeadPosition)
		v.Result = "1/2-1/2"
	case KindDrawFivefold:
		fromRule(p.Fivefold)
		p.drawRule(&v, side)
	case KindDraw75Moves:
		fromRule(p.SeventyFiveMoves)
		p.drawRule(&v, side)
	case KindThreefoldClaimable:
		fromRule(p.Threefold)
		v.OnClaim = true
		v.Text = fmt.Sprintf("%s may claim a draw: %s", who, p.Threefold.Text)
	case KindFiftyMovesClaimable:
		fromRule(p.FiftyMoves)
		v.OnClaim = true
		v.Text = fmt.Sprintf("%s may claim a draw: %s", who, p.FiftyMoves.Text)
	case KindBothFlags:
		fromRule(p.BothFlags)
		if p.BothFlags.Action == GameDrawn {
			v.Result = "1/2-1/2"
		} else if p.BothFlagsLastPeriod.Article != "" {
			v.Text += fmt.Sprintf("; in the last period: %s (%s)", p.BothFlagsLastPeriod.Text, p.BothFlagsLastPeriod.Article)
		}
	default:
		v.Text = fmt.Sprintf("Unknown alert kind %q", kind)
	}
	return v
}

// BothFlagsVerdict is the verdict when both flags have fallen and it cannot
// be established which fell first, knowing whether it happened in the
// period in which all remaining moves must be completed.
func (p *Profile) BothFlagsVerdict(lastPeriod bool) Verdict {
	v := p.Verdict(KindBothFlags, chess.White, 0)
	if lastPeriod && p.BothFlagsLastPeriod.Article != "" {
		r := p.BothFlagsLastPeriod
		v.Article, v.Action, v.Text, v.Result = r.Article, r.Action, upperFirst(r.Text), "1/2-1/2"
	}
	return v
}

// WrongClaimVerdict is the verdict on an incorrect draw claim (threefold or
// 50 moves) by side.
func (p *Profile) WrongClaimVerdict(side chess.Color) Verdict {
	r := p.WrongClaim
	return Verdict{Kind: "wrong-claim", Side: side, Edition: p.Edition, Profile: p.Name,
		Article: r.Article, Action: r.Action, Time: p.WrongClaimOpponent,
		Text: fmt.Sprintf("Incorrect draw claim by %s: %s", colourName(side), r.Text)}
}

// UnclockedVerdict is Verdict on a board without a clock, where no press
// completes a move: an illegal move is then reinstated without penalty
// and does not count on the ladder (IllegalUncompleted); other kinds are
// as Verdict gives them.
func (p *Profile) UnclockedVerdict(kind string, side chess.Color, priorIllegal int) Verdict {
	if kind != KindIllegalMove {
		return p.Verdict(kind, side, priorIllegal)
	}
	r := p.IllegalUncompleted
	return Verdict{Kind: kind, Side: side, Edition: p.Edition, Profile: p.Name, Article: r.Article, Action: r.Action,
		Text: fmt.Sprintf("Illegal move by %s, no clock: %s", colourName(side), r.Text)}
}

// illegal fills v from the illegal-move ladder.
func (p *Profile) illegal(v *Verdict, priorIllegal int, what string) {
	r := p.IllegalMoveRung(priorIllegal)
	v.CountsAsIllegal = true
	v.Action, v.Time, v.OnClaim = r.Action, r.Time, p.IllegalMoveOnClaim
	if r.Article != v.Article {
		v.PenaltyArticle = r.Article
	}
	who, opp := colourName(v.Side), colourName(v.Side.Other())
	nth := ordinal(priorIllegal + 1)
	var consequence string
	switch r.Action {
	case Reinstate:
		consequence = "the position before it is reinstated, no penalty"
	case AddTime:
		consequence = fmt.Sprintf("the position before it is reinstated and %s gets %s more", opp, minutes(r.Time))
		if v.Kind == KindPromotionUnreplaced {
			// 7.5.2: the move stands, the pawn is replaced by a queen.
			consequence = fmt.Sprintf("the pawn is replaced by a queen and %s gets %s more", opp, minutes(r.Time))
		}
	case Loss:
		v.Result = lossResult(v.Side)
		v.DrawIfOpponentCannotMate = p.IllegalDrawIfOpponentCannotMate
		consequence = fmt.Sprintf("%s loses", who)
		if v.DrawIfOpponentCannotMate {
			consequence += fmt.Sprintf(", drawn if %s cannot mate by any series of legal moves", opp)
		}
	case OpponentMayClaimWin:
		v.DrawIfOpponentCannotMate = p.IllegalDrawIfOpponentCannotMate
		consequence = fmt.Sprintf("%s may claim the win before making a move", opp)
		if v.DrawIfOpponentCannotMate {
			consequence += fmt.Sprintf(" (a draw if %s has no mating potential)", opp)
		}
	}
	v.Text = fmt.Sprintf("%s (%s): %s (%s)", what, nth, consequence, r.Article)
	if p.IllegalMoveOnClaim {
		v.Text += "; on a claim only"
	}
}

// ruleCountingAsIllegal handles the kinds that the 2014+ editions treat as
// illegal moves (Action AddTime in the rule) and 1997 does not.
func (p *Profile) ruleCountingAsIllegal(v *Verdict, r Rule, priorIllegal int, what string) {
	v.Article = r.Article
	if r.Action == Reinstate || r.Action == NoAction {
		v.Action = r.Action
		v.Text = fmt.Sprintf("%s: %s", what, r.Text)
		return
	}
	p.illegal(v, priorIllegal, what)
	v.Text += "; " + r.Text
}

// drawRule completes a fivefold or 75-move verdict: the game ends when the
// profile has automatic draws; in 1997 it is a claim.
func (p *Profile) drawRule(v *Verdict, side chess.Color) {
	if v.Action == GameDrawn {
		v.Result = "1/2-1/2"
		return
	}
	v.OnClaim = true
	v.Text = fmt.Sprintf("%s may claim a draw: %s", colourName(side), v.Text)
}

func lossResult(loser chess.Color) string {
	if loser == chess.White {
		return "0-1"
	}
	return "1-0"
}

func colourName(c chess.Color) string {
	if c == chess.White {
		return "White"
	}
	return "Black"
}

func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}

func minutes(d time.Duration) string {
	if d == time.Minute {
		return "one minute"
	}
	if d%time.Minute == 0 {
		return fmt.Sprintf("%d minutes", int(d/time.Minute))
	}
	return d.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
