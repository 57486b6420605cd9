package reconstruct

import (
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// TestFastPliesWithoutClock: 1. c4 c5 2. Nf3 Nf6 3. b3 d5 4. cxd5 Nxd5
// within six seconds and without a clock: no still moment is long enough for
// the commit timer, yet each move is published as the reply to it begins,
// so the published game is never more than the move standing on the
// board behind.
func TestFastPliesWithoutClock(t *testing.T) {
	want := []string{"c4", "c5", "Nf3", "Nf6", "b3", "d5", "cxd5", "Nxd5"}
	for _, s := range allSensors {
		h := newHands(t, s, chess.NewPosition())
		var marks []int // events fed before each move's first
		step := func(f func()) { marks = append(marks, len(h.evs)); f(); h.wait(300) }
		step(func() { h.move("c2", "c4") })
		step(func() { h.move("c7", "c5") })
		step(func() { h.move("g1", "f3") })
		step(func() { h.move("g8", "f6") })
		step(func() { h.move("b2", "b3") })
		step(func() { h.move("d7", "d5") })
		step(func() { h.lift("c4").lift("d5").wait(100).placeFirst("d5") })
		step(func() { h.lift("d5").wait(200).lift("f6").place("d5") }) // the victim removed first
		if h.now > 1000+6000 {
			t.Fatalf("the moves take %d ms", h.now-1000)
		}
		r, err := New(Config{Sensor: s})
		if err != nil {
			t.Fatal(err)
		}
		var out []Output
		for i := range h.evs {
			for k, m := range marks {
				if m == i+1 {
					// The first event of move k+1 is fed: moves 1..k-1 are
					// published (move k may wait for the reply's next event).
					if got := len(r.Moves()); got < k-1 {
						t.Errorf("%s: %d moves published when move %d begins, want %d", s, got, k+1, k-1)
					}
				}
			}
			out = r.Feed(&h.evs[i], out[:0])
			for _, o := range out {
				if o.Kind == Alert || o.Kind == Retract || o.Kind == Amend {
					t.Errorf("%s: %s", s, AppendJSON(nil, &o))
				}
			}
		}
		if got := len(r.Moves()); got < len(want)-1 {
			t.Errorf("%s: %d moves published before the end, want %d", s, got, len(want)-1)
		}
		r.End(h.now+10000, out[:0])
		if got, w := sanList(r), joinSAN(want); got != w {
			t.Errorf("%s: moves %q, want %q", s, got, w)
		}
	}
}

func joinSAN(s []string) string {
	out := ""
	for i, m := range s {
		if i > 0 {
			out += " "
		}
		out += m
	}
	return out
}

// TestTouchDownIsNotAReply: without a clock, a queen touched down for
// 300 ms on a square the opponent could capture on, then carried on to its
// destination, is the move to the destination: the lift from the
// touch-down square, followed by a landing rather than another lift, is
// not the opponent removing a victim.
func TestTouchDownIsNotAReply(t *testing.T) {
	start := mustFEN(t, "r2q1r1k/1p1b1ppn/p3p2p/b3N3/3P3Q/PB6/1P3PPP/R1BR2K1 w - - 4 19")
	check(t, "touch-down", start, allSensors, []bool{false}, func(h *hands, _ bool) {
		h.lift("h4").place("g5").wait(300).lift("g5").place("h5").wait(500)
		h.move("d7", "e8").wait(1500)
	}, "Qh5 Be8", "")
}

// TestKnockLandingIsNotASlide: without a clock, a piece the mover's hand
// knocks onto an empty square next to the opponent's piece, seen landing
// before its own square empties, is not the opponent's slide begun: the
// knock is alerted on the mover's ply.
func TestKnockLandingIsNotASlide(t *testing.T) {
	start := mustFEN(t, "rnbqkbnr/pppp1ppp/4p3/8/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 2")
	for _, s := range allSensors {
		h := newHands(t, s, start)
		h.lift("d7").place("d5").wait(110)
		// e6 falls onto f5: the scan sees f5 filled, then e6 empty.
		h.evs = append(h.evs, h.onEvent(sq(t, "f5"), chess.BlackPawn))
		h.board[sq(t, "f5")] = chess.BlackPawn
		h.wait(30)
		h.evs = append(h.evs, trace.Event{T: h.now, Kind: trace.Off, Square: sq(t, "e6")})
		h.board[sq(t, "e6")] = chess.NoPiece
		h.wait(12000)
		h.expect(start, "d5", "misplaced-pieces@4")
	}
}

// TestFastRepetitionIsNotATakeback: without a clock, after Kh6 Qe2 Kg7,
// Qe1 (whose hand knocks the f2 pawn onto f1 and puts it back while Black
// replies) and Kh6 bring back the position of two plies before. The moves
// forward explain the board as well as a takeback of two plies, and the
// play goes on: they are searched past the takeback.
func TestFastRepetitionIsNotATakeback(t *testing.T) {
	start := mustFEN(t, "8/6k1/5rp1/p2B3p/P1Pqp2P/6P1/5PK1/4Q3 b - - 3 42")
	check(t, "repetition", start, allSensors, []bool{false}, func(h *hands, _ bool) {
		h.move("g7", "h6").wait(1500)
		h.move("e1", "e2").wait(1500)
		h.move("h6", "g7").wait(1500)
		h.move("e2", "e1").lift("f2").place("f1").wait(450)
		h.slide("g7", "h6").wait(1500)
		h.lift("f1").place("f2").wait(500)
		h.move("e1", "e2").wait(400)
		h.move("h6", "g7").wait(1500)
	}, "Kh6 Qe2 Kg7 Qe1 Kh6 Qe2 Kg7", "")
}

// TestChess960RookOnlyCastlingFollowedAtOnce: without a clock, a Chess960
// castling that moves only the rook (the king already on its square,
// only touched) answered at once is published when the reply begins: the
// king's square needs no lift, so the castling is not a capture still in
// the hand.
func TestChess960RookOnlyCastlingFollowedAtOnce(t *testing.T) {
	start := mustFEN(t, "r1k1b1rn/pppppppp/8/8/8/8/PPPPPPPP/R1K1B1RN w GAga - 0 1")
	start.SetChess960(true)
	for _, s := range allSensors {
		h := newHands(t, s, start)
		h.move("a1", "d1").wait(300)
		h.move("b7", "b6").wait(300)
		h.move("b2", "b3").wait(300)
		before, got := h.published(Config{Start: start})
		if before != "O-O-O b6" {
			t.Errorf("%s: before the end %q published, want \"O-O-O b6\"", s, before)
		}
		if got != "O-O-O b6 b3" {
			t.Errorf("%s: moves %q, want \"O-O-O b6 b3\"", s, got)
		}
	}
}

// TestTouchDownThenKnockIsNotAReply: without a clock, a queen touched down
// on d3 (where Black's c4 pawn could capture it), lifted again and set on
// e3, the hand knocking its own f2 pawn onto e1 on the way: the lift after
// the touch-down is followed by the mover's own pawn, not by a piece that
// could capture on d3, so it is not the reply's victim removed first.
// Black replies at once, while White puts the pawn back.
func TestTouchDownThenKnockIsNotAReply(t *testing.T) {
	start := mustFEN(t, "1r1qr1k1/1b2bp1n/p2p2pB/1pnPp2p/P1p1P3/2P2NNP/1PBQ1PP1/R4RK1 w - - 6 23")
	check(t, "touch-down-knock", start, allSensors, []bool{false}, func(h *hands, _ bool) {
		h.lift("d2").place("d3").wait(250)
		h.lift("d3").lift("f2").placeFirst("e3").place("e1").wait(400)
		// Black replies while White puts the pawn back.
		h.move("b7", "c8").wait(300)
		h.lift("e1").place("f2").wait(400)
		h.lift("a4").lift("b5").wait(100).placeFirst("b5").wait(1500)
	}, "Qe3 Bc8 axb5", "")
}

// TestUnseenCaptureFollowedAtOnce: without a clock, on an occupancy board,
// captures whose victims nobody saw leave (swapped faster than a scan),
// each answered at once. A capture like that looks like a piece in the
// air, but a lift of the opponent's own piece, long enough after the
// capturing piece's lift for it to have landed and a reply to begin,
// says it is down: each is published as the reply begins.
func TestUnseenCaptureFollowedAtOnce(t *testing.T) {
	start := mustFEN(t, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
	h := newHands(t, trace.Occupancy, start)
	h.lift("e4").wait(250).swap("d5").wait(150) // exd5
	h.lift("d8").wait(250).swap("d5").wait(150) // Qxd5
	nc3 := len(h.evs)
	h.move("b1", "c3").wait(300) // Nc3
	h.move("g8", "f6").wait(300) // Nf6
	r, err := New(Config{Start: start, Sensor: trace.Occupancy})
	if err != nil {
		t.Fatal(err)
	}
	var out []Output
	for i := range h.evs {
		out = r.Feed(&h.evs[i], out[:0])
		if i == nc3 {
			if got := sanList(r); got != "exd5 Qxd5" {
				t.Errorf("when Nc3 begins %q published, want \"exd5 Qxd5\"", got)
			}
		}
	}
	if got := sanList(r); got != "exd5 Qxd5 Nc3" {
		t.Errorf("before the end %q published, want \"exd5 Qxd5 Nc3\"", got)
	}
	r.End(h.now+10000, out[:0])
	if got := sanList(r); got != "exd5 Qxd5 Nc3 Nf6" {
		t.Errorf("moves %q, want \"exd5 Qxd5 Nc3 Nf6\"", got)
	}
}

// TestUnderPromotionCapturedAtOnce: on a piece board without a clock, a
// pawn takes on e8 and becomes a knight (the sensors report the knight),
// and Black's rook takes it within a second: fxe8=N, not the queen, and
// Rxe8.
func TestUnderPromotionCapturedAtOnce(t *testing.T) {
	start := mustFEN(t, "r3r2k/5P1p/8/8/8/8/6PP/6K1 w - - 0 1")
	h := newHands(t, trace.PieceSensor, start)
	// The pawn is put aside and the knight set on e8 in place of the rook.
	h.lift("f7").lift("e8").wait(300).put("e8", chess.WhiteKnight).wait(300)
	h.lift("e8").wait(200).lift("a8").place("e8").wait(1500)
	r, outs := h.run(Config{Start: start})
	if got := sanList(r); got != "fxe8=N Rxe8" {
		t.Errorf("moves %q, want \"fxe8=N Rxe8\"", got)
		for _, o := range outs {
			t.Logf("%s", AppendJSON(nil, &o))
		}
	}
	if got := alertList(outs); got != "" {
		t.Errorf("alerts %q, want none", got)
	}
}

// TestUnseenCaptureInAHurry: the same as TestUnseenCaptureFollowedAtOnce
// at a hurried player's pace: the reply's piece is lifted 450 ms after the
// capturing piece, time enough to carry it next door and set it down
// (100 ms) and react (250 ms).
func TestUnseenCaptureInAHurry(t *testing.T) {
	start := mustFEN(t, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
	h := newHands(t, trace.Occupancy, start)
	h.lift("e4").swap("d5").wait(150) // exd5
	qxd5 := len(h.evs)
	h.lift("d8").swap("d5").wait(150) // Qxd5
	nc3 := len(h.evs)
	h.move("b1", "c3").wait(300) // Nc3
	h.move("g8", "f6").wait(300) // Nf6
	r, err := New(Config{Start: start, Sensor: trace.Occupancy})
	if err != nil {
		t.Fatal(err)
	}
	var out []Output
	for i := range h.evs {
		out = r.Feed(&h.evs[i], out[:0])
		switch i {
		case qxd5:
			if got := sanList(r); got != "exd5" {
				t.Errorf("when Qxd5 begins %q published, want \"exd5\"", got)
			}
		case nc3:
			if got := sanList(r); got != "exd5 Qxd5" {
				t.Errorf("when Nc3 begins %q published, want \"exd5 Qxd5\"", got)
			}
		}
	}
	r.End(h.now+10000, out[:0])
	if got := sanList(r); got != "exd5 Qxd5 Nc3 Nf6" {
		t.Errorf("moves %q, want \"exd5 Qxd5 Nc3 Nf6\"", got)
	}
}

// TestCarryFasterThanASweep: on a piece board whose sweep reads a square
// after the one a piece was carried to, the reply's landing is seen
// before its lift. Without a clock, f3 is published when Black's rook,
// castling (Chess960, the king staying on g8), shows on f8 and then
// leaves h8: the rook that can get there has begun the reply.
func TestCarryFasterThanASweep(t *testing.T) {
	start := mustFEN(t, "nrbnq1kr/ppp1b1pp/3p4/3Ppp2/2P1P3/8/PP3PPP/NRBNQBKR w HBhb - 0 5")
	start.SetChess960(true)
	h := newHands(t, trace.PieceSensor, start)
	h.move("f2", "f3").wait(300)
	f8 := len(h.evs)
	h.put("f8", chess.BlackRook)
	h.evs[len(h.evs)-1].T = h.now - 150
	h.evs = append(h.evs, trace.Event{T: h.now - 144, Kind: trace.Off, Square: sq(t, "h8")})
	h.board[sq(t, "h8")] = chess.NoPiece
	h.wait(300)
	h.move("a1", "c2").wait(300)
	r, err := New(Config{Start: start, Sensor: trace.PieceSensor})
	if err != nil {
		t.Fatal(err)
	}
	var out []Output
	for i := range h.evs {
		out = r.Feed(&h.evs[i], out[:0])
		if i == f8+1 {
			if got := sanList(r); got != "f3" {
				t.Errorf("when the rook leaves h8 %q published, want \"f3\"", got)
			}
		}
	}
	r.End(h.now+10000, out[:0])
	if got := sanList(r); got != "f3 O-O Nc2" {
		t.Errorf("moves %q, want \"f3 O-O Nc2\"", got)
	}
}

// TestUnseenCaptureRecapturedVictimFirst: without a clock, on an
// occupancy board, a bishop takes the d7 knight pushing it off (nothing
// seen on d7), and Black recaptures at once, the bishop taken off first:
// the lift on d7 is the bishop's, which only the reply can take, and the
// queen lifted next can take it there. Bxd7+ is published as the queen
// is lifted, and Qxd7 after it.
func TestUnseenCaptureRecapturedVictimFirst(t *testing.T) {
	start := mustFEN(t, "r2qkb1r/pp1n1ppp/4p3/3pN3/B7/8/PPP2PPP/RNBQK2R w KQkq - 0 1")
	h := newHands(t, trace.Occupancy, start)
	h.lift("a4").wait(250).swap("d7").wait(150) // Bxd7+, d7 never seen empty
	queen := len(h.evs) + 1
	h.lift("d7").wait(300).lift("d8").place("d7").wait(300) // Qxd7, the bishop first
	h.move("e1", "g1").move("h1", "f1").wait(300)           // O-O
	r, err := New(Config{Start: start, Sensor: trace.Occupancy})
	if err != nil {
		t.Fatal(err)
	}
	var out []Output
	for i := range h.evs {
		out = r.Feed(&h.evs[i], out[:0])
		if i == queen {
			if got := sanList(r); got != "Bxd7+" {
				t.Errorf("when the queen is lifted %q published, want \"Bxd7+\"", got)
			}
		}
	}
	r.End(h.now+10000, out[:0])
	if got := sanList(r); got != "Bxd7+ Qxd7 O-O" {
		t.Errorf("moves %q, want \"Bxd7+ Qxd7 O-O\"", got)
	}
}

// TestChess960CastlingsOfBothSidesUnchanged: without a clock, White and
// then Black castle by swapping king and rook (Chess960: each board is
// the one before), White's hand knocking the b1 knight off, put back
// while Black castles. The knight then moves: the lift is White's next
// move, not part of White's castling, and both castlings are published
// (they were published as nothing, and 4. Nc3 put the game two plies
// behind for 40 plies, until a king move was impossible).
func TestChess960CastlingsOfBothSidesUnchanged(t *testing.T) {
	start := mustFEN(t, "bnrkqr1b/pppppp1p/6p1/5nP1/8/4P3/PPPP1P1P/BNRKQRNB w FCfc - 1 4")
	start.SetChess960(true)
	check(t, "960-two-swaps", start, allSensors, []bool{false}, func(h *hands, _ bool) {
		h.lift("d1", "c1").placeFirst("c1").place("d1").lift("b1").wait(1200)
		h.lift("d8", "c8").place("d8").place("c8").place("b1").wait(600)
		h.move("b1", "c3").wait(2000)
		h.move("e7", "e6").wait(2000)
	}, "O-O-O O-O-O Nc3 e6", "")
}

// TestCaptureSlidOntoAVictimLiftedFirst: without a clock, Black's bishop
// checks from d4, its hand knocking the e4 pawn onto e3; White answers
// Kh1 and puts the pawn back. Black then takes on c3, the victim lifted
// first and the bishop slid there (shown on c3 before d4 empties). The
// bishop's landing on the victim's square is the reply begun: Bd4+ Kh1
// are published then. It was not taken for one, and Bd4+ Kh1 Bxc3 were
// read as Bxc3 from e5 and Kh1, the game 69 plies behind.
func TestCaptureSlidOntoAVictimLiftedFirst(t *testing.T) {
	start := mustFEN(t, "b1rq1rk1/p2p1p1p/2n2np1/1Pp1b3/4PN2/1PB4R/P2P2PP/1B1QNRK1 b - - 0 11")
	check(t, "slid-capture-after-knock", start, []trace.Sensor{trace.Colour, trace.PieceSensor}, []bool{false}, func(h *hands, _ bool) {
		h.move("e5", "d4").lift("e4").place("e3").wait(1400)
		h.move("g1", "h1").move("e3", "e4").wait(500)
		h.lift("c3").wait(250).put("c3", chess.BlackBishop).lift("d4").wait(400)
		h.lift("c3", "d2").place("c3").wait(2000)
	}, "Bd4+ Kh1 Bxc3 dxc3", "")
}

// TestMoveAndReplyEachKnockingAPiece: without a clock, Qc2's hand knocks
// the d1 rook onto e1 and Nc7's hand the d7 rook onto c8; the board
// stands still a second before both are put back. Two moves and two
// fallen pieces explain it, not a catch-up taking back Rd7 for Rcc8 and
// adding Rde1 (the fallen pieces read as moves, 24 plies behind): the
// inexact search tries a reply also when the move leaves six squares
// out of place.
func TestMoveAndReplyEachKnockingAPiece(t *testing.T) {
	start := mustFEN(t, "5rk1/2r3p1/b1p1pq1p/p1PnR2P/Pp3P2/1P4P1/3B4/1BQR2K1 b - - 1 28")
	check(t, "two-knocks", start, []trace.Sensor{trace.Colour, trace.PieceSensor}, []bool{false}, func(h *hands, _ bool) {
		h.move("c7", "d7").wait(400)
		h.lift("c1", "d1").placeFirst("c2").place("e1").wait(600)
		h.move("d5", "c7").lift("d7").place("c8").wait(1300)
		h.move("e1", "d1").move("c8", "d7").wait(1500)
		h.move("d2", "e3").wait(3000)
		h.lift("d7", "d1").placeFirst("d1").wait(1500)
	}, "Rd7 Qc2 Nc7 Be3 Rxd1+", "")
}

// TestKnockReadAsAMoveThenTheMoveChanged: without a clock, Kd8's hand
// knocks White's rook from c7 onto b7 (seen landing before c7 empties),
// which the commit publishes as Rb7. The rook is put back and moved to
// h7 at once, and the replies follow within a second each: the last
// move changed (Rb7 to Rh7) is adopted as the reply begins, as a new
// move is; it waited for a still board that fast play never gave, and
// no later move was published (19 plies behind).
func TestKnockReadAsAMoveThenTheMoveChanged(t *testing.T) {
	start := mustFEN(t, "8/2R1k3/1P6/4K3/8/r6P/8/8 b - - 6 67")
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, s, start)
		h.move("e7", "d8").wait(-130).put("b7", chess.WhiteRook).lift("c7").wait(2000)
		h.move("b7", "c7").wait(450)
		h.move("c7", "h7").wait(500)
		h.move("a3", "b3").wait(500)
		h.move("b6", "b7").wait(500)
		h.move("b3", "b5").wait(300)
		h.move("e5", "d6").wait(2000)
		before, got := h.published(Config{Start: start})
		// (The last move waits for the commit timer or the reply.)
		if before != "Kd8 Rh7 Rb3 b7 Rb5+" {
			t.Errorf("%s: before the end %q published, want \"Kd8 Rh7 Rb3 b7 Rb5+\"", s, before)
		}
		if got != "Kd8 Rh7 Rb3 b7 Rb5+ Kd6" {
			t.Errorf("%s: moves %q, want \"Kd8 Rh7 Rb3 b7 Rb5+ Kd6\"", s, got)
		}
	}
}

// TestReplyKnockingItsOwnPieceFirst: without a clock, 52... Qd3+ and
// White's king lifted 400 ms later from next to where the queen landed
// (a lift that soon may be the queen's hand knocking the king, so held
// until the king goes where it can move), the king's hand knocking its
// own e4 pawn before the king lands on f4. The pawn's lift did not
// resolve the held move and the move was dropped; the repetition that
// followed (Qf1+ Ke3) brought the board back to the published position,
// and four plies were read as touches (4 plies behind at the end, and
// the threefold repetition never claimable).
func TestReplyKnockingItsOwnPieceFirst(t *testing.T) {
	start := mustFEN(t, "4k3/4n1R1/3p1p1p/3P1P2/1Qp1P3/3q1K2/8/8 w - - 1 51")
	check(t, "reply-knocks-own", start, []trace.Sensor{trace.Colour, trace.PieceSensor}, []bool{false}, func(h *hands, _ bool) {
		h.move("f3", "f4").wait(1000)
		h.move("d3", "f1").wait(1000)
		h.move("f4", "e3").wait(1000)
		h.move("f1", "d3").wait(250)
		h.lift("e3", "e4").placeFirst("f4").wait(1400)
		h.lift("d3").placeFirst("e4").place("f1").wait(500)
		h.move("f4", "e3").wait(1200)
		h.move("f1", "d3").wait(1500)
		h.move("e3", "f4").wait(2000)
	}, "Kf4 Qf1+ Ke3 Qd3+ Kf4 Qf1+ Ke3 Qd3+ Kf4", "threefold-claimable@109")
}

// TestQuickRepliesAtTheStart: without a clock, 1. e4 e5 2. Nf3 Nc6 3. Bb5,
// each reply lifted 150 ms after the move before was set down (sooner
// than any reply the decision at the reply's first change waits for),
// then slower moves. Nothing decides the five plies one by one: the board
// still for a second after Bb5 is five plies from the start, which the
// search for several moves now reaches there. Before, the game was never
// published at all on colour and piece boards.
func TestQuickRepliesAtTheStart(t *testing.T) {
	for _, s := range allSensors {
		h := newHands(t, s, chess.NewPosition())
		h.move("e2", "e4").move("e7", "e5").move("g1", "f3").move("b8", "c6").move("f1", "b5")
		h.wait(3000).move("a7", "a6").wait(3000).move("b5", "a4").wait(3000).move("g8", "f6").wait(3000)
		before, _ := h.published(Config{})
		want := "e4 e5 Nf3 Nc6 Bb5 a6 Ba4"
		if s == trace.Occupancy {
			// (The order of e5 and Nc6 is a guess on occupancy boards.)
			if got := strings.Fields(before); len(got) != 7 || got[4] != "Bb5" || got[6] != "Ba4" {
				t.Errorf("%s: published %q before the end, want the 7 plies of %q", s, before, want)
			}
			continue
		}
		if before != want {
			t.Errorf("%s: published %q before the end, want %q", s, before, want)
		}
		r, outs := h.run(Config{})
		if a := alertList(outs); a != "" || sanList(r) != want+" Nf6" {
			t.Errorf("%s: %q, alerts %q", s, sanList(r), a)
		}
	}
}

// TestQuickReplyAwayFromTheLanding: without a clock, 39... Qd1+ and the
// king lifted 150 ms after the queen was set down, three squares from
// her: a reply the player had ready, not a piece the queen's hand
// knocked (which lies next to where she landed). It was read as the
// check with the king knocked onto g2, a false misplaced-pieces alert,
// and Kg2 and c4 were never published.
func TestQuickReplyAwayFromTheLanding(t *testing.T) {
	start := mustFEN(t, "3q4/p4bkp/5pn1/2p5/4B1Q1/1PB1PP2/P4P1P/6K1 b - - 0 39")
	check(t, "quick-reply-away", start, []trace.Sensor{trace.Colour, trace.PieceSensor}, []bool{false}, func(h *hands, _ bool) {
		h.move("d8", "d1").move("g1", "g2").wait(5000).move("c5", "c4").wait(3000)
	}, "Qd1+ Kg2 c4", "")
}

// TestLongRunOfQuickReplies: without a clock, eight plies each begun
// 150 ms after the move before (1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6),
// then a still board. No decision point falls between them, and eight
// plies are beyond the searches on a still board (six at most); once the
// board has stood still for the commit timer, the ordered decoder replays
// the square changes one by one and finds them. Before, nothing was ever
// published.
func TestLongRunOfQuickReplies(t *testing.T) {
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, s, chess.NewPosition())
		h.move("e2", "e4").move("e7", "e5").move("g1", "f3").move("b8", "c6")
		h.move("f1", "b5").move("a7", "a6").move("b5", "a4").move("g8", "f6").wait(2000)
		h.move("e1", "g1").lift("h1").place("f1").wait(3000)
		before, _ := h.published(Config{})
		if want := "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6"; !strings.HasPrefix(before, want) {
			t.Errorf("%s: published %q before the end, want %q first", s, before, want)
		}
		r, outs := h.run(Config{})
		if got, want := sanList(r), "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O"; got != want {
			t.Errorf("%s: %q, want %q", s, got, want)
		}
		if a := alertList(outs); a != "" {
			t.Errorf("%s: alerts %q", s, a)
		}
	}
}

