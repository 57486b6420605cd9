package chess

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// refSAN is SAN written the straightforward way (legal, every legal move
// of p, for the disambiguation): what AppendSAN's attack-table shortcut
// must agree with.
func refSAN(p *Position, m Move, legal []Move) string {
	var b []byte
	from, to := m.From(), m.To()
	pc := p.board[from]
	switch {
	case m.IsCastling():
		if to > from {
			b = append(b, "O-O"...)
		} else {
			b = append(b, "O-O-O"...)
		}
	case pc.Type() == Pawn:
		if from.File() != to.File() {
			b = append(b, byte('a'+from.File()), 'x')
		}
		b = to.appendTo(b)
		if m.IsPromotion() {
			b = append(b, '=', m.Promotion().Letter())
		}
	default:
		b = append(b, pc.Type().Letter())
		var others Bitboard
		for _, o := range legal {
			if o.To() == to && o != m && !o.IsCastling() && p.board[o.From()] == pc {
				others |= o.From().Bitboard()
			}
		}
		if others != 0 {
			switch {
			case others&fileBB(from.File()) == 0:
				b = append(b, byte('a'+from.File()))
			case others&rankBB(from.Rank()) == 0:
				b = append(b, byte('1'+from.Rank()))
			default:
				b = from.appendTo(b)
			}
		}
		if p.board[to] != NoPiece {
			b = append(b, 'x')
		}
		b = to.appendTo(b)
	}
	q := *p
	q.MakeMove(m)
	if q.InCheck() {
		if len(q.LegalMoves()) > 0 {
			b = append(b, '+')
		} else {
			b = append(b, '#')
		}
	}
	return string(b)
}

// refFEN is the FEN written the straightforward way, square by square.
func refFEN(p *Position) string {
	var b []byte
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			pc := p.board[NewSquare(f, r)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b = strconv.AppendInt(b, int64(empty), 10)
				empty = 0
			}
			b = append(b, pc.FENLetter())
		}
		if empty > 0 {
			b = strconv.AppendInt(b, int64(empty), 10)
		}
		if r > 0 {
			b = append(b, '/')
		}
	}
	b = append(b, ' ', "wb"[p.side], ' ')
	b = p.appendCastling(b)
	b = append(b, ' ')
	if p.ep == NoSquare {
		b = append(b, '-')
	} else {
		b = p.ep.appendTo(b)
	}
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.halfmove), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.fullmove), 10)
	return string(b)
}

// checkNotation compares SAN and FEN for every legal move of p with the
// straightforward versions; it reports whether all agreed.
func checkNotation(t *testing.T, where string, p *Position) bool {
	t.Helper()
	ok := true
	if got, want := p.FEN(), refFEN(p); got != want {
		t.Errorf("%s: FEN %q, want %q", where, got, want)
		ok = false
	}
	want := refFEN(p)
	want = want[:strings.IndexByte(want, ' ')]
	if got := string(AppendPlacement([]byte("x"), &p.board)); got != "x"+want {
		t.Errorf("%s: AppendPlacement %q, want %q", where, got, "x"+want)
		ok = false
	}
	legal := p.LegalMoves()
	for _, m := range legal {
		want := refSAN(p, m, legal)
		if got := p.SAN(m); got != want {
			t.Errorf("%s: %s: SAN %q, want %q", where, p.UCI(m), got, want)
			ok = false
		}
		q := *p
		q.MakeMove(m)
		if got := string(p.AppendSAN([]byte("x"), m, &q)); got != "x"+want {
			t.Errorf("%s: %s: AppendSAN with the position after %q, want %q", where, p.UCI(m), got, "x"+want)
			ok = false
		}
	}
	return ok
}

// notationWalk checks every position up to depth plies from p.
func notationWalk(t *testing.T, where string, p *Position, depth int, n *int) bool {
	*n++
	if !checkNotation(t, where, p) {
		return false
	}
	if depth == 0 {
		return true
	}
	for _, m := range p.LegalMoves() {
		q := *p
		q.MakeMove(m)
		if !notationWalk(t, where+" "+p.UCI(m), &q, depth-1, n) {
			return false
		}
	}
	return true
}

