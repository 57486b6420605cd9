package reconstruct

import (
	"github.com/boardd/boardd/rules"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// TestDeadPosition: the game ends when neither side can mate by any
// series of legal moves (2018 5.2.2), by material or behind a locked pawn
// chain, and not while a piece can still break the chain open.
func TestDeadPosition(t *testing.T) {
	// After ...g5 every pawn is blocked and each king's way over its
	// rank is covered by the other side's pawns.
	check(t, "locked", mustFEN(t, "3k4/8/6p1/p2p4/P2P2P1/8/3K4/8 b - - 0 1"), allSensors, both, func(h *hands, _ bool) {
		h.move("g6", "g5").press(chess.Black)
	}, "g5", "dead-position@2")
	// The same with a white bishop that can take d5 and open the chain.
	check(t, "bishop", mustFEN(t, "3k4/8/6p1/p2p4/P2P2P1/8/3K4/5B2 b - - 0 1"), allSensors, both, func(h *hands, _ bool) {
		h.move("g6", "g5").press(chess.Black)
	}, "g5", "")
	// The last pawn taken: king and bishop against king.
	check(t, "material", mustFEN(t, "8/8/8/3k4/8/4p3/3B4/4K3 w - - 0 1"), allSensors, both, func(h *hands, _ bool) {
		h.lift("e3").lift("d2").place("e3").press(chess.White)
	}, "Bxe3", "dead-position@1")
	// King and knight against king and knight can still mate (helpmate).
	check(t, "knights", mustFEN(t, "8/8/8/3k4/4n3/4p3/2N5/4K3 w - - 0 1"), allSensors, both, func(h *hands, _ bool) {
		h.lift("e3").lift("c2").place("e3").press(chess.White)
	}, "Nxe3+", "")
}

func TestDeadCandidate(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want bool
	}{
		{"8/8/8/3k4/8/8/3B4/4K3 w - - 0 1", true},            // minor pieces only
		{"3k4/8/8/p2p2p1/P2P2P1/8/3K4/5B2 w - - 0 1", true},  // bishops, pawns all blocked
		{"3k4/8/8/p2p4/P2P2P1/8/3K4/8 w - - 0 1", false},     // g4 can advance
		{"3k4/8/8/p2p2p1/P2P2P1/8/3K4/5N2 w - - 0 1", false}, // a knight with pawns
		{"3k4/8/8/p2p2p1/P2P2P1/8/3K4/5R2 w - - 0 1", false}, // a rook
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", false},
	} {
		if got := rules.DeadCandidate(mustFEN(t, c.fen)); got != c.want {
			t.Errorf("%s: %t, want %t", c.fen, got, c.want)
		}
	}
}

// TestDisputedEnd: a capture nobody saw taken that stalemates, with
// another capture possible, ends the game only until the board shows a
// move of the other: the king took the pawn, not the rook, and the rook
// gives check.
func TestDisputedEnd(t *testing.T) {
	start := mustFEN(t, "4k3/6P1/1Kr1PQ2/p7/P7/8/8/8 w - - 2 74")
	play := func(h *hands, _ bool) {
		h.lift("b6").wait(500).press(chess.White)
		h.wait(2000).lift("c6").place("c5").wait(500).press(chess.Black)
	}
	// With a clock the press completes the capture: stalemate, then
	// withdrawn by the rook's move.
	check(t, "reopened", start, []trace.Sensor{trace.Occupancy}, []bool{true}, play, "Kxa5 Rc5+", "stalemate@147")
	h := newHands(t, trace.Occupancy, start)
	play(h, true)
	r, outs := h.run(Config{Start: start, Clock: true})
	if res, _ := r.Result(); res != "" || countKind(outs, End, false) != 2 || outs[len(outs)-1].Kind == End {
		t.Errorf("result %q after the withdrawn end, outputs %d ends", res, countKind(outs, End, false))
	}
	// Without one the capture waits, and the reply comes first.
	check(t, "reply-first", start, []trace.Sensor{trace.Occupancy}, []bool{false}, play, "Kxa5 Rc5+", "")
}

// TestIllegalMoveUnderAnotherHistory: a move that is illegal in the game
// but legal had an earlier uncertain choice been another (the king steps
// onto a square the new queen covers; legal had the pawn become a knight)
// first amends that choice; when the arbiter sets the position back, the
// game returns to the history set aside and the move is an illegal one.
func TestIllegalMoveUnderAnotherHistory(t *testing.T) {
	start := mustFEN(t, "8/6PK/8/8/1k6/8/p7/8 w - - 0 1")
	check(t, "set-back", start, []trace.Sensor{trace.Colour}, []bool{true}, func(h *hands, _ bool) {
		h.move("g7", "g8").press(chess.White)
		h.wait(3000).move("b4", "c4").press(chess.Black)
		h.wait(8000).move("c4", "b4").wait(2000)
		h.move("a2", "a1").press(chess.Black)
	}, "g8=Q a1=Q", "illegal-move@2")
}

// TestIllegalMoveUnderAnotherHistoryThenAnotherMove: as above, but after
// the set-back the player moves another piece onto the square the illegal
// move went to, so that against the published history the board looks
// like one piece moved illegally (knight e5 to b4). The history set aside
// explains it as the set-back and a legal move, which is likelier.
func TestIllegalMoveUnderAnotherHistoryThenAnotherMove(t *testing.T) {
	start := mustFEN(t, "8/6PK/8/4n3/1k6/8/p7/8 w - - 0 1")
	check(t, "set-back-move", start, []trace.Sensor{trace.Occupancy, trace.Colour}, []bool{true}, func(h *hands, _ bool) {
		h.move("g7", "g8").press(chess.White)
		h.wait(3000).move("b4", "c4").press(chess.Black)
		h.wait(8000).move("c4", "b4").wait(2000)
		h.move("e5", "c4").press(chess.Black)
	}, "g8=Q Nc4", "illegal-move@2")
}

// TestMateAfterAnEarlierDisputedCapture: Bxd6+ Kxd6, both faster than a
// scan, read as Bxf6+ Kxf6 (taking the knight just moved); ten plies later Rf4 is mate in that history
// (not in the game's). Black's next move reopens the game and revives
// the other captures.
func TestMateAfterAnEarlierDisputedCapture(t *testing.T) {
	start := mustFEN(t, "6r1/pp1rkpp1/2pbp2p/4B2P/2PPn2R/1R3N2/PP2KPP1/8 b - - 6 22")
	check(t, "reopened", start, []trace.Sensor{trace.Occupancy}, []bool{true}, func(h *hands, _ bool) {
		h.move("e4", "f6").press(chess.Black).wait(3000)
		h.lift("e5").swap("d6").press(chess.White).wait(3000)
		h.lift("e7").swap("d6").press(chess.Black).wait(3000)
		for _, m := range [][2]string{{"f3", "e5"}, {"d7", "c7"}, {"b3", "a3"}, {"a7", "a6"}, {"b2", "b4"},
			{"d6", "e7"}, {"a3", "g3"}, {"c7", "c8"}, {"h4", "f4"}, {"c8", "f8"}} {
			side := chess.White
			if sq(t, m[0]) == sq(t, "d7") || m[0] == "a7" || m[0] == "d6" || m[0] == "c7" || m[0] == "c8" {
				side = chess.Black
			}
			h.move(m[0], m[1]).press(side).wait(3000)
		}
	}, "Nf6 Bxd6+ Kxd6 Ne5 Rc7 Ra3 a6 b4 Ke7 Rg3 Rcc8 Rf4 Rcf8", "checkmate@55")
}
