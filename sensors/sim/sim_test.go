package sim

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

var sensorKinds = []trace.Sensor{trace.Occupancy, trace.Colour, trace.PieceSensor}

// corpusGames reads up to n games from each PGN file of testdata/games.
func corpusGames(t testing.TB, n int) []*chess.Game {
	t.Helper()
	files, err := filepath.Glob("../../testdata/games/*.pgn")
	if err != nil || len(files) == 0 {
		t.Fatalf("no PGN files in testdata/games: %v", err)
	}
	var out []*chess.Game
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		pr := chess.NewPGNReader(f)
		for k := 0; k < n; {
			g, err := pr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				continue
			}
			out = append(out, g)
			k++
		}
		f.Close()
	}
	return out
}

// gamesWith returns corpus games (scanning at most limit per file) for
// which keep is true.
func gamesWith(t testing.TB, limit int, keep func(*chess.Game) bool) []*chess.Game {
	var out []*chess.Game
	for _, g := range corpusGames(t, limit) {
		if keep(g) {
			out = append(out, g)
		}
	}
	return out
}

func drain(t testing.TB, src *Source) []Item {
	t.Helper()
	var items []Item
	for {
		it, err := src.Next()
		if errors.Is(err, io.EOF) {
			return items
		}
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
	}
}

// board is what a sensor has reported so far, replayed from the events.
type board [64]chess.Piece

func (b *board) apply(t *testing.T, s trace.Sensor, ev *trace.Event) {
	t.Helper()
	switch ev.Kind {
	case trace.Frame:
		*b = board{}
		for sq := chess.Square(0); sq < 64; sq++ {
			switch {
			case s == trace.PieceSensor:
				b[sq] = ev.Placement[sq]
			case ev.White.Has(sq):
				b[sq] = chess.WhitePawn
			case ev.Occ.Has(sq):
				b[sq] = chess.BlackPawn
			}
		}
		if s == trace.Occupancy {
			for sq := range b {
				if b[sq] != chess.NoPiece {
					b[sq] = chess.WhitePawn
				}
			}
		}
	case trace.Off:
		if b[ev.Square] == chess.NoPiece {
			t.Fatalf("t=%d: off %s, but it is already empty", ev.T, ev.Square)
		}
		b[ev.Square] = chess.NoPiece
	case trace.On:
		if b[ev.Square] != chess.NoPiece {
			t.Fatalf("t=%d: on %s, but it is already occupied", ev.T, ev.Square)
		}
		switch s {
		case trace.Occupancy:
			b[ev.Square] = chess.WhitePawn
		case trace.Colour:
			b[ev.Square] = chess.NewPiece(ev.Piece.Color(), chess.Pawn)
		default:
			b[ev.Square] = ev.Piece
		}
	}
}

// sensed is what sensor s reads for position p, in board's terms.
func sensed(s trace.Sensor, p *chess.Position) board {
	var b board
	for sq := chess.Square(0); sq < 64; sq++ {
		pc := p.PieceAt(sq)
		switch {
		case pc == chess.NoPiece:
		case s == trace.Occupancy:
			b[sq] = chess.WhitePawn
		case s == trace.Colour:
			b[sq] = chess.NewPiece(pc.Color(), chess.Pawn)
		default:
			b[sq] = pc
		}
	}
	return b
}

