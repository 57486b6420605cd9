package reconstruct

import (
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// TestCatchUpFromAnEarlierPly: without a clock, 1. e4 e5 is published;
// then 1... e5 is taken back and 1... c5 2. Nf3 d6 played while the
// board's events are lost, and a full frame shows the result. No move
// from the published game reaches it: e5 is amended, the two moves after
// it are published, and the game goes on (3. d4).
func TestCatchUpFromAnEarlierPly(t *testing.T) {
	for _, s := range allSensors {
		h := newHands(t, s, chess.NewPosition())
		h.move("e2", "e4").wait(2000).move("e7", "e5").wait(2000)
		h.unseen("e5", "e7", "c7", "c5", "g1", "f3", "d7", "d6")
		h.wait(5000).move("d2", "d4").wait(2000)
		r, outs := h.run(Config{})
		// (The frame cannot tell the order of c5 and d6.)
		want := mustFEN(t, "rnbqkbnr/pp2pppp/3p4/2p5/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3")
		if p := r.Position(); p.Key() != want.Key() || len(r.Moves()) != 5 || r.Moves()[2].From() != sq(t, "g1") {
			t.Errorf("%s: %q (%s), want %s", s, sanList(r), p.FEN(), want.FEN())
		}
		if a := alertList(outs); a != "" {
			t.Errorf("%s: alerts %q", s, a)
		}
		if countKind(outs, Amend, false)+countKind(outs, Retract, false) == 0 {
			t.Errorf("%s: e5 neither amended nor retracted", s)
		}
	}
}

// TestCatchUpKeepsAKnockAlerted: without a clock, White's hand playing
// 2. Nf3 knocks the a7 pawn onto a6 and it is left there. The board is
// exactly 2. Nf3 a6, but Black's pawn left 100 ms after the knight
// landed, sooner than any reply: the pawn is alerted out of place, and
// no catch-up takes it for a move.
func TestCatchUpKeepsAKnockAlerted(t *testing.T) {
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, s, chess.NewPosition())
		h.move("e2", "e4").wait(2000).move("e7", "e5").wait(2000)
		h.move("g1", "f3")
		h.now -= 50 // 100 ms after the knight landed
		h.lift("a7").place("a6").wait(6000)
		r, outs := h.run(Config{})
		if got, want := sanList(r), "e4 e5 Nf3"; got != want {
			t.Errorf("%s: moves %q, want %q", s, got, want)
		}
		if a := alertList(outs); a == "" {
			t.Errorf("%s: the knocked pawn is not alerted", s)
		}
	}
}

// TestFastPliesAfterAnAlert: without a clock, a pawn knocked off the
// board and left there is alerted; the fast plies that follow (no still
// moment long enough for the commit timer) are still published one by
// one as each reply begins: an open alert does not hold them back.
func TestFastPliesAfterAnAlert(t *testing.T) {
	for _, s := range allSensors {
		h := newHands(t, s, chess.NewPosition())
		h.move("e2", "e4").wait(2000).move("e7", "e5").wait(2000)
		h.move("g1", "f3").wait(300).lift("h2").wait(5000)
		var marks []int
		for _, mv := range [][2]string{{"b8", "c6"}, {"f1", "b5"}, {"a7", "a6"}, {"b5", "a4"}, {"g8", "f6"}} {
			marks = append(marks, len(h.evs))
			h.move(mv[0], mv[1]).wait(300)
		}
		r, err := New(Config{Sensor: s})
		if err != nil {
			t.Fatal(err)
		}
		var out, all []Output
		for i := range h.evs {
			if i == marks[len(marks)-1] {
				// Nf6 begins: Nc6, Bb5, a6 and Ba4 are on the board.
				if got, want := sanList(r), "e4 e5 Nf3 Nc6 Bb5 a6"; len(got) < len(want) || got[:len(want)] != want {
					t.Errorf("%s: %q published when Nf6 begins, want at least %q", s, got, want)
				}
			}
			out = r.Feed(&h.evs[i], out[:0])
			all = append(all, out...)
		}
		if a := alertList(all); a == "" {
			t.Errorf("%s: the knocked pawn is not alerted", s)
		}
	}
}

