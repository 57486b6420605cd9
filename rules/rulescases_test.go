package rules

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
)

// TestRulesCases runs every assertion of testdata/rules-cases.txt (the kinds
// are listed in its header).
func TestRulesCases(t *testing.T) {
	f, err := os.Open("../testdata/rules-cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a := NewAnalyzer(0)
	profile, err := Lookup(Setting{Edition: Edition2018, Type: Standard})
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	lineNo, cases, assertions := 0, 0, 0
	kinds := map[string]int{}
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 6 {
			t.Fatalf("rules-cases.txt:%d: %d fields, want 6", lineNo, len(fields))
		}
		id, fen, moves, expect := fields[0], fields[2], fields[3], fields[4]
		cases++
		pos, err := chess.ParseFEN(fen)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		h := NewHistory(pos)
		naive := []string{naiveKey(pos)}
		if moves != "-" {
			for _, u := range strings.Fields(moves) {
				m, err := pos.ParseUCI(u)
				if err != nil {
					t.Fatalf("%s: %v", id, err)
				}
				pos.MakeMove(m)
				h.Push(pos)
				naive = append(naive, naiveKey(pos))
			}
		}
		for _, as := range strings.Split(expect, ";") {
			key, want, ok := strings.Cut(as, "=")
			if !ok {
				t.Fatalf("%s: assertion %q has no '='", id, as)
			}
			kind, arg, _ := strings.Cut(key, ":")
			kinds[kind]++
			assertions++
			got, err := evalAssertion(kind, arg, pos, h, naive, a, profile)
			if err != "" {
				t.Errorf("%s: %s: %s", id, as, err)
				continue
			}
			if got != want {
				t.Errorf("%s (line %d): %s: got %s, want %s", id, lineNo, key, got, want)
			}
		}
	}
	if cases != 63 {
		t.Errorf("%d cases, want 63", cases)
	}
	t.Logf("%d cases, %d assertions: %v", cases, assertions, kinds)
}

func naiveKey(p *chess.Position) string {
	f := strings.Fields(p.FEN())
	return f[0] + " " + f[1]
}

func boolStr(b bool) string { return strconv.FormatBool(b) }

// evalAssertion computes the value of one assertion; the second result is
// an error message for a malformed assertion.
func evalAssertion(kind, arg string, pos *chess.Position, h *History, naive []string, a *Analyzer, profile *Profile) (string, string) {
	after := func() (*chess.Position, string) {
		m, err := pos.ParseUCI(arg)
		if err != nil {
			return nil, err.Error()
		}
		q := *pos
		q.MakeMove(m)
		return &q, ""
	}
	switch kind {
	case "legal":
		_, err := pos.ParseUCI(arg)
		return boolStr(err == nil), ""
	case "fen_after":
		q, e := after()
		if e != "" {
			return "", e
		}
		return q.FEN(), ""
	case "check_after":
		q, e := after()
		if e != "" {
			return "", e
		}
		return boolStr(q.InCheck()), ""
	case "rep3":
		return boolStr(h.Repetitions() >= 3), ""
	case "naive_rep":
		n := 0
		for _, k := range naive {
			if k == naive[len(naive)-1] {
				n++
			}
		}
		return strconv.Itoa(n), ""
	case "claim3":
		return boolStr(ClaimsFor(pos, h).CanClaimThreefold()), ""
	case "fivefold":
		return boolStr(AutomaticDraw(pos, h) == KindDrawFivefold), ""
	case "fifty":
		return boolStr(ClaimsFor(pos, h).Fifty), ""
	case "claim50":
		return boolStr(ClaimsFor(pos, h).CanClaimFifty()), ""
	case "seventyfive":
		return boolStr(AutomaticDraw(pos, h) == KindDraw75Moves), ""
	case "checkmate":
		v, ok := profile.GameEnd(pos, h, nil)
		return boolStr(ok && v.Kind == KindCheckmate), ""
	case "stalemate":
		v, ok := profile.GameEnd(pos, h, nil)
		return boolStr(ok && v.Kind == KindStalemate), ""
	case "white_can_mate", "black_can_mate":
		c := chess.White
		if kind == "black_can_mate" {
			c = chess.Black
		}
		switch a.CanMate(pos, c).Winnability {
		case Winnable:
			return "true", ""
		case Unwinnable:
			return "false", ""
		}
		return "undetermined", ""
	case "dead":
		d := a.Analyze(pos)
		if d.White.Winnability == Undetermined || d.Black.Winnability == Undetermined {
			return "undetermined", ""
		}
		return boolStr(d.Dead()), ""
	case "simple_rule":
		w, b := InsufficientMaterial(pos, chess.White), InsufficientMaterial(pos, chess.Black)
		switch {
		case w && b:
			return "WB", ""
		case w:
			return "W", ""
		case b:
			return "B", ""
		}
		return "none", ""
	case "chessjs_insufficient":
		return boolStr(chessJSInsufficient(pos)), ""
	case "flag_white", "flag_black":
		c := chess.White
		if kind == "flag_black" {
			c = chess.Black
		}
		v := profile.FlagFallen(pos, c, a)
		if v.Undetermined {
			return "undetermined", ""
		}
		if v.Result == "1/2-1/2" {
			return "1/2", "" // the file's notation
		}
		return v.Result, ""
	case "sp":
		var rank strings.Builder
		for f := 0; f < 8; f++ {
			rank.WriteByte(pos.PieceAt(chess.NewSquare(f, 0)).FENLetter())
		}
		return strconv.Itoa(chess.Chess960Number(rank.String())), ""
	}
	return "", "unknown assertion kind " + kind
}

// chessJSInsufficient is chess.js 1.x isInsufficientMaterial(), for the
// comparison column of rules-cases.txt: bare kings; one minor piece; or
// only bishops, all on squares of one colour.
func chessJSInsufficient(p *chess.Position) bool {
	others := p.Occupied() &^ p.ByType(chess.King)
	switch {
	case others == 0:
		return true
	case others.Count() == 1 && others&(p.ByType(chess.Knight)|p.ByType(chess.Bishop)) != 0:
		return true
	case others == p.ByType(chess.Bishop):
		return others&darkSquares == 0 || others&^darkSquares == 0
	}
	return false
}
