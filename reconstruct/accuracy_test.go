package reconstruct_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/sensors/sim"
	"github.com/boardd/boardd/trace"
)

// gameResult is how one simulated game was reconstructed.
type gameResult struct {
	exact       bool
	firstDiff   int // ply of the first wrong move, -1 if none
	diffText    string
	moves       int
	falseAlerts []reconstruct.Output
	missed      []sim.Injection
	wrongKind   []sim.Injection
	injected    int
	corrections int // retractions and amendments of published moves
	events      int
}

// corpus reads up to perFile games from each file of testdata/games (all
// when perFile <= 0).
func corpus(t testing.TB, perFile int) []*chess.Game {
	t.Helper()
	files, err := filepath.Glob("../testdata/games/*.pgn")
	if err != nil || len(files) == 0 {
		t.Fatalf("no PGN files in testdata/games: %v", err)
	}
	sort.Strings(files)
	var out []*chess.Game
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		pr := chess.NewPGNReader(f)
		for k := 0; perFile <= 0 || k < perFile; k++ {
			g, err := pr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out = append(out, g)
		}
		f.Close()
	}
	return out
}

// runGame simulates game g on a board with sensor s and reconstructs it.
func runGame(t testing.TB, g *chess.Game, s trace.Sensor, seed uint64, irregular bool, log io.Writer) gameResult {
	src, err := sim.NewSource(sim.FromPGN(g), sim.Options{Sensor: s, Seed: seed, Irregular: irregular, Annotate: log != nil,
		NoPromote: os.Getenv("BOARDD_NOPROMOTE") != ""})
	if err != nil {
		t.Fatalf("simulate: %v", err)
	}
	cfg, err := reconstruct.ConfigFromHeader(src.Header())
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	cfg.MovesOnly = log == nil // the notation only for a printed game
	r, err := reconstruct.New(cfg)
	if err != nil {
		t.Fatalf("reconstruct.New: %v", err)
	}
	var res gameResult
	var out, all []reconstruct.Output
	var last int64
	start := r.StartPosition()
	rec := reconstruct.NewRecord(&start)
	for {
		it, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("simulate: %v", err)
		}
		res.events++
		if log != nil {
			for _, in := range it.Injections {
				fmt.Fprintf(log, "# %s\n", in)
			}
			if it.Note != "" {
				fmt.Fprintf(log, "# %s\n", it.Note)
			}
			fmt.Fprintf(log, "%s\n", eventLine(&it.Event, s))
		}
		out = r.Feed(&it.Event, out[:0])
		last = it.Event.T
		all = logOutputs(log, all, out)
		applyAll(t, rec, out)
	}
	out = r.End(last+60000, out[:0])
	all = logOutputs(log, all, out)
	applyAll(t, rec, out)
	if got := rec.Current().Moves; len(got) != len(r.Moves()) {
		t.Errorf("the output stream gives %d moves, the reconstruction %d", len(got), len(r.Moves()))
	}

	got := r.Moves()
	res.moves = len(g.Moves)
	res.firstDiff = -1
	for i := 0; i < len(g.Moves) || i < len(got); i++ {
		if i >= len(g.Moves) || i >= len(got) || g.Moves[i] != got[i] {
			res.firstDiff = i + 1
			break
		}
	}
	res.exact = res.firstDiff < 0
	if !res.exact {
		p := *g.Start
		for i := 0; i < res.firstDiff-1; i++ {
			p.MakeMove(g.Moves[i])
		}
		want, have := "-", "-"
		if i := res.firstDiff - 1; i < len(g.Moves) {
			want = p.SAN(g.Moves[i])
		}
		if i := res.firstDiff - 1; i < len(got) && p.LegalMoves() != nil {
			var l chess.MoveList
			p.GenerateLegal(&l)
			if l.Contains(got[i]) {
				have = p.SAN(got[i])
			}
		}
		res.diffText = "want " + want + " got " + have
	}
	injs := src.Injections()
	res.injected = len(injs)
	matched := make([]bool, len(all))
	for _, in := range injs {
		found, other := false, false
		for i := range all {
			o := &all[i]
			if o.Kind != reconstruct.Alert || !o.Alert.Irregular() {
				continue
			}
			if o.Ply == in.Ply && o.Side == in.Side {
				if string(o.Alert) == in.Kind {
					found = true
					matched[i] = true
				} else {
					other = true
				}
			}
		}
		switch {
		case found:
		case other:
			res.wrongKind = append(res.wrongKind, in)
		default:
			res.missed = append(res.missed, in)
		}
	}
	for i := range all {
		o := &all[i]
		switch {
		case o.Kind == reconstruct.Alert && o.Alert.Irregular() && !matched[i]:
			res.falseAlerts = append(res.falseAlerts, *o)
		case o.Kind == reconstruct.Retract && !o.Provisional, o.Kind == reconstruct.Amend:
			res.corrections++
		}
	}
	return res
}

