package session

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/rules"
	"github.com/boardd/boardd/trace"
)

// unwinnable loads the positions of the dead-position test set
// (testdata/unwinnable-tests.txt).
func unwinnable(tb testing.TB) []*chess.Position {
	tb.Helper()
	f, err := os.Open("../testdata/unwinnable-tests.txt")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []*chess.Position
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || l[0] == '#' {
			continue
		}
		fs := strings.Split(l, "\t")
		p, err := chess.ParseFEN(fs[1])
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// BenchmarkFlagVerdict times the verdict on a flag fall of the player to
// move (6.9: lost, or drawn when the opponent cannot mate) for every
// position of the unwinnable test set, with the session's budget and, as
// the peer, the analyser's default budget that flag verdicts used before:
//
//	go test -run '^$' -bench FlagVerdict -benchtime 1x ./session
//
// It reports the median, 99th percentile and largest time per verdict and
// the share the budget leaves to the arbiter (undetermined).
func BenchmarkFlagVerdict(b *testing.B) {
	positions := unwinnable(b)
	p, err := rules.Lookup(rules.Setting{Edition: rules.Edition2023, Type: rules.Standard})
	if err != nil {
		b.Fatal(err)
	}
	staticCost := AnalysisStaticCost
	if v := os.Getenv("BOARDD_STATIC_COST"); v != "" {
		staticCost, _ = strconv.Atoi(v)
	}
	for _, c := range []struct {
		name   string
		budget int
		every  int // the default budget takes minutes on the whole set: a sample
	}{
		{"session", DefaultAnalysisBudget, 1},
		{"default-budget", 0, 10},
	} {
		if v := os.Getenv("BOARDD_BUDGET"); v != "" && c.budget != 0 {
			c.budget, _ = strconv.Atoi(v)
		}
		if os.Getenv("BOARDD_BUDGET") != "" && c.budget == 0 {
			continue
		}
		b.Run(c.name, func(b *testing.B) {
			var times []time.Duration
			undetermined := 0
			for i := 0; i < b.N; i++ {
				for j, pos := range positions {
					if j%c.every != 0 {
						continue
					}
					a := rules.NewAnalyzer(c.budget)
					if c.budget != 0 {
						a.SetStaticCost(staticCost)
					}
					start := time.Now()
					v := p.FlagFallen(pos, pos.SideToMove(), a)
					times = append(times, time.Since(start))
					if v.Undetermined {
						undetermined++
					}
				}
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs")
			b.ReportMetric(float64(times[len(times)-1].Microseconds()), "max-µs")
			b.ReportMetric(100*float64(undetermined)/float64(len(times)), "%undetermined")
		})
	}
}

// BenchmarkMoveIntoDeadCandidate times how long a move waits before it
// can be published when it leads into a position the dead-position
// analysis must look at: from each position of the unwinnable test set,
// the first capture or pawn move into such a position, made on a piece
// board and pressed, with the daemon's ticks every 50 ms between events.
// "published-first" is the step as the session runs it (the analysis is
// deferred to Settle); the peer "analysis-inline" also runs Settle before
// the move could go out, as every step did before:
//
//	go test -run '^$' -bench MoveIntoDeadCandidate -benchtime 1x ./session
func BenchmarkMoveIntoDeadCandidate(b *testing.B) {
	type game struct {
		cfg    Config
		events []trace.Event
	}
	var games []game
	for _, pos := range unwinnable(b) {
		var l chess.MoveList
		pos.GenerateLegal(&l)
		for _, m := range l.Moves() {
			after := *pos
			after.MakeMove(m)
			if !needsAnalysis(&after) {
				continue
			}
			s := newScript(b, "edition 2023\nclock 90m", pos.FEN()).move(pos.SAN(m), 1000, true)
			tr, err := trace.NewReader(strings.NewReader(s.b.String()))
			if err != nil {
				b.Fatal(err)
			}
			cfg, err := ConfigFromHeader(tr.Header())
			if err != nil {
				b.Fatal(err)
			}
			g := game{cfg: cfg}
			for {
				ev, err := tr.Next()
				if err != nil {
					break
				}
				g.events = append(g.events, ev)
			}
			games = append(games, g)
			break // one move per position
		}
	}
	b.Logf("%d positions with such a move", len(games))
	for _, inline := range []bool{false, true} {
		name := "published-first"
		if inline {
			name = "analysis-inline"
		}
		b.Run(name, func(b *testing.B) {
			var times []time.Duration
			for i := 0; i < b.N; i++ {
				for _, g := range games {
					sess, err := New(g.cfg)
					if err != nil {
						b.Fatal(err)
					}
					var outs []Output
					var now int64
					published := false
					// The events, and the daemon's ticks every 50 ms
					// between them; the step that first has the move.
					step := func(f func() []Output) {
						start := time.Now()
						outs = f()
						if inline {
							outs = sess.settleAll(outs)
						}
						d := time.Since(start)
						for _, o := range outs {
							if o.Kind == reconstruct.Move && !published {
								times, published = append(times, d), true
							}
						}
					}
					for k := range g.events {
						ev := &g.events[k]
						for ; now+50 < ev.T; now += 50 {
							step(func() []Output { return sess.Advance(now+50, outs[:0]) })
						}
						now = ev.T
						step(func() []Output { return sess.Feed(ev, outs[:0]) })
					}
				}
			}
			if len(times) == 0 {
				b.Fatal("no move was published")
			}
			slices.Sort(times)
			b.ReportMetric(float64(len(times))/float64(b.N), "moves")
			b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs")
			b.ReportMetric(float64(times[len(times)-1].Microseconds()), "max-µs")
		})
	}
}
