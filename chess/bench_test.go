package chess

import "testing"

var benchFENs = []string{
	StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
}

func benchPositions(b *testing.B) []*Position {
	var ps []*Position
	for _, f := range benchFENs {
		ps = append(ps, mustFEN(b, f))
	}
	return ps
}

func BenchmarkGenerateLegal(b *testing.B) {
	ps := benchPositions(b)
	var l MoveList
	b.ReportAllocs()
	n := 0
	for i := 0; i < b.N; i++ {
		l.Reset()
		ps[i%len(ps)].GenerateLegal(&l)
		n += l.Len()
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "Mmoves/s")
}

func BenchmarkCountLegal(b *testing.B) {
	ps := benchPositions(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ps[i%len(ps)].CountLegal()
	}
}

// BenchmarkMakeUnmake makes and takes back every legal move of the
// benchmark positions; ns/op is per move pair.
func BenchmarkMakeUnmake(b *testing.B) {
	ps := benchPositions(b)
	type pm struct {
		p *Position
		m Move
	}
	var all []pm
	for _, p := range ps {
		for _, m := range p.LegalMoves() {
			all = append(all, pm{p, m})
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x := all[i%len(all)]
		u := x.p.MakeMove(x.m)
		x.p.UnmakeMove(x.m, u)
	}
}

// BenchmarkCopyMake is the alternative to make/unmake: copy the position
// and make the move on the copy.
func BenchmarkCopyMake(b *testing.B) {
	ps := benchPositions(b)
	type pm struct {
		p *Position
		m Move
	}
	var all []pm
	for _, p := range ps {
		for _, m := range p.LegalMoves() {
			all = append(all, pm{p, m})
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	var sink uint64
	for i := 0; i < b.N; i++ {
		x := all[i%len(all)]
		q := *x.p
		q.MakeMove(x.m)
		sink += q.key
	}
	_ = sink
}

func BenchmarkMovesToOccupancy(b *testing.B) {
	p := NewPosition()
	target := p.Occupied()&^Square(12).Bitboard() | Square(28).Bitboard()
	var l MoveList
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		l.Reset()
		p.MovesToOccupancy(target, &l)
	}
}

func benchPerft(b *testing.B, fen string, depth int, f func(*Position, int) uint64) {
	p := mustFEN(b, fen)
	b.ReportAllocs()
	var nodes uint64
	for i := 0; i < b.N; i++ {
		nodes += f(p, depth)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnps")
}

func BenchmarkPerftStart5(b *testing.B)       { benchPerft(b, StartFEN, 5, Perft) }
func BenchmarkPerftKiwipete4(b *testing.B)    { benchPerft(b, benchFENs[1], 4, Perft) }
func BenchmarkPerftPlayedStart4(b *testing.B) { benchPerft(b, StartFEN, 4, PerftPlayed) }

// notationBenchPositions are the benchmark positions and those one move
// later, for SAN and FEN: every move output carries both.
func notationBenchPositions(b *testing.B) []*Position {
	var out []*Position
	for _, p := range benchPositions(b) {
		out = append(out, p)
		for _, m := range p.LegalMoves() {
			q := *p
			q.MakeMove(m)
			out = append(out, &q)
		}
	}
	return out
}

// BenchmarkSAN writes every legal move of the positions in SAN; ns/op is
// per move.
func BenchmarkSAN(b *testing.B) {
	type pm struct {
		p *Position
		m Move
	}
	var all []pm
	for _, p := range notationBenchPositions(b) {
		for _, m := range p.LegalMoves() {
			all = append(all, pm{p, m})
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		x := all[i%len(all)]
		n += len(x.p.SAN(x.m))
	}
	_ = n
}

// BenchmarkAppendFEN writes the FEN of each position into a reused buffer.
func BenchmarkAppendFEN(b *testing.B) {
	ps := notationBenchPositions(b)
	buf := make([]byte, 0, 128)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = ps[i%len(ps)].AppendFEN(buf[:0])
	}
}
