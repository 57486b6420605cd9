package rules_test

import (
	"fmt"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/rules"
)

func ExampleParseTimeControl() {
	tc, err := rules.ParseTimeControl("40/120m,60m,15m+30s")
	if err != nil {
		panic(err)
	}
	fmt.Println(tc)
	fmt.Println("added after move 40:", tc.TimeAddedAfter(40), "increment from move", tc.IncrementFrom())
	c, _ := tc.Classify(rules.Edition2018)
	fmt.Println(c.Type, c.Article)
	// Output:
	// 40/120m,20/60m,15m+30s
	// added after move 40: 1h0m0s increment from move 61
	// standard A.1
}

func ExampleProfile_Verdict() {
	p, err := rules.Lookup(rules.Setting{Edition: rules.Edition2018, Type: rules.Blitz, Supervised: true})
	if err != nil {
		panic(err)
	}
	v := p.Verdict(rules.KindIllegalMove, chess.Black, 0)
	fmt.Println(v.Article, v.PenaltyArticle, v.Action, v.Time)
	fmt.Println(v.Text)
	// Output:
	// 7.5.1 B.2 add-time 1m0s
	// Illegal move by Black (1st): the position before it is reinstated and White gets one minute more (B.2)
}

func ExampleAnalyzer_CanMate() {
	// lichess ijyj0mHa: a locked pawn chain; Black cannot mate, White can.
	pos, _ := chess.ParseFEN("5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - - 0 1")
	a := rules.NewAnalyzer(0)
	fmt.Println("white:", a.CanMate(pos, chess.White).Winnability)
	fmt.Println("black:", a.CanMate(pos, chess.Black).Winnability)
	// Output:
	// white: winnable
	// black: unwinnable
}