// TestTouchDownThenKnockPublishedAsTheReplyBegins: without a clock,
// Rd1+ is set down on d2 on the way, and its hand knocks the e2 pawn off
// the board 280 ms after it landed. The move is published as Black's reply (the
// king out of check) begins, the pawn out of place until it is back: the square the rook
// touched down on, filled after its lift and emptied before it landed,
// is the move's own (it kept the knock from being accepted, and the
// move was decided only with the reply).
func TestTouchDownThenKnockPublishedAsTheReplyBegins(t *testing.T) {
	start := mustFEN(t, "4k3/7p/8/8/8/8/4P3/2R1K3 b - - 0 1")
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, s, start)
		h.move("e8", "d8").wait(1500)
		h.lift("c1").place("d2").wait(300)
		h.lift("d2").place("d1").wait(130).lift("e2").wait(500)
		n := len(h.evs)
		h.lift("d8").place("c7").wait(400)
		h.place("e2").wait(1500)
		cfg := Config{Start: start, Sensor: s}
		r, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var out []Output
		for i := range h.evs[:n+1] {
			out = r.Feed(&h.evs[i], out[:0])
		}
		if got := sanList(r); got != "Kd8 Rd1+" {
			t.Errorf("%v: at the reply's first lift the moves are %q, want %q", s, got, "Kd8 Rd1+")
		}
		r2, outs := h.run(Config{Start: start})
		if got, alerts := sanList(r2), alertList(outs); got != "Kd8 Rd1+ Kc7" || alerts != "" {
			t.Errorf("%v: moves %q, alerts %q; want %q and none", s, got, alerts, "Kd8 Rd1+ Kc7")
		}
	}
}

// TestQuickCastlingReplyOnOccupancy: without a clock on an occupancy
// board, Chess960 with Black's king on f8 and rook on g8: 1. e4 is
// answered by 1... O-O (king and rook trading squares, no square's
// occupancy changed) begun 200 ms after the pawn landed, away from it.
// No hand knocks two pieces that are then set down where a castling
// puts them: the castling is published, not read as touches.
func TestQuickCastlingReplyOnOccupancy(t *testing.T) {
	start := mustFEN(t, "nrbqbkr1/pppppppp/8/8/8/8/PPPPPPPP/NRBQBKR1 w GBgb - 0 1")
	h := newHands(t, trace.Occupancy, start)
	h.move("e2", "e4").wait(50) // O-O begins 200 ms after the pawn landed
	h.lift("f8", "g8").place("f8").placeFirst("g8").wait(3000)
	h.expect(start, "e4 O-O", "")
}

// TestChess960LongCastlingLikeAKingMove: without a clock on an occupancy
// board, Chess960 with the king on e1 and a rook on c1: O-O-O puts the
// king on c1 and the rook on d1, which fills and empties the squares Kd1
// does. The king is lifted, then the rook, the rook set on d1 and the
// king on c1; Black's reply (b6) begins 230 ms later. Kd1 would leave
// the rook lifted and set back, which is what the castling looks like,
// not a touch: the castling stays a hypothesis, and 2. Rd3 (the piece on
// d1 moving as only a rook can) proves it.
func TestChess960LongCastlingLikeAKingMove(t *testing.T) {
	start := mustFEN(t, "bnr1kqrn/pppppppp/8/8/3P4/8/PPP1PPPP/BNR1KQRN w GCgc - 0 1")
	h := newHands(t, trace.Occupancy, start)
	h.lift("e1", "c1").place("d1").placeFirst("c1").wait(80) // b6 begins 230 ms after the king landed
	h.move("b7", "b6").wait(2000)
	h.move("d1", "d3").wait(3000)
	h.expect(start, "O-O-O b6 Rd3", "")
}

// TestPawnFallenBesideTheHeldPawn: without a clock on piece boards, 3.
// d5's pawn lifted 473 ms after 2... c5 landed next to it (held: the
// mover's hand may knock it), and the hand knocking the c4 pawn, which
// falls on d3, while d5 is read filled first. Both are white pawns: d5
// was read as the knocked c4 pawn fallen beside its square and d3 as the
// held pawn gone nowhere it can, and nothing was published until the
// knocked pieces were back 5 s later (3 plies behind). The held pawn
// goes where it can move: d5 is its landing.
func TestPawnFallenBesideTheHeldPawn(t *testing.T) {
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, s, chess.NewPosition())
		h.at(2595, trace.Off, "d2", 0).at(2908, trace.On, "d4", chess.WhitePawn)
		h.at(4045, trace.Off, "g8", 0).at(4228, trace.On, "f6", chess.BlackKnight)
		h.at(4842, trace.Off, "c2", 0).at(4904, trace.On, "c4", chess.WhitePawn)
		h.at(5498, trace.Off, "c7", 0).at(5685, trace.On, "c5", chess.BlackPawn)
		h.at(6158, trace.Off, "d4", 0).at(6404, trace.Off, "c4", 0).at(6439, trace.On, "d5", chess.WhitePawn).at(6627, trace.On, "d3", chess.WhitePawn)
		h.at(8256, trace.Off, "e7", 0).at(8377, trace.Off, "d3", 0).at(8474, trace.On, "e6", chess.BlackPawn)
		h.at(8478, trace.Off, "f6", 0).at(8654, trace.On, "c4", chess.WhitePawn).at(8697, trace.On, "f5", chess.BlackKnight)
		h.at(9306, trace.Off, "b1", 0)
		mark := len(h.evs)
		h.at(9623, trace.On, "c3", chess.WhiteKnight)
		h.at(11197, trace.Off, "f5", 0).at(11228, trace.On, "f6", chess.BlackKnight)
		before, atEnd, outs := h.publishedAt(mark)
		if before != "d4 Nf6 c4 c5 d5 e6" || atEnd != "d4 Nf6 c4 c5 d5 e6 Nc3" {
			t.Errorf("%v: %q published as Nc3 lands, %q at the end; want \"d4 Nf6 c4 c5 d5 e6\" and Nc3 after it", s, before, atEnd)
		}
		if got := alertList(outs); got != "" {
			t.Errorf("%v: alerts %q, want none", s, got)
		}
	}
}

// TestKnockedByTheNextMoveNotAmended: without a clock, 10. Nbd2, read
// on d2 31 ms after b1 was lifted, stands through 10... Qc7; 11. Rad1's
// hand knocks it onto c3 225 ms after the rook lands on d1, and it is
// put back 2.2 s later, after 11... Nbd7 (whose hand knocks e6 onto d5).
// The knight on c3 had been read as a piece the reply's hand knocked
// as it landed there unread (putBackUnread): 10. Nbd2 was amended to Nc3,
// and the put-back and all that followed were alerted as misplaced, the
// game dark for 100 plies. The square emptied as a later move landed
// next to it was that move's hand's knock.
func TestKnockedByTheNextMoveNotAmended(t *testing.T) {
	start := mustFEN(t, "rn1q1rk1/pb1p1ppp/1p2pn2/8/1pPP4/5NP1/PP2PPBP/RN1Q1RK1 w - - 4 9")
	check(t, "knocked-by-next-move", start, []trace.Sensor{trace.Colour, trace.PieceSensor}, []bool{false}, func(h *hands, _ bool) {
		h.at(15319, trace.Off, "g1", 0).at(15519, trace.On, "g1", chess.WhiteKing)
		h.at(16110, trace.Off, "d1", 0).at(16360, trace.On, "d3", chess.WhiteQueen)
		h.at(17035, trace.On, "d6", chess.BlackPawn).at(17060, trace.Off, "d7", 0)
		h.at(17704, trace.Off, "b1", 0).at(17735, trace.On, "d2", chess.WhiteKnight)
		h.at(19885, trace.Off, "d8", 0).at(20057, trace.On, "c7", chess.BlackQueen)
		h.at(20501, trace.Off, "a1", 0).at(20710, trace.On, "d1", chess.WhiteRook)
		h.at(20935, trace.Off, "d2", 0).at(21157, trace.On, "c3", chess.WhiteKnight)
		h.at(21679, trace.Off, "b8", 0).at(21860, trace.On, "d7", chess.BlackKnight)
		h.at(22010, trace.On, "d5", chess.BlackPawn).at(22038, trace.Off, "e6", 0)
		h.at(23335, trace.On, "d2", chess.WhiteKnight).at(23357, trace.Off, "c3", 0)
		h.at(23966, trace.Off, "f3", 0).at(24113, trace.On, "e1", chess.WhiteKnight)
		h.at(24210, trace.Off, "d5", 0).at(24438, trace.On, "e6", chess.BlackPawn)
		h.at(24854, trace.Off, "b7", 0).at(25144, trace.Off, "g2", 0).at(25544, trace.On, "g2", chess.BlackBishop)
		h.at(26113, trace.Off, "e1", 0).at(26344, trace.Off, "g2", 0).at(26544, trace.On, "g2", chess.WhiteKnight)
		h.at(27076, trace.Off, "a8", 0).at(27282, trace.On, "c8", chess.BlackRook)
	}, "Qd3 d6 Nbd2 Qc7 Rad1 Nbd7 Ne1 Bxg2 Nxg2 Rac8", "")
}

