package rules

import (
	"bufio"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
)

type unwinnableCase struct {
	line      int
	code, fen string
	white     Winnability
	black     Winnability
	flags     string
}

func loadUnwinnable(t testing.TB) []unwinnableCase {
	t.Helper()
	f, err := os.Open("../testdata/unwinnable-tests.txt")
	if err != nil {
		t.Fatal(err)
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
			t.Fatalf("unwinnable-tests.txt:%d: %d fields", n, len(fs))
		}
		w := map[string]Winnability{"winnable": Winnable, "unwinnable": Unwinnable}
		out = append(out, unwinnableCase{n, fs[0], fs[1], w[fs[2]], w[fs[3]], fs[4]})
	}
	return out
}

func TestUnwinnableSuite(t *testing.T) {
	if os.Getenv("BOARDD_UNWINNABLE") == "" {
		t.Skip("set BOARDD_UNWINNABLE=1")
	}
	cases := loadUnwinnable(t)
	budget := 0
	if b := os.Getenv("BOARDD_BUDGET"); b != "" {
		budget, _ = strconv.Atoi(b)
	}
	if lf := os.Getenv("BOARDD_LINES"); lf != "" {
		data, _ := os.ReadFile(lf)
		want := map[int]bool{}
		for _, f := range strings.Fields(string(data)) {
			n, _ := strconv.Atoi(f)
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
	wrong, undecided, decidedPos := 0, 0, 0
	var times []time.Duration
	type slow struct {
		d    time.Duration
		line int
	}
	var slowest []slow
	methods := map[string]int{}
	for _, c := range cases {
		p, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		ans := a.Analyze(p)
		times = append(times, time.Since(start))
		slowest = append(slowest, slow{time.Since(start), c.line})
		ok := true
		for _, side := range []struct {
			got  MateAnswer
			want Winnability
		}{{ans.White, c.white}, {ans.Black, c.black}} {
			methods[side.got.Method+"/"+side.got.Winnability.String()]++
			switch side.got.Winnability {
			case Undetermined:
				undecided++
				ok = false
			case side.want:
			default:
				wrong++
				ok = false
				t.Errorf("line %d %s: %s says %s, want %s (%s)", c.line, c.fen, side.got.Winner, side.got.Winnability, side.want, side.got.Method)
			}
		}
		if ok {
			decidedPos++
		} else if os.Getenv("BOARDD_UNWINNABLE") == "v" {
			t.Logf("undecided line %d %s %s: W %s B %s", c.line, c.code, c.fen, ans.White.Winnability, ans.Black.Winnability)
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	sort.Slice(slowest, func(i, j int) bool { return slowest[i].d > slowest[j].d })
	if len(slowest) > 15 {
		slowest = slowest[:15]
	}
	t.Logf("slowest %v", slowest)
	t.Logf("positions %d, decided %d (%.2f%%), undetermined sides %d, wrong %d", len(cases), decidedPos, 100*float64(decidedPos)/float64(len(cases)), undecided, wrong)
	t.Logf("median %v p99 %v max %v", times[len(times)/2], times[len(times)*99/100], times[len(times)-1])
	t.Logf("methods %v", methods)
}
