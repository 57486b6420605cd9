package rules

import (
	"fmt"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
)

// renderProfileTables writes the profile table and the article table of
// docs/rules.md from the profile data (TestRulesDoc keeps them in step).
func renderProfileTables() string {
	var b strings.Builder
	b.WriteString("| profile | illegal moves (1st, 2nd, ...) | automatic draws | wrong draw claim | set-up claims | colours reversed | flag fall |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, p := range profileTable {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n",
			p.Name, ladderCell(&p), drawsCell(&p), wrongClaimCell(&p), setupCell(&p), coloursCell(&p), flagCell(&p))
	}
	b.WriteString("\nArticles per alert kind (standard games; the table above gives what rapid and blitz change):\n\n")
	b.WriteString("| alert kind | 1997 | 2018 | 2023 | consequence (2018) |\n")
	b.WriteString("| --- | --- | --- | --- | --- |\n")
	var std [3]*Profile
	for i, ed := range Editions {
		p, err := Lookup(Setting{Edition: ed, Type: Standard})
		if err != nil {
			panic(err) // the table is complete; TestLookupErrors covers Lookup
		}
		std[i] = p
	}
	for _, k := range Kinds {
		var arts [3]string
		for i, p := range std {
			v := p.Verdict(k, chess.White, 0)
			arts[i] = v.Article
			if v.PenaltyArticle != "" {
				arts[i] += ", " + v.PenaltyArticle
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", k, arts[0], arts[1], arts[2], std[1].Verdict(k, chess.White, 0).Action)
	}
	return b.String()
}

func ladderCell(p *Profile) string {
	var steps []string
	for i := 0; i < 3; i++ {
		r := p.IllegalMoveRung(i)
		var s string
		switch r.Action {
		case Reinstate:
			s = "reinstate"
		case AddTime:
			s = "+" + shortDuration(r.Time)
		case Loss:
			s = "loss"
			if p.IllegalDrawIfOpponentCannotMate {
				s += "†"
			}
		case OpponentMayClaimWin:
			s = "win on claim"
			if p.IllegalDrawIfOpponentCannotMate {
				s += "†"
			}
		}
		steps = append(steps, fmt.Sprintf("%s (%s)", s, r.Article))
		if r.Action == Loss || i+1 >= len(p.IllegalMoves) && r.Action != AddTime {
			break // the game is over, or the same again
		}
	}
	cell := strings.Join(steps, ", ")
	if p.IllegalMoveOnClaim {
		cell += "; on a claim only"
	}
	return cell
}

func drawsCell(p *Profile) string {
	if !p.AutomaticDraws {
		return fmt.Sprintf("dead position (%s); fivefold and 75 moves only claimable (%s, %s)", p.DeadPosition.Article, p.Threefold.Article, p.FiftyMoves.Article)
	}
	return fmt.Sprintf("dead position (%s), fivefold (%s), 75 moves (%s)", p.DeadPosition.Article, p.Fivefold.Article, p.SeventyFiveMoves.Article)
}

func wrongClaimCell(p *Profile) string {
	s := fmt.Sprintf("+%s to the opponent", shortDuration(p.WrongClaimOpponent))
	if p.WrongClaimCutHalfMax > 0 {
		s = fmt.Sprintf("claimant loses half his time (at most %s), %s", shortDuration(p.WrongClaimCutHalfMax), s)
	}
	return fmt.Sprintf("%s (%s)", s, p.WrongClaim.Article)
}

func setupCell(p *Profile) string {
	if p.SetupClaimMoves == 0 {
		return fmt.Sprintf("any time: annulled (%s)", p.WrongSetup.Article)
	}
	return fmt.Sprintf("until %d moves each (%s)", p.SetupClaimMoves, p.WrongSetup.Article)
}

func coloursCell(p *Profile) string {
	if p.ColourRestartBelow == 0 {
		return fmt.Sprintf("game continues (%s)", p.ColoursReversed.Article)
	}
	return fmt.Sprintf("restart before %d moves each (%s)", p.ColourRestartBelow, p.ColoursReversed.Article)
}

func flagCell(p *Profile) string {
	who := "arbiter calls"
	if !p.ArbiterCallsFlags {
		who = "player's claim only"
	}
	both := p.BothFlags.Article
	if p.BothFlags.Action == GameDrawn {
		both += " draw"
	} else {
		both += " continue"
		if p.BothFlagsLastPeriod.Article != "" {
			both += ", " + p.BothFlagsLastPeriod.Article + " draw in the last period"
		}
	}
	return fmt.Sprintf("%s (%s); loss† (%s); both flags: %s", who, p.FlagCallArticle, p.FlagFall.Article, both)
}

func shortDuration(d time.Duration) string {
	if d%time.Minute == 0 {
		return fmt.Sprintf("%d min", int(d/time.Minute))
	}
	return d.String()
}