// TestKnockedByALandingNextDoorNotAmended: without a clock, 11... a6
// stands through 12. Bb2 and 12... b5; 13. cxb5, its victim taken off
// first, knocks the a6 pawn onto a5, read there 3 ms before the pawn
// lands on b5 and 31 ms before a6 reads empty, and Black's hand puts it
// back after 14. Nxd4. The pawn on a5 had been read as 11... a5 landed
// unread and knocked onto a6 by the reply's hand (putBackUnread): a6 was
// amended to a5, and the put-back alerted (12 plies behind). A piece
// gone from where it stood as a move landed next to it was that move's
// hand's knock.
func TestKnockedByALandingNextDoorNotAmended(t *testing.T) {
	start := mustFEN(t, "2rq1rk1/pp1bbppp/2nppn2/8/2PNP3/1P4P1/P3NPBP/R1BQ1RK1 b - - 0 11")
	check(t, "knocked-by-landing-next-door", start, []trace.Sensor{trace.Colour, trace.PieceSensor}, []bool{false}, func(h *hands, _ bool) {
		h.at(119681, trace.Off, "a7", 0).at(119900, trace.On, "a6", chess.BlackPawn)
		h.at(121501, trace.Off, "c1", 0).at(121529, trace.On, "b2", chess.WhiteBishop)
		h.at(123622, trace.On, "b5", chess.BlackPawn).at(123685, trace.Off, "b7", 0)
		h.at(124372, trace.Off, "b5", 0).at(124845, trace.Off, "c4", 0).at(125119, trace.On, "a5", chess.BlackPawn)
		h.at(125122, trace.On, "b5", chess.WhitePawn).at(125150, trace.Off, "a6", 0)
		h.at(125658, trace.Off, "c6", 0).at(126099, trace.Off, "d4", 0).at(126099, trace.On, "d4", chess.BlackKnight)
		h.at(127619, trace.Off, "a5", 0).at(127900, trace.On, "a6", chess.BlackPawn)
		h.at(128540, trace.Off, "e2", 0).at(128849, trace.Off, "d4", 0).at(128849, trace.On, "d4", chess.WhiteKnight)
		h.at(129372, trace.Off, "b5", 0).at(129872, trace.On, "b5", chess.BlackPawn).at(129900, trace.Off, "a6", 0)
		h.at(130505, trace.Off, "d1", 0).at(130786, trace.On, "d2", chess.WhiteQueen)
		h.at(149724, trace.Off, "d8", 0).at(150154, trace.On, "b6", chess.BlackQueen)
	}, "a6 Bb2 b5 cxb5 Nxd4 Nxd4 axb5 Qd2 Qb6", "")
}

// TestKnockedOntoAMoveSquareNotAmended: without a clock, 13. Qf3 stands
// through 13... dxe4's lifts; as the pawn lands on e4 its hand knocks
// the queen onto e2 (read there 187 ms later, f3 empty 36 ms after
// that), and 14. Nxe4 is made before the queen is put back. The queen
// on e2 had been read as 13. Qe2 knocked onto f3 before a sweep read
// it, and the put-back as a move: Qf3 was amended to Qe2, and the queen
// put back on f3 was alerted, the game dark for 77 plies. The queen
// left f3 as a move landed next to it.
func TestKnockedOntoAMoveSquareNotAmended(t *testing.T) {
	start := mustFEN(t, "r1bqr1k1/ppp2ppp/5n2/3p4/4P3/2PBQ3/PP1N1PPP/4RRK1 b - - 1 12")
	check(t, "knocked-onto-move-square", start, []trace.Sensor{trace.Colour, trace.PieceSensor}, []bool{false}, func(h *hands, _ bool) {
		h.at(34904, trace.Off, "c8", 0).at(35072, trace.On, "f5", chess.BlackBishop)
		h.at(40256, trace.Off, "e3", 0).at(40760, trace.On, "f3", chess.WhiteQueen)
		h.at(41314, trace.Off, "d5", 0).at(41537, trace.Off, "e4", 0).at(42037, trace.On, "e4", chess.BlackPawn)
		h.at(42224, trace.On, "e2", chess.WhiteQueen).at(42260, trace.Off, "f3", 0)
		h.at(43037, trace.Off, "e4", 0).at(43470, trace.Off, "d2", 0).at(43537, trace.On, "e4", chess.WhiteKnight)
		h.at(44724, trace.Off, "e2", 0).at(45010, trace.On, "f3", chess.WhiteQueen)
		h.at(45572, trace.Off, "f5", 0).at(46037, trace.Off, "e4", 0).at(46037, trace.On, "e4", chess.BlackBishop)
		h.at(46502, trace.Off, "d3", 0).at(46787, trace.Off, "e4", 0).at(47037, trace.On, "e4", chess.WhiteBishop)
		h.at(47627, trace.On, "d7", chess.BlackQueen).at(47658, trace.Off, "d8", 0).at(48470, trace.On, "d2", chess.BlackQueen).at(48502, trace.Off, "d7", 0)
	}, "Bf5 Qf3 dxe4 Nxe4 Bxe4 Bxe4 Qd2", "")
}

// TestReplyKnockingTwoSquaresAway: without a clock, 28. Rxb7 and, 723 ms
// after it landed, White's queen on c6 lifted 7 ms before Black's
// bishop on e6, two files away: the hand reaching for the bishop
// knocked the queen onto b5, where it lies until after 29. Rxd7+. The
// lift of the mover's piece was held as a touch, released only when a
// piece of the player to reply next to it was lifted that soon after:
// Rxb7 was published only once the queen was back (3 plies behind as
// 29... Qxd7 began). Two squares away, the replying hand knocks it too.
func TestReplyKnockingTwoSquaresAway(t *testing.T) {
	start := mustFEN(t, "2k2b1r/1r5p/pQ2bp2/2p2qp1/2P5/2n3P1/P2NPP1P/1R2R1K1 w - - 0 27")
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, s, start)
		h.at(62813, trace.Off, "b6", 0).at(63067, trace.On, "c6", chess.WhiteQueen)
		h.at(64379, trace.Off, "c8", 0).at(64383, trace.On, "d8", chess.BlackKing)
		h.at(66156, trace.Off, "b1", 0).at(66594, trace.Off, "b7", 0).at(66594, trace.On, "b7", chess.WhiteRook)
		h.at(67317, trace.Off, "c6", 0).at(67324, trace.Off, "e6", 0).at(67352, trace.On, "d7", chess.BlackBishop).at(67531, trace.On, "b5", chess.WhiteQueen)
		h.at(68102, trace.Off, "d7", 0).at(68594, trace.Off, "b7", 0).at(68852, trace.On, "d7", chess.WhiteRook)
		h.at(69531, trace.Off, "b5", 0).at(69567, trace.On, "c6", chess.WhiteQueen)
		h.at(70102, trace.Off, "d7", 0)
		mark := len(h.evs) - 1
		h.at(70547, trace.Off, "f5", 0).at(70852, trace.On, "d7", chess.BlackQueen)
		h.at(71567, trace.Off, "c6", 0).at(71578, trace.Off, "f6", 0).at(71828, trace.On, "f6", chess.WhiteQueen)
		before, atEnd, outs := h.publishedFromAt(start, mark)
		if !strings.HasPrefix(before, "Qc6+ Kd8 Rxb7") || atEnd != "Qc6+ Kd8 Rxb7 Bd7 Rxd7+ Qxd7 Qxf6+" {
			t.Errorf("%v: %q published as 29... Qxd7 begins, %q at the end; want Qc6+ Kd8 Rxb7 at least, then Bd7 Rxd7+ Qxd7 Qxf6+", s, before, atEnd)
		}
		if got := alertList(outs); got != "" {
			t.Errorf("%v: alerts %q, want none", s, got)
		}
	}
}

// TestTouchDownAndKnockNotReadAsThreePlies: without a clock, 26. Qb3-c4
// touches down on d5 for a sweep, and its hand knocks the bishop from b4
// onto a3 as it lands; Black puts the bishop back 2.2 s later and takes
// on c4 (the victim pushed off). At the commit timer the ordered decoder
// read the changes as 26. Qd5 Ba3 27. Qc4, the put-back as 27... Bb4,
// and four misplaced-pieces alerts followed. One move whose hand knocked
// a piece as it was made is the alert timer's to judge.
func TestTouchDownAndKnockNotReadAsThreePlies(t *testing.T) {
	start := mustFEN(t, "8/2k3pp/2n1P1p1/pq4P1/1b3PP1/1Q2P1K1/P2r4/1RR5 w - - 0 26")
	check(t, "touch-down-and-knock", start, []trace.Sensor{trace.Colour, trace.PieceSensor}, []bool{false}, func(h *hands, _ bool) {
		h.at(121879, trace.Off, "b3", 0).at(121949, trace.On, "d5", chess.WhiteQueen).at(122199, trace.Off, "d5", 0)
		h.at(122375, trace.On, "a3", chess.BlackBishop).at(122410, trace.Off, "b4", 0).at(122414, trace.On, "c4", chess.WhiteQueen)
		h.at(124625, trace.Off, "a3", 0).at(124660, trace.On, "b4", chess.BlackBishop)
		h.at(125191, trace.Off, "b5", 0).at(125414, trace.Off, "c4", 0).at(125414, trace.On, "c4", chess.BlackQueen)
		h.at(125820, trace.Off, "c1", 0).at(126164, trace.Off, "c4", 0).at(126164, trace.On, "c4", chess.WhiteRook)
		h.at(130660, trace.Off, "b4", 0).at(131016, trace.On, "e7", chess.BlackBishop)
	}, "Qc4 Qxc4 Rxc4 Be7", "")
}

// TestSlideAndKnockNotReadAsFourPlies: without a clock, 5... c5 slides
// over c6 and its hand knocks White's queen from c4 onto c3, read there
// 188 ms after the pawn on c5; White puts the queen back 1.75 s later.
// The searches read 5... c5 on the board put right; the ordered decoder
// read the changes as 5... c6 6. Qc3 c5 7. Qc4, two plies landing at
// once, and took that over it: five false alerts followed and the game
// was lost for 35 plies. A reading with more plies than the searches'
// whose plies land out of order is not taken on colour and piece boards.
func TestSlideAndKnockNotReadAsFourPlies(t *testing.T) {
	start := mustFEN(t, "rnb1kbnr/pppq1ppp/4p3/8/2Q5/6P1/PP1PPPBP/RNB1K1NR b KQkq - 0 5")
	check(t, "slide-and-knock", start, []trace.Sensor{trace.Colour, trace.PieceSensor}, []bool{false}, func(h *hands, _ bool) {
		h.at(272795, trace.On, "c6", chess.BlackPawn).at(272826, trace.Off, "c7", 0).at(272982, trace.Off, "c4", 0)
		h.at(273013, trace.On, "c5", chess.BlackPawn).at(273045, trace.Off, "c6", 0).at(273201, trace.On, "c3", chess.WhiteQueen)
		h.at(274951, trace.Off, "c3", 0).at(275232, trace.On, "c4", chess.WhiteQueen)
		h.at(298404, trace.Off, "g1", 0).at(298713, trace.On, "f3", chess.WhiteKnight)
		h.at(299353, trace.Off, "b8", 0).at(299545, trace.On, "c6", chess.BlackKnight)
		h.at(304646, trace.Off, "e1", 0).at(304904, trace.On, "g1", chess.WhiteKing).at(305408, trace.Off, "h1", 0).at(305650, trace.On, "f1", chess.WhiteRook)
		h.at(312623, trace.Off, "g8", 0).at(313056, trace.On, "f6", chess.BlackKnight)
	}, "c5 Nf3 Nc6 O-O Nf6", "")
}

// TestReplyLandingReadBeforeItsKnock: without a clock, 33. Re2 and, 789
// ms after it landed, White's g3 pawn read lifted, then Black's pawn on h4
// and h5 empty 36 and 67 ms later: 33... h4's hand knocked g3 off the
// board on its way, and White puts it back after 34. Kf2. The lift of
// White's pawn was held as a touch, and the landing on h4 (read before
// the lift of h5, carried faster than a sweep) dropped it, so nothing
// was published until the pawn was back (3 plies behind as 34... hxg3+
// began). A piece of the player to reply set down near the held lift
// that soon is the reply, as its lift is.
func TestReplyLandingReadBeforeItsKnock(t *testing.T) {
	start := mustFEN(t, "6k1/1b3p1p/p3p3/7p/3r4/2N5/PP3RPP/6K1 w - - 4 32")
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, s, start)
		h.at(96797, trace.Off, "g2", 0).at(96828, trace.On, "g3", chess.WhitePawn)
		h.at(97485, trace.Off, "g8", 0).at(97703, trace.On, "g7", chess.BlackKing)
		h.at(98293, trace.Off, "f2", 0).at(98539, trace.On, "e2", chess.WhiteRook)
		h.at(99328, trace.Off, "g3", 0).at(99364, trace.On, "h4", chess.BlackPawn).at(99395, trace.Off, "h5", 0)
		h.at(100016, trace.Off, "g1", 0)
		mark := len(h.evs) - 1
		h.at(100293, trace.On, "f2", chess.WhiteKing).at(101828, trace.On, "g3", chess.WhitePawn)
		h.at(102578, trace.Off, "g3", 0).at(102864, trace.Off, "h4", 0).at(103078, trace.On, "g3", chess.BlackPawn)
		before, atEnd, outs := h.publishedFromAt(start, mark)
		if before != "g3 Kg7 Re2" || atEnd != "g3 Kg7 Re2 h4 Kf2 hxg3+" {
			t.Errorf("%v: %q published as 34. Kf2 begins, %q at the end; want \"g3 Kg7 Re2\", then h4 Kf2 hxg3+", s, before, atEnd)
		}
		if got := alertList(outs); got != "" {
			t.Errorf("%v: alerts %q, want none", s, got)
		}
	}
}

// TestReplyLiftAfterAKnockLandingHeld: without a clock, 17... Bc8, then
// 18. d4's hand knocks the e5 pawn onto e6, read there 281 ms after e5 emptied (held:
// a landing next to Black's pieces may be a reply slid there), and 18...
// bxc3 begins 676 ms later with b4 lifted. The lift of b4 was no slide
// from next door and dropped the hold, and was never judged as the
// reply's: 18. d4 was published only once the pawn was back, 3 plies
// behind.
func TestReplyLiftAfterAKnockLandingHeld(t *testing.T) {
	start := mustFEN(t, "1r1qnrk1/1b3ppp/p2p4/2p1p1b1/PpB1P3/2PP2N1/1P3PPP/R1BQR1K1 b - - 0 17")
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, s, start)
		h.at(81951, trace.Off, "b7", 0).at(81959, trace.On, "d7", chess.BlackBishop).at(82209, trace.Off, "d7", 0).at(82486, trace.On, "c8", chess.BlackBishop)
		h.at(83084, trace.Off, "d3", 0).at(83115, trace.On, "d4", chess.WhitePawn).at(83150, trace.Off, "e5", 0).at(83431, trace.On, "e6", chess.BlackPawn)
		h.at(84107, trace.Off, "b4", 0)
		mark := len(h.evs)
		h.at(84580, trace.Off, "c3", 0).at(84580, trace.On, "c3", chess.BlackPawn).at(84865, trace.Off, "d4", 0)
		h.at(85681, trace.Off, "e6", 0).at(85900, trace.On, "e5", chess.BlackPawn)
		h.at(86580, trace.Off, "c3", 0).at(87045, trace.Off, "b2", 0).at(87080, trace.On, "c3", chess.WhitePawn).at(87115, trace.On, "d4", chess.WhitePawn)
		h.at(87767, trace.Off, "c1", 0).at(88158, trace.Off, "g5", 0).at(88267, trace.On, "c1", chess.BlackBishop)
		before, atEnd, outs := h.publishedFromAt(start, mark)
		if before != "Bc8 d4" || atEnd != "Bc8 d4 bxc3 bxc3 Bxc1" {
			t.Errorf("%v: %q published as b4 is lifted, %q at the end; want \"Bc8 d4\", then bxc3 bxc3 Bxc1", s, before, atEnd)
		}
		if got := alertList(outs); got != "" {
			t.Errorf("%v: alerts %q, want none", s, got)
		}
	}
}

// TestSlideReadOutOfOrderHeld: without a clock, 42... Bc4, then 43. Rb6
// slid from f6, read on e6, on c6 194 ms later and on d6 3 ms after
// that (the sweep reads c6 first), its hand knocking the b7 pawn onto a6;
// Black puts it back after 43... Ra2. The landing on e6, held as the
// slide's first square, was dropped when c6 was read before d6, and
// 42... Bc4 was published only once the pawn was back, 3 plies behind.
func TestSlideReadOutOfOrderHeld(t *testing.T) {
	start := mustFEN(t, "5k2/1p3p1p/5R2/P2p4/7P/1b2P1P1/3r2B1/6K1 b - - 0 42")
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, s, start)
		h.at(100015, trace.Off, "b3", 0).at(100243, trace.On, "c4", chess.BlackBishop)
		h.at(100699, trace.On, "e6", chess.WhiteRook).at(100893, trace.On, "c6", chess.WhiteRook).at(100896, trace.On, "d6", chess.WhiteRook)
		h.at(100899, trace.Off, "e6", 0).at(100902, trace.Off, "f6", 0)
		mark := len(h.evs)
		h.at(101090, trace.On, "b6", chess.WhiteRook).at(101093, trace.Off, "c6", 0).at(101096, trace.Off, "d6", 0)
		h.at(101315, trace.Off, "b7", 0).at(101487, trace.On, "a6", chess.BlackPawn)
		h.at(101996, trace.Off, "d2", 0).at(102187, trace.On, "a2", chess.BlackRook)
		h.at(102887, trace.Off, "a6", 0).at(103115, trace.On, "b7", chess.BlackPawn)
		h.at(103715, trace.Off, "b7", 0).at(104090, trace.Off, "b6", 0).at(104315, trace.On, "b7", chess.WhiteRook)
		before, atEnd, outs := h.publishedFromAt(start, mark)
		if before != "Bc4" || atEnd != "Bc4 Rb6 Ra2 Rxb7" {
			t.Errorf("%v: %q published as f6 empties, %q at the end; want \"Bc4\", then Rb6 Ra2 Rxb7", s, before, atEnd)
		}
		if got := alertList(outs); got != "" {
			t.Errorf("%v: alerts %q, want none", s, got)
		}
	}
}