// TestReplayReachesEveryPosition replays the reported squares of clean
// traces: at every clock press the board shows the position after the
// move just made, the quiet moments between moves show every position of
// the game in order, and the trace ends on the final position.
func TestReplayReachesEveryPosition(t *testing.T) {
	games := corpusGames(t, 6)
	for _, s := range sensorKinds {
		for gi, pg := range games {
			for _, clock := range []ClockMode{ClockAlways, ClockNever} {
				src, err := NewSource(FromPGN(pg), Options{Sensor: s, Seed: GameSeed(7, gi), Clock: clock})
				if err != nil {
					t.Fatal(err)
				}
				items := drain(t, src)
				positions := make([]board, 0, len(pg.Moves)+1)
				p := *pg.Start
				positions = append(positions, sensed(s, &p))
				for _, m := range pg.Moves {
					p.MakeMove(m)
					positions = append(positions, sensed(s, &p))
				}
				var b board
				presses, next := 0, 0
				for k := range items {
					ev := &items[k].Event
					b.apply(t, s, ev)
					if ev.Kind == trace.Press {
						presses++
						if b != positions[presses] {
							t.Fatalf("%v game %d: at the press of move %d (t=%d) the board differs from the position", s, gi, presses, ev.T)
						}
					}
					quiet := k == len(items)-1 || items[k+1].Event.T-ev.T >= quietGap
					if quiet && next < len(positions) && b == positions[next] {
						next++
					}
				}
				if clock == ClockAlways && presses != len(pg.Moves) {
					t.Errorf("%v game %d: %d presses for %d moves", s, gi, presses, len(pg.Moves))
				}
				if clock == ClockNever && presses != 0 {
					t.Errorf("%v game %d: %d presses without a clock", s, gi, presses)
				}
				if next != len(positions) {
					t.Errorf("%v game %d clock=%v: only %d of %d positions seen settled (%d ms quiet), in order", s, gi, clock, next, len(positions), quietGap)
				}
				if b != positions[len(positions)-1] {
					t.Errorf("%v game %d: trace does not end on the final position", s, gi)
				}
			}
		}
	}
}

// TestIrregularTracesEndRight: with injections the game still reaches
// every position in order and ends on the final position, and every
// injection names a move of the game.
func TestIrregularTracesEndRight(t *testing.T) {
	games := corpusGames(t, 8)
	kinds := map[string]int{}
	for _, s := range sensorKinds {
		for gi, pg := range games {
			src, err := NewSource(FromPGN(pg), Options{Sensor: s, Seed: GameSeed(11, gi), Irregular: true})
			if err != nil {
				t.Fatal(err)
			}
			items := drain(t, src)
			// A piece left misplaced at move n may still be off its square
			// after move n and n+1 (it is put back before or after the
			// opponent's move); those positions need not appear.
			excused := map[int]bool{}
			for _, in := range src.Injections() {
				if in.Kind == KindMisplaced {
					n := in.Ply - pg.Start.Ply()
					excused[n], excused[n+1] = true, true
				}
			}
			p := *pg.Start
			positions := []board{sensed(s, &p)}
			for i, m := range pg.Moves {
				p.MakeMove(m)
				if !excused[i+1] || i+1 == len(pg.Moves) {
					positions = append(positions, sensed(s, &p))
				}
			}
			var b board
			next := 0
			for k := range items {
				b.apply(t, s, &items[k].Event)
				quiet := k == len(items)-1 || items[k+1].Event.T-items[k].Event.T >= quietGap
				if quiet && next < len(positions) && b == positions[next] {
					next++
				}
			}
			if next != len(positions) || b != positions[len(positions)-1] {
				t.Errorf("%v game %d: %d of %d positions seen; final ok=%v", s, gi, next, len(positions), b == positions[len(positions)-1])
			}
			for _, in := range src.Injections() {
				kinds[in.Kind]++
				idx := in.Ply - pg.Start.Ply() - 1
				if idx < 0 || idx >= len(pg.Moves) {
					t.Errorf("%v game %d: injection %v outside the game's %d moves", s, gi, in, len(pg.Moves))
				}
				if want := chess.Color((idx + int(pg.Start.SideToMove())) % 2); in.Side != want {
					t.Errorf("%v game %d: injection %v: side of move %d is %v", s, gi, in, in.Ply, want)
				}
			}
		}
	}
	for _, k := range []string{KindIllegalMove, KindClockWithoutMove, KindMisplaced, KindRookFirst, KindMoveChanged} {
		if kinds[k] == 0 {
			t.Errorf("no %s injected in %d games x 3 sensors (got %v)", k, len(games), kinds)
		}
	}
}

