package accuracy

import (
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// TestUnseen: a capture swapped unseen onto another square the same piece
// could take on is a game the occupancy sensors cannot tell from the true
// one, unless a change on either landing square, the colours, or a later
// ply tells them apart.
func TestUnseen(t *testing.T) {
	start, err := chess.ParseFEN("4k3/8/8/3n4/8/8/8/n2RK3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	moves := func(uci ...string) []chess.Move {
		p := *start
		var ms []chess.Move
		for _, u := range uci {
			m, err := p.ParseUCI(u)
			if err != nil {
				t.Fatal(err)
			}
			ms = append(ms, m)
			p.MakeMove(m)
		}
		return ms
	}
	sq := func(names ...string) chess.Bitboard {
		var b chess.Bitboard
		for _, n := range names {
			s, ok := chess.ParseSquare(n)
			if !ok {
				t.Fatalf("square %q", n)
			}
			b |= s.Bitboard()
		}
		return b
	}
	game := &chess.Game{Start: start, Moves: moves("d1d5", "e8e7")}
	blind := []chess.Bitboard{sq("d1"), sq("e8", "e7")}
	for _, c := range []struct {
		name      string
		published []chess.Move
		sensor    trace.Sensor
		changed   []chess.Bitboard
		want      bool
	}{
		{"Rxa1 for Rxd5, neither landing read", moves("d1a1", "e8e7"), trace.Occupancy, blind, true},
		{"the victim's square read changing", moves("d1a1", "e8e7"), trace.Occupancy, []chess.Bitboard{sq("d1", "d5"), sq("e8", "e7")}, false},
		{"colour boards see the rook's colour", moves("d1a1", "e8e7"), trace.Colour, blind, false},
		{"piece boards see every piece", moves("d1a1", "e8e7"), trace.PieceSensor, blind, false},
		{"a later ply the board reads otherwise", moves("d1a1", "e8d8"), trace.Occupancy, blind, false},
		{"a ply missing", moves("d1a1"), trace.Occupancy, blind, false},
	} {
		if got := unseen(game, c.published, c.sensor, c.changed); got != c.want {
			t.Errorf("%s: unseen = %v, want %v", c.name, got, c.want)
		}
	}
	// Behind counts a ply the board reads alike as shared, until a ply
	// the board reads otherwise.
	for _, c := range []struct {
		name      string
		done      int
		published []chess.Move
		sensor    trace.Sensor
		changed   []chess.Bitboard
		want      int
	}{
		{"Rxa1 for Rxd5, neither landing read", 2, moves("d1a1", "e8e7"), trace.Occupancy, blind, 0},
		{"the victim's square read changing", 2, moves("d1a1", "e8e7"), trace.Occupancy, []chess.Bitboard{sq("d1", "d5"), sq("e8", "e7")}, 2},
		{"colour boards see the rook's colour", 2, moves("d1a1", "e8e7"), trace.Colour, blind, 2},
		{"piece boards see every piece", 2, moves("d1a1", "e8e7"), trace.PieceSensor, blind, 2},
		{"a later ply the board reads otherwise", 2, moves("d1a1", "e8d8"), trace.Occupancy, blind, 1},
		{"the reply not yet published", 2, moves("d1a1"), trace.Occupancy, blind, 1},
		{"the reply not yet made", 1, moves("d1a1"), trace.Occupancy, blind, 0},
		{"its hands not yet seen", 1, moves("d1a1"), trace.Occupancy, nil, 1},
	} {
		if got := behind(game, c.done, c.published, c.sensor, c.changed); got != c.want {
			t.Errorf("%s: behind = %d, want %d", c.name, got, c.want)
		}
	}
}

// TestProblemsBehind: a game that fell more than 2 plies behind says so,
// and after which ply, though its moves ended exact.
func TestProblemsBehind(t *testing.T) {
	var g Game
	g.Exact = true
	g.noteBehind(2, 10)
	if got := g.problems(); len(got) != 0 {
		t.Errorf("2 plies behind: problems %q, want none", got)
	}
	g.noteBehind(3, 40)
	g.noteBehind(3, 50) // (the first time counts)
	g.noteBehind(1, 60)
	if got, want := strings.Join(g.problems(), "; "), "3 plies behind after ply 40"; got != want {
		t.Errorf("problems %q, want %q", got, want)
	}
	if !g.Failed() {
		t.Error("a game 3 plies behind is not listed as failed")
	}
}