// TestVictimLiftedInEitherKnockReading: without a clock on a colour
// board, after 17... Kf8 18. Qc3 f6 19. Nc5, 19... Bc8 slid from b7 with the hand knocking the queen from b8
// onto a7, then 20. Nxc8, the bishop lifted first. As c8 is lifted the
// board reads as well as 19... Qc8 with the bishop knocked from b7 onto
// a7 (a colour board cannot tell the two), and either way c8 holds the
// victim: nothing was held, and at the knight's lift 19... Qa7 was read
// with the bishop knocked off, one false alert and 26 plies behind. The
// lift is held as the victim for the cheaper reading; the queen put back
// on b8 confirms it.
func TestVictimLiftedInEitherKnockReading(t *testing.T) {
	start := mustFEN(t, "rq2k1nr/1b3p1p/2nNp1p1/8/4PP2/1N2Q3/PPP3PP/2KR3R b kq - 0 17")
	h := newHands(t, trace.Colour, start)
	h.at(90183, trace.Off, "e8", 0).at(90185, trace.On, "f8", chess.BlackKing)
	h.at(91121, trace.Off, "e3", 0).at(91318, trace.On, "c3", chess.WhiteQueen)
	h.at(98572, trace.Off, "f7", 0).at(98860, trace.On, "f6", chess.BlackPawn)
	h.at(100016, trace.Off, "b3", 0).at(100243, trace.On, "c5", chess.WhiteKnight)
	h.at(100866, trace.Off, "b7", 0).at(100880, trace.On, "c8", chess.BlackBishop).at(100979, trace.Off, "b8", 0).at(101065, trace.On, "a7", chess.BlackQueen)
	h.at(101480, trace.Off, "c8", 0).at(101957, trace.Off, "d6", 0).at(102180, trace.On, "c8", chess.WhiteKnight)
	h.at(102965, trace.Off, "a7", 0).at(103179, trace.On, "b8", chess.BlackQueen)
	h.at(108579, trace.Off, "b8", 0).at(108980, trace.Off, "c8", 0).at(109380, trace.On, "c8", chess.BlackQueen)
	h.at(109943, trace.Off, "c5", 0).at(110269, trace.On, "d7", chess.WhiteKnight)
	h.expect(start, "Kf8 Qc3 f6 Nc5 Bc8 Nxc8 Qxc8 Nd7+", "")
}

// TestCaptureLandingUnseenThreePlies: on an occupancy board without a
// clock, 3... dxc4 pushes the pawn off c4 (c4 never reads empty), 4. d5
// and 4... Ne5 follow within 3 s. Ne5 then dxe5 reach the same squares
// in two plies, with a capture nobody saw and d5 emptied and filled for
// nothing; Ne5 alone leaves d4 empty. Neither may stand for the three
// plies that fit every event: the game had been read 3... Ne5 with a
// false misplaced-pieces alert on d4, and never caught up.
func TestCaptureLandingUnseenThreePlies(t *testing.T) {
	start := mustFEN(t, "r1bqkbnr/ppp1pppp/2n5/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR b KQkq - 2 3")
	h := newHands(t, trace.Occupancy, start)
	h.at(2277, trace.Off, "d5", chess.NoPiece) // dxc4, pushing the pawn off c4
	h.at(2876, trace.Off, "d4", chess.NoPiece).at(2977, trace.On, "d5", chess.NoPiece)
	h.at(3242, trace.Off, "c1", chess.NoPiece).at(3492, trace.On, "c1", chess.NoPiece) // c1 touched
	h.at(4688, trace.Off, "c6", chess.NoPiece).at(4907, trace.On, "e5", chess.NoPiece)
	h.expect(start, "dxc4 d5 Ne5", "")
}

// TestTouchDownOnACaptureSquareAfterward: on an occupancy board without
// a clock, 10... Nxd5 11. exd5, both pushed off (d5 never reads empty),
// then after a long think 11... Bf5 touching down on f6 first. f6's
// last lift is the bishop's touch-down, not the knight's move, which
// began before 11. exd5 did: read as the knight's, the three plies were
// out of order and dearer than 11... Bf5 with e4 and f6 misplaced, a
// false alert followed by five more.
func TestTouchDownOnACaptureSquareAfterward(t *testing.T) {
	start := mustFEN(t, "r2qk2r/1p1nbppp/p2pbn2/3Np3/4P3/1N2BP2/PPPQ2PP/R3KB1R b KQkq - 4 10")
	h := newHands(t, trace.Occupancy, start)
	h.at(2685, trace.Off, "f6", chess.NoPiece) // 10... Nxd5, pushing the knight off
	h.at(3399, trace.Off, "e4", chess.NoPiece) // 11. exd5, pushing the knight off
	h.at(95124, trace.Off, "e6", chess.NoPiece).at(95345, trace.On, "f6", chess.NoPiece)
	h.at(95685, trace.Off, "f6", chess.NoPiece).at(95942, trace.On, "f5", chess.NoPiece)
	h.expect(start, "Nxd5 exd5 Bf5", "")
}

// TestKnockedPieceInTheHandNotSixPlies: on an occupancy board without a
// clock, 2. c4's hand knocks d4 onto e3 and puts it back, 2... f5 slides
// in and knocks e6 off, and 3. g3 is made while e6 is in the hand. At the
// commit timer the board was read as six plies, 2. d5 f5 3. c4 exd5 4.
// g3 d4, every one against the order of the events; e6 was put back 150
// ms later, and the game was lost for good. Three plies and a piece in
// the hand explain it for less: the commit timer waits for it.
func TestKnockedPieceInTheHandNotSixPlies(t *testing.T) {
	start := mustFEN(t, "rnbqkbnr/pppp1ppp/4p3/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2")
	h := newHands(t, trace.Occupancy, start)
	h.at(4882, trace.Off, "c2", chess.NoPiece).at(5107, trace.On, "c4", chess.NoPiece)
	h.at(5207, trace.Off, "d4", chess.NoPiece).at(5365, trace.On, "e3", chess.NoPiece) // knocked
	h.at(5853, trace.On, "f6", chess.NoPiece).at(5875, trace.Off, "f7", chess.NoPiece) // f5, slid
	h.at(5950, trace.On, "f5", chess.NoPiece).at(5953, trace.Off, "f6", chess.NoPiece)
	h.at(6052, trace.Off, "e6", chess.NoPiece)                                         // knocked off
	h.at(6585, trace.Off, "e3", chess.NoPiece).at(6767, trace.On, "d4", chess.NoPiece) // put back
	h.at(7263, trace.Off, "g2", chess.NoPiece).at(7265, trace.On, "g3", chess.NoPiece)
	h.at(8412, trace.On, "e6", chess.NoPiece) // put back
	h.expect(start, "c4 f5 g3", "")
}

// TestReleasedMoveTakenBackNoted: without a clock, 3. Nc3 let go on its
// square, then moved back to b1 2.5 s later while Black has not begun,
// and made again: the retraction comes with a takeback note for the
// arbiter (a released move stands, Art. 4.7, unless the players agreed,
// which the board cannot tell), on every sensor kind.
func TestReleasedMoveTakenBackNoted(t *testing.T) {
	start := mustFEN(t, "rnbqkbnr/ppp2ppp/4p3/3p4/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3")
	for _, s := range allSensors {
		h := newHands(t, s, start)
		h.move("b1", "c3").wait(2500).move("c3", "b1").wait(5000).move("b1", "c3").wait(3000).move("g8", "f6")
		r, outs := h.run(Config{Start: start})
		if got := sanList(r); got != "Nc3 Nf6" {
			t.Errorf("%s: moves %q, want %q", s, got, "Nc3 Nf6")
		}
		notes := notesOf(outs, NoteTakeback)
		for _, o := range notes {
			if want := "before 3. Nc3,"; !strings.Contains(o.Text, want) || o.Ply != 5 || o.Squares != sq(t, "b1").Bitboard()|sq(t, "c3").Bitboard() {
				t.Errorf("%s: note %s, want ply 5, b1 and c3, %q", s, AppendJSON(nil, &o), want)
			}
		}
		if len(notes) != 1 || countKind(outs, Retract, false) != 1 || alertList(outs) != "" {
			t.Errorf("%s: %d takeback notes, %d retractions, alerts %q; want 1, 1, none", s, len(notes), countKind(outs, Retract, false), alertList(outs))
			for _, o := range outs {
				t.Logf("%s", AppendJSON(nil, &o))
			}
		}
	}
}

// TestKnockedOntoTheMovesSquareAndPutBack: on an occupancy board without
// a clock, 18... f5, then 19. gxf5 pushing the pawn off (f5 never reads
// empty), its hand knocking e6 onto f7, put back, and 19... exf5. f7's
// last lift is the knocked pawn picked up, not 18... f5's: read so, 19.
// gxf5 began before the move it answers and the three plies were dearer
// than f5 with g4 and e6 misplaced, a false alert and three more.
func TestKnockedOntoTheMovesSquareAndPutBack(t *testing.T) {
	start := mustFEN(t, "1k3qr1/1bp1bp2/pp2p2p/6p1/3B1PPn/1P2P1N1/P1P1BQ1P/1K4R1 b - - 0 18")
	h := newHands(t, trace.Occupancy, start)
	h.at(4972, trace.Off, "f7", chess.NoPiece).at(5275, trace.On, "f5", chess.NoPiece)
	h.at(5700, trace.Off, "g4", chess.NoPiece)                                         // 19. gxf5, pushing the pawn off
	h.at(6036, trace.Off, "e6", chess.NoPiece).at(6087, trace.On, "f7", chess.NoPiece) // knocked onto f7
	h.at(7417, trace.Off, "f7", chess.NoPiece).at(7516, trace.On, "e6", chess.NoPiece) // put back
	h.at(9806, trace.Off, "e6", chess.NoPiece).at(9905, trace.Off, "f5", chess.NoPiece).at(10040, trace.On, "f5", chess.NoPiece)
	h.expect(start, "f5 gxf5 exf5", "")
}

// TestHesitationNamesTheSideTouched: on an occupancy board, 3. Nc3 let
// go, taken back to b1 and made again within a second, before Black
// begins: the board never stood in the position before it, and the note
// of pieces lifted and put back names White, whose knight it is, not
// Black, the player to move. (Colour and piece boards read the lift of
// the knight back on b1 as the takeback, with its note.)
func TestHesitationNamesTheSideTouched(t *testing.T) {
	start := mustFEN(t, "rnbqkbnr/ppp2ppp/4p3/3p4/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3")
	h := newHands(t, trace.Occupancy, start)
	h.move("b1", "c3").wait(1500).move("c3", "b1").wait(200).move("b1", "c3").wait(3000).move("g8", "f6")
	r, outs := h.run(Config{Start: start})
	if got := sanList(r); got != "Nc3 Nf6" {
		t.Errorf("moves %q, want %q", got, "Nc3 Nf6")
	}
	notes := notesOf(outs, NoteHesitation)
	for _, o := range notes {
		if o.Side != chess.White {
			t.Errorf("%s, want White's", AppendJSON(nil, &o))
		}
	}
	if len(notes) == 0 {
		t.Error("no hesitation note")
		for _, o := range outs {
			t.Logf("%s", AppendJSON(nil, &o))
		}
	}
}

