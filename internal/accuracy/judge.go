package accuracy

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/sensors/sim"
	"github.com/boardd/boardd/trace"
)

// alertSeen is an irregularity alert the engine raised.
type alertSeen struct {
	kind reconstruct.AlertKind
	ply  int
	used bool
}

// Play runs one case and judges it (exported for tests and tools).
func Play(c Case, pg *chess.Game, opts *Options) Game {
	var buf []reconstruct.Output
	return play(c, pg, opts, &buf)
}

func play(c Case, pg *chess.Game, opts *Options, buf *[]reconstruct.Output) Game {
	g := Game{Case: c, Moves: len(pg.Moves)}
	src, err := sim.NewSource(sim.FromPGN(pg), sim.Options{
		Sensor: c.Sensor, Seed: sim.GameSeed(opts.Seed, c.Game-1), Irregular: c.Irregular, NoPromote: opts.NoPromote,
		Rates: opts.Rates, Clock: opts.Clock,
	})
	if err != nil {
		g.Why = "simulator: " + err.Error()
		return g
	}
	cfg, err := reconstruct.ConfigFromHeader(src.Header())
	if err != nil {
		g.Why = "config: " + err.Error()
		return g
	}
	cfg.MovesOnly = true // judged by the moves; the notation is not needed
	r, err := reconstruct.New(cfg)
	if err != nil {
		g.Why = "engine: " + err.Error()
		return g
	}
	var alerts []alertSeen
	newGames := 0
	tally := func(out []reconstruct.Output) {
		for i := range out {
			o := &out[i]
			switch o.Kind {
			case reconstruct.Alert:
				if o.Alert.Irregular() {
					alerts = append(alerts, alertSeen{kind: o.Alert, ply: o.Ply})
				}
			case reconstruct.Retract:
				if !o.Provisional {
					g.Corrections++
				}
			case reconstruct.Amend:
				g.Corrections++
			case reconstruct.NewGame:
				newGames++
			}
		}
	}
	out := (*buf)[:0]
	var lastT int64
	move := 0
	// changed[i]: the squares whose sensors changed while ply i+1's
	// hands were at work.
	changed := make([]chess.Bitboard, len(pg.Moves))
	for {
		it, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			g.Why = "simulator: " + err.Error()
			return g
		}
		g.Events++
		lastT = it.Event.T
		if k := it.Move - 1; k >= 0 && k < len(changed) {
			switch it.Event.Kind {
			case trace.On, trace.Off:
				changed[k] |= it.Event.Square.Bitboard()
			case trace.Frame:
				changed[k] = ^chess.Bitboard(0) // (read whole: no claim)
			}
		}
		out = r.Feed(&it.Event, out[:0])
		tally(out)
		if it.Move != move {
			// The first event of a move's hands: the moves before it
			// are complete on the board.
			move = it.Move
			g.noteBehind(behind(pg, max(move-1, 0), r.Moves(), c.Sensor, changed), max(move-1, 0))
		}
	}
	quiet := opts.Quiet
	if quiet <= 0 {
		quiet = 10000
	}
	out = r.End(lastT+quiet, out[:0])
	tally(out)
	*buf = out
	g.noteBehind(behind(pg, len(pg.Moves), r.Moves(), c.Sensor, changed), len(pg.Moves))

	g.Why = compareGame(pg, r.Moves(), newGames)
	if g.Why == "" {
		got, reason := r.Result()
		g.Why = compareResult(pg, got, reason)
	}
	g.Exact = g.Why == ""
	g.Unseen = !g.Exact && newGames == 0 && unseen(pg, r.Moves(), c.Sensor, changed)
	matchAlerts(&g, src.Injections(), alerts)
	return g
}

// unseen reports whether published, a game other than pg's, is one the
// sensors of kind s cannot tell from it: as many plies, all of them
// shared as far as the sensors can tell (see shared). That is a capture
// whose victim was swapped out faster than a scan reads it, by a piece
// that never moves again: 55. Rxa4 and 55. Rxh3 from the same square
// empty that square and nothing else.
func unseen(pg *chess.Game, published []chess.Move, s trace.Sensor, changed []chess.Bitboard) bool {
	n := len(pg.Moves)
	return s != trace.PieceSensor && len(published) == n && shared(pg, n, published, s, changed) == n
}

// behind is how many of the first done moves of the game the published
// moves do not share as far as the sensors of kind s can tell: a wrong
// ply counts with every ply after it from the moment the board can show
// the difference, not while it stands as the true one would.
func behind(pg *chess.Game, done int, published []chess.Move, s trace.Sensor, changed []chess.Bitboard) int {
	done = min(done, len(pg.Moves))
	return done - shared(pg, done, published, s, changed)
}

