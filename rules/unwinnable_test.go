package rules

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
)

// The dead-position ground truth: testdata/unwinnable-tests.txt, 3,424
// positions with winnable/unwinnable per side (format in its header).
//
//	go test ./rules -run TestUnwinnableQuick             # every position, small budget (default)
//	BOARDD_UNWINNABLE=1 go test ./rules -run TestUnwinnableFull -timeout 60m -v
//
// For work on the analyser, BOARDD_BUDGET=<nodes> overrides the budget of
// the full run, BOARDD_LINES=<file of line numbers> restricts it to those
// lines, and BOARDD_UNWINNABLE=v lists the undecided positions.

type unwinnableCase struct {
	line  int
	code  string
	fen   string
	white Winnability
	black Winnability
}

func loadUnwinnable(tb testing.TB) []unwinnableCase {
	tb.Helper()
	f, err := os.Open("../testdata/unwinnable-tests.txt")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []unwinnableCase
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		l := sc.Text()
		if l == "" || l[0] == '#' {
			continue
		}
		fs := strings.Split(l, "\t")
		if len(fs) != 5 {
			tb.Fatalf("unwinnable-tests.txt:%d: %d fields, want 5", n, len(fs))
		}
		w := map[string]Winnability{"winnable": Winnable, "unwinnable": Unwinnable}
		c := unwinnableCase{n, fs[0], fs[1], w[fs[2]], w[fs[3]]}
		if c.white == Undetermined || c.black == Undetermined {
			tb.Fatalf("unwinnable-tests.txt:%d: bad verdicts %q %q", n, fs[2], fs[3])
		}
		out = append(out, c)
	}
	if len(out) != 3424 {
		tb.Fatalf("unwinnable-tests.txt: %d positions, want 3424", len(out))
	}
	return out
}

type unwinnableStats struct {
	positions, decided, undeterminedSides, wrong int
	times                                        []time.Duration
	methods                                      map[string]int
	slowest                                      []string
	// The material-only rule on the same positions.
	truthUnwinnable, materialUnwinnable, materialWrong int
}

func (s *unwinnableStats) median() time.Duration { return s.times[len(s.times)/2] }
func (s *unwinnableStats) p99() time.Duration    { return s.times[len(s.times)*99/100] }

func (s *unwinnableStats) String() string {
	return fmt.Sprintf("positions %d, decided %d (%.2f%%), undetermined sides %d, wrong %d; median %v, p99 %v, max %v; "+
		"material-only rule: %d of %d unwinnable sides found, %d missed, %d winnable sides called unwinnable (already mated)",
		s.positions, s.decided, 100*float64(s.decided)/float64(s.positions), s.undeterminedSides, s.wrong,
		s.median(), s.p99(), s.times[len(s.times)-1],
		s.materialUnwinnable, s.truthUnwinnable, s.truthUnwinnable-s.materialUnwinnable, s.materialWrong)
}

func runUnwinnable(t *testing.T, cases []unwinnableCase, a *Analyzer, verbose bool) *unwinnableStats {
	st := &unwinnableStats{positions: len(cases), methods: map[string]int{}}
	type timed struct {
		d    time.Duration
		line int
	}
	var all []timed
	for _, c := range cases {
		p, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatalf("line %d: %v", c.line, err)
		}
		start := time.Now()
		ans := a.Analyze(p)
		d := time.Since(start)
		st.times = append(st.times, d)
		all = append(all, timed{d, c.line})
		ok := true
		for _, side := range []struct {
			got  MateAnswer
			want Winnability
		}{{ans.White, c.white}, {ans.Black, c.black}} {
			st.methods[side.got.Method+"/"+side.got.Winnability.String()]++
			switch side.got.Winnability {
			case Undetermined:
				st.undeterminedSides++
				ok = false
			case side.want:
			default:
				st.wrong++
				ok = false
				t.Errorf("line %d %s: %s %s, want %s (%s)", c.line, c.fen, side.got.Winner, side.got.Winnability, side.want, side.got.Method)
			}
			if side.want == Unwinnable {
				st.truthUnwinnable++
			}
			if InsufficientMaterial(p, side.got.Winner) {
				if side.want == Unwinnable {
					st.materialUnwinnable++
				} else {
					st.materialWrong++
				}
			}
		}
		if ok {
			st.decided++
		} else if verbose {
			t.Logf("undecided line %d %s %s: white %s, black %s", c.line, c.code, c.fen, ans.White.Winnability, ans.Black.Winnability)
		}
	}
	sort.Slice(st.times, func(i, j int) bool { return st.times[i] < st.times[j] })
	sort.Slice(all, func(i, j int) bool { return all[i].d > all[j].d })
	for i := 0; i < len(all) && i < 10; i++ {
		st.slowest = append(st.slowest, fmt.Sprintf("line %d %v", all[i].line, all[i].d.Round(time.Millisecond)))
	}
	return st
}