// TestKnockedOntoTheSquareTheMoverLeft: 2. Nf3, its hand knocking the f2
// pawn onto g1, which the knight left; Black replies 2... d6 and the pawn
// is put back. On occupancy and colour boards 2. Nf3 with that knock shows
// as 2. f3, which was published; the put-back then read as an illegal
// knight move g1-f2, and the game stayed wrong with the board standing
// still in the true position. The put-back proves 2. Nf3.
func TestKnockedOntoTheSquareTheMoverLeft(t *testing.T) {
	start := mustFEN(t, "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
	for _, s := range allSensors {
		h := newHands(t, s, start)
		h.at(3623, trace.Off, "g1", chess.NoPiece).at(3785, trace.On, "f3", chess.WhiteKnight)
		h.at(3874, trace.Off, "f2", chess.NoPiece).at(3893, trace.On, "g1", chess.WhitePawn) // knocked
		h.at(5170, trace.Off, "d7", chess.NoPiece).at(5319, trace.On, "d6", chess.BlackPawn)
		h.at(6263, trace.Off, "g1", chess.NoPiece).at(6504, trace.On, "f2", chess.WhitePawn) // put back
		h.expect(start, "Nf3 d6", "")
	}
}

// TestKnockedSidewaysSlowly: on an occupancy board without a clock, at
// bullet pace, 17... hxg5's hand knocks g4 onto h4, where it lands 110
// ms later (slower than a hand's quickest carry next door), and it is put
// back after 18. Kb1; later 18... Rc8's hand knocks b7 one step along its
// diagonal onto c6, put back after 19. Bb5, and 20. Bxc6's hand knocks
// d5 back onto d6. No move explains the falls (a pawn sideways or back,
// a bishop stepping there and back between two of the other side's
// moves); read as no knock, nothing after 16. Qe1 was published for the
// rest of the game.
func TestKnockedSidewaysSlowly(t *testing.T) {
	start := mustFEN(t, "r2qr1k1/pb1n1pp1/1p5p/2pp4/3Pn1PB/P2BPP1N/1P5P/2KRQ2R b - - 2 16")
	h := newHands(t, trace.Occupancy, start)
	h.at(2068, trace.Off, "e4", chess.NoPiece).at(2243, trace.On, "g5", chess.NoPiece)
	h.at(2378, trace.Off, "g4", chess.NoPiece).at(2973, trace.Off, "h4", chess.NoPiece)
	h.at(3123, trace.Off, "g5", chess.NoPiece).at(3448, trace.On, "g5", chess.NoPiece)
	h.at(3498, trace.On, "g4", chess.NoPiece).at(3884, trace.Off, "h6", chess.NoPiece)
	h.at(4153, trace.Off, "g4", chess.NoPiece).at(4263, trace.On, "h4", chess.NoPiece)
	h.at(4821, trace.Off, "c1", chess.NoPiece).at(5051, trace.On, "b1", chess.NoPiece)
	h.at(6053, trace.Off, "h4", chess.NoPiece).at(6248, trace.On, "g4", chess.NoPiece)
	h.at(6735, trace.Off, "a8", chess.NoPiece).at(6980, trace.On, "c8", chess.NoPiece)
	h.at(7054, trace.Off, "b7", chess.NoPiece).at(7164, trace.On, "c6", chess.NoPiece)
	h.at(7672, trace.Off, "d3", chess.NoPiece).at(7893, trace.On, "b5", chess.NoPiece)
	h.at(9079, trace.Off, "c6", chess.NoPiece).at(9224, trace.On, "b7", chess.NoPiece)
	h.at(9839, trace.Off, "b7", chess.NoPiece).at(9844, trace.On, "c6", chess.NoPiece)
	h.at(10363, trace.Off, "b5", chess.NoPiece).at(10539, trace.Off, "c6", chess.NoPiece)
	h.at(10704, trace.On, "c6", chess.NoPiece).at(10798, trace.Off, "d5", chess.NoPiece)
	h.at(10944, trace.On, "d6", chess.NoPiece).at(11409, trace.Off, "c6", chess.NoPiece)
	h.at(12034, trace.On, "c7", chess.NoPiece).at(12050, trace.Off, "c8", chess.NoPiece)
	h.at(12164, trace.Off, "c7", chess.NoPiece).at(12194, trace.On, "c6", chess.NoPiece)
	h.at(12199, trace.Off, "c6", chess.NoPiece).at(12204, trace.On, "c6", chess.NoPiece)
	h.at(12629, trace.Off, "d6", chess.NoPiece).at(12813, trace.On, "d5", chess.NoPiece)
	h.at(13313, trace.Off, "d4", chess.NoPiece).at(13538, trace.Off, "c5", chess.NoPiece)
	h.at(13798, trace.On, "c5", chess.NoPiece)
	h.expect(start, "Ng5 Bxg5 hxg5 Kb1 Rc8 Bb5 Bc6 Bxc6 Rxc6 dxc5", "")
}

// TestCaptureNextDoorThenMovedBackOverIt: an occupancy board's decoder
// reads a slow fall onto the next square only where moves cannot: 27...
// dxc4 taken next door and 29. Bc4-d5 back over the pawn's square look
// just like d5 knocked onto c4 and put back, which must not hide the
// moves (g7 knocked onto h8 by 28... Kf8's hand, 150 ms in the air, is a
// fall).
func TestCaptureNextDoorThenMovedBackOverIt(t *testing.T) {
	start := mustFEN(t, "6k1/1p1b2p1/p6p/3p1p2/2PNnP1P/3B4/PP4P1/2K5 b - - 0 27")
	h := newHands(t, trace.Occupancy, start)
	h.at(1920, trace.Off, "c4", chess.NoPiece).at(2445, trace.Off, "d5", chess.NoPiece)
	h.at(2450, trace.On, "d5", chess.NoPiece).at(2455, trace.Off, "d5", chess.NoPiece)
	h.at(2655, trace.On, "c4", chess.NoPiece).at(3049, trace.Off, "d3", chess.NoPiece)
	h.at(3712, trace.On, "f8", chess.NoPiece).at(3712, trace.Off, "g8", chess.NoPiece)
	h.at(3837, trace.Off, "g7", chess.NoPiece).at(3987, trace.On, "h8", chess.NoPiece)
	h.at(4625, trace.Off, "c4", chess.NoPiece).at(4860, trace.On, "d5", chess.NoPiece)
	h.at(5512, trace.Off, "h8", chess.NoPiece).at(5672, trace.On, "g7", chess.NoPiece)
	h.at(6060, trace.Off, "e4", chess.NoPiece).at(6286, trace.On, "e6", chess.NoPiece)
	h.at(6571, trace.Off, "e6", chess.NoPiece).at(6811, trace.On, "d6", chess.NoPiece)
	h.at(7698, trace.Off, "c1", chess.NoPiece).at(7808, trace.On, "d2", chess.NoPiece)
	h.at(8357, trace.Off, "f8", chess.NoPiece).at(8482, trace.On, "e7", chess.NoPiece)
	h.expect(start, "dxc4 Bxc4+ Kf8 Bd5 Nd6 Kd2 Ke7", "")
}

// TestFallNotProofOfAnotherHistory: on an occupancy board without a
// clock, 9. Nxc6 (pushed off) and 9... Bxc6 leave 9. Nxe6 Bxe6 as another
// history, the board alike. Six moves later 15... Nd7's hand knocks e6
// onto f5 in 49 ms, put back 2.4 s later during 16. Bd4: only the other
// history had a piece on e6 that could go to f5 (its bishop), and the
// commit timer amended 9. Nxc6 Bxc6 to Nxe6 Bxe6 for good. A fall not yet
// put back proves no other history: the commit timer waits for it.
func TestFallNotProofOfAnotherHistory(t *testing.T) {
	start := mustFEN(t, "r2qk1nr/1p1bbppp/p1npp3/8/3NP3/2N3P1/PPP2PBP/R1BQ1RK1 w kq - 4 9")
	h := newHands(t, trace.Occupancy, start)
	h.at(620, trace.Off, "d4", chess.NoPiece).at(4593, trace.Off, "d7", chess.NoPiece)
	h.at(4762, trace.Off, "c6", chess.NoPiece).at(4842, trace.On, "c6", chess.NoPiece)
	h.at(11127, trace.Off, "a2", chess.NoPiece).at(11629, trace.On, "a4", chess.NoPiece)
	h.at(13485, trace.Off, "g8", chess.NoPiece).at(13703, trace.On, "f6", chess.NoPiece)
	h.at(14239, trace.Off, "a4", chess.NoPiece).at(14411, trace.On, "a5", chess.NoPiece)
	h.at(14985, trace.Off, "e8", chess.NoPiece).at(15705, trace.On, "e8", chess.NoPiece)
	h.at(17175, trace.Off, "e8", chess.NoPiece).at(17245, trace.Off, "h8", chess.NoPiece)
	h.at(17385, trace.On, "f8", chess.NoPiece).at(17755, trace.On, "g8", chess.NoPiece)
	h.at(17832, trace.Off, "e6", chess.NoPiece).at(17922, trace.On, "e6", chess.NoPiece)
	h.at(19306, trace.Off, "c1", chess.NoPiece).at(19499, trace.On, "e3", chess.NoPiece)
	h.at(19945, trace.Off, "f8", chess.NoPiece).at(20065, trace.On, "e8", chess.NoPiece)
	h.at(20556, trace.Off, "d1", chess.NoPiece).at(20777, trace.On, "e2", chess.NoPiece)
	h.at(21165, trace.Off, "d8", chess.NoPiece).at(21383, trace.On, "c7", chess.NoPiece)
	h.at(21452, trace.Off, "c6", chess.NoPiece).at(21641, trace.On, "b5", chess.NoPiece)
	h.at(22169, trace.Off, "e3", chess.NoPiece).at(22452, trace.On, "b6", chess.NoPiece)
	h.at(23241, trace.Off, "b5", chess.NoPiece).at(23352, trace.On, "c6", chess.NoPiece)
	h.at(23823, trace.Off, "c7", chess.NoPiece).at(23954, trace.On, "b8", chess.NoPiece)
	h.at(25216, trace.Off, "f1", chess.NoPiece).at(25336, trace.On, "d1", chess.NoPiece)
	h.at(25457, trace.Off, "c2", chess.NoPiece).at(26683, trace.Off, "f6", chess.NoPiece)
	h.at(26873, trace.On, "d7", chess.NoPiece).at(26977, trace.On, "c2", chess.NoPiece)
	h.at(27012, trace.Off, "e6", chess.NoPiece).at(27061, trace.On, "f5", chess.NoPiece)
	h.at(27602, trace.Off, "b6", chess.NoPiece).at(27770, trace.On, "d4", chess.NoPiece)
	h.at(29251, trace.Off, "f5", chess.NoPiece).at(29402, trace.On, "e6", chess.NoPiece)
	h.at(50634, trace.Off, "b8", chess.NoPiece).at(50983, trace.On, "c7", chess.NoPiece)
	h.at(53518, trace.Off, "c3", chess.NoPiece).at(53659, trace.On, "a4", chess.NoPiece)
	h.expect(start, "Nxc6 Bxc6 a4 Nf6 a5 O-O Be3 Re8 Qe2 Qc7 Bb6 Qb8 Rfd1 Nd7 Bd4 Qc7 Na4", "")
}

// TestVictimsSquareFilledAgainLogged: on an occupancy board without a
// clock, 31. Rxe8+ lifts the rook from e4, then the victim (e8 emptied 670 ms
// later and filled 380 ms after that: the rook set down), and its hand
// knocks f7 onto e7, put back 2.5 s later. The refilling of e8, taken
// while the victim's lift was held, was left out of the changes the
// ordered decoder reads: the board read 31. Rxc4 Qe7 (the rook pushing
// c4 off, e8 a touch), then lost the game for good. Every change is in
// the decoder's log.
func TestVictimsSquareFilledAgainLogged(t *testing.T) {
	start := mustFEN(t, "4r1k1/p4qpp/5p2/1pnP4/2p1R3/2P3BP/2Q2PP1/6K1 w - - 1 31")
	h := newHands(t, trace.Occupancy, start)
	h.at(1345, trace.Off, "e4", chess.NoPiece).at(2015, trace.Off, "e8", chess.NoPiece)
	h.at(2395, trace.On, "e8", chess.NoPiece).at(2513, trace.Off, "f7", chess.NoPiece)
	h.at(2673, trace.On, "e7", chess.NoPiece).at(5173, trace.Off, "e7", chess.NoPiece)
	h.at(5433, trace.On, "f7", chess.NoPiece).at(19855, trace.Off, "e8", chess.NoPiece)
	h.at(20573, trace.Off, "f7", chess.NoPiece).at(20955, trace.On, "e8", chess.NoPiece)
	h.at(21461, trace.Off, "f2", chess.NoPiece).at(21563, trace.On, "f3", chess.NoPiece)
	h.at(22627, trace.Off, "c5", chess.NoPiece).at(22882, trace.On, "d3", chess.NoPiece)
	h.at(23478, trace.Off, "g1", chess.NoPiece).at(23638, trace.On, "f1", chess.NoPiece)
	h.at(24192, trace.Off, "a7", chess.NoPiece).at(24447, trace.On, "a5", chess.NoPiece)
	h.at(26087, trace.Off, "d5", chess.NoPiece).at(26190, trace.On, "d6", chess.NoPiece)
	h.at(29476, trace.Off, "g8", chess.NoPiece).at(29673, trace.On, "f7", chess.NoPiece)
	h.at(29773, trace.Off, "g7", chess.NoPiece).at(29916, trace.On, "h8", chess.NoPiece)
	h.at(30721, trace.On, "f2", chess.NoPiece).at(30723, trace.Off, "g3", chess.NoPiece)
	h.at(32596, trace.Off, "h8", chess.NoPiece).at(32773, trace.On, "g7", chess.NoPiece)
	h.at(34547, trace.Off, "a5", chess.NoPiece).at(34664, trace.On, "a4", chess.NoPiece)
	h.expect(start, "Rxe8+ Qxe8 f3 Nd3 Kf1 a5 d6 Kf7 Bf2 a4", "")
}

// TestKnockedVictimPutBackThenCaptured: on an occupancy board without a
// clock, 14. cxd6's hand knocks c6 onto c7; 14... Qxd6 is made as the
// pawn is put back, and 15. dxc6 pushes it off 500 ms later. The knock
// that had taken c6 off was held against the capture (a victim fallen
// next door and put back is no capture's), the lifted d5 was alerted as
// out of place and the game went dark for 98 plies. A victim put back
// before the capturing piece is lifted was not taken by the knock.
func TestKnockedVictimPutBackThenCaptured(t *testing.T) {
	start := mustFEN(t, "r1bq1rk1/pp2n1bp/2pp1np1/2PPp3/4Pp2/2NN1P2/PP1BB1PP/R2Q1RK1 w - - 0 14")
	h := newHands(t, trace.Occupancy, start)
	h.at(1789, trace.Off, "c5", chess.NoPiece).at(2190, trace.Off, "d6", chess.NoPiece)
	h.at(2270, trace.On, "d6", chess.NoPiece).at(2410, trace.Off, "c6", chess.NoPiece)
	h.at(2601, trace.On, "c7", chess.NoPiece).at(4700, trace.Off, "d6", chess.NoPiece)
	h.at(4701, trace.Off, "c7", chess.NoPiece).at(5013, trace.Off, "d8", chess.NoPiece)
	h.at(5060, trace.On, "c6", chess.NoPiece).at(5230, trace.On, "d6", chess.NoPiece)
	h.at(5729, trace.Off, "d5", chess.NoPiece).at(13392, trace.Off, "e7", chess.NoPiece)
	h.at(13770, trace.Off, "c6", chess.NoPiece).at(14350, trace.On, "c6", chess.NoPiece)
	h.at(14816, trace.Off, "c3", chess.NoPiece).at(15029, trace.On, "b5", chess.NoPiece)
	h.at(18600, trace.Off, "d6", chess.NoPiece).at(18792, trace.On, "e7", chess.NoPiece)
	h.at(19186, trace.Off, "d3", chess.NoPiece).at(20176, trace.On, "d3", chess.NoPiece)
	h.at(20826, trace.Off, "d3", chess.NoPiece).at(21027, trace.On, "b4", chess.NoPiece)
	h.expect(start, "cxd6 Qxd6 dxc6 Nxc6 Nb5 Qe7 Nb4", "")
}

// TestTwoFallsNotFiveMoves: on an occupancy board without a clock, 8...
// Rxd8's hand knocks c8 onto d7 and 9. Bg5's knocks g6 onto f5; both are
// put back within 2.5 s. The board with both pieces fallen was read as
// five plies (8... Bf5 9. Qd7 g5 10. Bxg5 Rd8, the bishop and the pawn
// moving where they fell) when the bishop was picked up, and the game
// was lost for good. Two moves and two falls not yet put back explain it
// for less: the reply's rule waits for them.
func TestTwoFallsNotFiveMoves(t *testing.T) {
	start := mustFEN(t, "rnbQ1rk1/ppp2pbp/5np1/4p3/2P1P3/2N2N2/PP2BPPP/R1B1K2R b KQ - 0 8")
	h := newHands(t, trace.Occupancy, start)
	h.at(1055, trace.Off, "f8", chess.NoPiece).at(1414, trace.Off, "d8", chess.NoPiece)
	h.at(1774, trace.On, "d8", chess.NoPiece).at(1934, trace.Off, "c8", chess.NoPiece)
	h.at(1991, trace.On, "d7", chess.NoPiece).at(2416, trace.Off, "c1", chess.NoPiece)
	h.at(2667, trace.On, "g5", chess.NoPiece).at(2730, trace.Off, "g6", chess.NoPiece)
	h.at(2867, trace.On, "f5", chess.NoPiece).at(4351, trace.Off, "d7", chess.NoPiece)
	h.at(4834, trace.On, "c8", chess.NoPiece).at(5187, trace.Off, "f5", chess.NoPiece)
	h.at(5290, trace.On, "g6", chess.NoPiece).at(144534, trace.Off, "d8", chess.NoPiece)
	h.at(144814, trace.On, "e8", chess.NoPiece).at(165497, trace.Off, "e1", chess.NoPiece)
	h.at(165516, trace.Off, "a1", chess.NoPiece).at(166016, trace.On, "d1", chess.NoPiece)
	h.at(166176, trace.On, "c1", chess.NoPiece).at(176633, trace.Off, "b8", chess.NoPiece)
	h.at(176868, trace.On, "a6", chess.NoPiece)
	h.expect(start, "Rxd8 Bg5 Re8 O-O-O Na6", "")
}

// TestFallLooksLikeAPawnStep: on an occupancy board without a clock, 47.
// Rg6+ (slid from g7, its hand putting back c4, knocked onto b5 by 46...
// Rc3) knocks h6 onto h5, a pawn step 47... h5 would make; 47... Ke7 is
// made while the pawn lies there, and it is put back 2 s later. At the
// commit timer the board read as plies with h5 among them; the game was
// 50 plies behind for good. A fall not yet put back that explains the
// board in fewer plies for less makes the commit timer wait.
func TestFallLooksLikeAPawnStep(t *testing.T) {
	start := mustFEN(t, "8/R7/1p1k3p/2p5/2P3PP/1r2bNK1/8/8 w - - 1 46")
	h := newHands(t, trace.Occupancy, start)
	h.at(884, trace.Off, "a7", chess.NoPiece).at(1670, trace.On, "g7", chess.NoPiece)
	h.at(1794, trace.Off, "h6", chess.NoPiece).at(3779, trace.On, "h6", chess.NoPiece)
	h.at(15442, trace.Off, "b3", chess.NoPiece).at(15652, trace.On, "c3", chess.NoPiece)
	h.at(15743, trace.Off, "c4", chess.NoPiece).at(15873, trace.On, "b5", chess.NoPiece)
	h.at(18298, trace.Off, "b5", chess.NoPiece).at(18390, trace.Off, "g7", chess.NoPiece)
	h.at(18399, trace.On, "g6", chess.NoPiece).at(18558, trace.On, "c4", chess.NoPiece)
	h.at(18589, trace.Off, "h6", chess.NoPiece).at(18669, trace.On, "h5", chess.NoPiece)
	h.at(19279, trace.Off, "d6", chess.NoPiece).at(19280, trace.On, "e7", chess.NoPiece)
	h.at(21359, trace.Off, "h5", chess.NoPiece).at(21584, trace.On, "h6", chess.NoPiece)
	h.at(51499, trace.Off, "g6", chess.NoPiece).at(52029, trace.Off, "b6", chess.NoPiece)
	h.at(52169, trace.On, "b6", chess.NoPiece).at(52892, trace.Off, "c3", chess.NoPiece)
	h.at(53078, trace.Off, "c4", chess.NoPiece).at(53233, trace.On, "c4", chess.NoPiece)
	h.at(54813, trace.Off, "g4", chess.NoPiece).at(55048, trace.On, "g5", chess.NoPiece)
	h.expect(start, "Rg7 Rc3 Rg6+ Ke7 Rxb6 Rxc4 g5", "")
}

// TestFallLooksLikeTheReply: on an occupancy board without a clock, 13.
// Nxe6 (seen made: the victim lifted, the knight set down) and its hand
// knocks e7 onto f8 132 ms after it lands, put back 1.5 s later; 13...
// Qxd1 follows. The fall was read as the reply, 13... Bf8, though it
// came too soon after the landing for any reply, and the game was lost
// (in the stress grid's game as 13. Nxc6 Bf8, nine false alerts after).
// Two plies of which one is such a fall wait for the board to go on.
func TestFallLooksLikeTheReply(t *testing.T) {
	start := mustFEN(t, "r1bqr1k1/1pp1bppp/p1p1n3/4P3/3N1B2/2N5/PPP2PPP/R2QR1K1 w - - 5 13")
	h := newHands(t, trace.Occupancy, start)
	h.at(1040, trace.Off, "d4", chess.NoPiece).at(1532, trace.Off, "e6", chess.NoPiece)
	h.at(1792, trace.On, "e6", chess.NoPiece).at(1924, trace.Off, "e7", chess.NoPiece)
	h.at(2115, trace.On, "f8", chess.NoPiece).at(3625, trace.Off, "f8", chess.NoPiece)
	h.at(4094, trace.On, "e7", chess.NoPiece).at(4556, trace.Off, "d1", chess.NoPiece)
	h.at(4885, trace.Off, "d8", chess.NoPiece).at(5256, trace.On, "d1", chess.NoPiece)
	h.at(5831, trace.Off, "e5", chess.NoPiece).at(6171, trace.On, "e5", chess.NoPiece)
	h.at(7406, trace.Off, "a1", chess.NoPiece).at(8032, trace.Off, "e6", chess.NoPiece)
	h.at(8565, trace.Off, "c8", chess.NoPiece).at(8702, trace.On, "e6", chess.NoPiece)
	h.at(8724, trace.Off, "f7", chess.NoPiece).at(10284, trace.On, "f7", chess.NoPiece)
	h.at(29007, trace.Off, "a2", chess.NoPiece).at(29249, trace.On, "a4", chess.NoPiece)
	h.at(29469, trace.Off, "a4", chess.NoPiece).at(29838, trace.On, "a3", chess.NoPiece)
	h.at(33764, trace.Off, "a8", chess.NoPiece).at(34175, trace.On, "d8", chess.NoPiece)
	h.expect(start, "Nxe6 Qxd1 Raxd1 Bxe6 a3 Rad8", "")
}

// TestFallOntoSquareLeft: 2. Nf3's hand knocks f2 onto g1, the square the
// knight has just left, 147 ms after it landed (falling 297 ms), and puts
// it back after 2... Nc6. On an occupancy board the squares alone read
// 2. f3 with the knight lifted and put back (f3 shown filled before f2
// emptied, as a slide shows), and the game was lost for good once the
// pawn went back to f2. The landing that made f2 fall was another
// piece's: the commit timer waits for the put-back.
func TestFallOntoSquareLeft(t *testing.T) {
	start := mustFEN(t, chess.StartFEN)
	h := newHands(t, trace.Occupancy, start)
	h.at(2420, trace.Off, "e2", chess.NoPiece).at(2627, trace.On, "e4", chess.NoPiece)
	h.at(3136, trace.Off, "e7", chess.NoPiece).at(3330, trace.On, "e5", chess.NoPiece)
	h.at(3768, trace.Off, "g1", chess.NoPiece).at(4024, trace.On, "f3", chess.NoPiece)
	h.at(4171, trace.Off, "f2", chess.NoPiece).at(4468, trace.On, "g1", chess.NoPiece)
	h.at(4588, trace.Off, "b8", chess.NoPiece).at(4857, trace.On, "c6", chess.NoPiece)
	h.at(6243, trace.Off, "g1", chess.NoPiece).at(6621, trace.On, "f2", chess.NoPiece)
	h.at(6718, trace.Off, "f1", chess.NoPiece).at(7001, trace.On, "c4", chess.NoPiece)
	h.expect(start, "e4 e5 Nf3 Nc6 Bc4", "")
}

// TestFallPickedUpAsReplyLands: 13... Qg5's hand knocks f4 onto e3 (the
// pawn falls 277 ms), 14. Qf3, and White picks the pawn up from e3 while
// 14... Ng8 is in the air, to put it back on f4 after the knight lands.
// The reply's rule took the put-back for the reply's first act, and the
// board before it (f4 and e3 both empty) for five plies, 13... Qxg4 14.
// Qd2 f3 15. Qg5 Ng8, with captures and landings nobody saw: two plies
// never played, and no alert. The pawn back on f4 explains the board in
// three plies: that change is no reply (putBackCheaper).
func TestFallPickedUpAsReplyLands(t *testing.T) {
	start := mustFEN(t, "rnb1kb1r/p2p1ppp/5nq1/1p3N1P/4PpP1/3P4/PPP5/RNBQ1KR1 b kq - 0 13")
	h := newHands(t, trace.Occupancy, start)
	h.at(2517, trace.Off, "g6", chess.NoPiece).at(2734, trace.On, "g5", chess.NoPiece)
	h.at(2892, trace.Off, "f4", chess.NoPiece).at(3169, trace.On, "e3", chess.NoPiece)
	h.at(4004, trace.Off, "d1", chess.NoPiece).at(4289, trace.On, "f3", chess.NoPiece)
	h.at(4617, trace.Off, "f6", chess.NoPiece).at(4689, trace.Off, "e3", chess.NoPiece)
	h.at(4762, trace.On, "g8", chess.NoPiece).at(5072, trace.On, "f4", chess.NoPiece)
	h.at(5824, trace.Off, "c1", chess.NoPiece)
	h.at(7034, trace.Off, "g5", chess.NoPiece).at(7297, trace.On, "f6", chess.NoPiece)
	h.at(8124, trace.Off, "b1", chess.NoPiece).at(8349, trace.On, "c3", chess.NoPiece)
	h.at(9002, trace.Off, "f8", chess.NoPiece).at(9294, trace.On, "c5", chess.NoPiece)
	h.at(10529, trace.Off, "c3", chess.NoPiece).at(10734, trace.On, "d5", chess.NoPiece)
	h.expect(start, "Qg5 Qf3 Ng8 Bxf4 Qf6 Nc3 Bc5 Nd5", "")
}

// TestCaptureChatterNoFall: 37. axb4, its victim's square chattering (b4
// emptied, filled and emptied within 10 ms) 400 ms before the pawn left
// a3. A square next to a3 filled before a3 emptied, and filled again
// soon after, looks like a3's piece knocked over by the hand that set a
// piece on b4 (slidFromFall): the commit timer and the reply's rule
// waited, and axb4 came out 4 plies late, with 39. Rd1. The same square
// filled again is the capture's own contacts.
func TestCaptureChatterNoFall(t *testing.T) {
	start := mustFEN(t, "4r2k/4r1qp/2PR4/2P1p3/1p3p2/P4Q1P/6P1/4R2K w - - 0 37")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "b4", chess.NoPiece).at(1005, trace.On, "b4", chess.NoPiece)
	h.at(1010, trace.Off, "b4", chess.NoPiece).at(1405, trace.Off, "a3", chess.NoPiece)
	h.at(1600, trace.On, "b4", chess.NoPiece).at(2303, trace.Off, "e8", chess.NoPiece)
	h.at(2513, trace.On, "f8", chess.NoPiece).at(3829, trace.Off, "e1", chess.NoPiece)
	h.at(3976, trace.On, "e4", chess.NoPiece).at(4358, trace.Off, "e7", chess.NoPiece)
	h.at(4602, trace.On, "a7", chess.NoPiece).at(5082, trace.Off, "d6", chess.NoPiece)
	h.at(5444, trace.On, "d1", chess.NoPiece)
	h.expect(start, "axb4 Rf8 Re4 Ra7 Rd1", "")
	h.publishedBy(start, 73, 2513, "axb4", "37... Rf8 landed")
}