// shared is how many of the first done moves of pg the published moves
// share, a ply counting as shared when it is the game's, or (not on piece
// boards) when it leaves the same squares occupied as the game's ply (on
// colour boards by the same colours) and neither move's landing square
// changed while that ply's hands were at work (changed): the board reads
// the two alike.
func shared(pg *chess.Game, done int, published []chess.Move, s trace.Sensor, changed []chess.Bitboard) int {
	done = min(done, len(pg.Moves), len(published))
	n := 0
	for n < done && published[n] == pg.Moves[n] {
		n++
	}
	if n == done || s == trace.PieceSensor {
		return n
	}
	// A ply differs: follow both games from there (rare, so replayed).
	p := *pg.Start
	for _, m := range pg.Moves[:n] {
		p.MakeMove(m)
	}
	q := p
	for ; n < done; n++ {
		m, pm := pg.Moves[n], published[n]
		if pm != m && (n >= len(changed) || changed[n].Has(m.Landing()) || changed[n].Has(pm.Landing())) {
			break
		}
		p.MakeMove(m)
		q.MakeMove(pm)
		if p.Occupied() != q.Occupied() || s == trace.Colour && p.ByColor(chess.White) != q.ByColor(chess.White) {
			break
		}
	}
	return n
}

// compareGame says how the published moves differ from the game's.
func compareGame(pg *chess.Game, got []chess.Move, newGames int) string {
	p := *pg.Start
	for i, m := range pg.Moves {
		if i >= len(got) {
			return fmt.Sprintf("stopped after %d of %d moves (missing %d. %s)", len(got), len(pg.Moves), i+1, p.SAN(m))
		}
		if got[i] != m {
			return fmt.Sprintf("move %d is %s, want %s", i+1, describe(&p, got[i]), p.SAN(m))
		}
		p.MakeMove(m)
	}
	if len(got) > len(pg.Moves) {
		return fmt.Sprintf("%d moves more than the game's %d (first %s)", len(got)-len(pg.Moves), len(pg.Moves), describe(&p, got[len(pg.Moves)]))
	}
	if newGames > 0 {
		return fmt.Sprintf("%d new games started", newGames)
	}
	return ""
}

// describe writes m in SAN when it is legal in p, else in UCI.
func describe(p *chess.Position, m chess.Move) string {
	var l chess.MoveList
	p.GenerateLegal(&l)
	if l.Contains(m) {
		return p.SAN(m)
	}
	return p.UCI(m) + " (not legal here)"
}

// compareResult checks the engine's result against what the board can
// know: checkmate and stalemate must be announced; any other result must
// not contradict the PGN's (a resignation or a draw by agreement cannot be
// seen on the board, so no result is fine).
func compareResult(pg *chess.Game, got, reason string) string {
	end := pg.End()
	want := ""
	switch {
	case end.IsCheckmate():
		want = "1-0"
		if end.SideToMove() == chess.White {
			want = "0-1"
		}
	case end.IsStalemate():
		want = "1/2-1/2"
	}
	switch {
	case want != "" && got != want:
		return fmt.Sprintf("result %q (%s), the final position says %s", got, reason, want)
	case want == "" && got != "" && pg.Result != "*" && got != pg.Result:
		// Games played before the automatic draws (FIDE 2014) went on
		// past a fivefold repetition or 75 moves; a board applying today's
		// Laws is right to call them drawn.
		if got == "1/2-1/2" && automaticDraw(pg, reason) {
			return ""
		}
		return fmt.Sprintf("result %s (%s), the game's is %s", got, reason, pg.Result)
	}
	return ""
}

// automaticDraw reports whether the game really reached the automatic draw
// the reason names: a position five times, or 75 moves by each side
// without a capture or a pawn move.
func automaticDraw(pg *chess.Game, reason string) bool {
	p := *pg.Start
	seen := map[uint64]int{p.Key(): 1}
	for _, m := range pg.Moves {
		p.MakeMove(m)
		switch {
		case strings.Contains(reason, "fivefold"):
			if seen[p.Key()]++; seen[p.Key()] >= 5 {
				return true
			}
		case strings.Contains(reason, "75"):
			if p.HalfmoveClock() >= 150 {
				return true
			}
		}
	}
	return false
}

// matchAlerts pairs injections with alerts: the right kind at the right
// ply is found; the right kind one or two plies off is found at the wrong
// ply; otherwise an irregularity alert within a ply is the wrong kind;
// else the injection is missed. Alerts left over are false alerts.
func matchAlerts(g *Game, injs []sim.Injection, alerts []alertSeen) {
	g.Injected = len(injs)
	matched := make([]bool, len(injs))
	pass := func(maxOff int, sameKind bool, count *int) {
		for i, in := range injs {
			if matched[i] {
				continue
			}
			for j := range alerts {
				a := &alerts[j]
				off := a.ply - in.Ply
				if a.used || off > maxOff || -off > maxOff || (string(a.kind) == in.Kind) != sameKind {
					continue
				}
				a.used, matched[i] = true, true
				*count++
				if maxOff > 0 || !sameKind {
					g.Unfound = append(g.Unfound, fmt.Sprintf("%s at ply %d alerted as %s at ply %d", in.Kind, in.Ply, a.kind, a.ply))
				}
				break
			}
		}
	}
	pass(0, true, &g.Found)
	pass(2, true, &g.WrongPly)
	pass(1, false, &g.WrongKind)
	for i, in := range injs {
		if !matched[i] {
			g.Missed++
			g.Unfound = append(g.Unfound, fmt.Sprintf("%s at ply %d missed", in.Kind, in.Ply))
		}
	}
	for _, a := range alerts {
		if !a.used {
			g.FalseAlerts = append(g.FalseAlerts, fmt.Sprintf("%s at ply %d", a.kind, a.ply))
		}
	}
}
