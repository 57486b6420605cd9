package rules

import (
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
)

func mustProfile(t *testing.T, ed Edition, gt GameType, supervised, quickplay bool) *Profile {
	t.Helper()
	p, err := Lookup(Setting{Edition: ed, Type: gt, Supervised: supervised, QuickplayFinish: quickplay})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestIllegalMoveLadders checks each edition's ladder against the seeds:
//
//	1997 7.4: reinstate; 10.3 (quickplay finish): "för en spelares första
//	regelstridiga drag ge två minuter extra tid till motståndaren; för ett
//	andra ... ytterligare två minuter ...; vid ett tredje ... förlorat";
//	1997 C3: "Motståndaren är då berättigad att kräva vinst innan han gör
//	sitt eget drag"; 2018 7.5.5: "give modstanderen to ekstra minutter for
//	en spillers første fuldførte ulovlige træk; hvis samme spiller fuldfører
//	endnu et ulovligt træk, skal dommeren erklære partiet tabt"; 2018 B.2:
//	"1 minut i stedet for 2 minutter".
func TestIllegalMoveLadders(t *testing.T) {
	type step struct {
		article string
		action  Action
		time    time.Duration
	}
	tests := []struct {
		ed           Edition
		gt           GameType
		supervised   bool
		quickplay    bool
		article      string
		steps        []step // for priorIllegal 0, 1, 2, 3
		onClaim      bool
		drawIfNoMate bool
	}{
		{Edition1997, Standard, true, false, "7.4", []step{{"7.4", Reinstate, 0}, {"7.4", Reinstate, 0}, {"7.4", Reinstate, 0}, {"7.4", Reinstate, 0}}, false, false},
		{Edition1997, Standard, true, true, "7.4", []step{{"10.3", AddTime, 2 * time.Minute}, {"10.3", AddTime, 2 * time.Minute}, {"10.3", Loss, 0}, {"10.3", Loss, 0}}, false, false},
		{Edition1997, Rapid, false, false, "7.4", []step{{"10.3", AddTime, 2 * time.Minute}, {"10.3", AddTime, 2 * time.Minute}, {"10.3", Loss, 0}, {"10.3", Loss, 0}}, true, false},
		{Edition1997, Blitz, true, false, "C3", []step{{"C3", OpponentMayClaimWin, 0}, {"C3", OpponentMayClaimWin, 0}}, true, true},
		{Edition2018, Standard, false, false, "7.5.1", []step{{"7.5.5", AddTime, 2 * time.Minute}, {"7.5.5", Loss, 0}, {"7.5.5", Loss, 0}}, false, true},
		{Edition2018, Rapid, true, false, "7.5.1", []step{{"7.5.5", AddTime, 2 * time.Minute}, {"7.5.5", Loss, 0}}, false, true},
		{Edition2018, Rapid, false, false, "7.5.1", []step{{"A.4.2", AddTime, 2 * time.Minute}, {"A.4.2", Loss, 0}}, false, true},
		{Edition2018, Blitz, true, false, "7.5.1", []step{{"B.2", AddTime, time.Minute}, {"7.5.5", Loss, 0}}, false, true},
		{Edition2018, Blitz, false, false, "7.5.1", []step{{"B.2", AddTime, time.Minute}, {"A.4.2", Loss, 0}}, false, true},
		{Edition2023, Standard, true, false, "7.5.1", []step{{"7.5.5", AddTime, 2 * time.Minute}, {"7.5.5", Loss, 0}}, false, true},
		{Edition2023, Rapid, true, false, "7.5.1", []step{{"A.3", AddTime, time.Minute}, {"7.5.5", Loss, 0}}, false, true},
		{Edition2023, Rapid, false, false, "7.5.1", []step{{"A.3", AddTime, time.Minute}, {"A.5.2", Loss, 0}}, false, true},
		{Edition2023, Blitz, true, false, "7.5.1", []step{{"B.2", AddTime, time.Minute}, {"7.5.5", Loss, 0}}, false, true},
		{Edition2023, Blitz, false, false, "7.5.1", []step{{"B.2", AddTime, time.Minute}, {"A.5.2", Loss, 0}}, false, true},
	}
	for _, tt := range tests {
		p := mustProfile(t, tt.ed, tt.gt, tt.supervised, tt.quickplay)
		for prior, want := range tt.steps {
			v := p.Verdict(KindIllegalMove, chess.Black, prior)
			penaltyArt := v.PenaltyArticle
			if penaltyArt == "" {
				penaltyArt = v.Article
			}
			if v.Article != tt.article || penaltyArt != want.article || v.Action != want.action || v.Time != want.time {
				t.Errorf("%s, prior %d: article %s penalty %s %s %v; want %s penalty %s %s %v",
					p.Name, prior, v.Article, penaltyArt, v.Action, v.Time, tt.article, want.article, want.action, want.time)
			}
			if v.OnClaim != tt.onClaim || !v.CountsAsIllegal || v.Edition != tt.ed {
				t.Errorf("%s: OnClaim %v CountsAsIllegal %v Edition %v", p.Name, v.OnClaim, v.CountsAsIllegal, v.Edition)
			}
			if want.action == Loss {
				if v.Result != "1-0" || v.DrawIfOpponentCannotMate != tt.drawIfNoMate {
					t.Errorf("%s: Black's losing illegal move: result %q drawIfNoMate %v", p.Name, v.Result, v.DrawIfOpponentCannotMate)
				}
			} else if v.Result != "" {
				t.Errorf("%s prior %d: result %q for a non-final verdict", p.Name, prior, v.Result)
			}
			if !strings.Contains(v.Text, "Black") || !strings.Contains(v.Text, want.article) {
				t.Errorf("%s: text %q does not name the player and article", p.Name, v.Text)
			}
		}
	}
}

func TestVerdictArticlesPerEdition(t *testing.T) {
	// kind -> article in 1997 standard, 2018 standard, 2023 standard (docs/rules.md, "Editions").
	tests := []struct {
		kind   string
		arts   [3]string
		action [3]Action
	}{
		{KindClockWithoutMove, [3]string{"6.13", "7.5.3", "7.5.3"}, [3]Action{Reinstate, AddTime, AddTime}},
		{KindPromotionUnreplaced, [3]string{"3.4e", "7.5.2", "7.5.2"}, [3]Action{Reinstate, AddTime, AddTime}},
		{KindCastlingRookFirst, [3]string{"4.4b", "4.4.2", "4.4.2"}, [3]Action{TouchMove, TouchMove, TouchMove}},
		{KindMoveChanged, [3]string{"4.7", "4.7", "4.7"}, [3]Action{FirstMoveStands, FirstMoveStands, FirstMoveStands}},
		{KindMisplacedPieces, [3]string{"7.3", "7.4.1", "7.4.1"}, [3]Action{RestorePieces, RestorePieces, RestorePieces}},
		{KindWrongSetup, [3]string{"7.1a", "7.2.1", "7.2.1"}, [3]Action{Annul, Annul, Annul}},
		{KindBoardRotated, [3]string{"7.1b", "7.2.2", "7.2.2"}, [3]Action{TransferPosition, TransferPosition, TransferPosition}},
		{KindFlagFall, [3]string{"6.9", "6.9", "6.9"}, [3]Action{Loss, Loss, Loss}},
		{KindCheckmate, [3]string{"5.1a", "5.1.1", "5.1.1"}, [3]Action{GameWon, GameWon, GameWon}},
		{KindStalemate, [3]string{"5.2", "5.2.1", "5.2.1"}, [3]Action{GameDrawn, GameDrawn, GameDrawn}},
		{KindDeadPosition, [3]string{"9.6", "5.2.2", "5.2.2"}, [3]Action{GameDrawn, GameDrawn, GameDrawn}},
		{KindDrawFivefold, [3]string{"9.2", "9.6.1", "9.6.1"}, [3]Action{DrawClaimable, GameDrawn, GameDrawn}},
		{KindDraw75Moves, [3]string{"9.3", "9.6.2", "9.6.2"}, [3]Action{DrawClaimable, GameDrawn, GameDrawn}},
		{KindThreefoldClaimable, [3]string{"9.2", "9.2.1", "9.2.1"}, [3]Action{DrawClaimable, DrawClaimable, DrawClaimable}},
		{KindFiftyMovesClaimable, [3]string{"9.3", "9.3", "9.3"}, [3]Action{DrawClaimable, DrawClaimable, DrawClaimable}},
		{KindBothFlags, [3]string{"6.11", "III.3.1.1", "III.3.1.1"}, [3]Action{ContinueGame, ContinueGame, ContinueGame}},
	}
	for _, tt := range tests {
		for i, ed := range Editions {
			p := mustProfile(t, ed, Standard, true, false)
			v := p.Verdict(tt.kind, chess.White, 0)
			if v.Article != tt.arts[i] || v.Action != tt.action[i] {
				t.Errorf("%s %s: article %q action %s, want %q %s", ed, tt.kind, v.Article, v.Action, tt.arts[i], tt.action[i])
			}
			if v.Text == "" || v.Kind != tt.kind {
				t.Errorf("%s %s: empty text or wrong kind", ed, tt.kind)
			}
		}
	}
	// Every known kind gets an article in every profile.
	for _, p := range Profiles() {
		for _, k := range Kinds {
			if v := p.Verdict(k, chess.Black, 1); v.Article == "" || v.Text == "" {
				t.Errorf("%s: %s has no article or text", p.Name, k)
			}
		}
	}
	p := mustProfile(t, Edition2018, Standard, true, false)
	if v := p.Verdict("no-such-kind", chess.White, 0); v.Article != "" || v.Action != NoAction {
		t.Errorf("unknown kind: %+v", v)
	}
}

func TestGameTypeDifferences(t *testing.T) {
	p97r := mustProfile(t, Edition1997, Rapid, false, false)
	p18r := mustProfile(t, Edition2018, Rapid, false, false)
	p18rs := mustProfile(t, Edition2018, Rapid, true, false)
	p23r := mustProfile(t, Edition2023, Rapid, false, false)
	p97 := mustProfile(t, Edition1997, Standard, true, false)
	p97q := mustProfile(t, Edition1997, Standard, true, true)
	p18b := mustProfile(t, Edition2018, Blitz, true, false)
	p18 := mustProfile(t, Edition2018, Standard, true, false)

	// Set-up claims: 1997 B4 "Sedan båda spelarna har gjort tre drag";
	// 2018 A.4.1 "Når hver spiller har fuldført ti træk".
	for _, c := range []struct {
		p       *Profile
		moves   int
		allowed bool
		article string
	}{
		{p97r, 2, true, "B4"}, {p97r, 3, false, "B4"}, {p18r, 9, true, "A.4.1.2"}, {p18r, 10, false, "A.4.1.2"},
		{p23r, 10, false, "A.5.1"}, {p18rs, 40, true, "7.2.1"}, {p97, 40, true, "7.1a"},
	} {
		if got := c.p.SetupClaimAllowed(c.moves); got != c.allowed {
			t.Errorf("%s: setup claim after %d moves = %v", c.p.Name, c.moves, got)
		}
		if v := c.p.Verdict(KindWrongSetup, chess.White, 0); v.Article != c.article {
			t.Errorf("%s: wrong-setup article %s, want %s", c.p.Name, v.Article, c.article)
		}
	}
	// Colours reversed: 1997 7.2 continue; 2018 7.3 "færre end 10 træk".
	if p97.RestartForColours(0) || !p18.RestartForColours(9) || p18.RestartForColours(10) {
		t.Error("colour reversal rule wrong")
	}
	// Flags: 1997 B6 only a player's claim; 2018 A.4.5 the arbiter calls.
	if v := p97r.Verdict(KindFlagFall, chess.White, 0); !v.OnClaim || v.Article != "B7" || v.Result != "0-1" || !v.DrawIfOpponentCannotMate {
		t.Errorf("1997 rapid flag: %+v", v)
	}
	if v := p18r.Verdict(KindFlagFall, chess.Black, 0); v.OnClaim || v.Article != "A.4.3" || v.Result != "1-0" {
		t.Errorf("2018 rapid flag: %+v", v)
	}
	// Both flags: 1997 6.11 continue, 10.4 and B8 draw; 2018 III.3.1.
	if v := p97q.Verdict(KindBothFlags, chess.White, 0); v.Article != "10.4" || v.Result != "1/2-1/2" {
		t.Errorf("1997 quickplay both flags: %+v", v)
	}
	if v := p97r.Verdict(KindBothFlags, chess.White, 0); v.Article != "B8" || v.Action != GameDrawn {
		t.Errorf("1997 rapid both flags: %+v", v)
	}
	if v := p18.BothFlagsVerdict(true); v.Article != "III.3.1.2" || v.Result != "1/2-1/2" {
		t.Errorf("2018 both flags last period: %+v", v)
	}
	if v := p18.BothFlagsVerdict(false); v.Article != "III.3.1.1" || v.Result != "" {
		t.Errorf("2018 both flags earlier period: %+v", v)
	}
	// Wrong claims: 1997 9.5b "dra ifrån hälften ... maximalt tre minuter och
	// lägga till tre minuter"; 2018 9.5.3 two minutes; blitz B.2 one.
	if v := p97.WrongClaimVerdict(chess.White); v.Article != "9.5b" || v.Time != 3*time.Minute || p97.WrongClaimCutHalfMax != 3*time.Minute {
		t.Errorf("1997 wrong claim: %+v", v)
	}
	if v := p18.WrongClaimVerdict(chess.White); v.Article != "9.5.3" || v.Time != 2*time.Minute || p18.WrongClaimCutHalfMax != 0 {
		t.Errorf("2018 wrong claim: %+v", v)
	}
	if v := p18b.WrongClaimVerdict(chess.Black); v.Article != "B.2" || v.Time != time.Minute {
		t.Errorf("2018 blitz wrong claim: %+v", v)
	}
	// Automatic draws only from the 2014 rules on.
	if p97.AutomaticDraws || !p18.AutomaticDraws {
		t.Error("automatic draws wrong")
	}
	// 2018 7.5.3: a clock press without a move counts as an illegal move.
	if v := p18.Verdict(KindClockWithoutMove, chess.White, 1); v.Action != Loss || v.PenaltyArticle != "7.5.5" || !v.CountsAsIllegal {
		t.Errorf("2018 second illegal via clock press: %+v", v)
	}
	if v := p97.Verdict(KindClockWithoutMove, chess.White, 5); v.CountsAsIllegal || v.Action != Reinstate {
		t.Errorf("1997 clock press: %+v", v)
	}
}

func TestLookupErrors(t *testing.T) {
	for _, s := range []Setting{
		{Edition: 2001, Type: Standard},
		{Edition: Edition2018, Type: GameType(7)},
		{Edition: Edition2018, Type: Standard, QuickplayFinish: true},
		{Edition: Edition1997, Type: Blitz, QuickplayFinish: true},
	} {
		if _, err := Lookup(s); err == nil {
			t.Errorf("Lookup(%+v) succeeded", s)
		}
	}
	// Lookup hands out copies.
	p := mustProfile(t, Edition2018, Standard, true, false)
	p.IllegalMoves[0].Time = time.Hour
	if q := mustProfile(t, Edition2018, Standard, true, false); q.IllegalMoves[0].Time != 2*time.Minute {
		t.Error("Lookup shares the table with callers")
	}
}

// Without a clock no press completes an illegal move (2018 7.5.1; the
// 1997 penalties of 10.3 and C3 count moves completed by the clock), so
// in every profile it is reinstated with no penalty and does not count,
// however many came before; other kinds are Verdict's.
func TestUnclockedIllegalMoveIsNotCompleted(t *testing.T) {
	for _, p := range Profiles() {
		for prior := 0; prior < 3; prior++ {
			v := p.UnclockedVerdict(KindIllegalMove, chess.Black, prior)
			if v.Action != Reinstate || v.Result != "" || v.Time != 0 || v.CountsAsIllegal || v.OnClaim ||
				v.Article == "" || !strings.Contains(v.Text, "Black") {
				t.Errorf("%s, %d before: %+v", p.Name, prior, v)
			}
		}
		for _, k := range []string{KindClockWithoutMove, KindFlagFall, KindMisplacedPieces} {
			if got, want := p.UnclockedVerdict(k, chess.White, 1), p.Verdict(k, chess.White, 1); got != want {
				t.Errorf("%s %s: %+v, want %+v", p.Name, k, got, want)
			}
		}
	}
}
