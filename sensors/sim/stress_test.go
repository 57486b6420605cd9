package sim

import (
	"slices"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// turnTimes returns, per move after the first, the time from the last
// event of the previous move's hands to the last event of its own: the
// whole turn, as a clock would measure it.
func turnTimes(items []Item) []int64 {
	last := map[int]int64{}
	for _, it := range items {
		if it.Move > 0 {
			last[it.Move] = it.Event.T
		}
	}
	var out []int64
	for k := 2; ; k++ {
		a, ok1 := last[k-1]
		b, ok2 := last[k]
		if !ok1 || !ok2 {
			return out
		}
		out = append(out, b-a)
	}
}

func shareWithin(ts []int64, ms int64) float64 {
	n := 0
	for _, t := range ts {
		if t <= ms {
			n++
		}
	}
	return float64(n) / float64(len(ts))
}

// TestFittedThinkTimes: without a clock and without clock readings, the
// fitted think times give the corpus's share of quick replies (10.5% of
// the rapid corpus's moves within 1 s of the opponent's press, 21% within
// 2 s, by its whole-second readings), where the default model gives
// almost none; a think-time scale of 0.1 makes most replies quick.
func TestFittedThinkTimes(t *testing.T) {
	games := gamesWith(t, 40, func(g *chess.Game) bool { sg := FromPGN(g); return !sg.hasClocks() && len(g.Moves) > 20 })
	measure := func(r *Rates) []int64 {
		var all []int64
		for gi, pg := range games {
			src, err := NewSource(FromPGN(pg), Options{Sensor: trace.Occupancy, Seed: GameSeed(3, gi), Clock: ClockNever, Rates: r})
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, turnTimes(drain(t, src))...)
		}
		return all
	}
	def := DefaultRates()
	old := measure(&def)
	fit := StressRates(1, def.Knock, 0)
	got := measure(&fit)
	fast := StressRates(0.1, def.Knock, 0)
	blitz := measure(&fast)
	// Readings are truncated to whole seconds: "within 1 s" is a turn
	// under 2 s of real time at most, under 1.5 s on average.
	w1, w2 := shareWithin(got, 1500), shareWithin(got, 2500)
	t.Logf("%d turns: default %.1f%% within 1.5 s, %.1f%% within 2.5 s; fitted %.1f%%, %.1f%%; fitted x0.1 %.1f%%, %.1f%%",
		len(got), 100*shareWithin(old, 1500), 100*shareWithin(old, 2500), 100*w1, 100*w2, 100*shareWithin(blitz, 1500), 100*shareWithin(blitz, 2500))
	if w1 < 0.07 || w1 > 0.16 || w2 < 0.15 || w2 > 0.30 {
		t.Errorf("fitted turns within 1.5 s: %.1f%%, within 2.5 s: %.1f%%; want about 10.5%% and 21%%", 100*w1, 100*w2)
	}
	if shareWithin(old, 2500) > 0.05 {
		t.Errorf("default turns within 2.5 s: %.1f%%: the default model changed", 100*shareWithin(old, 2500))
	}
	slices.Sort(got)
	slices.Sort(blitz)
	if m, mb := got[len(got)/2], blitz[len(blitz)/2]; mb*4 > m {
		t.Errorf("median turn %d ms at x1, %d ms at x0.1: the scale does not shorten them", m, mb)
	}
}

// moveSquares are the squares move m's own hands touch.
func moveSquares(m chess.Move) chess.Bitboard {
	bb := m.From().Bitboard() | m.To().Bitboard() | chess.Between(m.From(), m.To())
	if m.IsCastling() {
		bb |= m.CastlingKingTo().Bitboard() | m.CastlingRookTo().Bitboard()
	}
	if m.IsEnPassant() {
		bb |= chess.NewSquare(m.To().File(), m.From().Rank()).Bitboard()
	}
	return bb
}