// TestTraceRoundTrip writes traces and reads them back with trace.Reader:
// the same events, and ReadInjections finds the same injections.
func TestTraceRoundTrip(t *testing.T) {
	games := corpusGames(t, 2)
	for _, s := range sensorKinds {
		for gi, pg := range games {
			opts := Options{Sensor: s, Seed: GameSeed(3, gi), Irregular: true, Annotate: gi%2 == 0}
			src, _ := NewSource(FromPGN(pg), opts)
			items := drain(t, src)
			src, _ = NewSource(FromPGN(pg), opts)
			var buf bytes.Buffer
			if err := WriteTrace(&buf, src, "simulated game"); err != nil {
				t.Fatal(err)
			}
			r, err := trace.NewReader(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("%v game %d: %v", s, gi, err)
			}
			if h := r.Header(); h != src.Header() {
				t.Errorf("header read back %+v, want %+v", h, src.Header())
			}
			for k := 0; ; k++ {
				ev, err := r.Next()
				if errors.Is(err, io.EOF) {
					if k != len(items) {
						t.Errorf("%v game %d: read %d events, want %d", s, gi, k, len(items))
					}
					break
				}
				if err != nil {
					t.Fatalf("%v game %d: %v", s, gi, err)
				}
				want := items[k].Event
				ev.Line = 0
				if ev != want {
					t.Fatalf("%v game %d event %d: read %+v, want %+v", s, gi, k, ev, want)
				}
			}
			injs, err := ReadInjections(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(injs, src.Injections(), func(a, b Injection) bool { return a.String() == b.String() }) {
				t.Errorf("%v game %d: injections read back %v, want %v", s, gi, injs, src.Injections())
			}
		}
	}
}

// TestDeterministic: the same seed gives the same trace; another seed
// another one.
func TestDeterministic(t *testing.T) {
	pg := corpusGames(t, 1)[1]
	gen := func(seed uint64) string {
		src, err := NewSource(FromPGN(pg), Options{Sensor: trace.Colour, Seed: seed, Irregular: true})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := WriteTrace(&b, src); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	a, b, c := gen(5), gen(5), gen(6)
	if a != b {
		t.Error("two runs with seed 5 differ")
	}
	if a == c {
		t.Error("seeds 5 and 6 give the same trace")
	}
	if GameSeed(1, 0) == GameSeed(1, 1) || GameSeed(1, 0) == GameSeed(2, 0) {
		t.Error("GameSeed collides on neighbours")
	}
}

// notes counts the hand notes of clean traces over some corpus games.
func notes(t *testing.T, games []*chess.Game, s trace.Sensor, r *Rates) map[string]int {
	count := map[string]int{}
	for gi, pg := range games {
		src, err := NewSource(FromPGN(pg), Options{Sensor: s, Seed: GameSeed(1, gi), Annotate: true, Rates: r})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range drain(t, src) {
			for _, part := range strings.Split(it.Note, "; ") {
				if part == "" || strings.HasPrefix(part, "hand ") {
					continue
				}
				f := strings.Fields(part)
				key := f[0]
				if len(f) > 1 && (key == "capture" || key == "castling" || key == "en-passant" || key == "promotion") {
					key += " " + f[1]
				}
				count[key]++
			}
		}
	}
	return count
}

// TestBehavioursOccur: every behaviour of the hand model shows up in a
// sample of real games.
func TestBehavioursOccur(t *testing.T) {
	games := corpusGames(t, 40)
	// Make rare events common enough to see in a small sample.
	r := DefaultRates()
	r.Knock, r.ChangeMind, r.LatePress = 0.05, 0.05, 0.05
	got := notes(t, games, trace.Occupancy, &r)
	for _, k := range []string{
		"slide", "capture victim-first", "capture mover-first", "capture quick-swap", "capture push-off",
		"castling king-first", "castling together", "hesitation", "adjust", "knock", "touch-down", "late",
	} {
		if got[k] == 0 {
			t.Errorf("no %q in %d games: %v", k, len(games), got)
		}
	}
	ep := gamesWith(t, 300, func(g *chess.Game) bool { return slices.ContainsFunc(g.Moves, chess.Move.IsEnPassant) })
	got = notes(t, ep, trace.Occupancy, nil)
	for _, k := range []string{"en-passant victim-first", "en-passant victim-during", "en-passant victim-after"} {
		if got[k] == 0 {
			t.Errorf("no %q in %d games with en passant: %v", k, len(ep), got)
		}
	}
	// Chess960 castling with overlapping squares.
	c960 := gamesWith(t, 200, func(g *chess.Game) bool { return g.Start.Chess960() })
	got = notes(t, c960, trace.Occupancy, nil)
	for _, k := range []string{"castling together", "castling king-first"} {
		if got[k] == 0 {
			t.Errorf("no %q in %d Chess960 games: %v", k, len(c960), got)
		}
	}
	under := gamesWith(t, 3000, func(g *chess.Game) bool {
		for _, m := range g.Moves {
			if m.IsPromotion() && m.Promotion() != chess.Queen {
				return true
			}
		}
		return false
	})
	got = notes(t, under, trace.Colour, nil)
	if got["promote"] == 0 || got["promotion pawn-on-last-rank"] == 0 {
		t.Errorf("under-promotions in %d games: %v", len(under), got)
	}
}

// TestFastSwapHidesTheVictimLift: with occupancy sensors a forced fast
// swap (Rates.FastSwap) shows only the mover's square emptying; with colour
// sensors the colour change.
func TestFastSwapHidesTheVictimLift(t *testing.T) {
	moves := exd5(t)
	r := DefaultRates()
	r.FastSwap, r.Bounce, r.Hesitation, r.Adjustment, r.Knock, r.ChangeMind = 1, 0, 0, 0, 0, 0
	d5, _ := chess.ParseSquare("d5")
	for _, s := range sensorKinds {
		for seed := uint64(0); seed < 20; seed++ {
			src, _ := NewSource(Game{Moves: moves}, Options{Sensor: s, Seed: seed, Rates: &r, Clock: ClockNever})
			var onD5 []trace.Event
			for _, it := range drain(t, src) {
				if it.Event.Square == d5 && (it.Event.Kind == trace.On || it.Event.Kind == trace.Off) {
					onD5 = append(onD5, it.Event)
				}
			}
			if st := src.Stats(); st.Captures != 1 || st.BlindCaptures != 1 {
				t.Errorf("%v seed %d: stats %+v, want 1 capture, blind", s, seed, st)
			}
			// d5: black pawn arrives (on), then is captured.
			switch s {
			case trace.Occupancy:
				if len(onD5) != 1 || onD5[0].Kind != trace.On {
					t.Errorf("occupancy seed %d: d5 events %v, want only the black pawn's arrival", seed, onD5)
				}
			default:
				if len(onD5) != 3 || onD5[1].Kind != trace.Off || onD5[2].Kind != trace.On || onD5[1].T != onD5[2].T ||
					onD5[2].Piece.Color() != chess.White {
					t.Errorf("%v seed %d: d5 events %v, want arrival then off+on white in one scan", s, seed, onD5)
				}
			}
		}
	}
}

// exd5 is 1. e4 d5 2. exd5.
func exd5(t *testing.T) []chess.Move {
	t.Helper()
	p := chess.NewPosition()
	var moves []chess.Move
	for _, san := range []string{"e4", "d5", "exd5"} {
		m, err := p.ParseSAN(san)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		p.MakeMove(m)
	}
	return moves
}

// TestBlindCaptureFromTiming: without a forced rate, whether a capture's
// victim is seen lifted depends on how long it was off its square and on
// the scan period. With every capture a swap of gap g on a board sampled
// every P ms, the scan misses the gap with probability max(0, 1-g/P); the
// events agree with Stats.
func TestBlindCaptureFromTiming(t *testing.T) {
	moves := exd5(t)
	d5, _ := chess.ParseSquare("d5")
	for _, c := range []struct {
		gap, period int64
		lo, hi      float64 // expected share of blind captures
	}{
		{gap: 100, period: 200, lo: 0.4, hi: 0.6},
		{gap: 50, period: 200, lo: 0.65, hi: 0.85},
		{gap: 210, period: 200, lo: 0, hi: 0},
		{gap: 80, period: 20, lo: 0, hi: 0},
		{gap: 80, period: 100, lo: 0.1, hi: 0.3},
	} {
		r := DefaultRates()
		r.CaptureVictimFirst, r.QuickSwap, r.QuickSwapHurry = 0, 1, 1
		r.PushOff, r.PushOffHurry = 0, 0
		r.QuickGap = Gap{Median: float64(c.gap), Min: c.gap, Max: c.gap}
		r.Bounce, r.Hesitation, r.Adjustment, r.Knock, r.ChangeMind = 0, 0, 0, 0, 0
		for _, s := range sensorKinds {
			r.ScanPeriods[s] = []int64{c.period}
		}
		const n = 400
		for _, s := range sensorKinds {
			blind := 0
			for seed := uint64(0); seed < n; seed++ {
				src, _ := NewSource(Game{Moves: moves}, Options{Sensor: s, Seed: seed, Rates: &r, Clock: ClockNever})
				var evs []trace.Event
				for _, it := range drain(t, src) {
					if it.Event.Square == d5 && it.Event.T > 0 {
						evs = append(evs, it.Event)
					}
				}
				st := src.Stats()
				if st.Captures != 1 {
					t.Fatalf("%v seed %d: %d captures counted, want 1", s, seed, st.Captures)
				}
				// d5: the black pawn arrives; then the capture.
				seen := len(evs) == 3 && evs[1].Kind == trace.Off && evs[2].Kind == trace.On && evs[1].T < evs[2].T
				hidden := len(evs) == 1 || (len(evs) == 3 && evs[1].T == evs[2].T)
				if seen == hidden || hidden != (st.BlindCaptures == 1) {
					t.Fatalf("%v gap %d period %d seed %d: d5 events %v, stats %+v", s, c.gap, c.period, seed, evs, st)
				}
				blind += st.BlindCaptures
			}
			if f := float64(blind) / n; f < c.lo || f > c.hi {
				t.Errorf("%v gap %d ms, scan every %d ms: %.3f of the captures blind, want %.2f-%.2f", s, c.gap, c.period, f, c.lo, c.hi)
			}
		}
	}
}

// blindRates simulates clean traces of games and returns, per sensor
// kind and scan period, the captures and the blind ones.
func blindRates(t *testing.T, games []*chess.Game, r *Rates) map[trace.Sensor]map[int64][2]int {
	out := map[trace.Sensor]map[int64][2]int{}
	for _, s := range sensorKinds {
		out[s] = map[int64][2]int{}
		for gi, pg := range games {
			src, err := NewSource(FromPGN(pg), Options{Sensor: s, Seed: GameSeed(1, gi), Rates: r})
			if err != nil {
				t.Fatal(err)
			}
			for {
				if _, err := src.Next(); err != nil {
					break
				}
			}
			st := src.Stats()
			c := out[s][src.ScanPeriod()]
			out[s][src.ScanPeriod()] = [2]int{c[0] + st.Captures, c[1] + st.BlindCaptures}
		}
	}
	return out
}

func sumRates(m map[int64][2]int) (captures, blind int) {
	for _, c := range m {
		captures += c[0]
		blind += c[1]
	}
	return
}

// TestBlindCaptureRates: with the default hand model a matrix scanned
// every 5-20 ms misses only the push-off captures (Rates.PushOff, far more
// of them in time trouble), a Hall board at up to 100 ms hardly more, and
// a DGT-style board sweeping every 200-250 ms some quick swaps too; the
// forced rate (Rates.FastSwap) adds its share on every board. BOARDD_SIM_BLIND=1 measures the whole corpus and logs
// the rates per sensor kind and scan period (go test -v).
func TestBlindCaptureRates(t *testing.T) {
	perFile := 25
	if os.Getenv("BOARDD_SIM_BLIND") != "" {
		perFile = 1 << 30
	}
	games := corpusGames(t, perFile)
	forced := DefaultRates()
	forced.FastSwap = 0.12
	for _, c := range []struct {
		name   string
		r      *Rates
		lo, hi [3]float64 // per sensor kind
	}{
		{"hand timing", nil, [3]float64{0.03, 0.03, 0.06}, [3]float64{0.07, 0.07, 0.13}},
		{"forced 12%", &forced, [3]float64{0.14, 0.14, 0.17}, [3]float64{0.20, 0.20, 0.25}},
	} {
		rates := blindRates(t, games, c.r)
		for _, s := range sensorKinds {
			captures, blind := sumRates(rates[s])
			f := float64(blind) / float64(captures)
			t.Logf("%s, %v: %d of %d captures blind (%.2f%%) over %d games", c.name, s, blind, captures, 100*f, len(games))
			periods := make([]int64, 0, len(rates[s]))
			for p := range rates[s] {
				periods = append(periods, p)
			}
			slices.Sort(periods)
			for _, p := range periods {
				n := rates[s][p]
				t.Logf("    scan %d ms: %d of %d (%.2f%%)", p, n[1], n[0], 100*float64(n[1])/float64(max(n[0], 1)))
			}
			if f < c.lo[s] || f > c.hi[s] {
				t.Errorf("%s, %v: %.4f of the captures blind, want %.3f-%.3f", c.name, s, f, c.lo[s], c.hi[s])
			}
		}
	}
}

// TestClockFollowsRecordedClocks: with [%clk] readings the clock a
// replay computes from the presses (base time, minus the time between the
// opponent's press and the player's, plus the increment) equals the
// recorded reading after every move for which the recorded reading left
// the player time enough to move (some readings gain more than the
// increment, some moves were played faster than hands can, and some
// readings seem to use more than the time left because they are truncated
// to whole seconds).
func TestClockFollowsRecordedClocks(t *testing.T) {
	games := gamesWith(t, 20, func(g *chess.Game) bool { return g.Tag("TimeControl") == "15 min. + 10 s. per move" })
	if len(games) == 0 {
		t.Fatal("no games with clocks")
	}
	r := DefaultRates()
	r.LatePress = 0
	exact, checked, readings := 0, 0, 0
	for gi, pg := range games {
		src, _ := NewSource(FromPGN(pg), Options{Sensor: trace.PieceSensor, Seed: uint64(gi), Rates: &r})
		if src.Header().Clock != "15m+10s" {
			t.Fatalf("clock header %q, want 15m+10s", src.Header().Clock)
		}
		var presses []int64
		for _, it := range drain(t, src) {
			if it.Event.Kind == trace.Press {
				presses = append(presses, it.Event.T)
			}
		}
		// A FIDE clock starts at base + increment (the first move's).
		rem := [2]int64{15*60000 + 10000, 15*60000 + 10000}
		var last int64
		for i, press := range presses {
			side := i % 2
			rec := pg.Clocks[i].Milliseconds()
			before := rem[side]
			target := before + 10000 - rec // the time the reading says was used
			rem[side] += 10000 - (press - last)
			last = press
			if pg.Clocks[i] < 0 {
				continue
			}
			readings++
			if rem[side] == rec {
				exact++
			}
			// A reading that uses the whole clock is a truncated one: the
			// simulator leaves half a second instead.
			if target >= 5000 && target <= before-500 {
				checked++
				if rem[side] != rec {
					t.Errorf("game %d move %d: clock %d ms, recorded %v", gi, i+1, rem[side], pg.Clocks[i])
				}
			}
		}
	}
	t.Logf("%d readings, %d exact; %d with time to move, all exact", readings, exact, checked)
	if checked < readings/2 {
		t.Errorf("only %d of %d readings checked", checked, readings)
	}
}

func TestParseTimeControl(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"15 min. + 10 s. per move", "15m+10s"},
		{"15 minutes + 10 seconds increment per move, starting from move 1", "15m+10s"},
		{"1800+5", "30m+5s"},
		{"5400+30", "90m+30s"},
		{"300", "5m"},
		{"40/7200:1800+30", "40/120m,30m+30s"},
		{"10+0.05", "10s+50ms"},
	} {
		tc, err := ParseTimeControl(c.in)
		if err != nil || tc.String() != c.want {
			t.Errorf("ParseTimeControl(%q) = %v, %v; want %s", c.in, tc, err, c.want)
		}
	}
	for _, bad := range []string{"", "?", "-", "fast", "40/7200", "0+5"} {
		if _, err := ParseTimeControl(bad); err == nil {
			t.Errorf("ParseTimeControl(%q) gave no error", bad)
		}
	}
}

