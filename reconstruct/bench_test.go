package reconstruct_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/sensors/sim"
	"github.com/boardd/boardd/trace"
)

// simTrace is one simulated game: its header and events.
type simTrace struct {
	hdr trace.Header
	evs []trace.Event
}

// benchTraces simulates the first n games of each corpus file on each
// sensor kind, clean and irregular.
func benchTraces(b testing.TB, n int) []simTrace {
	b.Helper()
	var out []simTrace
	for i, g := range corpus(b, n) {
		for _, s := range []trace.Sensor{trace.Occupancy, trace.Colour, trace.PieceSensor} {
			for _, irr := range []bool{false, true} {
				src, err := sim.NewSource(sim.FromPGN(g), sim.Options{Sensor: s, Seed: sim.GameSeed(7, i), Irregular: irr})
				if err != nil {
					b.Fatal(err)
				}
				st := simTrace{hdr: src.Header()}
				for {
					it, err := src.Next()
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					st.evs = append(st.evs, it.Event)
				}
				out = append(out, st)
			}
		}
	}
	return out
}

func countEvents(ts []simTrace) int {
	n := 0
	for _, t := range ts {
		n += len(t.evs)
	}
	return n
}

// BenchmarkFeed replays simulated traces (events already in memory)
// through the reconstruction, one Reconstructor per trace, with every
// output's notation (SAN, UCI, FEN) written: the events/s figure is the
// replay speed.
func BenchmarkFeed(b *testing.B) { benchFeed(b, false) }

// BenchmarkFeedMovesOnly is BenchmarkFeed without notation
// (Config.MovesOnly), as `boardd replay` writing PGN and the accuracy
// benchmark run it.
func BenchmarkFeedMovesOnly(b *testing.B) { benchFeed(b, true) }

func benchFeed(b *testing.B, movesOnly bool) {
	ts := benchTraces(b, 4)
	total := countEvents(ts)
	out := make([]reconstruct.Output, 0, 64)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		for _, t := range ts {
			cfg, _ := reconstruct.ConfigFromHeader(t.hdr)
			cfg.MovesOnly = movesOnly
			r, err := reconstruct.New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			for j := range t.evs {
				out = r.Feed(&t.evs[j], out[:0])
			}
			out = r.End(t.evs[len(t.evs)-1].T, out[:0])
		}
	}
	b.ReportMetric(float64(total)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(total)*float64(b.N)/(cpuTime()-cpu0).Seconds(), "events/cpu-s")
}

// BenchmarkReplayFastest replays each trace of BenchmarkFeed b.N times,
// with notation, and reports the sum of each trace's fastest replay: on a
// shared machine the neighbours slow some replays of every trace, seldom
// all of them, so the figure moves less than BenchmarkFeed's. Run it
// with -benchtime 60x or so.
func BenchmarkReplayFastest(b *testing.B) { benchFastest(b, false) }

// BenchmarkReplayFastestMovesOnly is BenchmarkReplayFastest without
// notation.
func BenchmarkReplayFastestMovesOnly(b *testing.B) { benchFastest(b, true) }

func benchFastest(b *testing.B, movesOnly bool) {
	replayFastest(b, benchTraces(b, 4), movesOnly)
}

// replayFastest replays each trace of ts b.N times and reports the sum of
// each trace's fastest replay (fastest-ms) and the events per second it
// makes.
func replayFastest(b *testing.B, ts []simTrace, movesOnly bool) {
	total := countEvents(ts)
	out := make([]reconstruct.Output, 0, 64)
	fastest := make([]time.Duration, len(ts))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, t := range ts {
			t0 := time.Now()
			cfg, err := reconstruct.ConfigFromHeader(t.hdr)
			if err != nil {
				b.Fatal(err)
			}
			cfg.MovesOnly = movesOnly
			r, err := reconstruct.New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			for k := range t.evs {
				out = r.Feed(&t.evs[k], out[:0])
			}
			out = r.End(t.evs[len(t.evs)-1].T, out[:0])
			if d := time.Since(t0); i == 0 || d < fastest[j] {
				fastest[j] = d
			}
		}
	}
	var sum time.Duration
	for _, d := range fastest {
		sum += d
	}
	b.ReportMetric(float64(sum)/1e6, "fastest-ms")
	b.ReportMetric(float64(total)/sum.Seconds(), "events/s")
}

