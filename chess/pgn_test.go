package chess

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPGNCorpusRoundTrip(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(filepath.Dir(sharedData(t, "games/README.md")), "*.pgn"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no PGN files: %v", err)
	}
	total := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		games, err := ReadAllPGN(bytes.NewReader(data))
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
		}
		// Every game start in the file is a game read.
		if want := bytes.Count(data, []byte("\n[Event ")) + btoi(bytes.HasPrefix(data, []byte("[Event "))); len(games) != want {
			t.Errorf("%s: read %d games, file has %d [Event tags", filepath.Base(f), len(games), want)
		}
		var buf bytes.Buffer
		for _, g := range games {
			if err := g.WritePGN(&buf); err != nil {
				t.Fatal(err)
			}
		}
		again, err := ReadAllPGN(&buf)
		if err != nil {
			t.Errorf("%s: re-reading our output: %v", filepath.Base(f), err)
		}
		if len(again) != len(games) {
			t.Fatalf("%s: wrote %d games, re-read %d", filepath.Base(f), len(games), len(again))
		}
		for i := range games {
			a, b := games[i], again[i]
			if a.Start.FEN() != b.Start.FEN() || a.Result != b.Result || len(a.Moves) != len(b.Moves) {
				t.Errorf("%s game %d (line %d): round trip changed start, result or length", filepath.Base(f), i+1, a.Line)
				continue
			}
			for j := range a.Moves {
				if a.Moves[j] != b.Moves[j] || a.Clocks[j] != b.Clocks[j] || a.Comments[j] != b.Comments[j] {
					t.Errorf("%s game %d ply %d: round trip changed the move, clock or comment", filepath.Base(f), i+1, j+1)
					break
				}
			}
		}
		total += len(games)
	}
	t.Logf("%d games read, written and re-read", total)
	if total < 10000 {
		t.Errorf("only %d games in the corpus, expected about 10,000", total)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestPGNDetails(t *testing.T) {
	text := `[Event "Test"]
[White "A \"quoted\" name"]
[Result "1-0"]

1.e4 {start [%clk 1:30:00]} e5 (1... c5 2. Nf3 {side line} (2. c3)) 2.Nf3 $1 Nc6!? ; rest of line
3. Bb5 a6 {[%clk 0:00:59.5]} 4. Ba4 1-0

[Event "Second"]
[SetUp "1"]
[FEN "4k3/P7/8/8/8/8/8/4K3 w - - 0 50"]

50. a8=Q+ Kd7 *
`
	games, err := ReadAllPGN(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 {
		t.Fatalf("got %d games", len(games))
	}
	g := games[0]
	if got := strings.Join(g.SANs(), " "); got != "e4 e5 Nf3 Nc6 Bb5 a6 Ba4" {
		t.Errorf("moves = %s", got)
	}
	if g.Tag("White") != `A "quoted" name` || g.Result != "1-0" {
		t.Errorf("tags: white %q result %q", g.Tag("White"), g.Result)
	}
	if g.Clocks[0] != 90*time.Minute || g.Comments[0] != "start" || g.Clocks[5] != 59*time.Second+500*time.Millisecond || g.Clocks[1] != NoClock {
		t.Errorf("clocks %v comments %q", g.Clocks, g.Comments)
	}
	if g.Comments[3] != "rest of line" {
		t.Errorf("line comment = %q", g.Comments[3])
	}
	out := strings.Join(strings.Fields(g.PGN()), " ")
	for _, want := range []string{`[White "A \"quoted\" name"]`, "1. e4 { start [%clk 1:30:00] } 1... e5", "a6 { [%clk 0:00:59.5] } 4. Ba4 1-0"} {
		if !strings.Contains(out, want) {
			t.Errorf("PGN output lacks %q:\n%s", want, out)
		}
	}
	g2 := games[1]
	if got := strings.Join(g2.SANs(), " "); got != "a8=Q+ Kd7" || g2.Start.FullmoveNumber() != 50 {
		t.Errorf("second game: %s", got)
	}
	if !strings.Contains(g2.PGN(), "50. a8=Q+ Kd7 *") {
		t.Errorf("second game output:\n%s", g2.PGN())
	}
}

func TestPGNErrorsNameLines(t *testing.T) {
	text := "[Event \"x\"]\n\n1. e4 e5\n2. Ke3 Nc6 *\n\n[Event \"y\"]\n\n1. d4 *\n"
	pr := NewPGNReader(strings.NewReader(text))
	_, err := pr.Next()
	if err == nil || !strings.Contains(err.Error(), "line 4") || !strings.Contains(err.Error(), "Ke3") {
		t.Errorf("error = %v, want line 4 and Ke3", err)
	}
	g, err := pr.Next()
	if err != nil || len(g.Moves) != 1 {
		t.Errorf("reading went on badly after an error: %v", err)
	}
}

// A [%clk] command is never split across lines, wherever the 79-column
// wrap falls; the lines stay within 79 columns.
func TestPGNNeverBreaksInsideClk(t *testing.T) {
	g := &Game{Start: NewPosition(), Result: "*"}
	p := *g.Start
	for _, san := range strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7") {
		m, err := p.ParseSAN(san)
		if err != nil {
			t.Fatal(err)
		}
		g.Moves = append(g.Moves, m)
		p.MakeMove(m)
		g.Clocks = append(g.Clocks, time.Duration(len(g.Moves))*1234567*time.Microsecond)
		g.Comments = append(g.Comments, strings.Repeat("x", len(g.Moves)%7))
	}
	text := g.PGN()
	for _, line := range strings.Split(text, "\n") {
		if strings.HasSuffix(line, "[%clk") || strings.Contains(line, "[%clk") && !strings.Contains(line[strings.LastIndex(line, "[%clk"):], "]") {
			t.Errorf("a line ends inside [%%clk]: %q", line)
		}
		if len(line) > 79 {
			t.Errorf("line of %d columns: %q", len(line), line)
		}
	}
	if n := strings.Count(text, "[%clk "); n != len(g.Moves) {
		t.Errorf("%d [%%clk ] commands with their space, want %d:\n%s", n, len(g.Moves), text)
	}
}
