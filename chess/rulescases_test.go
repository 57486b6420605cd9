package chess

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestRulesCasesMoveAssertions checks the move-level assertions of the
// shared rules cases (legal:, fen_after:, check_after:); the rules package
// checks the rest.
func TestRulesCasesMoveAssertions(t *testing.T) {
	f, err := os.Open(sharedData(t, "rules-cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	checked := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) < 5 {
			t.Fatalf("bad line %q", line)
		}
		id, fen, moves, expects := fields[0], fields[2], fields[3], fields[4]
		p, err := ParseFEN(fen)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if fields[1] == "c960" {
			p.SetChess960(true)
		}
		if moves != "-" {
			for _, u := range strings.Fields(moves) {
				m, err := p.ParseUCI(u)
				if err != nil {
					t.Fatalf("%s: %v", id, err)
				}
				p.MakeMove(m)
			}
		}
		for _, e := range strings.Split(expects, ";") {
			key, val, _ := strings.Cut(e, "=")
			kind, uci, _ := strings.Cut(key, ":")
			switch kind {
			case "legal":
				_, err := p.ParseUCI(uci)
				if got := err == nil; (val == "true") != got {
					t.Errorf("%s: legal:%s = %v, want %s", id, uci, got, val)
				}
				checked++
			case "fen_after", "check_after":
				m, err := p.ParseUCI(uci)
				if err != nil {
					t.Errorf("%s: %s: %v", id, uci, err)
					continue
				}
				q := *p
				q.MakeMove(m)
				if kind == "fen_after" && q.FEN() != val {
					t.Errorf("%s: fen_after:%s = %s, want %s", id, uci, q.FEN(), val)
				}
				if kind == "check_after" && q.InCheck() != (val == "true") {
					t.Errorf("%s: check_after:%s = %v, want %s", id, uci, q.InCheck(), val)
				}
				checked++
			case "checkmate":
				if p.IsCheckmate() != (val == "true") {
					t.Errorf("%s: checkmate = %v, want %s", id, p.IsCheckmate(), val)
				}
				checked++
			case "stalemate":
				if p.IsStalemate() != (val == "true") {
					t.Errorf("%s: stalemate = %v, want %s", id, p.IsStalemate(), val)
				}
				checked++
			}
		}
	}
	if checked < 30 {
		t.Errorf("only %d assertions checked", checked)
	}
	t.Logf("%d move-level assertions checked", checked)
}
