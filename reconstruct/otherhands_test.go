package reconstruct

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/boardd/boardd/trace"
)

// TestOtherHands replays traces cut from games of a hand model written
// apart from the bundled simulator (bullet pace, no clock, knocks,
// adjustments): each declares the moves played ("# want:"). The
// published game must be those moves, and before the input ends (no
// still moment after the last change) at most two plies short: the
// game never goes dark, whatever the hands did on the way.
func TestOtherHands(t *testing.T) {
	files, err := filepath.Glob("testdata/otherhands/*.trace")
	if err != nil || len(files) == 0 {
		t.Fatalf("no traces in testdata/otherhands: %v", err)
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			want := wantedLine(t, name, "# want: ")
			r, all, last := replayTrace(t, name)
			// (A trace whose hands never stand still before it ends says
			// so: only End publishes there.)
			if got, w := len(r.Moves()), len(strings.Fields(want)); got < w-2 && !hasLine(t, name, "# ends-moving") {
				t.Errorf("%d plies published when the input ends, want at least %d (%q)", got, w-2, sanList(r))
			}
			all = append(all, r.End(last, nil)...)
			if got := sanList(r); got != want {
				t.Errorf("moves %q, want %q", got, want)
			}
			// (One game: a new one split off loses the moves before it
			// from the published game, whatever it goes on with.)
			for _, o := range all {
				if o.Kind == NewGame && o.T > 0 {
					t.Errorf("a new game at %d ms (%s)", o.T, o.Text)
				}
			}
			// (A trace whose hands left a piece out of place at a press
			// declares the alert that is due: "# allow: kind@ply ...".)
			// One that must come, against the side named, is declared
			// "# due: kind@ply:side ...".
			allowed, _ := findLine(t, name, "# allow: ")
			due, _ := findLine(t, name, "# due: ")
			raised := map[string]bool{}
			for _, o := range all {
				if o.Kind != Alert || !o.Alert.Irregular() {
					continue
				}
				at := fmt.Sprintf("%s@%d", o.Alert, o.Ply)
				raised[at+":"+strings.ToLower(colourName(o.Side))] = true
				if !slices.Contains(strings.Fields(allowed), at) && !strings.Contains(" "+due, " "+at+":") {
					t.Errorf("alert %s", AppendJSON(nil, &o))
				}
			}
			for _, d := range strings.Fields(due) {
				if !raised[d] {
					t.Errorf("alert %s due, not raised", d)
				}
			}
			// (A trace whose every move must stand as first published
			// says "# no-amend": a move shown and then corrected is
			// one the viewers saw wrong.)
			if hasLine(t, name, "# no-amend") {
				for _, o := range all {
					if o.Kind == Amend || o.Kind == Retract {
						t.Errorf("a correction: %s", AppendJSON(nil, &o))
					}
				}
			}
			checkFENs(t, r, all)
			checkPublishedBy(t, name, want)
		})
	}
}

// checkPublishedBy checks a trace's "# by: N@MS ..." line: once the
// changes up to MS are fed, the published game begins with the first N
// plies wanted (a game never more than two plies behind, nor wrong, at
// the pace of hands that someone else modelled).
func checkPublishedBy(t *testing.T, name, want string) {
	t.Helper()
	by, ok := findLine(t, name, "# by: ")
	if !ok {
		return
	}
	w := strings.Fields(want)
	type point struct {
		need int
		at   int64
		got  string
	}
	var pts []point
	for _, f := range strings.Fields(by) {
		n, ms, ok := strings.Cut(f, "@")
		need, err1 := strconv.Atoi(n)
		at, err2 := strconv.ParseInt(ms, 10, 64)
		if !ok || err1 != nil || err2 != nil || need > len(w) {
			t.Fatalf("%s: bad %q in the by line", name, f)
		}
		pts = append(pts, point{need: need, at: at})
	}
	// (One replay: each point takes the game published once the
	// changes up to its time are fed.)
	var out []Output
	eachEvent(t, name, func(r *Reconstructor, ev *trace.Event) {
		out = r.Feed(ev, out[:0])
		for i := range pts {
			if ev.T <= pts[i].at {
				pts[i].got = sanList(r)
			}
		}
	})
	for _, p := range pts {
		if g := strings.Fields(p.got); len(g) < p.need || !slices.Equal(g[:p.need], w[:p.need]) {
			t.Errorf("by %d ms %q published, want it to begin %q", p.at, p.got, strings.Join(w[:p.need], " "))
		}
	}
}

// checkFENs checks that the outputs all, applied in order (moves, amends,
// retractions), leave every published ply with the FEN of the game r
// published: a reader of the FENs sees the position, also after an
// earlier ply was amended.
func checkFENs(t *testing.T, r *Reconstructor, all []Output) {
	t.Helper()
	fens := map[int]string{}
	for _, o := range all {
		switch {
		case o.Provisional:
		case o.Kind == Move || o.Kind == Amend:
			fens[o.Ply] = o.FEN
		case o.Kind == Retract:
			delete(fens, o.Ply)
		}
	}
	p := r.StartPosition()
	for _, m := range r.Moves() {
		p.MakeMove(m)
		if got := fens[p.Ply()]; got != p.FEN() {
			t.Errorf("ply %d: the outputs leave FEN %q, the game is at %q", p.Ply(), got, p.FEN())
		}
	}
}

// replayTrace feeds the trace file name to a reconstruction configured
// from its header, and returns it (not ended), its outputs and the time of
// the last event.
func replayTrace(t *testing.T, name string) (*Reconstructor, []Output, int64) {
	t.Helper()
	var out, all []Output
	var last int64
	r := eachEvent(t, name, func(r *Reconstructor, ev *trace.Event) {
		last = ev.T
		out = r.Feed(ev, out[:0])
		all = append(all, out...)
	})
	return r, all, last
}