// TestRestartFrameTwoCapturesOnOneSquare: boardd restarts after 1. e4 c6
// 2. d4 d5 and its first frame, without a clock, shows the board four
// plies on, after 3. exd5 cxd5 4. Nc3 Nc6: d5 holds a black pawn before
// and after. The frame's changes all carry its one time, so the
// recapture is no reply begun too early: the four moves are found, not
// two with pieces out of place.
func TestRestartFrameTwoCapturesOnOneSquare(t *testing.T) {
	start := mustFEN(t, "rnbqkbnr/pp2pppp/2p5/3p4/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3")
	want := mustFEN(t, "r1bqkbnr/pp2pppp/2n5/3p4/3P4/2N5/PPP2PPP/R1BQKBNR w KQkq - 2 5")
	for _, s := range allSensors {
		h := newHands(t, s, start)
		h.lift("e4", "d5").placeFirst("d5").lift("d5", "c6").place("d5").move("b1", "c3").move("b8", "c6")
		h.evs = []trace.Event{h.evs[0], h.frame()}
		h.wait(6000)
		r, outs := h.run(Config{Start: start})
		wantPosition(t, s, r, outs, want, 4)
	}
}

// TestCatchUpRestartWithATempo: a game resumed four plies back, as after
// a restart, shows 44... Kc5 45. Ka1 Re3 46. Kb2 in one full frame: White's
// king went out and back. The board is the game, not 44... Re3 with the
// black king knocked to a neighbouring square, and the game goes on
// (46... Kc4) without an alert. (Which square White's king visited no board
// can tell; the position is the same.)
func TestCatchUpRestartWithATempo(t *testing.T) {
	start := mustFEN(t, "8/8/1kp4R/1p1p4/p7/P5r1/1KP5/8 b - - 5 44")
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, s, start)
		h.wait(1000).unseen("b6", "c5", "b2", "a1", "g3", "e3", "a1", "b2")
		h.wait(6000).move("c5", "c4").wait(3000)
		r, outs := h.run(Config{Start: start})
		want := mustFEN(t, "8/8/2p4R/1p1p4/p1k5/P3r3/1KP5/8 w - - 10 47")
		wantPosition(t, s, r, outs, want, 5)
	}
}

// TestCatchUpRestartSideToMove: a game resumed four plies back shows
// 37... Nf6 38. Qg7 Kd6 39. Qf7 in one full frame, which three plies
// reach too (the queen in one step): the board cannot tell who is to
// move. When Black then plays 39... Ne4, the plies the frame jumped over
// are found again with the other side to move, and no illegal move is
// alerted.
func TestCatchUpRestartSideToMove(t *testing.T) {
	start := mustFEN(t, "8/2kn3Q/8/p3p3/Pp5P/3P2P1/1K2nr2/8 b - - 2 37")
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, s, start)
		h.wait(1000).unseen("d7", "f6", "h7", "g7", "c7", "d6", "g7", "f7")
		h.wait(6000).move("f6", "e4").wait(3000)
		r, outs := h.run(Config{Start: start})
		want := mustFEN(t, "8/5Q2/3k4/p3p3/Pp2n2P/3P2P1/1K2nr2/8 w - - 7 40")
		wantPosition(t, s, r, outs, want, -1)
	}
}

// wantPosition fails t unless the game r published on sensor s ends at
// want after plies moves (any number if plies < 0), and outs hold no
// alert.
func wantPosition(t *testing.T, s trace.Sensor, r *Reconstructor, outs []Output, want *chess.Position, plies int) {
	t.Helper()
	if p := r.Position(); p.Key() != want.Key() || plies >= 0 && len(r.Moves()) != plies {
		t.Errorf("%s: %q (%s), want %s", s, sanList(r), p.FEN(), want.FEN())
	}
	if a := alertList(outs); a != "" {
		t.Errorf("%s: alerts %q", s, a)
	}
}