// The perft suites are rich in the cases that matter here: promotions with
// check and mate, en passant with discovered check, pins, Chess960
// castling, several pieces of a kind reaching one square.
func TestNotationAgainstReferencePerft(t *testing.T) {
	for _, suite := range []struct {
		name  string
		c960  bool
		depth int // the 960 suites are 960 positions each: one ply is plenty
	}{{"perft-standard.epd", false, 2}, {"perft-960.epd", true, 1}, {"perft-960-start.epd", true, 1}} {
		depth := suite.depth
		if *perftFull {
			depth = 2
		}
		n := 0
		for _, c := range readEPD(t, suite.name) {
			p := mustFEN(t, c.fen)
			if suite.c960 {
				p.SetChess960(true)
			}
			notationWalk(t, suite.name+":"+strconv.Itoa(c.line), p, depth, &n)
		}
		t.Logf("%s: %d positions", suite.name, n)
	}
}

func TestNotationAgainstReferenceGames(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(filepath.Dir(sharedData(t, "games/README.md")), "*.pgn"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no PGN files: %v", err)
	}
	n := 0
	seen := map[uint64]bool{} // the openings repeat
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		games, _ := ReadAllPGN(bytes.NewReader(data))
		for gi, g := range games {
			p := *g.Start
			for i, m := range g.Moves {
				if seen[p.Key()] {
					p.MakeMove(m)
					continue
				}
				seen[p.Key()] = true
				n++
				if !checkNotation(t, filepath.Base(f)+" game "+strconv.Itoa(gi+1)+" ply "+strconv.Itoa(i+1), &p) {
					break
				}
				p.MakeMove(m)
			}
		}
	}
	t.Logf("%d positions", n)
}

// The cases the shortcuts are most likely to get wrong, each with the SAN
// the Laws call for.
func TestNotationShortcutCases(t *testing.T) {
	for _, c := range []struct {
		fen, uci, san string
	}{
		// Disambiguation by file, rank and both, with captures.
		{"4k3/8/8/3p4/8/2N1N3/8/4K3 w - - 0 1", "c3d5", "Ncxd5"},
		{"7k/2N5/8/3p4/8/2N5/8/4K3 w - - 0 1", "c3d5", "N3xd5"},
		{"k7/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1", "c3d2", "Qc3d2"},
		// A second rook that attacks the square but is pinned.
		{"4k3/8/8/8/4r3/8/8/R3R1K1 w - - 0 1", "a1c1", "Rac1"},
		// In check: only the piece that blocks counts.
		{"4r1k1/8/8/8/8/2N5/8/4K1N1 w - - 0 1", "g1e2", "Nge2"},
		{"4r1k1/8/8/8/8/8/8/r1N1K1N1 w - - 0 1", "g1e2", "Ne2"},
		// Promotion with check and with mate; under-promotion giving check.
		{"7k/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b8=Q+"},
		{"k7/2R5/1P6/8/8/8/8/4K3 w - - 0 1", "b6b7", "b7+"},
		{"3k4/1P1pp3/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b8=Q#"},
		{"7k/1P6/6K1/8/8/8/8/8 w - - 0 1", "b7b8r", "b8=R#"},
		{"8/1P6/3k4/8/8/8/8/4K3 w - - 0 1", "b7b8n", "b8=N"},
		// En passant uncovering a check on the king's line.
		{"8/8/8/k2pP2R/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6+"},
		{"4k3/8/8/8/1b1pP3/8/8/K7 b - e3 0 1", "d4e3", "dxe3"},
		{"8/8/8/8/2k5/8/8/B1K5 b - - 0 1", "c4d3", "Kd3"},
		// Chess960 castling, with check from the castled rook.
		{"5k2/8/8/8/8/8/8/1R2K1R1 w BG - 0 1", "e1g1", "O-O+"},
		{"1r3k2/8/8/8/8/8/8/R3K3 w A - 0 1", "e1a1", "O-O-O"},
		{"3k4/8/8/8/8/8/8/4K2R w K - 0 1", "e1h1", "O-O"},
		{"5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1h1", "O-O+"},
	} {
		p := mustFEN(t, c.fen)
		m, err := p.ParseUCI(c.uci)
		if err != nil {
			t.Errorf("%s: %v", c.fen, err)
			continue
		}
		if got := p.SAN(m); got != c.san {
			t.Errorf("%s %s: SAN %q, want %q", c.fen, c.uci, got, c.san)
		}
		checkNotation(t, c.fen, p)
	}
}

func TestAppendCount(t *testing.T) {
	for _, n := range []int{0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 12345, 100000} {
		if got := string(appendCount([]byte("x"), n)); got != "x"+strconv.Itoa(n) {
			t.Errorf("appendCount(%d) = %q", n, got)
		}
	}
}