// eachEvent configures a reconstruction from the header of the trace file
// name, calls step with it for each of the file's events in order, and
// returns it.
func eachEvent(t *testing.T, name string, step func(r *Reconstructor, ev *trace.Event)) *Reconstructor {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := trace.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	cfg, err := ConfigFromHeader(tr.Header())
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for {
		ev, err := tr.Next()
		if err == io.EOF {
			return r
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		step(r, &ev)
	}
}

// TestOtherHandsCaughtUp replays traces of the other hand model that the
// board cannot tell exactly (testdata/caughtup: an occupancy board that
// does not see which piece moved where in a stretch whose events were
// forgotten when a guess was published). The published game must catch
// up: as many plies as were played, ending in the position played, and
// the plies before the stretch right ("# exact-plies:").
func TestOtherHandsCaughtUp(t *testing.T) {
	files, err := filepath.Glob("testdata/caughtup/*.trace")
	if err != nil || len(files) == 0 {
		t.Fatalf("no traces in testdata/caughtup: %v", err)
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			r, all, last := replayTrace(t, name)
			all = append(all, r.End(last, nil)...)
			// (A trace whose hands left a piece out of place at a press
			// declares the alert that is due: "# allow: kind@ply ...".)
			allowed, _ := findLine(t, name, "# allow: ")
			for _, o := range all {
				if o.Kind == Alert && o.Alert.Irregular() && !slices.Contains(strings.Fields(allowed), fmt.Sprintf("%s@%d", o.Alert, o.Ply)) {
					t.Errorf("alert %s", AppendJSON(nil, &o))
				}
			}
			checkFENs(t, r, all)
			want := strings.Fields(wantedLine(t, name, "# want-uci: "))
			p := r.StartPosition()
			var first int
			for i, s := range want {
				m, err := p.ParseUCI(s)
				if err != nil {
					t.Fatalf("want %s: %v", s, err)
				}
				if first == 0 && (i >= len(r.Moves()) || r.Moves()[i] != m) {
					first = i + 1
				}
				p.MakeMove(m)
			}
			got := r.StartPosition()
			for _, m := range r.Moves() {
				got.MakeMove(m)
			}
			if len(r.Moves()) != len(want) || got.Key() != p.Key() {
				t.Errorf("%d plies published ending in %s, want %d ending in %s (%q)", len(r.Moves()), got.FEN(), len(want), p.FEN(), sanList(r))
			}
			if exact, _ := strconv.Atoi(wantedLine(t, name, "# exact-plies: ")); first != 0 && first <= exact {
				t.Errorf("ply %d wrong, want the first %d right (%q)", first, exact, sanList(r))
			}
		})
	}
}

// wantedLine reads the rest of a trace's comment line that starts with
// prefix.
func wantedLine(t *testing.T, name, prefix string) string {
	w, ok := findLine(t, name, prefix)
	if !ok {
		t.Fatalf("%s: no %q line", name, prefix)
	}
	return w
}

// hasLine reports whether trace file name has a line starting with prefix.
func hasLine(t *testing.T, name, prefix string) bool {
	_, ok := findLine(t, name, prefix)
	return ok
}

// findLine is the rest of the first line of file name that starts with
// prefix, trimmed.
func findLine(t *testing.T, name, prefix string) (string, bool) {
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if w, ok := strings.CutPrefix(sc.Text(), prefix); ok {
			return strings.TrimSpace(w), true
		}
	}
	return "", false
}

// TestTwoPressesJudgedTogether: 4. Bg2 and 4... Bxg2 pressed before a
// sweep read either landing (twopresses.piece) each carry their own
// player's clock reading.
func TestTwoPressesJudgedTogether(t *testing.T) {
	r, all, last := replayTrace(t, "testdata/otherhands/twopresses.piece.trace")
	all = append(all, r.End(last, nil)...)
	clk := map[int]int64{}
	for _, o := range all {
		if o.Kind == Move && !o.Provisional {
			clk[o.Ply] = o.ClockMs
		}
	}
	w, b := clk[7], clk[8]
	if w <= 0 || b <= 0 || w == b {
		t.Errorf("Bg2 carries %d ms and Bxg2 %d ms, want each its player's reading", w, b)
	}
}

// TestTrueIrregularityAlerted replays traces of an independent hand
// model (testdata/irregular, occupancy boards without a clock) whose
// last move is a true irregularity: an illegal capture made victim first
// soon after the move before, or a piece knocked off the board and left.
// Readings that move pieces as the board saw (seenMoved) must not
// explain it away with plies nobody saw made: an irregularity alert is
// raised and no ply is published beyond "# irregular-after:".
func TestTrueIrregularityAlerted(t *testing.T) {
	files, err := filepath.Glob("testdata/irregular/*.trace")
	if err != nil || len(files) == 0 {
		t.Fatalf("no traces in testdata/irregular: %v", err)
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			r, all, last := replayTrace(t, name)
			all = append(all, r.End(last+10000, nil)...)
			alerted := false
			for _, o := range all {
				alerted = alerted || o.Kind == Alert && o.Alert.Irregular()
			}
			if !alerted {
				t.Errorf("no irregularity alert (moves %q)", sanList(r))
			}
			limit, _ := strconv.Atoi(wantedLine(t, name, "# irregular-after: "))
			if len(r.Moves()) > limit {
				t.Errorf("%d plies published, want at most %d (%q)", len(r.Moves()), limit, sanList(r))
			}
		})
	}
}
