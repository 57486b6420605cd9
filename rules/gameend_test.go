package rules

import (
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
)

func play(t *testing.T, fen string, moves string) (*chess.Position, *History) {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHistory(p)
	for _, u := range strings.Fields(moves) {
		m, err := p.ParseUCI(u)
		if err != nil {
			t.Fatal(err)
		}
		p.MakeMove(m)
		h.Push(p)
	}
	return p, h
}

func TestHistoryAndClaims(t *testing.T) {
	start := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	p, h := play(t, start, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1")
	if h.Len() != 8 || h.Repetitions() != 2 {
		t.Fatalf("Len %d Repetitions %d", h.Len(), h.Repetitions())
	}
	c := ClaimsFor(p, h)
	// 9.2.1.1: Black writes Ng8 and claims; no other move repeats thrice.
	if c.Threefold || len(c.ThreefoldMoves) != 1 || p.UCI(c.ThreefoldMoves[0]) != "f6g8" {
		t.Errorf("threefold claims %+v", c)
	}
	if c.CanClaimFifty() {
		t.Error("50-move claim in the opening")
	}
	// Taking the last move back (an illegal move reinstated) restores the count.
	if !h.Pop() || h.Len() != 7 {
		t.Fatal("Pop")
	}
	fresh := NewHistory(p)
	if fresh.Pop() {
		t.Error("Pop removed the start position")
	}

	// 9.3.1: a move completing the 50 moves may be announced; a pawn move may not.
	p, h = play(t, "6R1/7k/8/8/1r3B2/5K2/7P/8 w - - 99 119", "")
	c = ClaimsFor(p, h)
	if c.Fifty || len(c.FiftyMoves) == 0 {
		t.Fatalf("fifty claims %+v", c)
	}
	for _, m := range c.FiftyMoves {
		if p.PieceAt(m.From()).Type() == chess.Pawn {
			t.Errorf("pawn move %s offered for a 50-move claim", p.UCI(m))
		}
	}
}

func TestGameEndByEdition(t *testing.T) {
	a := NewAnalyzer(0)
	fivefold := "d3e2 f6e4 e2d3 e4f6 d3e2 f6e4 e2d3 e4f6 d3e2 f6e4 e2d3 e4f6 d3e2 f6e4 e2d3 e4f6"
	p, h := play(t, "rnbq1rk1/ppp3pp/3bpn2/3p1p2/2PP4/2NBPN2/PP3PPP/R1BQK2R w KQ - 3 7", fivefold)
	for _, c := range []struct {
		ed    Edition
		over  bool
		kind  string
		art   string
		claim bool
	}{
		{Edition2018, true, KindDrawFivefold, "9.6.1", false},
		{Edition2023, true, KindDrawFivefold, "9.6.1", false},
		{Edition1997, false, "", "", true}, // claims only in 1997
	} {
		prof := mustProfile(t, c.ed, Standard, true, false)
		v, over := prof.GameEnd(p, h, a)
		if over != c.over || v.Kind != c.kind || v.Article != c.art {
			t.Errorf("%s: GameEnd = %v %q %q", c.ed, over, v.Kind, v.Article)
		}
		if over && v.Result != "1/2-1/2" {
			t.Errorf("%s: result %q", c.ed, v.Result)
		}
		if got := ClaimsFor(p, h).CanClaimThreefold(); got != c.claim && c.ed == Edition1997 {
			t.Errorf("%s: threefold claim %v", c.ed, got)
		}
	}

	// Checkmate first, even on the 75th move (9.6.2).
	p, h = play(t, "k7/8/NKB5/8/8/8/8/8 b - - 150 176", "")
	v, over := mustProfile(t, Edition2018, Standard, true, false).GameEnd(p, h, a)
	if !over || v.Kind != KindCheckmate || v.Result != "1-0" || v.Article != "5.1.1" {
		t.Errorf("mate on the 75th move: %+v", v)
	}
	// A dead position ends the game: 5.2.2 in 2018, 9.6 in 1997.
	p, h = play(t, "8/8/3k3p/1p2p1pP/1P2P1P1/8/2K5/8 b - - 88 93", "")
	for ed, art := range map[Edition]string{Edition2018: "5.2.2", Edition1997: "9.6"} {
		v, over := mustProfile(t, ed, Standard, true, false).GameEnd(p, h, a)
		if !over || v.Kind != KindDeadPosition || v.Article != art {
			t.Errorf("%s dead position: %v %+v", ed, over, v)
		}
	}
	// The game goes on.
	p, h = play(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4")
	if _, over := mustProfile(t, Edition2018, Standard, true, false).GameEnd(p, h, a); over {
		t.Error("the game ended after 1.e4")
	}
}

func TestFlagFallenAndResolve(t *testing.T) {
	a := NewAnalyzer(0)
	p18 := mustProfile(t, Edition2018, Standard, true, false)
	// 6.9: KR v K, White's flag falls: Black can mate, White loses.
	pos, _ := chess.ParseFEN("8/4rk2/8/8/8/8/3K4/8 w - - 0 1")
	if v := p18.FlagFallen(pos, chess.White, a); v.Result != "0-1" || v.Article != "6.9" || v.Undetermined {
		t.Errorf("White flags in KR v K: %+v", v)
	}
	// Black's flag falls: White cannot mate, so it is drawn.
	if v := p18.FlagFallen(pos, chess.Black, a); v.Result != "1/2-1/2" || !strings.Contains(v.Text, "cannot mate") {
		t.Errorf("Black flags in KR v K: %+v", v)
	}
	// A second illegal move loses, unless the opponent cannot mate (7.5.5).
	v := a.Resolve(p18.Verdict(KindIllegalMove, chess.Black, 1), pos)
	if v.Action != GameDrawn || v.Result != "1/2-1/2" {
		t.Errorf("second illegal move by Black, White cannot mate: %+v", v)
	}
	// A budget too small to decide leaves the result to the arbiter.
	hard, _ := chess.ParseFEN("8/8/8/Bk6/8/1p6/1K6/8 b - - 0 1")
	tiny := NewAnalyzer(32)
	if v := p18.FlagFallen(hard, chess.Black, tiny); !v.Undetermined || v.Result != "" || !strings.Contains(v.Text, "arbiter") {
		t.Errorf("undecided flag fall: %+v", v)
	}
	// Verdicts that do not depend on the position pass through.
	if v := a.Resolve(p18.Verdict(KindStalemate, chess.White, 0), pos); v.Result != "1/2-1/2" || v.Undetermined {
		t.Errorf("Resolve changed a stalemate verdict: %+v", v)
	}
}
