package reconstruct_test

import (
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/trace"
)

// handEvents appends the sensor events (piece sensors) of move m made in
// p by a hand that starts at t: the victim lifted first, the piece lifted
// and put down, castling king first, an en passant pawn taken off last.
func handEvents(evs []trace.Event, p *chess.Position, m chess.Move, t int64) []trace.Event {
	off := func(s chess.Square, dt int64) {
		evs = append(evs, trace.Event{T: t + dt, Kind: trace.Off, Square: s})
	}
	on := func(s chess.Square, pc chess.Piece, dt int64) {
		evs = append(evs, trace.Event{T: t + dt, Kind: trace.On, Square: s, Piece: pc, HasColour: true, HasPieces: true})
	}
	from, to := m.From(), m.To()
	pc := p.PieceAt(from)
	switch {
	case m.IsCastling():
		rook := p.PieceAt(to)
		off(from, 0)
		on(m.CastlingKingTo(), pc, 60)
		off(to, 100)
		on(m.CastlingRookTo(), rook, 160)
	case m.IsEnPassant():
		off(from, 0)
		on(to, pc, 80)
		off(to^8, 160)
	default:
		if p.PieceAt(to) != chess.NoPiece {
			off(to, 0)
		}
		off(from, 40)
		if m.IsPromotion() {
			pc = chess.NewPiece(pc.Color(), m.Promotion())
		}
		on(to, pc, 160)
	}
	return evs
}

// TestBroadcastClk replays FIDE broadcast games (Women's World Rapid
// 2024, 15 min + 10 s, DGT clocks) as traces whose presses come when the
// games' [%clk] readings say, by the FIDE clock (the increment on the
// clock while the move is played), and checks that every final move
// carries its reading to the second, and that a reading of 0:00:00 (the
// flag fell before the press, no increment) gives a flag-fall alert on
// that ply.
//
// Readings are whole seconds, truncated: the clock after move k is
// c[k] + x[k] with 0 <= x[k] < 1 s, chosen so that every move takes the
// hand at least minThink. Games whose readings leave no such choice
// (arbiter corrections, readings off the press, too many 0 s moves in a
// row) are skipped.
func TestBroadcastClk(t *testing.T) {
	f, err := os.Open("../testdata/games/lichess_broadcast_fide_womens_world_rapid_2024_r1-6.pgn")
	if err != nil {
		t.Skipf("broadcast corpus not available: %v", err)
	}
	defer f.Close()
	const (
		base, inc = 15 * time.Minute, 10 * time.Second
		minThink  = 450 * time.Millisecond
		handAt    = 100 // ms after the previous press the hand starts
	)
	pr := chess.NewPGNReader(f)
	var games, replayed, readings, flags int
	for {
		g, err := pr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		games++
		clk := g.Clocks
		if last := len(clk) - 1; last >= 0 && clk[last] >= 0 && clk[last] < inc {
			clk = clk[:last] // taken when the game ended, not at a press
		}
		if len(clk) > len(g.Moves) || len(clk) < 2 {
			continue
		}
		// Thinking times from the readings.
		thinks := make([]time.Duration, len(clk))
		x := make([]time.Duration, len(clk))
		ok := true
		for k, c := range clk {
			prev := base + inc
			if k >= 2 {
				prev = clk[k-2] + x[k-2]
			}
			switch {
			case c < 0 || c > 0 && c < inc:
				ok = false // no reading, or one not taken at a press
			case c == 0:
				// The flag fell during the move: a press after it.
				x[k], thinks[k] = 0, prev+2*time.Second
			default:
				x[k] = min(999*time.Millisecond, prev+inc-c-minThink)
				thinks[k] = prev + inc - c - x[k]
				if x[k] < 0 {
					ok = false
				}
			}
			if !ok {
				break
			}
		}
		if !ok {
			continue
		}
		// The trace: the start frame at 0, White's clock starting then.
		p := *g.Start
		var evs []trace.Event
		fr := trace.Event{Kind: trace.Frame, Occ: p.Occupied(), White: p.ByColor(chess.White), HasColour: true, HasPieces: true}
		for s := chess.Square(0); s < 64; s++ {
			fr.Placement[s] = p.PieceAt(s)
		}
		evs = append(evs, fr)
		var at int64
		for k := range clk {
			m := g.Moves[k]
			evs = handEvents(evs, &p, m, at+handAt)
			at += thinks[k].Milliseconds()
			evs = append(evs, trace.Event{T: at, Kind: trace.Press, Side: p.SideToMove()})
			p.MakeMove(m)
		}
		r, err := reconstruct.New(reconstruct.Config{Start: g.Start, Sensor: trace.PieceSensor, Clock: true, TimeControl: "15m+10s"})
		if err != nil {
			t.Fatal(err)
		}
		var outs, all []reconstruct.Output
		for i := range evs {
			outs = r.Feed(&evs[i], outs[:0])
			all = append(all, outs...)
		}
		all = append(all, r.End(at+10000, outs[:0])...)
		got := make([]int64, len(clk))
		for i := range got {
			got[i] = -2
		}
		flagPly := map[int]bool{}
		for _, o := range all {
			switch {
			case o.Kind == reconstruct.Move && !o.Provisional && o.Ply-1 < len(got):
				got[o.Ply-1] = o.ClockMs
			case o.Kind == reconstruct.Retract && !o.Provisional, o.Kind == reconstruct.Amend:
				t.Fatalf("game %d: correction %+v on a clean trace", games, o)
			case o.Kind == reconstruct.Alert && o.Alert == reconstruct.FlagFall:
				flagPly[o.Ply] = true
			case o.Kind == reconstruct.Alert && o.Alert.Irregular():
				t.Errorf("game %d: alert %s at ply %d: %s", games, o.Alert, o.Ply, o.Text)
			}
		}
		for k, c := range clk {
			readings++
			if want := c.Milliseconds() / 1000; got[k] < 0 || got[k]/1000 != want {
				t.Fatalf("game %d (%s - %s) ply %d: clk %d ms, broadcast %v", games, g.Tag("White"), g.Tag("Black"), k+1, got[k], c)
			}
			if (c == 0) != flagPly[k+1] {
				t.Errorf("game %d ply %d: reading %v, flag-fall alert %t", games, k+1, c, flagPly[k+1])
			}
			if c == 0 {
				flags++
			}
		}
		replayed++
	}
	t.Logf("%d games: %d replayed, %d readings to the second, %d flag falls", games, replayed, readings, flags)
	if replayed < games*7/10 { // 245 of 330 when written
		t.Errorf("only %d of %d games replayed", replayed, games)
	}
}