func TestParseInjection(t *testing.T) {
	in, ok, err := ParseInjection("# inject kind=illegal-move ply=12 side=b squares=e2,e5 t=100 future=1")
	e2, _ := chess.ParseSquare("e2")
	e5, _ := chess.ParseSquare("e5")
	if !ok || err != nil || in.Kind != KindIllegalMove || in.Ply != 12 || in.Side != chess.Black ||
		!slices.Equal(in.Squares, []chess.Square{e2, e5}) || in.T != 100 {
		t.Errorf("got %+v %v %v", in, ok, err)
	}
	if _, ok, _ := ParseInjection("# hand ply=3"); ok {
		t.Error("a hand note parsed as an injection")
	}
	for _, bad := range []string{"# inject kind=x", "# inject ply=3", "# inject kind=x ply=0", "# inject kind=x ply=2 squares=z9", "# inject kind=x ply=2 side=g", "# inject kind ply=2"} {
		if _, ok, err := ParseInjection(bad); !ok || err == nil {
			t.Errorf("%q: ok=%v err=%v, want an error", bad, ok, err)
		}
	}
	if _, err := ReadInjections(strings.NewReader("boardtrace 1\n# inject kind=x ply=q\n")); err == nil || !strings.HasPrefix(err.Error(), "2:") {
		t.Errorf("ReadInjections error %v, want one naming line 2", err)
	}
}