// overlappedPutBacks counts the moves during which a piece knocked in the
// move before is put back before the move's own last event on its
// squares, and returns the number of moves.
func overlappedPutBacks(t *testing.T, pg *chess.Game, items []Item) (overlapped, moves int) {
	t.Helper()
	p := *pg.Start
	after := make([]chess.Position, len(pg.Moves)+1)
	after[0] = p
	for i, m := range pg.Moves {
		p.MakeMove(m)
		after[i+1] = p
	}
	type span struct {
		landed int64
		putAt  int64
	}
	spans := map[int]*span{}
	for _, it := range items {
		k := it.Move
		if k < 2 || k > len(pg.Moves) {
			continue
		}
		sp := spans[k]
		if sp == nil {
			sp = &span{putAt: -1}
			spans[k] = sp
		}
		ev := &it.Event
		if ev.Kind != trace.On {
			continue
		}
		own := moveSquares(pg.Moves[k-1])
		switch {
		case own.Has(ev.Square):
			sp.landed = ev.T
		case sp.putAt < 0 && after[k-1].PieceAt(ev.Square) != chess.NoPiece:
			sp.putAt = ev.T
		}
	}
	for _, sp := range spans {
		if sp.putAt >= 0 && sp.putAt < sp.landed {
			overlapped++
		}
	}
	return overlapped, len(spans)
}

// TestKnockOverlapsReply: with KnockOverlap, a knocked piece is put back
// while the opponent's reply is made in games without a clock, and the
// trace still reads as a consistent board that ends on the game's final
// position; without it, or with a clock (the piece is put back before
// the press), the reply waits.
func TestKnockOverlapsReply(t *testing.T) {
	games := corpusGames(t, 2)
	for _, overlap := range []float64{0, 1} {
		r := StressRates(0.03, 1, 0)
		r.KnockOverlap = overlap
		r.Hesitation, r.Adjustment, r.ChangeMind = 0, 0, 0
		total, moves, clocked := 0, 0, 0
		for _, s := range sensorKinds {
			for gi, pg := range games {
				for _, clock := range []ClockMode{ClockAlways, ClockNever} {
					src, err := NewSource(FromPGN(pg), Options{Sensor: s, Seed: GameSeed(5, gi), Clock: clock, Rates: &r})
					if err != nil {
						t.Fatal(err)
					}
					items := drain(t, src)
					endsRight(t, s, pg, items)
					n, m := overlappedPutBacks(t, pg, items)
					if clock == ClockAlways {
						clocked += n
						continue
					}
					total, moves = total+n, moves+m
				}
			}
		}
		t.Logf("overlap %v: %d of %d replies overlap a put-back", overlap, total, moves)
		switch {
		case clocked != 0:
			t.Errorf("with a clock %d replies overlap a put-back", clocked)
		case overlap == 0 && total != 0:
			t.Errorf("without KnockOverlap %d replies overlap a put-back", total)
		case overlap == 1 && total*10 < moves:
			t.Errorf("with KnockOverlap only %d of %d replies overlap a put-back", total, moves)
		}
	}
}

// endsRight replays the items' events: times never go back, the move
// numbers never go back, every on and off fits the board so far, and the
// board ends on the game's final position.
func endsRight(t *testing.T, s trace.Sensor, pg *chess.Game, items []Item) {
	t.Helper()
	var b board
	var lastT int64
	lastMove := 0
	for k := range items {
		ev := &items[k].Event
		if ev.T < lastT || items[k].Move < lastMove {
			t.Fatalf("item %d (t=%d, move %d) after t=%d, move %d", k, ev.T, items[k].Move, lastT, lastMove)
		}
		lastT, lastMove = ev.T, items[k].Move
		b.apply(t, s, ev)
	}
	if want := sensed(s, pg.End()); b != want {
		t.Errorf("%v: the trace does not end on the final position", s)
	}
}

// TestUnderPromotionCapturedAtOnce: with QuickPromoCapture, the capture of
// a piece just made by under-promotion begins as soon as the hands can
// (300 ms after the promotion's last event); without it, after a think.
func TestUnderPromotionCapturedAtOnce(t *testing.T) {
	var idx []int
	games := gamesWith(t, 2000, func(g *chess.Game) bool {
		for i := 1; i < len(g.Moves); i++ {
			if pm := g.Moves[i-1]; pm.IsPromotion() && pm.Promotion() != chess.Queen && g.Moves[i].To() == pm.To() {
				return true
			}
		}
		return false
	})
	if len(games) == 0 {
		t.Fatal("no game with an under-promoted piece captured at once")
	}
	for _, quick := range []bool{false, true} {
		r := StressRates(1, 0, 0)
		r.QuickPromoCapture = quick
		var gaps []int64
		for gi, pg := range games {
			idx = idx[:0]
			for i := 1; i < len(pg.Moves); i++ {
				if pm := pg.Moves[i-1]; pm.IsPromotion() && pm.Promotion() != chess.Queen && pg.Moves[i].To() == pm.To() {
					idx = append(idx, i+1) // Item.Move of the capture
				}
			}
			for _, s := range sensorKinds {
				src, err := NewSource(FromPGN(pg), Options{Sensor: s, Seed: GameSeed(9, gi), Clock: ClockNever, Rates: &r})
				if err != nil {
					t.Fatal(err)
				}
				items := drain(t, src)
				for _, k := range idx {
					var prevLast, first int64 = -1, -1
					for _, it := range items {
						if it.Move == k-1 {
							prevLast = it.Event.T
						}
						if it.Move == k && first < 0 {
							first = it.Event.T
						}
					}
					gaps = append(gaps, first-prevLast)
				}
			}
		}
		slices.Sort(gaps)
		t.Logf("quick=%v: %d captures, gap to the capture's first event %d..%d ms", quick, len(gaps), gaps[0], gaps[len(gaps)-1])
		if quick && gaps[len(gaps)-1] > 1000 {
			t.Errorf("with QuickPromoCapture a capture began %d ms after the promotion", gaps[len(gaps)-1])
		}
		if !quick && gaps[len(gaps)/2] < 1000 {
			t.Errorf("without QuickPromoCapture the median capture began %d ms after the promotion", gaps[len(gaps)/2])
		}
	}
}