// TestUnwinnableQuick analyses every eighth position with a small budget:
// no verdict may be wrong, and most are decided even so.
func TestUnwinnableQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	var cases []unwinnableCase
	for i, c := range loadUnwinnable(t) {
		if i%8 == 0 {
			cases = append(cases, c)
		}
	}
	st := runUnwinnable(t, cases, NewAnalyzer(40_000), false)
	t.Log(st)
	if st.wrong != 0 {
		t.Errorf("%d wrong verdicts", st.wrong)
	}
	if st.decided*100 < st.positions*85 {
		t.Errorf("decided %d of %d with a 40,000-node budget, want at least 85%%", st.decided, st.positions)
	}
}

// TestUnwinnableFull is the proof run with the default budget: 0 wrong
// and at least 99.5% of the positions decided for both sides.
func TestUnwinnableFull(t *testing.T) {
	mode := os.Getenv("BOARDD_UNWINNABLE")
	if mode == "" {
		t.Skip("set BOARDD_UNWINNABLE=1 (takes several minutes)")
	}
	cases := loadUnwinnable(t)
	budget := 0
	if b := os.Getenv("BOARDD_BUDGET"); b != "" {
		var err error
		if budget, err = strconv.Atoi(b); err != nil {
			t.Fatalf("BOARDD_BUDGET: %v", err)
		}
	}
	if lf := os.Getenv("BOARDD_LINES"); lf != "" {
		data, err := os.ReadFile(lf)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int]bool{}
		for _, f := range strings.Fields(string(data)) {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("BOARDD_LINES: %v", err)
			}
			want[n] = true
		}
		var sub []unwinnableCase
		for _, c := range cases {
			if want[c.line] {
				sub = append(sub, c)
			}
		}
		cases = sub
	}
	a := NewAnalyzer(budget)
	st := runUnwinnable(t, cases, a, mode == "v")
	t.Logf("budget %d nodes per side: %s", a.Budget(), st)
	t.Logf("slowest: %s", strings.Join(st.slowest, ", "))
	t.Logf("decided by: %v", st.methods)
	if st.wrong != 0 {
		t.Errorf("%d wrong verdicts", st.wrong)
	}
	if os.Getenv("BOARDD_LINES") == "" && st.decided*1000 < st.positions*995 {
		t.Errorf("decided %d of %d, want at least 99.5%%", st.decided, st.positions)
	}
}

// benchSample is every tenth position of the file: the same sample for the
// analyser and for the material-only rule it is compared with.
func benchSample(b *testing.B) []*chess.Position {
	var out []*chess.Position
	for i, c := range loadUnwinnable(b) {
		if i%10 == 0 {
			p, err := chess.ParseFEN(c.fen)
			if err != nil {
				b.Fatal(err)
			}
			out = append(out, p)
		}
	}
	return out
}

// BenchmarkAnalyze analyses both sides of every tenth position of the
// file; it reports the median and 99th percentile time per position.
func BenchmarkAnalyze(b *testing.B) {
	sample := benchSample(b)
	a := NewAnalyzer(0)
	var times []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range sample {
			start := time.Now()
			a.Analyze(p)
			times = append(times, time.Since(start))
		}
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns/pos")
	b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns/pos")
	b.ReportMetric(float64(len(sample)), "positions")
}

// BenchmarkMaterialRule is the material-only rule on the same sample.
func BenchmarkMaterialRule(b *testing.B) {
	sample := benchSample(b)
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		for _, p := range sample {
			if InsufficientMaterial(p, chess.White) {
				n++
			}
			if InsufficientMaterial(p, chess.Black) {
				n++
			}
		}
	}
	b.ReportMetric(float64(len(sample)), "positions")
	if n < 0 {
		b.Fatal("unreachable")
	}
}

// A static proof charged at its cost ends a search within the budget
// sooner: more positions are left undetermined with a large cost than
// without, and never a different determined answer.
func TestStaticCostCountsAgainstTheBudget(t *testing.T) {
	cases := loadUnwinnable(t)
	free, costly := NewAnalyzer(20_000), NewAnalyzer(20_000)
	costly.SetStaticCost(20_000)
	var undFree, undCostly int
	for i, c := range cases {
		if i%40 != 0 {
			continue
		}
		p, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []chess.Color{chess.White, chess.Black} {
			a, b := free.CanMate(p, w), costly.CanMate(p, w)
			if a.Winnability == Undetermined {
				undFree++
			}
			if b.Winnability == Undetermined {
				undCostly++
			} else if a.Winnability != Undetermined && a.Winnability != b.Winnability {
				t.Errorf("line %d %s: %s without the cost, %s with it", c.line, w, a.Winnability, b.Winnability)
			}
		}
	}
	if undCostly <= undFree {
		t.Errorf("undetermined: %d with the static cost, %d without; want more with it", undCostly, undFree)
	}
}
