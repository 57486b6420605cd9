package chess

import (
	"bufio"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The perft suites live in the shared data folder next to the checkout.
// -perft.budget caps the nodes per position (the deepest listed depth at or
// under it is used); -perft.full runs every listed depth.
var (
	perftBudget = flag.Uint64("perft.budget", 2_000_000, "node budget per position for the perft suites")
	perftFull   = flag.Bool("perft.full", false, "run every depth listed in the perft suites, however large")
	dataDir     = flag.String("data", "", "shared data folder (default: the repository's testdata)")
)

func sharedData(t testing.TB, name string) string {
	t.Helper()
	dir := *dataDir
	if dir == "" {
		dir = os.Getenv("BOARDD_DATA")
	}
	if dir == "" {
		dir = filepath.Join("..", "testdata")
	}
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("shared data %s: %v (set BOARDD_DATA or -data)", name, err)
	}
	return p
}

type perftCase struct {
	line   int
	fen    string
	counts map[int]uint64
}

func readEPD(t testing.TB, name string) []perftCase {
	t.Helper()
	f, err := os.Open(sharedData(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []perftCase
	sc := bufio.NewScanner(f)
	ln := 0
	for sc.Scan() {
		ln++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		parts := strings.Split(line, ";")
		c := perftCase{line: ln, fen: strings.TrimSpace(parts[0]), counts: map[int]uint64{}}
		for _, p := range parts[1:] {
			f := strings.Fields(p)
			if len(f) != 2 || f[0][0] != 'D' {
				t.Fatalf("%s:%d: bad field %q", name, ln, p)
			}
			d, err1 := strconv.Atoi(f[0][1:])
			n, err2 := strconv.ParseUint(f[1], 10, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s:%d: bad field %q", name, ln, p)
			}
			c.counts[d] = n
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// suitePosition is a position of a perft suite, with the suite and the
// line it stands on.
type suitePosition struct {
	suite string
	line  int
	p     *Position
}

// suitePositions parses every position of the standard and the Chess960
// perft suites (those Chess960 positions), for tests that walk them.
func suitePositions(t testing.TB) []suitePosition {
	t.Helper()
	var out []suitePosition
	for _, suite := range []string{"perft-standard.epd", "perft-960.epd"} {
		for _, c := range readEPD(t, suite) {
			p, err := ParseFEN(c.fen)
			if err != nil {
				t.Fatalf("%s line %d: %v", suite, c.line, err)
			}
			p.SetChess960(suite == "perft-960.epd")
			out = append(out, suitePosition{suite, c.line, p})
		}
	}
	return out
}

func runPerftSuite(t *testing.T, name string, c960 bool) {
	cases := readEPD(t, name)
	if len(cases) == 0 {
		t.Fatalf("%s: no positions", name)
	}
	var nodes uint64
	checked := 0
	for _, c := range cases {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Errorf("%s:%d: %v", name, c.line, err)
			continue
		}
		if c960 {
			p.SetChess960(true)
		}
		for d := 1; d <= 20; d++ {
			want, ok := c.counts[d]
			if !ok {
				continue
			}
			if !*perftFull && want > *perftBudget && d > 1 {
				break
			}
			got := Perft(p, d)
			nodes += got
			checked++
			if got != want {
				t.Errorf("%s:%d: perft(%d) of %s = %d, want %d", name, c.line, d, c.fen, got, want)
				break
			}
		}
	}
	t.Logf("%s: %d positions, %d perft counts checked, %d nodes", name, len(cases), checked, nodes)
}

func TestPerftStandard(t *testing.T) { runPerftSuite(t, "perft-standard.epd", false) }
func TestPerft960(t *testing.T)      { runPerftSuite(t, "perft-960.epd", true) }
func TestPerft960Start(t *testing.T) { runPerftSuite(t, "perft-960-start.epd", true) }

// TestPerftPlayedAgrees checks bulk counting against making every leaf move.
func TestPerftPlayedAgrees(t *testing.T) {
	for _, fen := range []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
	} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		before := p.FEN()
		key := p.Key()
		for d := 1; d <= 3; d++ {
			if a, b := Perft(p, d), PerftPlayed(p, d); a != b {
				t.Errorf("%s depth %d: bulk %d, played %d", fen, d, a, b)
			}
		}
		if p.FEN() != before || p.Key() != key {
			t.Errorf("%s: make/unmake did not restore the position: %s", fen, p.FEN())
		}
	}
}