// TestClockFromBlackToMove: in a game set up with Black to move, Black's
// clock starts at the first event and the first press is Black's move.
func TestClockFromBlackToMove(t *testing.T) {
	start, err := chess.ParseFEN("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	r, err := reconstruct.New(reconstruct.Config{Start: start, Sensor: trace.PieceSensor, Clock: true, TimeControl: "5m+3s"})
	if err != nil {
		t.Fatal(err)
	}
	fr := trace.Event{Kind: trace.Frame, Occ: start.Occupied(), White: start.ByColor(chess.White), HasColour: true, HasPieces: true}
	for s := chess.Square(0); s < 64; s++ {
		fr.Placement[s] = start.PieceAt(s)
	}
	evs := []trace.Event{fr}
	evs = handEvents(evs, start, chess.NewMove(chess.NewSquare(4, 7), chess.NewSquare(3, 6)), 4000)
	evs = append(evs, trace.Event{T: 5000, Kind: trace.Press, Side: chess.Black})
	var all, out []reconstruct.Output
	for i := range evs {
		out = r.Feed(&evs[i], out[:0])
		all = append(all, out...)
	}
	all = append(all, r.End(20000, out[:0])...)
	for _, o := range all {
		if o.Kind == reconstruct.Move && !o.Provisional {
			// 5:00 + 3 s for move 1, less 5 s, + 3 s for move 2.
			if o.SAN != "Kd7" || o.Side != chess.Black || o.ClockMs != 301000 {
				t.Errorf("move %s by %v clk %d ms, want Kd7 by black clk 301000", o.SAN, o.Side, o.ClockMs)
			}
			return
		}
	}
	t.Errorf("no final move in %+v", all)
}