// applyAll checks that the outputs fit together as a consumer sees them.
func applyAll(t testing.TB, rec *reconstruct.Record, out []reconstruct.Output) {
	for i := range out {
		if err := rec.Apply(&out[i]); err != nil {
			t.Errorf("output stream: %v", err)
		}
	}
}

func logOutputs(log io.Writer, all, out []reconstruct.Output) []reconstruct.Output {
	for i := range out {
		if log != nil {
			fmt.Fprintf(log, "=> %s\n", reconstruct.AppendJSON(nil, &out[i]))
		}
	}
	return append(all, out...)
}

func eventLine(ev *trace.Event, s trace.Sensor) string {
	switch ev.Kind {
	case trace.Frame:
		return fmt.Sprintf("%d frame %#x %#x", ev.T, uint64(ev.Occ), uint64(ev.White))
	case trace.Off:
		return fmt.Sprintf("%d off %s", ev.T, ev.Square)
	case trace.On:
		if s == trace.Occupancy {
			return fmt.Sprintf("%d on %s", ev.T, ev.Square)
		}
		if s == trace.Colour {
			return fmt.Sprintf("%d on %s %c", ev.T, ev.Square, "wb"[ev.Piece.Color()])
		}
		return fmt.Sprintf("%d on %s %c", ev.T, ev.Square, ev.Piece.FENLetter())
	case trace.Press:
		return fmt.Sprintf("%d clock %c", ev.T, "wb"[ev.Side])
	case trace.Promote:
		return fmt.Sprintf("%d promote %c", ev.T, ev.Promo.Letter()+'a'-'A')
	}
	return "?"
}

