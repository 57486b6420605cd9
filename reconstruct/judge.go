package reconstruct

import (
	"strings"

	"github.com/boardd/boardd/rules"
)

// Judge gives the FIDE article and penalty of an alert. prior is the
// number of completed illegal moves the alert's side made before it (the
// illegal-move ladder); countsAsIllegal says whether this alert adds one.
// It must be deterministic and must not block.
type Judge interface {
	Judge(a *Output, prior int) (article, penalty string, countsAsIllegal bool)
}

// RulesJudge judges alerts with a rules profile (edition and game type).
type RulesJudge struct {
	Profile *rules.Profile
}

// NewRulesJudge returns the judge for an edition ("1997", "2018", "2023";
// "" means 2023) and game type ("standard", "rapid", "blitz"; "" means
// the type the time control gives, else standard). Rapid and blitz games
// are taken as supervised by an arbiter.
func NewRulesJudge(edition, gameType string, tc rules.TimeControl) (*RulesJudge, error) {
	ed := rules.Edition2023
	if edition != "" {
		var err error
		if ed, err = rules.ParseEdition(edition); err != nil {
			return nil, err
		}
	}
	gt := rules.Standard
	switch {
	case gameType != "":
		var err error
		if gt, err = rules.ParseGameType(gameType); err != nil {
			return nil, err
		}
	case tc.Timed():
		if c, err := tc.Classify(ed); err == nil {
			gt = c.Type
		}
	}
	p, err := rules.Lookup(rules.Setting{Edition: ed, Type: gt, Supervised: true})
	if err != nil {
		return nil, err
	}
	return &RulesJudge{Profile: p}, nil
}

// checkRulesSettings reports the error NewRulesJudge would return for an
// edition and game type: it fails on nothing else.
func checkRulesSettings(edition, gameType string) error {
	if edition != "" {
		if _, err := rules.ParseEdition(edition); err != nil {
			return err
		}
	}
	if gameType != "" {
		if _, err := rules.ParseGameType(gameType); err != nil {
			return err
		}
	}
	return nil
}

// lazyRulesJudge is the default judge: the RulesJudge of its settings,
// made when the first alert is judged. A game without irregularities
// has none, and the rules profile is looked up and copied for each.
type lazyRulesJudge struct {
	edition, gameType string
	tc                rules.TimeControl
	j                 *RulesJudge
}

// Judge implements Judge.
func (l *lazyRulesJudge) Judge(a *Output, prior int) (article, penalty string, countsAsIllegal bool) {
	if l.j == nil {
		j, err := NewRulesJudge(l.edition, l.gameType, l.tc)
		if err != nil {
			return "", "", false // not reached: New checked the settings
		}
		l.j = j
	}
	return l.j.Judge(a, prior)
}

// Judge implements Judge.
func (j *RulesJudge) Judge(a *Output, prior int) (article, penalty string, countsAsIllegal bool) {
	v := j.Profile.Verdict(string(a.Alert), a.Side, prior)
	// The plain article of the profile's edition ("7.5.1, 7.5.5"): the
	// edition travels beside it (docs/mqtt.md).
	article = v.Article
	if v.PenaltyArticle != "" && v.PenaltyArticle != v.Article {
		article += ", " + v.PenaltyArticle
	}
	return strings.TrimSpace(article), v.Text, v.CountsAsIllegal
}

// unreplacedQueen reports whether the Laws of the reconstruction's
// edition replace a pawn left on the last rank at the press by a queen
// (2018 7.5.2). Under the 1997 Laws the player chooses the piece. Looked
// up when needed: it is rarely asked.
func (r *Reconstructor) unreplacedQueen() bool {
	if j, ok := r.judge.(*RulesJudge); ok {
		return j.Profile.UnreplacedQueen
	}
	j, err := NewRulesJudge(r.edition, r.gameType, rules.TimeControl{})
	if err != nil {
		return true
	}
	return j.Profile.UnreplacedQueen
}