// TestRetimeChangesOnlyTheGaps: Options.Retime moves each move's events
// by the idle time it adds before it, and changes nothing else.
func TestRetimeChangesOnlyTheGaps(t *testing.T) {
	for gi, pg := range corpusGames(t, 1) {
		for _, clock := range []ClockMode{ClockAlways, ClockNever} {
			opts := Options{Sensor: trace.Colour, Seed: GameSeed(2, gi), Clock: clock}
			src, err := NewSource(FromPGN(pg), opts)
			if err != nil {
				t.Fatal(err)
			}
			base := drain(t, src)
			opts.Retime = func(n int, idle int64) int64 { return idle + 33000 } // a whole number of scan periods
			src, err = NewSource(FromPGN(pg), opts)
			if err != nil {
				t.Fatal(err)
			}
			got := drain(t, src)
			if len(got) != len(base) {
				t.Fatalf("game %d: %d items retimed, %d before", gi, len(got), len(base))
			}
			for k := range got {
				a, b := base[k], got[k]
				shift := int64(33000 * a.Move)
				if a.Move > len(pg.Moves) {
					shift = int64(33000 * len(pg.Moves))
				}
				if b.Move != a.Move || b.Event.Kind != a.Event.Kind || b.Event.Square != a.Event.Square || b.Event.T != a.Event.T+shift {
					t.Fatalf("game %d clock %v item %d: move %d t=%d %v %s, want move %d t=%d %v %s shifted by %d ms", gi, clock, k, b.Move, b.Event.T, b.Event.Kind, b.Event.Square, a.Move, a.Event.T, a.Event.Kind, a.Event.Square, shift)
				}
			}
		}
	}
}

// TestFittedThinkWaitsForUnseenLanding: with the stress hands, the
// opponent reacts to the capturing piece landing even when no scan sees
// it (a swap between two scans): after a capture whose last event is the
// capturing piece's lift, the reply's first event comes no sooner than
// the quickest carry (75 ms), the fastest reaction (300 ms) and the
// quickest reach (75 ms) after that lift.
func TestFittedThinkWaitsForUnseenLanding(t *testing.T) {
	r := StressRates(0.001, 0, 1)
	r.Hesitation, r.Adjustment = 0, 0
	n := 0
	for gi, pg := range corpusGames(t, 3) {
		src, err := NewSource(FromPGN(pg), Options{Sensor: trace.Occupancy, Seed: GameSeed(4, gi), Clock: ClockNever, Rates: &r})
		if err != nil {
			t.Fatal(err)
		}
		items := drain(t, src)
		capture := make([]bool, len(pg.Moves))
		p := *pg.Start
		for i, m := range pg.Moves {
			capture[i] = !m.IsCastling() && p.PieceAt(m.To()) != chess.NoPiece
			p.MakeMove(m)
		}
		for k := 0; k+1 < len(items); k++ {
			a, b := items[k], items[k+1]
			if a.Move < 1 || b.Move != a.Move+1 || a.Move > len(pg.Moves) {
				continue
			}
			m := pg.Moves[a.Move-1]
			if capture[a.Move-1] && a.Event.Kind == trace.Off && a.Event.Square == m.From() {
				n++
				if gap := b.Event.T - a.Event.T; gap < 75+300+75 {
					t.Errorf("game %d move %d: the reply began %d ms after the capturing piece was lifted", gi, a.Move, gap)
				}
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d captures end with the capturing piece's lift", n)
	}
}