func TestIllegalGameRejected(t *testing.T) {
	p := chess.NewPosition()
	m, _ := p.ParseUCI("e2e4")
	if _, err := NewSource(Game{Moves: []chess.Move{m, m}}, Options{}); err == nil || !strings.Contains(err.Error(), "move 2") {
		t.Errorf("err = %v, want one naming move 2", err)
	}
}

func BenchmarkSource(b *testing.B) {
	games := corpusGames(b, 20)
	b.ReportAllocs()
	events := 0
	for i := 0; i < b.N; i++ {
		pg := games[i%len(games)]
		src, _ := NewSource(FromPGN(pg), Options{Sensor: trace.Colour, Seed: uint64(i), Irregular: true})
		for {
			if _, err := src.Next(); err != nil {
				break
			}
			events++
		}
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// quietGap is a pause after which the board counts as settled. Every move
// ends with one (the press delay or think time, the opponent's reaction and
// reach); pauses in the middle of a move only add states to pass over.
const quietGap = 350

// TestLoop plays two games as one stream: times never go back, the
// second game starts after a pause with its start frame, and the events
// are those of the two games played alone, shifted.
func TestLoop(t *testing.T) {
	games := corpusGames(t, 1)[:2]
	var gs []Game
	for _, g := range games {
		gs = append(gs, FromPGN(g))
	}
	opts := Options{Sensor: trace.Colour, Seed: 9}
	l, err := NewLoop(func(n int) (Game, error) {
		if n >= len(gs) {
			return Game{}, io.EOF
		}
		return gs[n], nil
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var want []trace.Event
	var shift int64
	for n, g := range gs {
		o := opts
		o.Seed = GameSeed(opts.Seed, n)
		src, _ := NewSource(g, o)
		var last int64
		for _, it := range drain(t, src) {
			it.Event.T += shift
			last = it.Event.T
			want = append(want, it.Event)
		}
		shift = last + loopPause
	}
	r := l.Events()
	for i := 0; ; i++ {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			if i != len(want) {
				t.Errorf("loop gave %d events, want %d", i, len(want))
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev != want[i] {
			t.Fatalf("event %d: %+v, want %+v", i, ev, want[i])
		}
	}
	if _, err := l.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the end: %v", err)
	}
	if l.Header().Sensor != trace.Colour {
		t.Errorf("header %+v", l.Header())
	}
	// Cycle never ends.
	c := Cycle(gs)
	if g, err := c(5); err != nil || len(g.Moves) != len(gs[1].Moves) {
		t.Errorf("Cycle(5) = %d moves, %v", len(g.Moves), err)
	}
}

func TestGamesFromPGN(t *testing.T) {
	games, err := GamesFromPGN(strings.NewReader("[Event \"a\"]\n[TimeControl \"300+3\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 Ke7 2. Ke3 *\n\n[Event \"c\"]\n\n1. d4 *\n"))
	if len(games) != 2 || err == nil {
		t.Fatalf("got %d games, err %v; want 2 and an error for the illegal one", len(games), err)
	}
	if games[0].TimeControl == nil || games[0].TimeControl.String() != "5m+3s" || len(games[1].Moves) != 1 {
		t.Errorf("games %+v", games)
	}
}

// StartAt plays a game from the middle: the first frame shows the
// position after the plies already played, the board then goes through
// the rest of the game to its final position, the first move takes about
// what the clock readings say (not the whole time used so far), and the
// loop goes on with the next game.
func TestLoopStartAt(t *testing.T) {
	games := gamesWith(t, 20, func(g *chess.Game) bool {
		sg := FromPGN(g)
		return len(g.Moves) > 40 && len(g.Clocks) > 30 && sg.TimeControl != nil && sg.TimeControl.playable()
	})[:2]
	var gs []Game
	for _, g := range games {
		gs = append(gs, FromPGN(g))
	}
	opts := Options{Sensor: trace.PieceSensor, Seed: 3, Clock: ClockAlways}
	l, err := NewLoop(Cycle(gs), opts)
	if err != nil {
		t.Fatal(err)
	}
	// Late in the game, where the players have used much of their time.
	ply := min(len(gs[1].Moves), len(gs[1].Clocks)) - 6
	// The clocks before the ply: the readings of the two plies before.
	var remaining [2]time.Duration
	pos := chess.NewPosition()
	if gs[1].Start != nil {
		p := *gs[1].Start
		pos = &p
	}
	for i, m := range gs[1].Moves[:ply] {
		remaining[pos.SideToMove()] = gs[1].Clocks[i]
		pos.MakeMove(m)
	}
	if err := l.StartAt(1, ply, remaining); err != nil {
		t.Fatal(err)
	}
	if l.Game() != 1 {
		t.Errorf("Game() = %d after StartAt(1, ...)", l.Game())
	}
	final := *pos
	for _, m := range gs[1].Moves[ply:] {
		final.MakeMove(m)
	}
	var b board
	first, firstPress := true, int64(-1)
	for {
		it, err := l.Next()
		if err != nil {
			t.Fatal(err)
		}
		if l.Game() != 1 {
			break // the next game began
		}
		ev := it.Event
		if first {
			var fb board
			fb.apply(t, trace.PieceSensor, &ev)
			if ev.Kind != trace.Frame || sensed(trace.PieceSensor, pos) != fb {
				t.Fatalf("first event %v, want a frame of %s", ev, pos.FEN())
			}
			first = false
		}
		if ev.Kind == trace.Press && firstPress < 0 {
			firstPress = ev.T
		}
		b.apply(t, trace.PieceSensor, &ev)
	}
	if b != sensed(trace.PieceSensor, &final) {
		t.Errorf("the board does not end in the game's final position %s", final.FEN())
	}
	// The first move takes what its player's readings say it took.
	var inc time.Duration
	if gs[1].TimeControl != nil {
		inc = gs[1].TimeControl.Increment
	}
	took := remaining[pos.SideToMove()] + inc - gs[1].Clocks[ply]
	if firstPress < 0 || time.Duration(firstPress)*time.Millisecond > took+30*time.Second {
		t.Errorf("the first move was pressed at %d ms; its readings say it took %v", firstPress, took)
	}
	if err := l.StartAt(0, 0, [2]time.Duration{}); err == nil {
		t.Error("StartAt after the first event was accepted")
	}
}