// TestAccuracySmall reconstructs a few simulated games of every corpus
// file with every sensor kind, clean and irregular, and holds the results
// to the targets. BOARDD_ACCURACY=N (games per file, 0 = all) runs the
// full benchmark and prints the table (see docs/reconstruction.md);
// BOARDD_SEED=N simulates with another seed (default 1);
// BOARDD_NOPROMOTE=1 drops the promote events, so that under-promotions
// must be inferred from later moves.
func TestAccuracySmall(t *testing.T) {
	perFile := 4
	full := false
	if v := os.Getenv("BOARDD_ACCURACY"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("BOARDD_ACCURACY=%q: want a number of games per file (0 = all)", v)
		}
		perFile, full = n, true
	}
	seed := uint64(1)
	if v := os.Getenv("BOARDD_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("BOARDD_SEED=%q: want a number", v)
		}
		seed = n
	}
	games := corpus(t, perFile)
	type key struct {
		s   trace.Sensor
		irr bool
	}
	type agg struct {
		games, exact, moves, alerts, injected, missed, wrong, corrections, events int
	}
	totals := map[key]*agg{}
	var failures []string
	modes := []bool{false, true}
	switch os.Getenv("BOARDD_MODE") {
	case "clean":
		modes = []bool{false}
	case "irregular":
		modes = []bool{true}
	}
	sensors := []trace.Sensor{trace.Occupancy, trace.Colour, trace.PieceSensor}
	if v := os.Getenv("BOARDD_SENSOR"); v != "" {
		s, err := trace.ParseSensor(v)
		if err != nil {
			t.Fatal(err)
		}
		sensors = []trace.Sensor{s}
	}
	for _, irr := range modes {
		for _, s := range sensors {
			a := &agg{}
			totals[key{s, irr}] = a
			for i, g := range games {
				res := runGame(t, g, s, sim.GameSeed(seed, i), irr, nil)
				a.games++
				a.moves += res.moves
				a.events += res.events
				a.injected += res.injected
				a.missed += len(res.missed)
				a.wrong += len(res.wrongKind)
				a.alerts += len(res.falseAlerts)
				a.corrections += res.corrections
				if res.exact {
					a.exact++
				}
				if !res.exact || len(res.falseAlerts) > 0 || len(res.missed) > 0 || len(res.wrongKind) > 0 {
					var kinds []string
					for _, o := range res.falseAlerts {
						kinds = append(kinds, fmt.Sprintf("%s@%d", o.Alert, o.Ply))
					}
					for _, in := range res.missed {
						kinds = append(kinds, fmt.Sprintf("missed %s@%d", in.Kind, in.Ply))
					}
					for _, in := range res.wrongKind {
						kinds = append(kinds, fmt.Sprintf("wrong-kind %s@%d", in.Kind, in.Ply))
					}
					failures = append(failures, fmt.Sprintf("game %d (%s vs %s) %s irregular=%v: first wrong ply %d of %d (%s); %s",
						i, g.Tag("White"), g.Tag("Black"), s, irr, res.firstDiff, res.moves, res.diffText, strings.Join(kinds, ", ")))
				}
			}
		}
	}
	for _, irr := range modes {
		for _, s := range sensors {
			a := totals[key{s, irr}]
			t.Logf("%-9s irregular=%-5v games %5d exact %5d (%.2f%%) false alerts %d injected %d missed %d wrong-kind %d corrections/1000 moves %.2f events %d",
				s, irr, a.games, a.exact, 100*float64(a.exact)/float64(a.games), a.alerts, a.injected, a.missed, a.wrong,
				1000*float64(a.corrections)/float64(max(a.moves, 1)), a.events)
		}
	}
	maxShown := 40
	if full {
		maxShown = 2000
	}
	for i, f := range failures {
		if i >= maxShown {
			t.Logf("... %d more", len(failures)-i)
			break
		}
		t.Log(f)
	}
	if !full && len(failures) > 0 {
		t.Errorf("%d games not reconstructed as the targets require", len(failures))
	}
}

// TestDebugGame prints the trace and outputs of one simulated game:
// BOARDD_DEBUG_GAME=index,sensor,irregular (e.g. 12,occupancy,true).
func TestDebugGame(t *testing.T) {
	v := os.Getenv("BOARDD_DEBUG_GAME")
	if v == "" {
		t.Skip("set BOARDD_DEBUG_GAME=index,sensor,irregular[,perFile]")
	}
	f := strings.Split(v, ",")
	idx, _ := strconv.Atoi(f[0])
	s, err := trace.ParseSensor(f[1])
	if err != nil {
		t.Fatal(err)
	}
	irr := len(f) > 2 && f[2] == "true"
	perFile := 4
	if len(f) > 3 {
		perFile, _ = strconv.Atoi(f[3])
	}
	games := corpus(t, perFile)
	g := games[idx]
	seed := uint64(1)
	if v := os.Getenv("BOARDD_SEED"); v != "" {
		seed, _ = strconv.ParseUint(v, 10, 64)
	}
	res := runGame(t, g, s, sim.GameSeed(seed, idx), irr, os.Stdout)
	fmt.Println(g.SANs())
	fmt.Printf("%+v\n", res)
}