// TestCastlingRookToppledOntoKingsSquare: 6. O-O king first, the rook set
// on f1 toppling 60 ms later onto the e1 the king had left (falling
// 120 ms), put back on f1 by Black after 6... O-O. The squares read 6.
// Rg1 with the king lifted and put back, then 6... O-O, and the put-back
// (e1 emptied, f1 filled) was alerted as pieces out of place. A piece
// that stood less than a touch-down before it fell onto a square a lift
// had emptied is no touch-down: the board with the fall undone (O-O)
// is waited for (toppledOntoLeft).
func TestCastlingRookToppledOntoKingsSquare(t *testing.T) {
	start := mustFEN(t, chess.StartFEN)
	h := newHands(t, trace.Occupancy, start)
	h.at(2705, trace.Off, "e2", chess.NoPiece).at(2930, trace.On, "e4", chess.NoPiece)
	h.at(3357, trace.Off, "e7", chess.NoPiece).at(3575, trace.On, "e6", chess.NoPiece)
	h.at(4325, trace.Off, "d2", chess.NoPiece).at(4550, trace.On, "d4", chess.NoPiece)
	h.at(5657, trace.Off, "d7", chess.NoPiece).at(5912, trace.On, "d5", chess.NoPiece)
	h.at(7250, trace.Off, "e4", chess.NoPiece).at(8655, trace.Off, "e6", chess.NoPiece)
	h.at(8872, trace.Off, "d5", chess.NoPiece).at(8952, trace.On, "d5", chess.NoPiece)
	h.at(9382, trace.Off, "g1", chess.NoPiece).at(9647, trace.On, "f3", chess.NoPiece)
	h.at(10480, trace.Off, "g8", chess.NoPiece).at(10695, trace.On, "f6", chess.NoPiece)
	h.at(12142, trace.Off, "f1", chess.NoPiece).at(12467, trace.On, "d3", chess.NoPiece)
	h.at(13920, trace.Off, "f8", chess.NoPiece).at(14195, trace.On, "d6", chess.NoPiece)
	h.at(14582, trace.Off, "e1", chess.NoPiece).at(14862, trace.On, "g1", chess.NoPiece)
	h.at(15042, trace.Off, "h1", chess.NoPiece).at(15202, trace.On, "f1", chess.NoPiece)
	h.at(15262, trace.Off, "f1", chess.NoPiece).at(15382, trace.On, "e1", chess.NoPiece)
	h.at(16140, trace.Off, "e8", chess.NoPiece).at(16420, trace.On, "g8", chess.NoPiece)
	h.at(16680, trace.Off, "h8", chess.NoPiece).at(16840, trace.On, "f8", chess.NoPiece)
	h.at(17282, trace.Off, "e1", chess.NoPiece).at(17602, trace.On, "f1", chess.NoPiece)
	h.at(17842, trace.Off, "c1", chess.NoPiece).at(18152, trace.On, "g5", chess.NoPiece)
	h.expect(start, "e4 e6 d4 d5 exd5 exd5 Nf3 Nf6 Bd3 Bd6 O-O O-O Bg5", "")
}

// TestSlideNotToppled: 20... Bxg2, the victim taken off first and the
// bishop slid from d5 over e4 and f3, each shown about 100 ms. f3 filled
// and emptied sooner than a touch-down rests, and g2 (emptied by the
// victim's lift) filled next: a piece set down that toppled onto a
// square a lift had emptied (toppledOntoLeft). The commit timer waited,
// and Bxg2 came out with 21. Kxg2 and 21... exf4, 2 plies late. A
// square a move slides over, or its landing, is no fall.
func TestSlideNotToppled(t *testing.T) {
	start := mustFEN(t, "r4rk1/p2qb1p1/1p5p/3bpp2/3p1P2/1P1P2P1/P2QPNBP/R4RK1 b - - 1 20")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "g2", chess.NoPiece).at(1646, trace.On, "e4", chess.NoPiece)
	h.at(1671, trace.Off, "d5", chess.NoPiece).at(1745, trace.On, "f3", chess.NoPiece)
	h.at(1756, trace.Off, "e4", chess.NoPiece).at(1845, trace.Off, "f3", chess.NoPiece)
	h.at(1855, trace.On, "g2", chess.NoPiece).at(2744, trace.Off, "g1", chess.NoPiece)
	h.at(3386, trace.Off, "e5", chess.NoPiece).at(3501, trace.Off, "f4", chess.NoPiece)
	h.at(3661, trace.On, "f4", chess.NoPiece)
	h.expect(start, "Bxg2 Kxg2 exf4", "")
	h.publishedBy(start, 40, 2744, "Bxg2", "21. Kxg2 began")
}

// TestCastlingKnockReadAsRookMove: 5. O-O, its hand knocking f2 onto the
// e1 the king had left, f2 put back during 5... Be7, then 6. Re1. The
// board after 6. Re1 is, square for square, 5. Rg1 Be7: read so (the
// rook shown on g1 before h1 emptied, the king lifted and put back, a
// piece on f1 from nowhere for 2.7 s), one point cheaper than O-O Be7
// Re1; 6... b5 and 7. Bb3 followed, and 7... d6 was alerted as an
// illegal move by Black. The ordered decoder reads the changes in
// their order as the three plies: of explanations that close, the
// commit timer takes its (orderedCand).
func TestCastlingKnockReadAsRookMove(t *testing.T) {
	start := mustFEN(t, chess.StartFEN)
	h := newHands(t, trace.Occupancy, start)
	h.at(3316, trace.Off, "e2", chess.NoPiece).at(3543, trace.On, "e5", chess.NoPiece)
	h.at(3723, trace.Off, "e5", chess.NoPiece).at(3821, trace.On, "e4", chess.NoPiece)
	h.at(4528, trace.Off, "e7", chess.NoPiece).at(4863, trace.On, "e5", chess.NoPiece)
	h.at(6073, trace.Off, "g1", chess.NoPiece).at(6378, trace.On, "f3", chess.NoPiece)
	h.at(7271, trace.Off, "b8", chess.NoPiece).at(7506, trace.On, "c6", chess.NoPiece)
	h.at(8233, trace.Off, "f1", chess.NoPiece).at(8543, trace.On, "b5", chess.NoPiece)
	h.at(9208, trace.Off, "a7", chess.NoPiece).at(9386, trace.On, "a6", chess.NoPiece)
	h.at(9883, trace.Off, "b5", chess.NoPiece).at(10061, trace.On, "a4", chess.NoPiece)
	h.at(11331, trace.Off, "g8", chess.NoPiece).at(11526, trace.On, "f6", chess.NoPiece)
	h.at(11833, trace.Off, "e1", chess.NoPiece).at(12033, trace.On, "g1", chess.NoPiece)
	h.at(12253, trace.Off, "h1", chess.NoPiece).at(12453, trace.On, "f1", chess.NoPiece)
	h.at(12516, trace.Off, "f2", chess.NoPiece).at(12813, trace.On, "e1", chess.NoPiece)
	h.at(13211, trace.Off, "f8", chess.NoPiece).at(13408, trace.On, "e7", chess.NoPiece)
	h.at(14953, trace.Off, "e1", chess.NoPiece).at(15116, trace.On, "f2", chess.NoPiece)
	h.at(15213, trace.Off, "f1", chess.NoPiece).at(15373, trace.On, "e1", chess.NoPiece)
	h.at(16488, trace.Off, "b7", chess.NoPiece).at(16703, trace.On, "b5", chess.NoPiece)
	h.at(17161, trace.Off, "a4", chess.NoPiece).at(17298, trace.On, "b3", chess.NoPiece)
	h.at(18408, trace.Off, "d7", chess.NoPiece).at(18586, trace.On, "d6", chess.NoPiece)
	h.expect(start, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6", "")
}

// TestOrderedReadingNotDearer: 40. Kxg2, then 40... Qxd5+ pushed off (no
// change on d5) whose hand knocked d6 onto e5; the piece was picked up
// from e5 and put back on d6 as 41. Kf2 was made. The ordered decoder
// reads 40... Qe5 41. Kf2 Qxd5, four plies for 67 against the three
// plies' 57: that far apart, the order of the changes does not decide
// (orderedCand), and 41... Qd2+ follows the true game.
func TestOrderedReadingNotDearer(t *testing.T) {
	start := mustFEN(t, "8/3QRpbk/p2p2pp/3P1q2/5P2/6PP/6rK/2R5 w - - 0 40")
	h := newHands(t, trace.Occupancy, start)
	h.at(3100, trace.Off, "h2", chess.NoPiece)
	h.at(3250, trace.Off, "g2", chess.NoPiece).at(3350, trace.On, "g2", chess.NoPiece)
	h.at(3431, trace.Off, "h3", chess.NoPiece).at(5091, trace.On, "h3", chess.NoPiece)
	h.at(5163, trace.Off, "f5", chess.NoPiece).at(5474, trace.Off, "d6", chess.NoPiece)
	h.at(5633, trace.On, "e5", chess.NoPiece).at(6630, trace.Off, "g2", chess.NoPiece)
	h.at(6850, trace.On, "f2", chess.NoPiece).at(7723, trace.Off, "e5", chess.NoPiece)
	h.at(7854, trace.On, "d6", chess.NoPiece).at(15093, trace.Off, "d5", chess.NoPiece)
	h.at(15639, trace.On, "d2", chess.NoPiece)
	h.expect(start, "Kxg2 Qxd5+ Kf2 Qd2+", "")
}

// TestChess960CastlingNotASlide: a Chess960 16. O-O-O from b1, the rook
// on a1 touched and set back 430 ms before the king left b1 for c1, then
// the rook to d1. b1 emptied soon after a landing next to it (the rook
// set back on a1) and c1 filled next: a fall from b1, and the castling,
// written as the king taking its rook on a1, looked like a slide from
// the fall's square onto that landing (slidFromFall). The commit timer
// waited, and O-O-O came out 4 plies late. A castling is no slide.
func TestChess960CastlingNotASlide(t *testing.T) {
	start := mustFEN(t, "rkn5/2p1p2p/2b4n/2N1Pp2/p2Q4/P7/1PP4q/RK2B1N1 w A - 4 16")
	start.SetChess960(true)
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "a1", chess.NoPiece).at(1070, trace.On, "a1", chess.NoPiece)
	h.at(1500, trace.Off, "b1", chess.NoPiece).at(1630, trace.On, "c1", chess.NoPiece)
	h.at(1840, trace.Off, "a1", chess.NoPiece).at(2150, trace.On, "d1", chess.NoPiece)
	h.at(2607, trace.Off, "h6", chess.NoPiece).at(2798, trace.On, "f7", chess.NoPiece)
	h.at(3314, trace.Off, "d4", chess.NoPiece).at(3543, trace.On, "b4", chess.NoPiece)
	h.at(3939, trace.Off, "c8", chess.NoPiece).at(4066, trace.On, "b6", chess.NoPiece)
	h.expect(start, "O-O-O Nf7 Qb4+ Nb6", "")
	h.publishedBy(start, 31, 2607, "O-O-O", "16... Nf7 began")
}

// TestBlackRookToppledOntoKingsSquare: 8... O-O-O, the king first, the
// rook set on d8 toppling 50 ms later onto the e8 the king had left
// (falling 175 ms), put back by White after 9. Bd2. No landing next to
// d8 came within a knock's time before d8 emptied (the king's on c8,
// 525 ms before): only the rook's own landing there, which the falls
// a hand knocks over do not count. Read as 8... Rc8, then the put-back
// as 9... Kd8, never played. The piece's own landing counts for a
// piece that toppled (toppledOntoLeft).
func TestBlackRookToppledOntoKingsSquare(t *testing.T) {
	start := mustFEN(t, chess.StartFEN)
	h := newHands(t, trace.Occupancy, start)
	h.at(2543, trace.Off, "e2", chess.NoPiece).at(2800, trace.On, "e4", chess.NoPiece)
	h.at(4034, trace.Off, "d7", chess.NoPiece).at(4278, trace.On, "d5", chess.NoPiece)
	h.at(4650, trace.Off, "e4", chess.NoPiece).at(5412, trace.Off, "d8", chess.NoPiece)
	h.at(5628, trace.Off, "d5", chess.NoPiece).at(5778, trace.On, "d5", chess.NoPiece)
	h.at(6290, trace.Off, "b1", chess.NoPiece).at(6546, trace.On, "c3", chess.NoPiece)
	h.at(6953, trace.Off, "d5", chess.NoPiece).at(7253, trace.On, "a5", chess.NoPiece)
	h.at(7918, trace.Off, "d2", chess.NoPiece).at(8200, trace.On, "d4", chess.NoPiece)
	h.at(9109, trace.Off, "c7", chess.NoPiece).at(9281, trace.On, "c6", chess.NoPiece)
	h.at(9965, trace.Off, "g1", chess.NoPiece).at(10246, trace.On, "f3", chess.NoPiece)
	h.at(11587, trace.Off, "c8", chess.NoPiece).at(11878, trace.On, "f5", chess.NoPiece)
	h.at(12365, trace.Off, "f1", chess.NoPiece).at(12675, trace.On, "c4", chess.NoPiece)
	h.at(13109, trace.Off, "e7", chess.NoPiece).at(13306, trace.On, "e6", chess.NoPiece)
	h.at(14340, trace.Off, "e1", chess.NoPiece).at(14465, trace.Off, "h1", chess.NoPiece)
	h.at(14765, trace.On, "g1", chess.NoPiece).at(14915, trace.On, "f1", chess.NoPiece)
	h.at(15262, trace.Off, "b8", chess.NoPiece).at(15459, trace.On, "d7", chess.NoPiece)
	h.at(16015, trace.Off, "f1", chess.NoPiece).at(16265, trace.On, "e1", chess.NoPiece)
	h.at(17137, trace.Off, "e8", chess.NoPiece).at(17337, trace.On, "c8", chess.NoPiece)
	h.at(17587, trace.Off, "a8", chess.NoPiece).at(17812, trace.On, "d8", chess.NoPiece)
	h.at(17862, trace.Off, "d8", chess.NoPiece).at(18037, trace.On, "e8", chess.NoPiece)
	h.at(18465, trace.Off, "c1", chess.NoPiece).at(18718, trace.On, "d2", chess.NoPiece)
	h.at(19137, trace.Off, "e8", chess.NoPiece).at(19312, trace.On, "d8", chess.NoPiece)
	h.expect(start, "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 c6 Nf3 Bf5 Bc4 e6 O-O Nd7 Re1 O-O-O Bd2", "")
}