// cpuTime is the CPU time the process has used: on a shared machine it
// measures the work, where wall time also measures the neighbours.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkReadTrace is BenchmarkFeed's peer: parsing the same traces
// from text, without reconstructing.
func BenchmarkReadTrace(b *testing.B) {
	ts := benchTraces(b, 4)
	texts := make([][]byte, len(ts))
	for i, t := range ts {
		var buf bytes.Buffer
		w := trace.NewWriter(&buf)
		w.WriteHeader(t.hdr)
		for j := range t.evs {
			w.WriteEvent(&t.evs[j])
		}
		w.Flush()
		texts[i] = buf.Bytes()
	}
	total := countEvents(ts)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		for _, text := range texts {
			tr, err := trace.NewReader(bytes.NewReader(text))
			if err != nil {
				b.Fatal(err)
			}
			for {
				if _, err := tr.Next(); err != nil {
					break
				}
			}
		}
	}
	b.ReportMetric(float64(total)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(total)*float64(b.N)/(cpuTime()-cpu0).Seconds(), "events/cpu-s")
}

// BenchmarkDecision times every Feed call that judged a still or pressed
// board (a settle, a press, a commit or alert timer) and reports the
// median, 99th percentile and maximum of the last pass, and the same of
// each decision's fastest time over all passes (-min): on a shared
// machine the single times at the 99th percentile are mostly the
// machine's (the slowest 1% of decisions are the inexact searches, 10-20
// µs, so the percentile sits on a cliff), the fastest are the code's.
func BenchmarkDecision(b *testing.B) {
	ts := benchTraces(b, 4)
	var times, mins []time.Duration
	out := make([]reconstruct.Output, 0, 64)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		times = times[:0]
		for _, t := range ts {
			cfg, _ := reconstruct.ConfigFromHeader(t.hdr)
			r, _ := reconstruct.New(cfg)
			for j := range t.evs {
				d0 := reconstruct.Decisions(r)
				start := time.Now()
				out = r.Feed(&t.evs[j], out[:0])
				el := time.Since(start)
				if reconstruct.Decisions(r) != d0 {
					// (Each pass makes the same decisions in the same order.)
					if k := len(times); k == len(mins) {
						mins = append(mins, el)
					} else {
						mins[k] = min(mins[k], el)
					}
					times = append(times, el)
				}
			}
		}
	}
	b.StopTimer()
	report := func(v []time.Duration, suffix string) {
		slices.Sort(v)
		pct := func(p float64) float64 { return float64(v[int(p*float64(len(v)-1))].Nanoseconds()) / 1e3 }
		b.ReportMetric(pct(0.5), "p50"+suffix)
		b.ReportMetric(pct(0.99), "p99"+suffix)
		b.ReportMetric(pct(1), "max"+suffix)
	}
	report(times, "-µs")
	report(mins, "-min-µs")
	b.ReportMetric(float64(len(times)), "decisions")
}

// BenchmarkResync4 sets a game position from the corpus, shows the board
// four plies later in one frame (as after a restart) and times the press
// that makes boardd search for the four moves. "found" is the share of
// positions reached exactly; colour sensors cannot always tell which of
// two four-move sequences was played (a king and a rook look alike), and
// "found-or-alike" counts too a position reached that shows on the
// sensors exactly as the one played (the frame cannot tell them apart).
func BenchmarkResync4(b *testing.B) {
	type job struct {
		from *chess.Position
		to   chess.Position
		side chess.Color
	}
	var jobs []job
	for _, g := range corpus(b, 8) {
		for k := 10; k+4 <= len(g.Moves) && k <= 60; k += 25 {
			from := g.Position(k)
			to := *g.Position(k + 4)
			jobs = append(jobs, job{from: from, to: to, side: from.SideToMove().Other()})
		}
	}
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		b.Run(s.String(), func(b *testing.B) {
			var times []time.Duration
			found, alike := 0, 0
			out := make([]reconstruct.Output, 0, 64)
			for i := 0; i < b.N; i++ {
				times, found, alike = times[:0], 0, 0
				for _, j := range jobs {
					r, _ := reconstruct.New(reconstruct.Config{Start: j.from, Sensor: s, Clock: true})
					fr := fullFrame(j.from, 0, s)
					out = r.Feed(&fr, out[:0])
					fr = fullFrame(&j.to, 1000, s)
					out = r.Feed(&fr, out[:0])
					press := trace.Event{T: 1300, Kind: trace.Press, Side: j.side}
					start := time.Now()
					out = r.Feed(&press, out[:0])
					// (A press on a still board is decided a sweep later.)
					out = r.Advance(2300, out)
					times = append(times, time.Since(start))
					p := r.Position()
					if p.Key() == j.to.Key() {
						found++
					}
					if got, want := fullFrame(&p, 0, s), fullFrame(&j.to, 0, s); got.Occ == want.Occ && got.White == want.White && got.Placement == want.Placement {
						alike++
					}
				}
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1e3, "median-ms")
			b.ReportMetric(float64(times[len(times)*9/10].Microseconds())/1e3, "p90-ms")
			b.ReportMetric(float64(times[len(times)-1].Microseconds())/1e3, "max-ms")
			b.ReportMetric(float64(found)/float64(len(jobs)), "found")
			b.ReportMetric(float64(alike)/float64(len(jobs)), "found-or-alike")
			b.ReportMetric(float64(len(jobs)), "positions")
		})
	}
}

