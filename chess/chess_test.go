package chess

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

func mustFEN(t testing.TB, fen string) *Position {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

func TestFENRoundTrip(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{StartFEN, StartFEN},
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", ""},
		// An en passant square without a legal capture is dropped.
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
		// ... and kept when a capture is legal.
		{"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3", ""},
		// Shredder-FEN stays Shredder-FEN; X-FEN stays X-FEN.
		{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", ""},
		{"3r1k1r/4pp2/8/8/8/8/8/4RKR1 w Gd - 1 1", ""},
		{"1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1", ""},
		// EPD-style four fields get default counters.
		{"8/8/8/8/8/8/8/k6K w - -", "8/8/8/8/8/8/8/k6K w - - 0 1"},
	} {
		p := mustFEN(t, c.in)
		want := c.out
		if want == "" {
			want = c.in
		}
		if got := p.FEN(); got != want {
			t.Errorf("FEN(%q) = %q, want %q", c.in, got, want)
		}
		q := mustFEN(t, p.FEN())
		if q.FEN() != p.FEN() || q.Key() != p.Key() {
			t.Errorf("%q does not re-read identically", p.FEN())
		}
	}
}

func TestFENErrors(t *testing.T) {
	for _, c := range []struct{ fen, want string }{
		{"", "0 fields"},
		{"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement: rank 7 has more than 8 squares"},
		{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6 has 9 squares"},
		{"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 ranks"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "'X' is not a piece letter"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1", "2 white kings"},
		{"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "no black king"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w KQkq - 0 1", "pawn on h1"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move: \"x\""},
		{"4k3/8/8/8/8/8/8/4K2r b - - 0 1", "white is in check but it is black's move"},
		{"4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling: \"K\": no white rook on the king side"},
		{"4k3/8/8/8/8/8/4K3/7R w K - 0 1", "the white king is not on its first rank"},
		{"4k3/8/8/8/8/8/8/4K2R w C - 0 1", "castling: \"C\": no white rook on c1"},
		{"4k3/8/8/8/8/8/8/4K2R w KK - 0 1", "already has a castling right"},
		{"4k3/8/8/8/8/8/8/4K2R w Z - 0 1", "not a castling letter"},
		{"4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "en passant: e3 is not on rank 6"},
		{"4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "no black pawn has just moved"},
		{"4k3/8/8/8/8/8/8/4K3 w - z9 0 1", "\"z9\" is not a square"},
		{"4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 -3", "fullmove number"},
	} {
		_, err := ParseFEN(c.fen)
		if err == nil {
			t.Errorf("ParseFEN(%q) succeeded, want error with %q", c.fen, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseFEN(%q) = %v, want it to say %q", c.fen, err, c.want)
		}
	}
}

func TestChess960Numbering(t *testing.T) {
	for n, want := range map[int]string{0: "BBQNNRKR", 518: "RNBQKBNR", 959: "RKRNNQBB", 1: "BQNBNRKR", 2: "BQNNRBKR"} {
		if got, _ := Chess960BackRank(n); got != want {
			t.Errorf("Chess960BackRank(%d) = %s, want %s", n, got, want)
		}
		if Chess960Number(want) != n {
			t.Errorf("Chess960Number(%s) = %d, want %d", want, Chess960Number(want), n)
		}
	}
	if _, err := Chess960Start(960); err == nil {
		t.Error("Chess960Start(960) succeeded")
	}
	// Every start position of the perft file is one of the 960, each once.
	f, err := os.Open(sharedData(t, "perft-960-start.epd"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || l[0] == '#' {
			continue
		}
		rank := strings.SplitN(l, "/", 8)[7]
		rank = rank[:8]
		n := Chess960Number(rank)
		if n < 0 || seen[rank] {
			t.Errorf("back rank %s: number %d, seen before %v", rank, n, seen[rank])
		}
		seen[rank] = true
		p, _ := Chess960Start(n)
		if p.CountLegal() == 0 || !p.Chess960() {
			t.Errorf("position %d: no moves or not marked Chess960", n)
		}
	}
	if len(seen) != 960 {
		t.Errorf("%d distinct start positions in the file, want 960", len(seen))
	}
}

func TestSAN(t *testing.T) {
	for _, c := range []struct {
		fen, uci, san string
	}{
		{StartFEN, "g1f3", "Nf3"},
		{StartFEN, "e2e4", "e4"},
		// Disambiguation by file, by rank, by both (Appendix C.10).
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1", "Rad1"},
		{"4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"},
		{"k7/8/8/8/8/2Q1Q3/8/4Q2K w - - 0 1", "e3d2", "Qe3d2"},
		// A pinned second knight does not call for disambiguation.
		{"4k3/8/8/b3N3/8/8/3N4/4K3 w - - 0 1", "e5c4", "Nc4"},
		{"4k3/8/8/8/8/8/3N4/r1N1K3 w - - 0 1", "d2b3", "Nb3"},
		{"r3k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O"},
		{"r3k3/8/8/8/8/8/8/4K2R b q - 0 1", "e8c8", "O-O-O"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b8=Q+"},
		{"r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8n", "bxa8=N"},
		{"6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8#"},
		{"3r1k1r/4pp2/8/8/8/8/8/4RKR1 w Gd - 1 1", "f1g1", "O-O"},
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
		back, err := p.ParseSAN(c.san)
		if err != nil || back != m {
			t.Errorf("%s: ParseSAN(%q) = %v, %v; want %s", c.fen, c.san, back, err, c.uci)
		}
	}
}

func TestParseSANLenient(t *testing.T) {
	for _, c := range []struct{ fen, in, uci string }{
		{StartFEN, "Nf3+", "g1f3"},
		{StartFEN, "Ng1-f3", "g1f3"},
		{StartFEN, "e2e4", "e2e4"},
		{StartFEN, "e2-e4", "e2e4"},
		{StartFEN, "♘f3", "g1f3"},
		{StartFEN, "e4!?", "e2e4"},
		{"r3k3/8/8/8/8/8/8/4K2R w K - 0 1", "0-0", "e1g1"},
		{"r3k3/8/8/8/8/8/8/4K2R b q - 0 1", "0-0-0", "e8c8"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6 e.p.", "e5d6"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "ed6", "e5d6"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8Q", "b7b8q"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=N", "b7b8n"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8(R)", "b7b8r"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8/B", "b7b8b"},
	} {
		p := mustFEN(t, c.fen)
		m, err := p.ParseSAN(c.in)
		if err != nil {
			t.Errorf("%s: ParseSAN(%q): %v", c.fen, c.in, err)
			continue
		}
		if got := p.UCIWith(m, false); got != c.uci {
			t.Errorf("%s: ParseSAN(%q) = %s, want %s", c.fen, c.in, got, c.uci)
		}
	}
	for _, c := range []struct{ fen, in, want string }{
		{StartFEN, "Ke2", "not a legal move"},
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Rd1", "ambiguous"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8", "needs its piece"},
		{StartFEN, "O-O", "castling is not legal"},
		{StartFEN, "", "empty"},
		{StartFEN, "Nz9", "not a square"},
	} {
		_, err := mustFEN(t, c.fen).ParseSAN(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseSAN(%q) error = %v, want %q", c.in, err, c.want)
		}
	}
}

func TestUCICastlingEncodings(t *testing.T) {
	std := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	for _, in := range []string{"e1g1", "e1h1"} {
		m, err := std.ParseUCI(in)
		if err != nil || !m.IsCastling() {
			t.Errorf("standard %s: %v %v", in, m, err)
		}
		if std.UCI(m) != "e1g1" || std.UCIWith(m, true) != "e1h1" {
			t.Errorf("standard castling written %s / %s", std.UCI(m), std.UCIWith(m, true))
		}
	}
	// Chess960: king on f1, rook on g1. "f1g1" is castling (king onto its
	// rook); with the rook on h1 instead, f1g1 is an ordinary king step.
	p := mustFEN(t, "3r1k1r/4pp2/8/8/8/8/8/4RKR1 w Gd - 1 1")
	m, err := p.ParseUCI("f1g1")
	if err != nil || !m.IsCastling() || p.UCI(m) != "f1g1" {
		t.Errorf("960 f1g1: %v %v", m, err)
	}
	q := mustFEN(t, "4k3/8/8/8/8/8/8/R4K1R w HA - 0 1")
	if m, err := q.ParseUCI("f1g1"); err != nil || m.IsCastling() {
		t.Errorf("f1g1 with the rook on h1 should be a king step: %v %v", m, err)
	}
	if m, err := q.ParseUCI("f1h1"); err != nil || !m.IsCastling() || q.UCIWith(m, false) != "f1g1" {
		t.Errorf("f1h1 should castle: %v %v", m, err)
	}
	if _, err := q.ParseUCI("f1f3"); err == nil {
		t.Error("illegal UCI move accepted")
	}
	for _, bad := range []string{"", "e2", "e2e4qq", "i2e4", "e7e8x"} {
		if _, err := std.ParseUCI(bad); err == nil {
			t.Errorf("ParseUCI(%q) accepted", bad)
		}
	}
}

// TestLanding: a move's piece is set down on its destination; a
// castling's (encoded king onto rook) on the king's square.
func TestLanding(t *testing.T) {
	p := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	for uci, want := range map[string]Square{"e1g1": G1, "e1c1": C1, "a1a8": A8, "e1f1": F1} {
		m, err := p.ParseUCI(uci)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Landing(); got != want {
			t.Errorf("%s lands on %v, want %v", uci, got, want)
		}
	}
}

func TestMovesToOccupancy(t *testing.T) {
	p := NewPosition()
	var l MoveList
	// e2 empties, e4 fills: only e2e4.
	p.MovesToOccupancy(p.Occupied()&^Square(12).Bitboard()|Square(28).Bitboard(), &l)
	if l.Len() != 1 || p.UCI(l.At(0)) != "e2e4" {
		t.Errorf("moves to e4 occupancy: %v", l.Moves())
	}
	// A capture leaves the capturer's square empty and nothing else changes:
	// every capture from the same square explains it.
	p = mustFEN(t, "4k3/8/8/3p1p2/4N3/8/8/4K3 w - - 0 1")
	l.Reset()
	p.MovesToOccupancy(p.Occupied()&^Square(28).Bitboard(), &l)
	if l.Len() != 0 {
		t.Errorf("a knight on e4 cannot capture d5/f5: %v", l.Moves())
	}
	p = mustFEN(t, "4k3/8/3p1p2/8/4N3/8/8/4K3 w - - 0 1")
	l.Reset()
	p.MovesToOccupancy(p.Occupied()&^Square(28).Bitboard(), &l)
	if l.Len() != 2 {
		t.Errorf("Nxd6 and Nxf6 both explain e4 emptying: %v", l.Moves())
	}
	// Castling and en passant change four and three squares.
	p = mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	l.Reset()
	p.MovesToOccupancy(p.Occupied()&^(E1.Bitboard()|H1.Bitboard())|F1.Bitboard()|G1.Bitboard(), &l)
	if l.Len() != 1 || !l.At(0).IsCastling() {
		t.Errorf("castling occupancy: %v", l.Moves())
	}
	if n := testing.AllocsPerRun(100, func() { l.Reset(); p.MovesToOccupancy(p.Occupied(), &l) }); n != 0 {
		t.Errorf("MovesToOccupancy allocates %v times", n)
	}
}

func TestMakeUnmakeRestores(t *testing.T) {
	for _, fen := range []string{
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
		"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
	} {
		p := mustFEN(t, fen)
		for _, m := range p.LegalMoves() {
			before := *p
			u := p.MakeMove(m)
			// The incremental key matches a key computed from scratch.
			if fresh := mustFEN(t, p.FEN()); fresh.Key() != p.Key() {
				t.Errorf("%s after %s: incremental key differs from FEN key", fen, p.UCI(m))
			}
			p.UnmakeMove(m, u)
			if *p != before {
				t.Errorf("%s: make/unmake %s did not restore the position", fen, p.UCI(m))
			}
		}
	}
}

func TestGameEndQueries(t *testing.T) {
	mate := mustFEN(t, "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1")
	m, _ := mate.ParseSAN("Ra8")
	mate.MakeMove(m)
	if !mate.IsCheckmate() || mate.IsStalemate() || !mate.InCheck() {
		t.Error("back-rank mate not recognised")
	}
	stale := mustFEN(t, "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")
	if !stale.IsStalemate() || stale.IsCheckmate() {
		t.Error("stalemate not recognised")
	}
	if got := mustFEN(t, "4k3/8/8/8/8/8/8/4K2r w - - 0 1").Checkers().Count(); got != 1 {
		t.Errorf("checkers = %d", got)
	}
}