// TestPushedCaptureKnock: 18. exf5, the victim pushed off (f5 never
// changed), its hand knocking the bishop from g4 onto h5 225 ms after the
// pawn's lift; 18... e4 made, then the bishop put back and 19. Nd4 Bxd4
// 20. Bxg4 e3. With no landing seen the fall was read as 18... Bh5, and
// the game caught up with four plies never played (19. Nd4 Bg4 20. Nf3
// e4), no alert.
func TestPushedCaptureKnock(t *testing.T) {
	start := mustFEN(t, "r4r1k/bpp1qpp1/p6p/4pp2/4P1b1/PQP2N2/1P2BPPP/R4RK1 w - - 2 18")
	h := newHands(t, trace.Occupancy, start)
	h.at(1312, trace.Off, "e4", chess.NoPiece).at(1537, trace.Off, "g4", chess.NoPiece)
	h.at(1665, trace.On, "h5", chess.NoPiece).at(2865, trace.Off, "e5", chess.NoPiece)
	h.at(3062, trace.On, "e4", chess.NoPiece).at(3415, trace.Off, "h5", chess.NoPiece)
	h.at(3787, trace.On, "g4", chess.NoPiece).at(3884, trace.Off, "f3", chess.NoPiece)
	h.at(4112, trace.On, "d4", chess.NoPiece).at(4496, trace.Off, "a7", chess.NoPiece)
	h.at(4787, trace.Off, "d4", chess.NoPiece).at(4862, trace.On, "d4", chess.NoPiece)
	h.at(5505, trace.Off, "e2", chess.NoPiece).at(5962, trace.Off, "e4", chess.NoPiece)
	h.at(6284, trace.On, "e3", chess.NoPiece)
	h.expect(start, "exf5 e4 Nd4 Bxd4 Bxg4 e3", "")
}

// TestPushedCaptureKnockOntoLeft: 13... Rxd7, the victim pushed off, its
// hand knocking the queen from e7 onto the d8 the rook had left 272 ms
// after the rook's lift; the queen put back during 14. Rd1. Read as 13...
// Qxd7 with the rook lifted and put back, 14... Qe6 (the queen's next
// move) was then alerted as misplaced pieces, and the game went dark.
func TestPushedCaptureKnockOntoLeft(t *testing.T) {
	start := mustFEN(t, "3rkb1r/p2Rqppp/5n2/1B2p1B1/4P3/1Q6/PPP2PPP/2K4R b k - 0 13")
	h := newHands(t, trace.Occupancy, start)
	h.at(1202, trace.Off, "d8", chess.NoPiece).at(1474, trace.Off, "e7", chess.NoPiece)
	h.at(1527, trace.On, "d8", chess.NoPiece).at(1907, trace.Off, "h1", chess.NoPiece)
	h.at(2205, trace.On, "d1", chess.NoPiece).at(3177, trace.Off, "d8", chess.NoPiece)
	h.at(3499, trace.On, "e7", chess.NoPiece).at(3624, trace.Off, "e7", chess.NoPiece)
	h.at(3846, trace.On, "e6", chess.NoPiece).at(4717, trace.Off, "b5", chess.NoPiece)
	h.at(4849, trace.Off, "d7", chess.NoPiece).at(5149, trace.On, "d7", chess.NoPiece)
	h.at(6322, trace.Off, "f6", chess.NoPiece).at(7011, trace.Off, "b3", chess.NoPiece)
	h.at(7401, trace.On, "b8", chess.NoPiece).at(8174, trace.Off, "d7", chess.NoPiece)
	h.at(8376, trace.Off, "b8", chess.NoPiece).at(8476, trace.On, "b8", chess.NoPiece)
	h.at(8955, trace.Off, "d1", chess.NoPiece).at(9452, trace.On, "d8", chess.NoPiece)
	h.expect(start, "Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#", "checkmate@33")
}

// TestCastlingRookKnockedOntoKingsSquare: 14. O-O, the king set on g1
// knocking the rook just set on f1 onto e1 144 ms later, 14... b5 made
// while it fell, the rook put back after it. The board before the
// put-back reads exactly as 14. Rg1 b5 with the king lifted and put back
// and a piece shown on f1 a moment (cost 25); it was published, and the
// put-back read as 15. Kf1, three plies that were never played after it.
// The fall undone, O-O b5 explains the board for nothing.
func TestCastlingRookKnockedOntoKingsSquare(t *testing.T) {
	start := mustFEN(t, "r1b1k2r/1pq1ppb1/p1np1n1p/6p1/2B1P3/1NN3BP/PPP1QPP1/R3K2R w KQkq - 7 14")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "e1", chess.NoPiece).at(1096, trace.Off, "h1", chess.NoPiece)
	h.at(1384, trace.On, "f1", chess.NoPiece).at(1560, trace.On, "g1", chess.NoPiece)
	h.at(1704, trace.Off, "f1", chess.NoPiece).at(1859, trace.Off, "b7", chess.NoPiece)
	h.at(1928, trace.On, "e1", chess.NoPiece).at(2063, trace.On, "b5", chess.NoPiece)
	h.at(2568, trace.Off, "e1", chess.NoPiece).at(2845, trace.Off, "c4", chess.NoPiece)
	h.at(2952, trace.On, "f1", chess.NoPiece).at(3019, trace.On, "d3", chess.NoPiece)
	h.at(4308, trace.Off, "e7", chess.NoPiece).at(4496, trace.On, "e5", chess.NoPiece)
	h.at(5129, trace.Off, "a2", chess.NoPiece).at(5341, trace.On, "a4", chess.NoPiece)
	h.at(6143, trace.Off, "b5", chess.NoPiece).at(6301, trace.On, "b4", chess.NoPiece)
	h.at(7627, trace.Off, "c3", chess.NoPiece).at(7815, trace.On, "d1", chess.NoPiece)
	h.at(8534, trace.Off, "e8", chess.NoPiece).at(8678, trace.Off, "h8", chess.NoPiece)
	h.at(8838, trace.On, "f8", chess.NoPiece).at(9030, trace.On, "g8", chess.NoPiece)
	h.at(9399, trace.Off, "d1", chess.NoPiece).at(9548, trace.On, "e3", chess.NoPiece)
	h.at(10337, trace.Off, "c6", chess.NoPiece).at(10580, trace.On, "e7", chess.NoPiece)
	h.at(11400, trace.Off, "f1", chess.NoPiece).at(11623, trace.On, "d1", chess.NoPiece)
	h.at(12561, trace.Off, "a6", chess.NoPiece).at(12815, trace.On, "a5", chess.NoPiece)
	h.at(13499, trace.Off, "b3", chess.NoPiece).at(13689, trace.On, "d2", chess.NoPiece)
	h.at(14085, trace.Off, "c8", chess.NoPiece).at(14290, trace.On, "e6", chess.NoPiece)
	h.expect(start, "O-O b5 Bd3 e5 a4 b4 Nd1 O-O Ne3 Ne7 Rfd1 a5 Nd2 Be6", "")
}

// TestFallOntoSquareLeftAsItLanded: 6. Nf3, its hand knocking f2 onto
// the g1 it had left 23 ms after the knight landed, sooner than a slide
// shows its landing first (slideLiftMs); the pawn picked up as 6... Nc6
// was in the air and put back. Read as 6. f3 with the knight lifted and
// put back, then 7. Bc4 Ba3 8. Nh3 Bc5 9. Nf2: a pawn slid while the
// hand held the knight. The square the fall lands on was emptied by a
// lift a carry before the landing next to it: the hand carried a piece
// from there, and knocked this one as it let go.
func TestFallOntoSquareLeftAsItLanded(t *testing.T) {
	start := mustFEN(t, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 8 6")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "g1", chess.NoPiece).at(1242, trace.On, "f3", chess.NoPiece)
	h.at(1265, trace.Off, "f2", chess.NoPiece).at(1516, trace.On, "g1", chess.NoPiece)
	h.at(2305, trace.Off, "b8", chess.NoPiece).at(2416, trace.Off, "g1", chess.NoPiece)
	h.at(2530, trace.On, "c6", chess.NoPiece).at(2597, trace.On, "f2", chess.NoPiece)
	h.at(3399, trace.Off, "f1", chess.NoPiece).at(3667, trace.On, "c4", chess.NoPiece)
	h.at(4574, trace.Off, "f8", chess.NoPiece).at(4881, trace.On, "c5", chess.NoPiece)
	h.expect(start, "Nf3 Nc6 Bc4 Bc5", "")
}

// TestVictimFirstAfterPushedCapture: 12... Nxe5 pushing the knight off,
// then 13. dxe5 taking the knight off first, d4 lifted 497 ms later and
// set on e5. With d4's lift undone the board read as 13... Nxd4 and 14.
// Nxg4, both pushed off, cheaper: a fall of d4 onto e5 (pushedFall), and
// the two captures waited for a put-back that never came. The fallen
// piece stands still in the board without its fall: no move's square.
func TestVictimFirstAfterPushedCapture(t *testing.T) {
	start := mustFEN(t, "r2qk2r/ppp1ppb1/1nn1b2p/4N3/3P2p1/2N3B1/PPQ1PPPP/3RKB1R b Kkq - 1 12")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "c6", chess.NoPiece).at(3218, trace.Off, "e5", chess.NoPiece)
	h.at(3715, trace.Off, "d4", chess.NoPiece).at(3898, trace.On, "e5", chess.NoPiece)
	h.at(4545, trace.On, "c8", chess.NoPiece).at(4545, trace.Off, "d8", chess.NoPiece)
	h.at(5133, trace.On, "f3", chess.NoPiece).at(5151, trace.Off, "f2", chess.NoPiece)
	h.at(5273, trace.Off, "f3", chess.NoPiece).at(5296, trace.On, "f4", chess.NoPiece)
	h.at(6656, trace.Off, "f4", chess.NoPiece).at(6936, trace.Off, "g4", chess.NoPiece)
	h.at(7053, trace.On, "f3", chess.NoPiece).at(7690, trace.Off, "e2", chess.NoPiece)
	h.expect(start, "Nxe5 dxe5 Qc8 f4 gxf3 exf3", "")
	h.publishedBy(start, 25, 4544, "dxe5", "13... Qc8 landed")
}

// TestChatterNoLanding: 7... Bg4 slid from c8, its landing knocking the
// knight from f3 onto g3; the knight picked up, its contact chattering
// 5 ms (on, off) as it left, 8. h3 lifted 25 ms later, the knight put
// back on f3. The chatter read as a landing next to h2 made 8. h3 a
// fall (falls), the commit timer waited, and 8... Bxf3 then read as 7...
// Bh3 with the h2 pawn out of place (a false alert). A contact that
// chatters is no piece set down.
func TestChatterNoLanding(t *testing.T) {
	start := mustFEN(t, "r1bqkb1r/pp3ppp/2np1n2/4p3/4PP2/2N2N2/PPP3PP/R1BQKB1R b KQkq - 1 7")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.On, "d7", chess.NoPiece).at(1021, trace.Off, "c8", chess.NoPiece)
	h.at(1080, trace.Off, "d7", chess.NoPiece).at(1085, trace.On, "e6", chess.NoPiece)
	h.at(1159, trace.On, "f5", chess.NoPiece).at(1175, trace.Off, "e6", chess.NoPiece)
	h.at(1229, trace.Off, "f5", chess.NoPiece).at(1244, trace.On, "g4", chess.NoPiece)
	h.at(1403, trace.Off, "f3", chess.NoPiece).at(1453, trace.On, "g3", chess.NoPiece)
	h.at(3868, trace.Off, "g3", chess.NoPiece).at(3873, trace.On, "g3", chess.NoPiece)
	h.at(3878, trace.Off, "g3", chess.NoPiece).at(3903, trace.Off, "h2", chess.NoPiece)
	h.at(4073, trace.On, "h3", chess.NoPiece).at(4298, trace.On, "f3", chess.NoPiece)
	h.at(8098, trace.Off, "f3", chess.NoPiece).at(8834, trace.Off, "g4", chess.NoPiece)
	h.at(9193, trace.On, "f3", chess.NoPiece).at(41472, trace.Off, "d1", chess.NoPiece)
	h.at(41808, trace.Off, "f3", chess.NoPiece).at(41943, trace.On, "f3", chess.NoPiece)
	h.at(82351, trace.Off, "d8", chess.NoPiece).at(82899, trace.On, "a5", chess.NoPiece)
	h.expect(start, "Bg4 h3 Bxf3 Qxf3 Qa5", "")
	h.publishedBy(start, 15, 8098, "h3", "8... Bxf3 began")
}

// TestBishopToppledBackOntoOrigin: 7. Bh4, the bishop set on h4 and
// toppling after 112 ms (less than a touch-down rests, minTouchMs) back
// onto the g5 it had left; 7... b6, then the bishop put back on h4. The
// board back as before read as the bishop lifted and put back; then 7.
// Bh4 b6 (cost 77: b6 made before the bishop's last landing) lost to
// Bh4 with b6 and b7 out of place (65), a false alert.
func TestBishopToppledBackOntoOrigin(t *testing.T) {
	start := mustFEN(t, "rnbq1rk1/ppp1bpp1/4pn1p/3p2B1/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 7")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "g5", chess.NoPiece).at(1222, trace.On, "h4", chess.NoPiece)
	h.at(1334, trace.Off, "h4", chess.NoPiece).at(1512, trace.On, "g5", chess.NoPiece)
	h.at(1884, trace.Off, "b7", chess.NoPiece).at(2026, trace.On, "b6", chess.NoPiece)
	h.at(2856, trace.Off, "g5", chess.NoPiece).at(3094, trace.On, "h4", chess.NoPiece)
	h.expect(start, "Bh4 b6", "")
}

// TestBishopToppledBackOntoSlide: 8... Ba6, the bishop set on a6 from
// c8 toppling after 60 ms onto the b7 it had slid over; 9. b3, then the
// bishop put back on a6. Read as 8... Bb7 9. b3 Ba6, a ply never
// played: the bishop's landing on b7 looked like a slide's last step,
// not a fall, though nothing slides to b7 from a6.
func TestBishopToppledBackOntoSlide(t *testing.T) {
	start := mustFEN(t, "r1b1kb1r/p1ppqppp/2p2n2/4P3/8/8/PPP1QPPP/RNB1KB1R b KQkq - 2 7")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "f6", chess.NoPiece).at(1237, trace.On, "d5", chess.NoPiece)
	h.at(1729, trace.Off, "c2", chess.NoPiece).at(1934, trace.On, "c4", chess.NoPiece)
	h.at(2584, trace.Off, "c8", chess.NoPiece).at(2858, trace.On, "a6", chess.NoPiece)
	h.at(2918, trace.Off, "a6", chess.NoPiece).at(3201, trace.On, "b7", chess.NoPiece)
	h.at(3929, trace.Off, "b2", chess.NoPiece).at(4131, trace.On, "b3", chess.NoPiece)
	h.at(5161, trace.Off, "b7", chess.NoPiece).at(5338, trace.On, "a6", chess.NoPiece)
	h.expect(start, "Nd5 c4 Ba6 b3", "")
}

// TestToppledBackMadeFirst: 10. g5, the pawn toppling back onto g4 after
// 48 ms, 10... Nh5 11. e4, the pawn put back on g5 by Black's hand as
// 11... c6 began. g5 Nh5 e4 and e4 Nh5 g5 cost alike, and the second,
// ordered by the pawn's last landing, was published (toppledFirst); the
// board adopts the order it was given (adopt).
func TestToppledBackMadeFirst(t *testing.T) {
	start := mustFEN(t, "r2qkb1r/ppp2pp1/1n2pnp1/3p4/3P2P1/P3P2P/1PP2PB1/RNBQK2R w KQkq - 1 10")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "g4", chess.NoPiece).at(1178, trace.On, "g5", chess.NoPiece)
	h.at(1226, trace.Off, "g5", chess.NoPiece).at(1512, trace.On, "g4", chess.NoPiece)
	h.at(1980, trace.Off, "f6", chess.NoPiece).at(2202, trace.On, "h5", chess.NoPiece)
	h.at(2550, trace.Off, "e3", chess.NoPiece).at(2808, trace.On, "e4", chess.NoPiece)
	h.at(2968, trace.Off, "g4", chess.NoPiece).at(3306, trace.On, "g5", chess.NoPiece)
	h.at(3566, trace.Off, "c7", chess.NoPiece).at(3724, trace.On, "c6", chess.NoPiece)
	h.at(3870, trace.Off, "b7", chess.NoPiece).at(4158, trace.On, "c7", chess.NoPiece)
	h.at(4698, trace.Off, "d5", chess.NoPiece).at(4856, trace.Off, "e4", chess.NoPiece)
	h.at(5130, trace.On, "d5", chess.NoPiece).at(5470, trace.Off, "c7", chess.NoPiece)
	h.at(5806, trace.On, "b7", chess.NoPiece).at(6122, trace.Off, "d5", chess.NoPiece)
	h.at(6412, trace.Off, "b6", chess.NoPiece).at(6650, trace.On, "d5", chess.NoPiece)
	h.expect(start, "g5 Nh5 e4 c6 exd5 Nxd5", "")
}