// BenchmarkCatchUp resumes a corpus game K plies before a position taken
// every 7 plies (as after a restart), shows that position in one full
// frame and lets the board stand still without a clock, through the
// commit and alert timers. "found" is the share of positions reached
// exactly; the times are those of the decisions on the still board
// (the re-synchronisation, then the catch-up). "next" is the share
// reached exactly once the game's next move is made on the board after
// it: a frame that two histories explain (the side to move, on colour
// boards which piece stands where) is told apart by the next move.
// "alike" is the share not found whose board the sensors show exactly as
// the true one (the side to move, castling rights, or on colour boards
// two pieces of a colour trading squares): one frame cannot tell them.
func BenchmarkCatchUp(b *testing.B) {
	type job struct {
		from *chess.Position
		to   chess.Position
		next chess.Move
		then chess.Position
	}
	for _, k := range []int{2, 4} {
		var jobs []job
		for _, g := range corpus(b, 8) {
			for p := 10; p+k < len(g.Moves); p += 7 {
				jobs = append(jobs, job{from: g.Position(p), to: *g.Position(p + k), next: g.Moves[p+k], then: *g.Position(p + k + 1)})
			}
		}
		for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
			b.Run(fmt.Sprintf("%s-%d", s, k), func(b *testing.B) {
				var times []time.Duration
				found, next, alike := 0, 0, 0
				out := make([]reconstruct.Output, 0, 64)
				for i := 0; i < b.N; i++ {
					times, found, next, alike = times[:0], 0, 0, 0
					for _, j := range jobs {
						r, _ := reconstruct.New(reconstruct.Config{Start: j.from, Sensor: s})
						fr := fullFrame(j.from, 0, s)
						out = r.Feed(&fr, out[:0])
						fr = fullFrame(&j.to, 1000, s)
						out = r.Feed(&fr, out[:0])
						start := time.Now()
						out = r.Advance(6000, out[:0])
						times = append(times, time.Since(start))
						if p := r.Position(); p.Key() == j.to.Key() {
							found++
						} else if fr := fullFrame(&p, 0, s); fr == fullFrame(&j.to, 0, s) {
							alike++
						}
						for _, ev := range moveEvents(&j.to, j.next, 8000, s) {
							out = r.Feed(&ev, out[:0])
						}
						out = r.Advance(14000, out[:0])
						if p := r.Position(); p.Key() == j.then.Key() {
							next++
						}
					}
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1e3, "median-ms")
				b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1e3, "p99-ms")
				b.ReportMetric(float64(times[len(times)-1].Microseconds())/1e3, "max-ms")
				b.ReportMetric(float64(found)/float64(len(jobs)), "found")
				b.ReportMetric(float64(next)/float64(len(jobs)), "next")
				b.ReportMetric(float64(alike)/float64(len(jobs)), "alike")
				b.ReportMetric(float64(len(jobs)), "positions")
			})
		}
	}
}

// moveEvents are the square changes of m made from p by one hand at t:
// the victim taken off first, then the piece lifted and set down (the
// king before the rook in castling).
func moveEvents(p *chess.Position, m chess.Move, t int64, s trace.Sensor) []trace.Event {
	q := *p
	q.MakeMove(m)
	var offs, ons []chess.Square
	for x := chess.Square(0); x < 64; x++ {
		before, after := p.PieceAt(x), q.PieceAt(x)
		switch {
		case before == after:
		case after == chess.NoPiece:
			offs = append(offs, x)
		case before == chess.NoPiece:
			ons = append(ons, x)
		default: // a capture's square: the victim off, the piece on later
			offs = append([]chess.Square{x}, offs...)
			ons = append(ons, x)
		}
	}
	var evs []trace.Event
	for _, x := range offs {
		evs = append(evs, trace.Event{T: t, Kind: trace.Off, Square: x})
		t += 150
	}
	for _, x := range ons {
		ev := trace.Event{T: t, Kind: trace.On, Square: x}
		if pc := q.PieceAt(x); s != trace.Occupancy {
			ev.HasColour, ev.Piece = true, chess.NewPiece(pc.Color(), chess.NoPieceType)
			if s == trace.PieceSensor {
				ev.HasPieces, ev.Piece = true, pc
			}
		}
		evs = append(evs, ev)
		t += 150
	}
	return evs
}

// fullFrame is a frame event showing p as sensor s reports it.
func fullFrame(p *chess.Position, t int64, s trace.Sensor) trace.Event {
	ev := trace.Event{T: t, Kind: trace.Frame, Occ: p.Occupied(), White: p.ByColor(chess.White), HasColour: true}
	if s == trace.PieceSensor {
		ev.HasPieces = true
		for x := chess.Square(0); x < 64; x++ {
			ev.Placement[x] = p.PieceAt(x)
		}
	}
	return ev
}