// TestReplyAfterKnockNoFall: 44... Re5+, its hand knocking f6 onto f5;
// 45. Kd4 lifted 460 ms after the pawn landed next to it; the pawn put
// back, then 45... Rd5+. The king's move looked like a fall (a square
// emptied less than knockMs after a landing next to it), and with it
// undone 44... Re5+ alone read cheaper: the decision waited, and the
// game was read 44... Rf5 45. Kd4 Rd5+. Of one or two plies only falls
// sooner than a reply are undone (fallsReadOther).
func TestReplyAfterKnockNoFall(t *testing.T) {
	start := mustFEN(t, "8/R7/1p2kp2/3r4/4K3/P7/1PP5/8 b - - 2 44")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "d5", chess.NoPiece).at(1210, trace.On, "e5", chess.NoPiece)
	h.at(1231, trace.Off, "f6", chess.NoPiece).at(1425, trace.On, "f5", chess.NoPiece)
	h.at(1885, trace.Off, "e4", chess.NoPiece).at(2050, trace.On, "d4", chess.NoPiece)
	h.at(4095, trace.Off, "f5", chess.NoPiece).at(4276, trace.On, "f6", chess.NoPiece)
	h.at(4760, trace.Off, "e5", chess.NoPiece).at(4910, trace.On, "d5", chess.NoPiece)
	h.expect(start, "Re5+ Kd4 Rd5+", "")
	h.publishedBy(start, 89, 4759, "Kd4", "45... Rd5+ began")
}

// TestCastlingRookStoodThenToppled: 5... O-O, the king first, the rook
// set on f8 standing 200 ms (longer than a touch-down's floor) before it
// toppled onto the e8 the king had left; 6. b3, then the rook put back.
// Read as 5... Rg8 (the king lifted and put back, f8 touched), and the
// put-back as 6... Kf8. With the fall undone, O-O b3 reads the board
// for less (toppledSlowly).
func TestCastlingRookStoodThenToppled(t *testing.T) {
	start := mustFEN(t, "rnbqk2r/ppp1bppp/4pn2/3p4/2P5/5NP1/PP1PPPBP/RNBQK2R w KQkq - 2 5")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "e1", chess.NoPiece).at(1160, trace.Off, "h1", chess.NoPiece)
	h.at(1360, trace.On, "f1", chess.NoPiece).at(1520, trace.On, "g1", chess.NoPiece)
	h.at(1817, trace.Off, "e8", chess.NoPiece).at(2017, trace.On, "g8", chess.NoPiece)
	h.at(2177, trace.Off, "h8", chess.NoPiece).at(2397, trace.On, "f8", chess.NoPiece)
	h.at(2597, trace.Off, "f8", chess.NoPiece).at(2817, trace.On, "e8", chess.NoPiece)
	h.at(3302, trace.Off, "b2", chess.NoPiece).at(3465, trace.On, "b3", chess.NoPiece)
	h.at(4137, trace.Off, "e8", chess.NoPiece).at(4317, trace.On, "f8", chess.NoPiece)
	h.expect(start, "O-O O-O b3", "")
}

// TestCastlingRookToppledAfterFastPlies: 7. cxd5 cxd4 8. exd4 exd5 (all
// pushed off, none published) 9. O-O with both hands, the rook set on f1
// toppling after 75 ms onto e1; 9... Nc6, the rook put back. Five plies
// at once are more than the toppling rule read (one or two), and 9. Rg1
// was published, the put-back then alerted. Of more plies, the board
// with the fall undone read as other plies for less waits too.
func TestCastlingRookToppledAfterFastPlies(t *testing.T) {
	start := mustFEN(t, "rnbq1rk1/pp3ppp/4pn2/2pp4/1bPP4/2NBPN2/PP3PPP/R1BQK2R w KQ - 0 7")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "c4", chess.NoPiece).at(1478, trace.Off, "c5", chess.NoPiece)
	h.at(2600, trace.Off, "d4", chess.NoPiece).at(2797, trace.Off, "e3", chess.NoPiece)
	h.at(3000, trace.On, "d4", chess.NoPiece).at(4031, trace.Off, "e6", chess.NoPiece)
	h.at(4203, trace.Off, "d5", chess.NoPiece).at(4478, trace.On, "d5", chess.NoPiece)
	h.at(5515, trace.Off, "e1", chess.NoPiece).at(5665, trace.Off, "h1", chess.NoPiece)
	h.at(5890, trace.On, "g1", chess.NoPiece).at(6040, trace.On, "f1", chess.NoPiece)
	h.at(6115, trace.Off, "f1", chess.NoPiece).at(6165, trace.On, "e1", chess.NoPiece)
	h.at(6937, trace.Off, "b8", chess.NoPiece).at(7040, trace.Off, "e1", chess.NoPiece)
	h.at(7206, trace.On, "c6", chess.NoPiece).at(7365, trace.On, "f1", chess.NoPiece)
	h.expect(start, "cxd5 cxd4 exd4 exd5 O-O Nc6", "")
}

// TestBothCastlingRooksKnocked: 14... O-O, its rook toppling from f8
// onto e8; 15. O-O rook first, the king set on g1 knocking the rook on
// f1 onto e1 40 ms later; Black puts its rook back as 15... b6 is made,
// White puts its rook back after. Three plies at once (O-O Rg1 b6, the
// king lifted and put back) were published, and the put-back read as
// 16. Kf1: the rule for three plies or more asked the falls undone for
// fewer plies; with them undone O-O O-O b6 reads the board for less.
func TestBothCastlingRooksKnocked(t *testing.T) {
	start := mustFEN(t, "r1b1k2r/pp1nn1pp/4pq2/3p4/5P2/2P3B1/PPQNB1PP/R3K2R b KQkq - 3 14")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "e8", chess.NoPiece).at(1190, trace.On, "g8", chess.NoPiece)
	h.at(1480, trace.Off, "h8", chess.NoPiece).at(1650, trace.On, "f8", chess.NoPiece)
	h.at(1700, trace.Off, "f8", chess.NoPiece).at(1830, trace.On, "e8", chess.NoPiece)
	h.at(2602, trace.Off, "h1", chess.NoPiece).at(2862, trace.On, "f1", chess.NoPiece)
	h.at(2962, trace.Off, "e1", chess.NoPiece).at(3292, trace.On, "g1", chess.NoPiece)
	h.at(3332, trace.Off, "f1", chess.NoPiece).at(3412, trace.On, "e1", chess.NoPiece)
	h.at(3600, trace.Off, "e8", chess.NoPiece).at(3739, trace.Off, "b7", chess.NoPiece)
	h.at(3830, trace.On, "f8", chess.NoPiece).at(3888, trace.On, "b6", chess.NoPiece)
	h.at(4322, trace.Off, "e1", chess.NoPiece).at(4712, trace.On, "f1", chess.NoPiece)
	h.expect(start, "O-O O-O b6", "castling-rook-first@29")
}

// TestUnmovablePieceTouchedIsNoProof: 12... Bxh2+ nobody saw, then
// White's a1 rook, which cannot move in check, touched for 200 ms, and
// 13. Kh1; nothing later tells c1 from h2. Taken as proof, the touch
// made it 12... Bxc1 for good (a blind test's hands; so too the pinned
// d7 pawn touched after 1. Bxb5 nobody saw, read as Bxh7). A piece that
// cannot move is touched as often as the other capture is made.
func TestUnmovablePieceTouchedIsNoProof(t *testing.T) {
	start := mustFEN(t, "r1b1k2r/1pq2pp1/p1n1p3/2p4p/4Pb2/2PB1N2/PP4PP/R1BQ1RK1 b kq - 1 12")
	h := newHands(t, trace.Occupancy, start)
	h.at(2200, trace.Off, "f4", chess.NoPiece)
	h.at(3500, trace.Off, "a1", chess.NoPiece).at(3700, trace.On, "a1", chess.NoPiece)
	h.at(4600, trace.Off, "g1", chess.NoPiece).at(4950, trace.On, "h1", chess.NoPiece)
	h.at(6150, trace.Off, "e6", chess.NoPiece).at(6450, trace.On, "e5", chess.NoPiece)
	h.at(7750, trace.Off, "d1", chess.NoPiece).at(8130, trace.On, "e2", chess.NoPiece)
	h.at(9030, trace.Off, "c8", chess.NoPiece).at(9380, trace.On, "e6", chess.NoPiece)
	h.at(10480, trace.Off, "a2", chess.NoPiece).at(10780, trace.On, "a3", chess.NoPiece)
	h.at(11780, trace.Off, "e8", chess.NoPiece).at(12230, trace.On, "g8", chess.NoPiece)
	h.at(12380, trace.Off, "h8", chess.NoPiece).at(12830, trace.On, "f8", chess.NoPiece)
	h.expect(start, "Bxh2+ Kh1 e5 Qe2 Be6 a3 O-O", "")

	start = mustFEN(t, "r3k3/p2p3p/8/1p2P3/8/3B4/5PPP/6K1 w q - 0 1")
	h = newHands(t, trace.Occupancy, start)
	h.at(2200, trace.Off, "d3", chess.NoPiece)
	h.at(3400, trace.Off, "d7", chess.NoPiece).at(3900, trace.On, "d7", chess.NoPiece)
	h.at(4900, trace.Off, "e8", chess.NoPiece).at(5200, trace.On, "f7", chess.NoPiece)
	h.at(6500, trace.Off, "f2", chess.NoPiece).at(6800, trace.On, "f4", chess.NoPiece)
	h.at(7900, trace.Off, "f7", chess.NoPiece).at(8200, trace.On, "e6", chess.NoPiece)
	h.expect(start, "Bxb5 Kf7 f4 Ke6", "")
}

// TestReplyLiftAmendsTheCaptureAtOnce: 30. Qxa6 nobody saw (Qxd5, also
// unseen and as likely, was published), three plies, then the queen
// lifted from a6. Of the explanations as likely, the one in which the
// lifted square holds a piece of the player to move was picked, but the
// published game follows the cheapest line: the amendment waited for the
// queen's landing. The lift now prices the others up.
func TestReplyLiftAmendsTheCaptureAtOnce(t *testing.T) {
	start := mustFEN(t, "b3r1k1/qr1n1pp1/p1Q4p/P2pP3/1b1P1p2/3B1N1P/3N1PP1/RR4K1 w - - 0 30")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "c6", chess.NoPiece)
	h.at(3711, trace.Off, "a7", chess.NoPiece).at(3812, trace.On, "b8", chess.NoPiece)
	h.at(4226, trace.Off, "d3", chess.NoPiece).at(4415, trace.On, "c2", chess.NoPiece)
	h.at(4923, trace.Off, "e8", chess.NoPiece).at(5150, trace.On, "e6", chess.NoPiece)
	h.at(5620, trace.Off, "a6", chess.NoPiece).at(5836, trace.On, "d3", chess.NoPiece)
	if got := h.gameBy(start, 5620); got != "Qxa6 Qb8 Bc2 Re6" {
		t.Errorf("at a6's lift: published %q, want Qxa6 Qb8 Bc2 Re6", got)
	}
	h.expect(start, "Qxa6 Qb8 Bc2 Re6 Qd3", "")
}

// TestHeldLiftStillAtTheAlertTimer: 33... Rxd2 (the rook taken off
// first), then 34. Qxd2 begun 443 ms after the landing by lifting the
// queen next to it, which is held as a piece the rook's hand may have
// knocked; the queen's landing pushes the rook off unseen, and 10 s
// pass before 34... Qh1+. At the alert timer the board, Rxd2 with e3
// empty, was read as Qxe6 from e3 with d2 a piece out of place. A held
// lift that stands still till then is judged after its move.
func TestHeldLiftStillAtTheAlertTimer(t *testing.T) {
	start := mustFEN(t, "3r4/8/2b1pppk/1pN4p/5P1q/P3Q3/1PPR4/1K6 b - - 1 33")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "d8", chess.NoPiece).at(1285, trace.Off, "d2", chess.NoPiece).at(1785, trace.On, "d2", chess.NoPiece)
	h.at(2228, trace.Off, "e3", chess.NoPiece)
	h.at(12571, trace.Off, "h4", chess.NoPiece).at(13004, trace.On, "h1", chess.NoPiece)
	h.expect(start, "Rxd2 Qxd2 Qh1+", "")
}

// TestKnockNextToTheLandingNoProof: 22. Rxg7+ nobody saw, its hand
// knocking the h8 rook onto g8; the rook put back, then 22... Kf5. The
// rook cannot move after Rxg7+ (Rxa7 lets it), but a piece next to the
// landing may be one the hand knocked: its lift proves no other capture.
func TestKnockNextToTheLandingNoProof(t *testing.T) {
	start := mustFEN(t, "r6r/p1R3pp/4p1k1/1P2B3/6b1/8/5PPP/R5K1 w - - 3 22")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "c7", chess.NoPiece)
	h.at(1422, trace.Off, "h8", chess.NoPiece).at(1602, trace.On, "g8", chess.NoPiece)
	h.at(2772, trace.Off, "g8", chess.NoPiece).at(2982, trace.On, "h8", chess.NoPiece)
	h.at(5280, trace.Off, "g6", chess.NoPiece).at(5398, trace.On, "f5", chess.NoPiece)
	h.expect(start, "Rxg7+ Kf5", "")
}

// TestUnmovablePieceTouchedAfterAKnock: 29... g5, its hand knocking d5
// off and back; then White's e5 pawn, which cannot move, lifted and put
// back, and 30. Nxh4. At e5's lift nothing since 29... g5 was published
// remained to explain but the touches: no move to weigh the lift
// against (it once indexed the move of an empty explanation and
// panicked).
func TestUnmovablePieceTouchedAfterAKnock(t *testing.T) {
	start := mustFEN(t, "3n2rk/1p2qn1p/1Qp1p1p1/1PPpPp2/3P1P1b/3B1N1P/3B1P1K/5R2 b - - 1 29")
	bp, wp := chess.NewPiece(chess.Black, chess.Pawn), chess.NewPiece(chess.White, chess.Pawn)
	wn := chess.NewPiece(chess.White, chess.Knight)
	for _, sensor := range []trace.Sensor{trace.Occupancy, trace.Colour} {
		h := newHands(t, sensor, start)
		h.at(1000, trace.Off, "g6", chess.NoPiece).at(1288, trace.On, "g5", bp)
		h.at(1783, trace.Off, "d5", chess.NoPiece).at(1983, trace.On, "d5", bp)
		h.at(6185, trace.Off, "e5", chess.NoPiece).at(8685, trace.On, "e5", wp)
		h.at(10177, trace.Off, "h4", chess.NoPiece).at(11261, trace.Off, "f3", chess.NoPiece).at(11677, trace.On, "h4", wn)
		h.expect(start, "g5 Nxh4", "")
	}
}

// TestHeldKingLiftAfterAMateReading: 30. gxh7+ nobody saw (gxf7+ as
// likely), 30... Kh8 31. Rg8+, and the king lifted 460 ms after the
// rook landed next to it, held as the rook's hand's knock, for 24 s
// (Kxh7 pushing the pawn off). At the alert timer the held reading was
// adopted: gxf7+ and Rg8#, a mate that ended the game, and the plies
// after went unread. A king that cannot move after the held move says
// it was another.
func TestHeldKingLiftAfterAMateReading(t *testing.T) {
	start := mustFEN(t, "4n1k1/p1r2p1p/1r4Pp/1pp1b2P/3pPp2/PPqP3Q/R1P1BP2/5KR1 w - - 0 30")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "g6", chess.NoPiece)
	h.at(9212, trace.Off, "g8", chess.NoPiece).at(9672, trace.On, "h8", chess.NoPiece)
	h.at(10083, trace.Off, "g1", chess.NoPiece).at(10442, trace.On, "g8", chess.NoPiece)
	h.at(10902, trace.Off, "h8", chess.NoPiece)
	h.at(35382, trace.Off, "e8", chess.NoPiece).at(36292, trace.Off, "g8", chess.NoPiece).at(36842, trace.On, "e8", chess.NoPiece)
	h.expect(start, "gxh7+ Kh8 Rg8+ Kxh7 Rxe8", "")
}

// TestAlertSettledByTheMove: 4. Bxc6, the bishop taken off c6 350 ms
// after it landed and held 5 s, is alerted missing at the alert timer;
// 4... dxc6 then makes the square what the game has there, and a note
// says the alert is settled (it stayed open to the end).
func TestAlertSettledByTheMove(t *testing.T) {
	start := mustFEN(t, "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4")
	h := newHands(t, trace.Occupancy, start)
	h.at(1000, trace.Off, "c6", chess.NoPiece).at(1400, trace.Off, "b5", chess.NoPiece).at(1750, trace.On, "c6", chess.NoPiece)
	h.at(2100, trace.Off, "c6", chess.NoPiece)
	h.at(7100, trace.Off, "d7", chess.NoPiece).at(7450, trace.On, "c6", chess.NoPiece)
	r, outs := h.run(Config{Start: start})
	if got := sanList(r); got != "Bxc6 dxc6" {
		t.Errorf("moves %q, want %q", got, "Bxc6 dxc6")
	}
	var alerted chess.Bitboard
	for _, o := range outs {
		if o.Kind == Alert && o.Alert.Irregular() {
			alerted |= o.Squares
		}
	}
	settled := notesOf(outs, NoteRestored)
	if alerted != 0 && (len(settled) == 0 || settled[0].Squares&alerted != alerted) {
		t.Errorf("%s alerted, settled by %v", alerted.List(), settled)
	}
	if alerted == 0 {
		t.Log("nothing alerted while the bishop was held")
	}
}
