package reconstruct

import (
	"fmt"
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

var both = []bool{true, false}

func TestPlainMovesSlidesHesitations(t *testing.T) {
	check(t, "plain", chess.NewPosition(), allSensors, both, func(h *hands, _ bool) {
		h.move("e2", "e4").press(chess.White)
		h.move("e7", "e5").press(chess.Black)
		// A bishop slid f1-e2-d3-c4: the squares in between flash.
		h.slide("f1", "e2", "d3", "c4").press(chess.White)
		// A hesitation: the g8 knight lifted and put back, then another move.
		h.lift("g8").wait(700).place("g8").wait(300)
		h.move("b8", "c6").press(chess.Black)
		// An adjustment of the bishop after the move, before the press.
		h.move("d1", "h5").lift("c4").place("c4").press(chess.White)
	}, "e4 e5 Bc4 Nc6 Qh5", "")
}

func TestSlidePausingOnTheWayIsNotPublished(t *testing.T) {
	// Without a clock a piece resting 600 ms on a square on its way is not
	// a move (CommitMs is 1000).
	for _, s := range allSensors {
		h := newHands(t, s, chess.NewPosition())
		h.move("e2", "e4").wait(1500).move("e7", "e5").wait(1500)
		h.lift("d1").place("g4").wait(600).lift("g4").place("h5").wait(1500)
		r, outs := h.run(Config{})
		if got := sanList(r); got != "e4 e5 Qh5" {
			t.Errorf("%s: moves %q, want \"e4 e5 Qh5\"", s, got)
		}
		if n := countKind(outs, Amend, false) + countKind(outs, Retract, false); n != 0 {
			t.Errorf("%s: %d corrections, want none", s, n)
		}
	}
}

func TestCapturesInBothOrders(t *testing.T) {
	start := mustFEN(t, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
	check(t, "victim-first", start, allSensors, both, func(h *hands, _ bool) {
		h.lift("d5").wait(300).lift("e4").place("d5").press(chess.White)
	}, "exd5", "")
	check(t, "mover-first", start, allSensors, both, func(h *hands, _ bool) {
		h.lift("e4").lift("d5").wait(200).placeFirst("d5").press(chess.White)
	}, "exd5", "")
}

func TestMissedVictimLift(t *testing.T) {
	// White's knight on e5 can take d7 or f7; the victim's lift is never
	// seen (a swap faster than a scan). Colour and piece sensors see the
	// new colour or piece; occupancy sensors keep both explanations until
	// Black's reply shows which: the king takes back on f7.
	start := mustFEN(t, "r1bqkb1r/pppnpppp/8/4N3/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1")
	check(t, "missed-lift", start, allSensors, both, func(h *hands, clock bool) {
		h.lift("e5").swap("f7").press(chess.White).wait(3500)
		// Kxf7: the king takes the knight (this time seen lifted).
		h.lift("f7").wait(200).lift("e8").place("f7").press(chess.Black)
	}, "Nxf7 Kxf7", "")
}

func TestMissedVictimLiftPublishedThenAmended(t *testing.T) {
	// The likelier capture is published first; the reply proves the other.
	start := mustFEN(t, "r1bqkb1r/pppnpppp/8/4N3/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1")
	h := newHands(t, trace.Occupancy, start)
	h.lift("e5").swap("d7").press(chess.White).wait(1000)
	// Black's bishop c8 takes back on d7: only the capture Nxd7 allows it.
	h.lift("d7").wait(100).lift("c8").placeFirst("d7").press(chess.Black)
	r, outs := h.run(Config{Start: start, Clock: true})
	if got := sanList(r); got != "Nxd7 Bxd7" {
		t.Fatalf("moves %q, want \"Nxd7 Bxd7\"", got)
	}
	for _, o := range outs {
		if o.Kind == Move && !o.Provisional && o.Ply == 1 && o.Move != r.Moves()[0] && !o.Uncertain {
			t.Errorf("a guess was published without the uncertain mark: %s", AppendJSON(nil, &o))
		}
	}
}

func TestCastlingStyles(t *testing.T) {
	start := mustFEN(t, "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1")
	check(t, "king-first", start, allSensors, both, func(h *hands, _ bool) {
		h.move("e1", "g1").wait(300).move("h1", "f1").press(chess.White)
	}, "O-O", "")
	check(t, "together", start, allSensors, both, func(h *hands, _ bool) {
		h.lift("e1", "a1").placeFirst("c1").place("d1").press(chess.White)
	}, "O-O-O", "")
	check(t, "rook-first", start, allSensors, both, func(h *hands, _ bool) {
		h.move("h1", "f1").wait(1500).move("e1", "g1").press(chess.White)
	}, "O-O", "castling-rook-first@1")
	check(t, "black-king-first", mustFEN(t, "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R b KQkq - 0 1"),
		allSensors, both, func(h *hands, _ bool) {
			h.move("e8", "c8").move("a8", "d8").press(chess.Black)
		}, "O-O-O", "")
}

func TestChess960CastlingOverlaps(t *testing.T) {
	// King f1, rook g1: h-side castling swaps them (king to g1, rook to f1).
	// The occupancy does not change; the lifts decide.
	start := mustFEN(t, "nrbqnkr1/pppppppp/8/8/8/8/PPPPPPPP/NRBQNKR1 w GBgb - 0 1")
	start.SetChess960(true)
	check(t, "swap", start, allSensors, both, func(h *hands, _ bool) {
		h.lift("f1", "g1").placeFirst("g1").place("f1").press(chess.White)
	}, "O-O", "")
	// A-side castling with the king already on c1 and the rook on a1:
	// only the rook moves, over the king.
	start2 := mustFEN(t, "r1k1b1rn/pppppppp/8/8/8/8/PPPPPPPP/R1K1B1RN w GAga - 0 1")
	start2.SetChess960(true)
	check(t, "rook-only", start2, allSensors, both, func(h *hands, _ bool) {
		h.move("a1", "d1").press(chess.White)
	}, "O-O-O", "")
}

func TestEnPassantInAnyOrder(t *testing.T) {
	start := mustFEN(t, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
	check(t, "victim-first", start, allSensors, both, func(h *hands, _ bool) {
		h.lift("f5").wait(200).move("e5", "f6").press(chess.White)
	}, "exf6", "")
	check(t, "victim-after", start, allSensors, both, func(h *hands, _ bool) {
		h.move("e5", "f6").wait(300).lift("f5").press(chess.White)
	}, "exf6", "")
}

func TestPromotion(t *testing.T) {
	start := mustFEN(t, "8/1P4k1/7p/8/8/7P/6K1/8 w - - 0 1")
	// A queen placed directly, the pawn put aside.
	check(t, "queen", start, allSensors, both, func(h *hands, _ bool) {
		h.lift("b7").wait(500).put("b8", chess.WhiteQueen).press(chess.White)
	}, "b8=Q", "")
	// An under-promotion announced by the promote button (occupancy and
	// colour) or seen by the piece sensors.
	check(t, "knight-button", start, allSensors, both, func(h *hands, _ bool) {
		h.lift("b7").put("b8", chess.WhiteKnight).promote(chess.Knight).press(chess.White)
	}, "b8=N", "")
	// The pawn first placed on b8, then swapped for a rook.
	check(t, "pawn-on-b8-then-rook", start, []trace.Sensor{trace.PieceSensor}, both, func(h *hands, _ bool) {
		h.move("b7", "b8").wait(800).lift("b8").wait(300).put("b8", chess.WhiteRook).press(chess.White)
	}, "b8=R", "")
}

func TestPromotionPieceLearnedLater(t *testing.T) {
	// Occupancy sensors, no promote input: a queen is assumed, and the
	// knight's jump from b8 later amends it.
	start := mustFEN(t, "8/1P4k1/8/8/8/8/6K1/8 w - - 0 1")
	for _, clock := range both {
		h := newHands(t, trace.Occupancy, start)
		h.lift("b7").put("b8", chess.WhiteKnight).press(chess.White)
		h.move("g7", "g6").press(chess.Black)
		h.move("b8", "c6").press(chess.White)
		r, outs := h.run(Config{Start: start, Clock: clock})
		if got := sanList(r); got != "b8=N Kg6 Nc6" {
			t.Errorf("clock=%v: moves %q, want \"b8=N Kg6 Nc6\"", clock, got)
		}
		if n := countKind(outs, Amend, false); n == 0 {
			t.Errorf("clock=%v: the queen was not visibly amended to a knight", clock)
		}
	}
}

func TestTakebackAndChangedMoveBeforePress(t *testing.T) {
	check(t, "takeback", chess.NewPosition(), allSensors, []bool{true}, func(h *hands, _ bool) {
		h.move("e2", "e4").wait(500).move("e4", "e2").wait(500).move("d2", "d4").press(chess.White)
	}, "d4", "")
	// A move that stood on the board for seconds, then picked up again and
	// changed before the press: move-changed.
	check(t, "released-then-changed", chess.NewPosition(), allSensors, []bool{true}, func(h *hands, _ bool) {
		h.move("g1", "f3").wait(3000).move("f3", "h3").press(chess.White)
	}, "Nh3", "move-changed@1")
	// The released king move is taken back and a pawn promoted instead,
	// the pawn set on the last rank for seconds before the swap for the
	// queen: the pawn standing still must not replace the king move as
	// the one released, or the change goes unreported.
	promo := mustFEN(t, "8/2k1PK2/8/8/8/8/8/8 w - - 0 1")
	check(t, "released-then-promoted", promo, allSensors, []bool{true}, func(h *hands, _ bool) {
		h.move("f7", "g8").wait(3000).move("g8", "f7").wait(1000)
		h.move("e7", "e8").wait(2200).lift("e8").put("e8", chess.WhiteQueen).press(chess.White)
	}, "e8=Q", "move-changed@1")
}

func TestTakebackWithoutClockIsRetracted(t *testing.T) {
	for _, s := range allSensors {
		h := newHands(t, s, chess.NewPosition())
		h.move("e2", "e4").wait(1500).move("e7", "e5").wait(1500)
		h.move("e5", "e7").wait(1500)
		r, outs := h.run(Config{})
		if got := sanList(r); got != "e4" {
			t.Errorf("%s: moves %q, want \"e4\"", s, got)
		}
		if countKind(outs, Retract, false) != 1 {
			t.Errorf("%s: want one visible retraction", s)
		}
	}
}

func TestKnockedPieces(t *testing.T) {
	start := chess.NewPosition()
	check(t, "put-back", start, allSensors, both, func(h *hands, _ bool) {
		h.move("g1", "f3").lift("g2").place("g3").wait(700).lift("g3").place("g2").press(chess.White)
		h.move("e7", "e5").press(chess.Black)
	}, "Nf3 e5", "")
	check(t, "left", start, allSensors, []bool{true}, func(h *hands, _ bool) {
		h.move("g1", "f3").lift("g2").place("g3").press(chess.White)
	}, "Nf3", "misplaced-pieces@1")
}

func TestMisplacedAlertNamesSquares(t *testing.T) {
	h := newHands(t, trace.Colour, chess.NewPosition())
	h.move("g1", "f3").lift("g2").place("g3").press(chess.White)
	_, outs := h.run(Config{Clock: true})
	for _, o := range outs {
		if o.Kind == Alert && o.Alert == MisplacedPieces {
			if o.Squares != sq(t, "g2").Bitboard()|sq(t, "g3").Bitboard() {
				t.Errorf("squares %v", o.Squares.Squares())
			}
			if !strings.Contains(o.Expected, "g2: white pawn") || !strings.Contains(o.Seen, "g3: a white piece") {
				t.Errorf("expected %q seen %q", o.Expected, o.Seen)
			}
			if o.Article == "" || o.Penalty == "" {
				t.Errorf("no article or penalty: %+v", o)
			}
			return
		}
	}
	t.Fatal("no misplaced-pieces alert")
}

func TestIllegalMoveThenRestored(t *testing.T) {
	start := mustFEN(t, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
	check(t, "knight-b1-b3", start, allSensors, []bool{true}, func(h *hands, _ bool) {
		h.move("b1", "b3").press(chess.White).wait(8000)
		h.move("b3", "b1").wait(2000)
		h.move("g1", "f3").press(chess.White)
		h.move("b8", "c6").press(chess.Black)
	}, "Nf3 Nc6", "illegal-move@3")
	var got Output
	h := newHands(t, trace.Occupancy, start)
	h.move("b1", "b3").press(chess.White)
	_, outs := h.run(Config{Start: start, Clock: true, Edition: "2018", GameType: "blitz"})
	for _, o := range outs {
		if o.Kind == Alert {
			got = o
		}
	}
	if got.Alert != IllegalMove || got.From != sq(t, "b1") || got.To != sq(t, "b3") || got.Side != chess.White ||
		!strings.Contains(got.Text, "knight") || !strings.HasPrefix(got.Article, "7.5.1") {
		t.Errorf("alert %s", AppendJSON(nil, &got))
	}
}

func TestIllegalMoveLeavingKingInCheck(t *testing.T) {
	// The e2 bishop is pinned by the rook on e8.
	start := mustFEN(t, "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1")
	h := newHands(t, trace.Colour, start)
	h.move("e2", "d3").press(chess.White)
	_, outs := h.run(Config{Start: start, Clock: true})
	if a := alertList(outs); a != "illegal-move@1" {
		t.Fatalf("alerts %q", a)
	}
	for _, o := range outs {
		if o.Kind == Alert && !strings.Contains(o.Text, "check") {
			t.Errorf("text %q does not say the king is left in check", o.Text)
		}
	}
}

func TestClockWithoutMove(t *testing.T) {
	check(t, "press", chess.NewPosition(), allSensors, []bool{true}, func(h *hands, _ bool) {
		h.move("e2", "e4").press(chess.White)
		h.wait(2000).press(chess.Black).wait(3000)
		h.move("e7", "e5").press(chess.Black)
	}, "e4 e5", "clock-without-move@2")
}

func TestPromotionUnreplaced(t *testing.T) {
	start := mustFEN(t, "8/1P4k1/8/8/8/8/6K1/8 w - - 0 1")
	h := newHands(t, trace.PieceSensor, start)
	h.move("b7", "b8").press(chess.White).wait(5000)
	h.lift("b8").put("b8", chess.WhiteQueen).wait(1000)
	h.move("g7", "g6").press(chess.Black)
	r, outs := h.run(Config{Start: start, Clock: true})
	if got := sanList(r); got != "b8=Q Kg6" {
		t.Errorf("moves %q", got)
	}
	if a := alertList(outs); a != "promotion-unreplaced@1" {
		t.Errorf("alerts %q", a)
	}
}

func TestResyncAfterLostEvents(t *testing.T) {
	// Black's move and press never reached boardd; the board's next full
	// frame shows it, and White's press finds two moves on the board.
	for _, s := range allSensors {
		h := newHands(t, s, chess.NewPosition())
		h.move("e2", "e4").press(chess.White)
		n := len(h.evs)
		h.move("e7", "e5").press(chess.Black)
		h.evs = h.evs[:n]
		h.move("g1", "f3")
		h.evs = append(h.evs, h.frame())
		h.press(chess.White)
		r, outs := h.run(Config{Clock: true})
		if got := sanList(r); got != "e4 e5 Nf3" {
			t.Errorf("%s: moves %q, want \"e4 e5 Nf3\"", s, got)
		}
		if a := alertList(outs); a != "" {
			t.Errorf("%s: alerts %q", s, a)
		}
	}
}

func TestResyncAfterRestart(t *testing.T) {
	// The board jumps three plies at once (boardd was down): a frame
	// shows the position after 1.e4 e5 2.Nf3. The order of the moves
	// cannot be told; the position can.
	for _, s := range allSensors {
		h := newHands(t, s, chess.NewPosition())
		h.move("e2", "e4").move("e7", "e5").move("g1", "f3")
		h.evs = []trace.Event{h.evs[0], h.frame()}
		h.press(chess.White)
		r, outs := h.run(Config{Clock: true})
		want := mustFEN(t, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
		wantPosition(t, s, r, outs, want, 3)
	}
}

func TestNewGameWhenStartSetUp(t *testing.T) {
	for _, s := range allSensors {
		h := newHands(t, s, chess.NewPosition())
		h.move("e2", "e4").press(chess.White).move("e7", "e5").press(chess.Black)
		h.move("e4", "e2").move("e5", "e7").wait(3000)
		h.move("d2", "d4").press(chess.White)
		r, outs := h.run(Config{Clock: true})
		if got := sanList(r); got != "d4" {
			t.Errorf("%s: moves %q, want \"d4\" in the new game", s, got)
		}
		if countKind(outs, NewGame, false) != 1 {
			t.Errorf("%s: no new game", s)
		}
	}
}

func TestBoardRotated(t *testing.T) {
	// Colour sensors see White's pieces on ranks 7 and 8: turned 180
	// degrees. Occupancy sensors see it only at the first move.
	for _, s := range allSensors {
		h := newHands(t, s, chess.NewPosition())
		// Turn the opening frame and play 1.e4 e5 as the turned board sees it.
		fr := &h.evs[0]
		rot := func(b chess.Bitboard) chess.Bitboard { return rotBB(b, 2) }
		fr.Occ, fr.White = rot(fr.Occ), rot(fr.White)
		var pl [64]chess.Piece
		for x := range fr.Placement {
			pl[rotSquare(chess.Square(x), 2)] = fr.Placement[x]
		}
		fr.Placement = pl
		var b [64]chess.Piece
		for x := range h.board {
			b[rotSquare(chess.Square(x), 2)] = h.board[x]
		}
		h.board = b
		h.move("d7", "d5").press(chess.White).move("d2", "d4").press(chess.Black)
		r, outs := h.run(Config{Clock: true})
		if got := sanList(r); got != "e4 e5" {
			t.Errorf("%s: moves %q, want \"e4 e5\"", s, got)
		}
		if a := alertList(outs); a != "board-rotated@1" {
			t.Errorf("%s: alerts %q", s, a)
		}
	}
}

func TestCheckmateEndsGame(t *testing.T) {
	h := newHands(t, trace.Occupancy, chess.NewPosition())
	h.move("f2", "f3").press(chess.White).move("e7", "e5").press(chess.Black)
	h.move("g2", "g4").press(chess.White).move("d8", "h4").press(chess.Black)
	r, outs := h.run(Config{Clock: true})
	if res, why := r.Result(); res != "0-1" || why != "checkmate" {
		t.Errorf("result %q %q", res, why)
	}
	if a := alertList(outs); a != "checkmate@4" {
		t.Errorf("alerts %q", a)
	}
}

func TestDeterministic(t *testing.T) {
	h := newHands(t, trace.Occupancy, chess.NewPosition())
	h.move("e2", "e4").press(chess.White).lift("e7").wait(900).place("e5").press(chess.Black)
	h.move("g1", "f3").lift("g2").place("g3").press(chess.White)
	_, a := h.run(Config{Clock: true})
	_, b := h.run(Config{Clock: true})
	if len(a) != len(b) {
		t.Fatalf("%d outputs then %d", len(a), len(b))
	}
	for i := range a {
		if string(AppendJSON(nil, &a[i])) != string(AppendJSON(nil, &b[i])) {
			t.Fatalf("output %d differs", i)
		}
	}
}

func TestResultGestureIsNotAMove(t *testing.T) {
	// After 1.e4 e5 2.Nf3 Nc6 the players agree a draw and put the kings
	// on d4 (dark) and d5 (light), e4 and e5 being taken.
	start := mustFEN(t, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	for _, s := range allSensors {
		for _, clock := range both {
			h := newHands(t, s, start)
			h.lift("e1", "e8").placeFirst("d4").place("d5").wait(6000)
			r, outs := h.run(Config{Start: start, Clock: clock})
			if got := sanList(r); got != "" {
				t.Errorf("%s clock=%v: moves %q", s, clock, got)
			}
			if res, _ := r.Result(); res != "1/2-1/2" {
				t.Errorf("%s clock=%v: result %q", s, clock, res)
			}
			if a := alertList(outs); a != "" {
				t.Errorf("%s clock=%v: alerts %q", s, clock, a)
			}
		}
	}
}

func TestCaptureAndKnockedPieceIsNoRecapture(t *testing.T) {
	// Black takes on a4 (the bishop is lifted first) and knocks the white
	// rook on a3 off the board. One lift of a4 is seen: a recapture Rxa4
	// would need a second, and a reply begun before the capture landed;
	// the board is a capture with a piece misplaced.
	start := mustFEN(t, "4k3/3b4/8/8/P7/R7/8/4K3 b - - 0 1")
	check(t, "knocked-rook", start, []trace.Sensor{trace.Occupancy}, []bool{true}, func(h *hands, _ bool) {
		h.lift("d7").wait(600).lift("a4").placeFirst("a4").lift("a3").press(chess.Black)
		h.wait(8000).place("a3").wait(1000)
		h.move("e1", "e2").press(chess.White)
	}, "Bxa4 Ke2", "misplaced-pieces@2")
}

func TestMisplacedMoveRevivedWhenThePieceIsPutBack(t *testing.T) {
	// White takes the b3 knight faster than a scan and knocks the black
	// rook from c2 onto d1. The board reads as Rd1 with c2 knocked off,
	// one misplaced square instead of two. When the rook is put back on
	// c2 and play goes on, only the capture explains the board.
	start := mustFEN(t, "6k1/8/8/8/8/1n6/2r5/1R4K1 w - - 0 1")
	check(t, "revived", start, []trace.Sensor{trace.Occupancy}, both, func(h *hands, _ bool) {
		h.lift("b1").swap("b3").lift("c2").place("d1").press(chess.White)
		h.wait(8000).lift("d1").place("c2").wait(500)
		h.move("g8", "f7").press(chess.Black)
		h.wait(3000).move("b3", "b1").press(chess.White)
	}, "Rxb3 Kf7 Rb1", "misplaced-pieces@1")
}

func TestMisplacedPiecePutBackJustBeforeAMove(t *testing.T) {
	// The c4 pawn, knocked onto b4, is put back a moment before Black's
	// move (the board is never still in between): c4 is no longer out of
	// place, so its capture faster than a scan later is a move.
	start := mustFEN(t, "4k3/8/8/3p4/2P5/8/8/4K3 w - - 0 1")
	check(t, "put-back", start, []trace.Sensor{trace.Occupancy}, []bool{true}, func(h *hands, _ bool) {
		h.move("e1", "e2").lift("c4").place("b4").press(chess.White)
		h.wait(5000).lift("b4").place("c4").move("e8", "e7").press(chess.Black)
		h.wait(3000).lift("c4").swap("d5").press(chess.White)
	}, "Ke2 Ke7 cxd5", "misplaced-pieces@1")
}

func TestMisplacedAlternativeNotMasked(t *testing.T) {
	// Black takes on e4 and knocks the e5 pawn onto d4, where the d5
	// pawn could have gone: read as d4 with e5 knocked off. When White
	// puts the pawn back, d4 shows empty: that must not be accepted as
	// the d4 line's misplaced square, so that the capture is revived.
	start := mustFEN(t, "4k3/5b2/8/3pP3/4P3/8/8/4K3 b - - 0 1")
	check(t, "unmasked", start, []trace.Sensor{trace.Occupancy}, both, func(h *hands, _ bool) {
		h.lift("e4").wait(300).lift("d5").placeFirst("e4").lift("e5").place("d4").press(chess.Black)
		h.wait(6000).lift("d4").place("e5").wait(500).move("e1", "d1").press(chess.White)
		h.wait(3000).move("f7", "h5").press(chess.Black)
	}, "dxe4 Kd1 Bh5+", "misplaced-pieces@2")
}

func TestCastlingRookKnockedOffItsSquare(t *testing.T) {
	// The rook reaches f1 and is knocked off it at once; it lies off the
	// board until Black's think. Put on its square and taken off again,
	// it is not a castling still in the hand: the castling counts and f1
	// is alerted (without a clock, once the board has stood still
	// AlertMs).
	start := mustFEN(t, "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1")
	check(t, "rook-knocked", start, allSensors, both, func(h *hands, _ bool) {
		h.move("e1", "g1").move("h1", "f1").wait(100).lift("f1").press(chess.White)
		h.wait(8000).place("f1").wait(1500).move("h7", "h6").press(chess.Black)
	}, "O-O h6", "misplaced-pieces@1")
}

func TestIllegalKnightStepIsNotACaptureAndAStrayPiece(t *testing.T) {
	// The knight steps f6-e6 (not a knight's move). Occupancy sensors
	// could also read Nxe4 with the queen's lift unseen and a piece put
	// on e6 from nowhere; pieces do not come from nowhere.
	start := mustFEN(t, "6k1/p7/5n2/8/4Q3/8/P7/6K1 b - - 0 1")
	check(t, "knight-step", start, []trace.Sensor{trace.Occupancy}, []bool{true}, func(h *hands, _ bool) {
		h.move("f6", "e6").press(chess.Black)
		h.wait(10000).move("e6", "f6").wait(1500)
		h.lift("f6").lift("e4").placeFirst("e4").press(chess.Black)
	}, "Nxe4", "illegal-move@2")
}

func TestCaptureThenKnockedPieceIsNoFastRecapture(t *testing.T) {
	// cxd4, and the hand knocks the e3 bishop off the board just after
	// the pawn lands. Bxd4 faster than a scan would explain the board as
	// well, but either the reply began 150 ms after cxd4 landed, or (if
	// the landing seen on d4 was the bishop's) before cxd4 could have
	// been made.
	start := mustFEN(t, "4k3/p7/8/2p5/3P4/4B3/P7/4K3 b - - 0 1")
	check(t, "knocked-bishop", start, []trace.Sensor{trace.Occupancy}, both, func(h *hands, _ bool) {
		h.lift("c5").wait(300).lift("d4").placeFirst("d4").lift("e3").press(chess.Black)
		h.wait(8000).place("e3").wait(1500).move("e1", "d1").press(chess.White)
	}, "cxd4 Kd1", "misplaced-pieces@2")
}

func TestCaptureShapedTouchIsTheCapture(t *testing.T) {
	// Bxf6, the knight's square seen lifted and filled, then the g7 pawn
	// knocked off the board. Bxh6 gxh6 with both captures faster than a
	// scan would also fit, had the f6 knight been lifted and put back:
	// but a lift and a landing on a square the bishop could take on is
	// what the capture there looks like.
	start := mustFEN(t, "rnbqkb1r/pppp1pp1/4pn1p/6B1/3P4/5N2/PPP1PPPP/RN1QKB1R w KQkq - 0 4")
	check(t, "capture-shaped", start, []trace.Sensor{trace.Occupancy}, both, func(h *hands, _ bool) {
		h.lift("g5").wait(300).lift("f6").placeFirst("f6").lift("g7").press(chess.White)
		h.wait(8000).place("g7").wait(1500).move("e6", "e5").press(chess.Black)
	}, "Bxf6 e5", "misplaced-pieces@7")
}

func TestBlindCaptureThatHangsNothingIsLikelier(t *testing.T) {
	// The rook takes on e6 or on a4 faster than a scan; the occupancy is
	// the same and Black's reply is legal after either. Rxa4 wins more,
	// but leaves the e2 knight to the h5 bishop; Rxe6 keeps it defended.
	start := mustFEN(t, "6k1/8/4p3/7b/n3R3/8/4N3/6K1 w - - 0 1")
	h := newHands(t, trace.Occupancy, start)
	h.lift("e4").swap("e6").wait(6000).move("g8", "h8").wait(6000)
	r, outs := h.run(Config{Start: start})
	if got := sanList(r); got != "Rxe6 Kh8" {
		t.Fatalf("moves %q, want \"Rxe6 Kh8\"", got)
	}
	for _, o := range outs {
		if (o.Kind == Move && !o.Provisional || o.Kind == Amend) && o.Ply == 1 && !o.Uncertain {
			t.Errorf("the capture was published without the uncertain mark: %s", AppendJSON(nil, &o))
		}
	}
}

func TestBlindCaptureIsUncertainEvenWhenTheOtherIsUnlikely(t *testing.T) {
	// Rxe6 faster than a scan: Rxa4 (into the b5 pawn) is far less
	// likely, but nothing on an occupancy board rules it out, and no
	// later move here tells them apart.
	start := mustFEN(t, "6k1/8/4n3/1p6/p3R3/8/8/6K1 w - - 0 1")
	h := newHands(t, trace.Occupancy, start)
	h.lift("e4").swap("e6").wait(6000).move("g8", "h8").wait(6000)
	r, outs := h.run(Config{Start: start})
	if got := sanList(r); got != "Rxe6 Kh8" {
		t.Fatalf("moves %q, want \"Rxe6 Kh8\"", got)
	}
	n := 0
	for _, o := range outs {
		if o.Kind == Move && !o.Provisional && o.Ply == 1 {
			n++
			if !o.Uncertain {
				t.Errorf("the capture was published without the uncertain mark: %s", AppendJSON(nil, &o))
			}
		}
	}
	if n != 1 {
		t.Errorf("%d final moves for ply 1", n)
	}
}

func TestChess960RookFirstPublishedThenKing(t *testing.T) {
	// King e1, rook g1: h-side castling puts the king on the rook's
	// square. The rook goes to f1 first and, without a clock, is
	// published as Rf1; the king's move then changes it into castling,
	// the rook's lift and landing counting although they came before
	// Rf1 was published.
	start := mustFEN(t, "nrbqk1r1/pppppppp/8/8/8/8/PPPPPPPP/NRBQK1R1 w GBgb - 0 1")
	start.SetChess960(true)
	check(t, "960-rook-first", start, allSensors, []bool{false}, func(h *hands, _ bool) {
		h.move("g1", "f1").wait(1500).move("e1", "g1").wait(2000)
	}, "O-O", "castling-rook-first@1")
}

func TestMissedVictimLiftThenReplyAcrossItsSquare(t *testing.T) {
	// Black takes on e5 pushing the pawn off (d6 is seen empty, nothing
	// else); two seconds later White takes the queen, sliding across d6,
	// and Black recaptures. The slide's events on d6 are the queen's,
	// not a late start of the pawn's capture, so the two captures are
	// one after the other, not a reply begun before its move.
	start := mustFEN(t, "rnbq1rk1/ppp2pbp/3p1np1/4P3/2P1P3/2N1BN2/PP3PPP/R2QKB1R b KQ - 0 7")
	check(t, "reply-across", start, allSensors, both, func(h *hands, _ bool) {
		h.wait(3000).lift("d6").swap("e5").press(chess.Black).wait(1500)
		h.lift("d8").wait(900).slide("d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8").press(chess.White).wait(4000)
		h.lift("d8").wait(400).lift("f8").place("d8").press(chess.Black)
	}, "dxe5 Qxd8 Rxd8", "")
}

func TestMisplacedPiecePutBackThenMoved(t *testing.T) {
	// White takes on d5 pushing the pawn off and knocks the e6 pawn off
	// the board. Black puts it back and takes on d5 with it the same
	// way: a move from the square put right, not the clock pressed
	// without one.
	check(t, "put-back-moved", chess.NewPosition(), allSensors, []bool{true}, func(h *hands, _ bool) {
		h.move("d2", "d4").press(chess.White).move("d7", "d5").press(chess.Black)
		h.move("c2", "c4").press(chess.White).move("e7", "e6").press(chess.Black)
		h.move("b1", "c3").press(chess.White).move("g8", "f6").press(chess.Black)
		h.lift("c4").swap("d5").lift("e6").press(chess.White).wait(20000)
		h.place("e6").wait(200).lift("e6").swap("d5").press(chess.Black).wait(2000)
		h.move("c1", "g5").press(chess.White)
	}, "d4 d5 c4 e6 Nc3 Nf6 cxd5 exd5 Bg5", "misplaced-pieces@7")
}

func TestMisplacedPutBackProvesTheOtherMove(t *testing.T) {
	// No clock. The queen goes to d6 and, in the same instant, the hand
	// knocks the e6 pawn onto f6: on occupancy and colour boards Qf6 with
	// the pawn knocked onto d6 looks the same, and is published (the
	// queen's landing on d6 is no evidence: a pawn landed there as well).
	// Putting the pawn back on e6 15 s later proves Qd6, and the move
	// published is amended.
	start := mustFEN(t, "rn1q1rk1/1b3ppp/p3p3/8/2BP2Q1/2N1P3/1P1K1PPP/R6R b - - 0 15")
	bq, bp := chess.NewPiece(chess.Black, chess.Queen), chess.NewPiece(chess.Black, chess.Pawn)
	for _, s := range []trace.Sensor{trace.Occupancy, trace.Colour} {
		h := newHands(t, s, start)
		at := func(ms int64) *hands { h.now = ms; return h }
		off := func(name string) { h.evs = append(h.evs, trace.Event{T: h.now, Kind: trace.Off, Square: sq(t, name)}) }
		on := func(name string, pc chess.Piece) { h.evs = append(h.evs, h.onEvent(sq(t, name), pc)) }
		at(1638)
		off("d8")
		at(1927)
		on("d6", bq)
		off("e6")
		at(1994)
		on("f6", bp)
		at(16679)
		off("f6")
		at(16942)
		on("e6", bp)
		h.wait(3000)
		h.expect(start, "Qd6", "misplaced-pieces@30")
	}
}

func TestCaptureRecaptureAndKnockInOneStillBoard(t *testing.T) {
	// No clock. White's bishop takes on e7 (the victim seen lifted), the
	// queen at once takes it back faster than a scan, and the same hand
	// knocks the f7 pawn onto f8. One move with d8, f7 and f8 out of place
	// fits the board as well as the two moves with f7-f8 knocked; the
	// second is cheaper (two neighbouring squares against three), and the
	// knock is the reply's.
	start := mustFEN(t, "rnbqk1nr/pp2bppp/8/2pp2B1/3P4/5N2/PP2PPPP/RN1QKB1R w KQkq - 0 1")
	check(t, "capture-recapture-knock", start, allSensors, []bool{false}, func(h *hands, _ bool) {
		h.lift("g5", "e7").placeFirst("e7").wait(500).lift("d8").swap("e7")
		h.lift("f7").place("f8").wait(6000)
		h.lift("f8").place("f7").wait(3000)
	}, "Bxe7 Qxe7", "misplaced-pieces@2")
}

func TestKnockAfterMoveBeforePress(t *testing.T) {
	// Black's rook slides down the e-file and takes on e1; the same hand,
	// on its way back, knocks White's queen from d1 onto e2, and Black
	// presses. Black's Re2 and White's Qxe2 fit the board too, but they
	// end with White's move while Black presses: a reply made before the
	// move it answers was completed. The press makes it Rxe1+ with d1 and
	// e2 out of place.
	start := mustFEN(t, "4r1k1/5ppp/8/8/8/8/5PPP/3QR1K1 b - - 0 1")
	check(t, "knock-before-press", start, []trace.Sensor{trace.Occupancy}, []bool{true}, func(h *hands, _ bool) {
		h.lift("e1").wait(1000).slide("e8", "e7", "e6", "e5", "e4", "e3", "e2", "e1")
		h.lift("d1").place("e2").wait(300).press(chess.Black)
		h.wait(5000).lift("e2").place("d1").wait(500).lift("d1", "e1").placeFirst("e1").press(chess.White)
	}, "Rxe1+ Qxe1", "misplaced-pieces@2")
}

func TestKnockRightAfterTheMoveWithoutClock(t *testing.T) {
	// No clock. Black's knight takes on d3 and the same hand, 150 ms after
	// setting it down, knocks White's e4 pawn off the board, where it lies
	// for 10 s. Against the position before the capture the board looks
	// like Black's Nxe4 under way (its victim lifted, the knight in the
	// hand), but no reply starts that soon after a move: the pawn is
	// misplaced, named against Black's move.
	start := mustFEN(t, "4k3/8/8/2n5/4P3/3B4/8/6K1 b - - 0 1")
	check(t, "knocked", start, allSensors, []bool{false}, func(h *hands, _ bool) {
		h.lift("d3", "c5").place("d3").lift("e4").wait(10000)
		h.place("e4").wait(1500).move("g1", "h1").wait(1500)
	}, "Nxd3 Kh1", "misplaced-pieces@2")
	// White picks the pawn up a second after Black's move and thinks with
	// it in the hand for 10 s: a move under way, no alert.
	check(t, "thinking", start, allSensors, []bool{false}, func(h *hands, _ bool) {
		h.lift("d3", "c5").place("d3").wait(1000).lift("e4").wait(10000)
		h.place("e5").wait(1500)
	}, "Nxd3 e5", "")
}

func TestKnockRightAfterABouncedCapture(t *testing.T) {
	// No clock, occupancy sensors. Black's bishop takes on d5: the rook is
	// seen taken off, the bishop bounces as it is set down (on, off, on),
	// and 130 ms after it settles the hand knocks White's queen off d4 for
	// 25 s. White's queen taking on d5 faster than a scan fits the board
	// too, but it would have started 130 ms after the bishop settled: no
	// reply starts that soon, and the bounce's first landing is not when
	// the bishop was done.
	start := mustFEN(t, "2r5/pb3pk1/1p3np1/3R4/3Q2p1/P7/1P3P1P/3R2K1 b - - 0 1")
	h := newHands(t, trace.Occupancy, start)
	ev := func(ms int64, kind trace.Kind, name string) {
		h.evs = append(h.evs, trace.Event{T: ms, Kind: kind, Square: sq(t, name)})
		h.now = ms
	}
	ev(1000, trace.Off, "b7")
	ev(1544, trace.Off, "d5")
	ev(1549, trace.On, "d5")
	ev(1554, trace.Off, "d5")
	ev(1919, trace.On, "d5")
	ev(2049, trace.Off, "d4")
	ev(27000, trace.On, "d4")
	ev(27500, trace.Off, "d4")
	ev(27900, trace.On, "e3")
	h.wait(3000)
	r, outs := h.run(Config{Start: start})
	if got := sanList(r); got != "Bxd5 Qe3" {
		t.Errorf("moves %q, want \"Bxd5 Qe3\"", got)
	}
	if got := alertList(outs); got != "misplaced-pieces@2" {
		t.Errorf("alerts %q, want misplaced-pieces@2", got)
	}
	if t.Failed() {
		for _, o := range outs {
			t.Logf("%s", AppendJSON(nil, &o))
		}
	}
}

// TestKnockAfterCastlingIsNoChangedMove: a Chess960 castling whose king
// and rook trade squares leaves the board as it was, and the hand then
// knocks the bishop next to them onto f3 and puts it back two seconds
// later, before the press. The bishop's stay looked like Bf3 released and
// changed into castling (4.7), though the castling was complete before
// the bishop was lifted.
func TestKnockAfterCastlingIsNoChangedMove(t *testing.T) {
	start := mustFEN(t, "nrbnqkrb/pp2pppp/3p4/2p5/5P2/6P1/PPPPP1BP/NRBNQKR1 w KQ - 0 4")
	check(t, "knock-after-castling", start, allSensors, []bool{true}, func(h *hands, _ bool) {
		h.lift("f1", "g1").placeFirst("g1").place("f1").wait(100)
		h.move("g2", "f3").wait(1700).move("f3", "g2").wait(500).press(chess.White)
	}, "O-O", "")
	// Bf3 released, then taken back and castling made instead: changed.
	check(t, "bishop-then-castling", start, allSensors, []bool{true}, func(h *hands, _ bool) {
		h.move("g2", "f3").wait(2500).move("f3", "g2").wait(300)
		h.lift("f1", "g1").placeFirst("g1").place("f1").wait(500).press(chess.White)
	}, "O-O", "move-changed@7")
}

// TestChess960KingStaysAdjustedAfterRook: a Chess960 castling whose king
// already stands on its square is the rook's move; the king lifted and
// set back once the rook is down is an adjustment, not the king moved
// after the rook (castling-rook-first).
func TestChess960KingStaysAdjustedAfterRook(t *testing.T) {
	start := mustFEN(t, "brk2r1b/ppp1nq2/3ppn2/5ppp/2PP4/1PNNPBP1/P3QP1P/BRK2R2 w KQkq - 0 11")
	check(t, "960-king-adjusted", start, allSensors, []bool{true, false}, func(h *hands, _ bool) {
		h.move("b1", "d1").wait(300).move("c1", "c1").wait(500).press(chess.White)
	}, "O-O-O", "")
}

// TestChess960CastlingSwapAfterAQuickMove: Black castles by trading king
// and rook (f8 and g8) 240 ms after White's move landed, which leaves
// every square as it was; then White moves on. The move alone, with the
// two squares as touches, was cheaper than the move and the castling,
// and the castling was lost from the game.
func TestChess960CastlingSwapAfterAQuickMove(t *testing.T) {
	start := mustFEN(t, "2rqbkr1/p3pppp/1n1p1bn1/2p5/2P1BP2/1N2P1N1/P1RP2PP/3QBKR1 w Kkq - 3 10")
	for _, c := range []struct {
		wait    int64
		sensors []trace.Sensor
	}{
		// (On occupancy boards a reply lifted that soon is priced as
		// begun before the move was down: a piece lifted there may be a
		// capture's victim.)
		{90, []trace.Sensor{trace.Colour, trace.PieceSensor}},
		{600, allSensors},
	} {
		check(t, fmt.Sprintf("960-swap-%dms-after-move", c.wait), start, c.sensors, []bool{false}, func(h *hands, _ bool) {
			h.move("g3", "h5").wait(c.wait)
			h.lift("f8", "g8").placeFirst("g8").place("f8").wait(1600)
			h.move("d2", "d3").wait(3000)
		}, "Nh5 O-O d3", "")
	}
}

// TestChess960CastlingThenKnockPutBack: Black castles by trading king and
// rook (f8 and g8), which the board cannot show on colour and occupancy
// sensors, and the hand knocks the pawn on f7 onto f6 on its way back. The
// board stands still as if after f6, and f6 is published; two seconds
// later the pawn is put back and White moves on. That is no pawn going
// back (misplaced) but the castling with a knock put right.
func TestChess960CastlingThenKnockPutBack(t *testing.T) {
	start := mustFEN(t, "qnnrbkrb/pppppppp/8/8/8/8/PPPPPPPP/QNNRBKRB w KQkq - 0 1")
	check(t, "960-castling-knock", start, allSensors, []bool{false}, func(h *hands, _ bool) {
		h.move("c2", "c4").wait(1500).move("g7", "g6").wait(1500).move("d2", "d4").wait(1500)
		h.lift("f8", "g8").placeFirst("g8").place("f8").wait(30)
		h.move("f7", "f6").wait(2500).move("f6", "f7").wait(700)
		h.move("g2", "g4").wait(1800).move("c8", "b6").wait(5000)
	}, "c4 g6 d4 O-O g4 Nb6", "")
}

// TestKnockedPieceIsNoLanding: Black plays e5, and White's hand knocks the
// pawn on d6 onto e7 as it takes on e5; 2.2 s later Black's knight takes on e5 faster than a
// scan (the square changes colour), and Black's hand puts the pawn back.
// When the knight was lifted, e7 already showed a black piece: the knight
// landing there (Ne7, published as White's pawn on e5 "lifted") was never
// seen, and the game was lost for 65 plies.
func TestKnockedPieceIsNoLanding(t *testing.T) {
	start := mustFEN(t, "n1bbrkqr/ppp1p1pp/2np4/5p2/2P2P2/BP6/P2PP1PP/NN1BRKQR b KQkq - 0 4")
	for _, sensor := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, sensor, start)
		wp, bp, bn, wq := chess.NewPiece(chess.White, chess.Pawn), chess.NewPiece(chess.Black, chess.Pawn),
			chess.NewPiece(chess.Black, chess.Knight), chess.NewPiece(chess.White, chess.Queen)
		h.at(65405, trace.Off, "e7", 0).at(65680, trace.On, "e5", bp)
		h.at(80580, trace.Off, "e5", 0).at(81469, trace.Off, "f4", 0).at(81880, trace.On, "e5", wp)
		h.at(81991, trace.Off, "d6", 0).at(82205, trace.On, "e7", bp)
		h.at(84389, trace.Off, "c6", 0).at(84680, trace.Off, "e5", 0).at(84680, trace.On, "e5", bn)
		h.at(84881, trace.Off, "f5", 0).at(85005, trace.Off, "e7", 0).at(85191, trace.On, "d6", bp)
		h.at(87181, trace.On, "f5", bp)
		h.at(106000, trace.Off, "a7", 0).at(106200, trace.Off, "g1", 0).at(106433, trace.On, "a7", wq)
		h.wait(3000)
		h.expect(start, "e5 fxe5 Nxe5 Qxa7", "")
	}
}

// TestKnockPutBackAsReplyBegins: Black plays Rb7, the hand knocking the
// bishop on a7 onto a6, and picks it up to put it back while White's hand
// lifts the knight for Ne8 (5 ms before the bishop is back: faster than a
// sweep orders them), knocking the rook on d8 onto c7, put back at once.
// The board then stands still for 22 s showing the game: Rb7 Ne8, no
// misplaced pieces.
func TestKnockPutBackAsReplyBegins(t *testing.T) {
	start := mustFEN(t, "3R4/b1r5/5N1p/p4k2/b4N2/6PP/K7/8 b - - 4 59")
	for _, sensor := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, sensor, start)
		br, bb, wn, wr := chess.NewPiece(chess.Black, chess.Rook), chess.NewPiece(chess.Black, chess.Bishop),
			chess.NewPiece(chess.White, chess.Knight), chess.NewPiece(chess.White, chess.Rook)
		h.at(944320, trace.Off, "c7", 0).at(944418, trace.On, "b7", br)
		h.at(944504, trace.On, "a6", bb).at(944517, trace.Off, "a7", 0)
		h.at(945204, trace.Off, "a6", 0).at(945412, trace.Off, "f6", 0).at(945417, trace.On, "a7", bb)
		h.at(945635, trace.On, "e8", wn).at(945720, trace.On, "c7", wr).at(945734, trace.Off, "d8", 0)
		h.at(946820, trace.Off, "c7", 0).at(946934, trace.On, "d8", wr)
		h.at(969279, trace.Off, "a4", 0).at(969668, trace.On, "b3", bb)
		h.wait(3000)
		h.expect(start, "Rb7 Ne8 Bb3+", "")
	}
}

// events plays a trace's events as written there ("T off SQ", "T on SQ
// P" with P the piece's FEN letter), one a line.
func (h *hands) events(text string) *hands {
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		var t int64
		var kind, name, letter string
		if n, _ := fmt.Sscan(line, &t, &kind, &name, &letter); n < 3 {
			h.t.Fatalf("bad event %q", line)
		}
		if kind == "off" {
			h.at(t, trace.Off, name, 0)
			continue
		}
		pc := chess.NoPiece
		for _, c := range []chess.Color{chess.White, chess.Black} {
			for pt := chess.Pawn; pt <= chess.King; pt++ {
				if x := chess.NewPiece(c, pt); x.FENLetter() == letter[0] {
					pc = x
				}
			}
		}
		if pc == chess.NoPiece {
			h.t.Fatalf("bad piece in %q", line)
		}
		h.at(t, trace.On, name, pc)
	}
	return h
}

// TestSlideAcrossLandingThenKnocked: Black slides the rook h1-e1 across
// f1 (on f1 for 99 or 132 ms, or not seen there), and the hand knocks the
// rook on d2 onto d1; White plays Be2 and the hand knocks the rook on e1
// onto f1 about 100 to 200 ms after the bishop landed. The board stands
// still a second or more with the rook on f1, both knocked pieces are
// then put back and the game goes on. Rhf1 was no move: its rook stood on
// e1 a second and more and reached f1 only after White's reply had begun.
// The game is Rhe1 Be2, not Rhf1 Be2 (57 plies behind and a false alert),
// at each of the paces the hands played it.
func TestSlideAcrossLandingThenKnocked(t *testing.T) {
	start := mustFEN(t, "8/pp2kppp/4p3/3pP2P/3N2B1/P5K1/1P1R2P1/2r4r b - - 2 29")
	for _, hands := range []string{`
69934 on g1 r
69934 off h1
70033 off g1
70065 on f1 r
70164 on e1 r
70164 off f1
70365 off d2
70427 on d1 R
70837 off g4
71026 on e2 B
71121 off e1
71319 on f1 r
72968 off d1
73170 on d2 R
73170 off f1
73170 on e1 r
73687 off f7
73848 on f6 p
74795 off d4
75023 on f3 N
75576 off e1
75742 on h1 r
77037 off g3
77173 on g4 K`, `
156526 on g1 r
156526 off h1
156625 off g1
156657 on f1 r
156756 on e1 r
156756 off f1
156957 off d2
157019 on d1 R
157561 off g4
157750 on e2 B
157845 off e1
158043 on f1 r
159560 off d1
159762 on d2 R
159762 off f1
159762 on e1 r
160939 off f7
161100 on f6 p
164786 off d4
165014 on f3 N
165567 off e1
165733 on h1 r
167037 off g3
167173 on g4 K`, `
422143 on g1 r
422176 off h1
422274 on f1 r
422275 off g1
422406 on e1 r
422406 off f1
422607 off d2
422636 on d1 R
425191 off g4
425210 off d1
425379 on d2 R
425380 on e2 B
425475 off e1
425673 on f1 r
426399 off f1
426531 on e1 r
429361 off f7
429687 on f6 p
433000 off d4
433300 on f3 N
435000 off e1
435200 on h1 r
437000 off g3
437200 on g4 K`, `
163557 on g1 r
163799 on e1 r
163807 off g1
163811 off h1
164045 on d1 R
164076 off d2
164651 off g4
164830 on e2 B
165049 off e1
165303 on f1 r
166795 off d1
166826 on d2 R
166826 off f1
166826 on e1 r
168209 on f6 p
168241 off f7
170000 off d4
170300 on f3 N
172000 off e1
172200 on h1 r
174000 off g3
174200 on g4 K`} {
		for _, sensor := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
			h := newHands(t, sensor, start)
			h.events(hands).wait(3000)
			h.expect(start, "Rhe1 Be2 f6 Nf3 Rh1 Kg4", "")
		}
	}
}

// TestTouchDownThenKnockIsNoReply: White's bishop goes b3-e6, touching
// down on d5 for 250 ms on its way, and the hand knocks the queen on d6
// onto c6 as it goes on (the queen seen on c6 28 ms after the bishop left
// d5, the bishop on e6 7 ms later). The bishop lifted from where it first
// landed, a piece the queen could take, is no victim taken off, and the
// queen on c6 no reply slid there whose hand knocked the bishop: the
// moving hand went on. The game is Be6+ Kb8 (the queen put back), not Bd5
// Qc6 Be6+ Kb8 with a false alert when the queen is put back.
func TestTouchDownThenKnockIsNoReply(t *testing.T) {
	start := mustFEN(t, "2k2r2/1pp1R2p/3q4/7P/p4p2/PB1b1Pp1/1P4P1/K1Q5 w - - 2 36")
	for _, sensor := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, sensor, start)
		h.events(`
188885 off b3
189385 on b3 B
190635 off b3
190705 on d5 B
190955 off d5
190983 on c6 q
190986 off d6
190990 on e6 B
191545 off c8
191791 on b8 k
193483 off c6
193986 on d6 q
197522 off e7
197764 off c7
197768 on d7 R
199014 on c7 p`).wait(3000)
		h.expect(start, "Be6+ Kb8 Rd7", "")
	}
}

// TestTouchDownThenKnockedCapturer: White's rook goes h3-b3, touching
// down on c3 for 300 ms, and the hand knocks the queen on b2, which could
// take on c3, onto c3 as the rook lands on b3; the queen is put back. The
// rook lifted from c3 and then the queen lifted looked like Qxc3 begun
// with its victim taken off first: Rc3 was published, and the put-back
// raised a false alert. The rook set down on b3 says the moving hand went
// on. The same lifts followed by the queen set down on c3 are the
// capture.
func TestTouchDownThenKnockedCapturer(t *testing.T) {
	start := mustFEN(t, "5n2/3r1k2/8/2Pp2pP/1p1bb3/7R/Pq3PPQ/3RK3 w - - 0 32")
	for _, sensor := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, sensor, start)
		h.events(`
479082 off h3
479475 on c3 R
479775 off c3
480361 off b2
480373 on b3 R
480475 on c3 q
481975 off c3
482361 on b2 q`).wait(3000)
		h.expect(start, "Rb3", "")

		h = newHands(t, sensor, start)
		h.events(`
479082 off h3
479475 on c3 R
479775 off c3
480361 off b2
480873 on c3 q
483000 off d1
483300 on d2 R`).wait(3000)
		h.expect(start, "Rc3 Qxc3+ Rd2", "")
	}
}

// TestKnockReadAsMoveTakenBackAsNextBegins: Black's Rxd6 hand knocks the
// rook on e7 onto e8, where it stands 1.5 s (read as Re8+), and puts it
// back; half a second later White lifts that rook for Rxa7, whose hand
// knocks the rook on b8 onto a8, put back after g6. The board stood still
// back before Re8+ and White, to move there, began a move: Re8+ is taken
// back then, and the game is Rxa7 g6, not Re8+ amended into Rd7 with the
// knocked rook read as Ra8 (44 plies behind and a false alert).
func TestKnockReadAsMoveTakenBackAsNextBegins(t *testing.T) {
	start := mustFEN(t, "1r1r2k1/p3Rpp1/3Q1n1p/P4B2/2pp4/7P/P1P2PP1/4R1K1 b - - 0 26")
	for _, sensor := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, sensor, start)
		h.events(`
193099 off d8
193286 off d6
193286 on d6 r
193572 off e7
193603 on e8 R
195103 off e8
195322 on e7 R
195822 off e7
196056 off a7
196306 on a7 R
196341 off b8
196587 on a8 r
197079 off g7
197298 on g6 p
198837 off a8
199091 on b8 r
201736 on g4 B
201763 off f5`).wait(3000)
		h.expect(start, "Rxd6 Rxa7 g6 Bg4", "")
	}
}

// TestSwappedCaptureIsDoneAtItsLanding: exd5 swapped faster than a scan
// (d5's lift and filling at one time), its hand knocking the e5 pawn
// off; Black's d6 hand knocks the d5 pawn onto c5, put back two seconds
// later. exd5 was done when it landed, not when the knocked pawn was put
// back (its square's lift read as the first filling gone again at once,
// the capture slid on): exd5 d6 are published as the pawn is put back,
// before White's f4, not six seconds later.
func TestSwappedCaptureIsDoneAtItsLanding(t *testing.T) {
	start := mustFEN(t, "rr4k1/3p2pp/8/3bp3/nPP1P3/pK3PP1/P6P/2R2R2 w - - 0 28")
	for _, sensor := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, sensor, start)
		h.events(`
1187923 off e4
1188345 off d5
1188345 on d5 P
1188748 off e5
1190395 off d7
1190545 off d5
1190570 on d6 p
1190742 on c5 P
1191148 on e5 p
1193142 off c5
1193345 on d5 P
1197301 off f3
1197526 on f4 P`)
		r, err := New(Config{Start: start, Sensor: sensor})
		if err != nil {
			t.Fatal(err)
		}
		var out []Output
		for i := range h.evs {
			out = r.Feed(&h.evs[i], out[:0])
		}
		if got := sanList(r); got != "exd5 d6" {
			t.Errorf("%v: published %q as f4 lands, want %q", sensor, got, "exd5 d6")
		}
	}
}

// TestChess960CastlingWithKingTouchedIsNoRookMove: White castles long in
// Chess960 with the king on d1 and the rook on a1 (king to c1, rook to
// d1): on colour and occupancy boards that is a1 emptied and c1 filled,
// as Rc1, with the king's square lifted and filled again. The hand knocks
// the pawn on b2 onto b1, on Rc1's way, put back. The king lifted and set
// back is what the castling looks like, no touch: the game is O-O-O, not
// Rc1 amended 34 plies later.
func TestChess960CastlingWithKingTouchedIsNoRookMove(t *testing.T) {
	start := mustFEN(t, "r2krq2/bppb2pp/p2pnpn1/4p3/3PP3/1BP1BPN1/PP1N2PP/R2KR1Q1 w KQkq - 6 10")
	start.SetChess960(true)
	for _, sensor := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, sensor, start)
		h.events(`
256035 off d1
256265 off a1
256365 on c1 K
256695 on d1 R
256731 off b2
256826 on b1 P
258311 off b1
258513 on b2 P
276352 off g6
276607 on f4 n`).wait(3000)
		h.expect(start, "O-O-O Ngf4", "")
	}
}

// TestPressBeforeTheLandingIsRead: a sensor reads the board in sweeps, so
// a piece set down just before the clock is pressed may be reported after
// the press (a piece board's 250 ms sweep read e5 22 ms and c6 48 ms after
// Black's presses; an occupancy board scans in a few ms). The press waits
// a sweep for it: no clock-without-move penalty, and the game goes on (it
// was lost for "pressing the clock without a move" twice).
func TestPressBeforeTheLandingIsRead(t *testing.T) {
	for _, s := range allSensors {
		lag := int64(22) // how much later than the press the landing is read
		if s == trace.Occupancy {
			lag = 5
		}
		start := mustFEN(t, chess.StartFEN)
		h := newHands(t, s, start)
		h.at(1040, trace.Off, "e2", chess.NoPiece).at(1353, trace.On, "e4", chess.WhitePawn)
		h.evs = append(h.evs, trace.Event{T: 1372, Kind: trace.Press, Side: chess.White})
		h.at(1697, trace.Off, "e7", chess.NoPiece)
		h.evs = append(h.evs, trace.Event{T: 2112, Kind: trace.Press, Side: chess.Black})
		h.at(2112+lag, trace.On, "e5", chess.BlackPawn)
		h.at(2517, trace.Off, "g1", chess.NoPiece).at(2576, trace.On, "f3", chess.WhiteKnight)
		h.evs = append(h.evs, trace.Event{T: 2788, Kind: trace.Press, Side: chess.White})
		h.at(2966, trace.Off, "b8", chess.NoPiece)
		h.evs = append(h.evs, trace.Event{T: 3360, Kind: trace.Press, Side: chess.Black})
		h.at(3360+2*lag, trace.On, "c6", chess.BlackKnight).wait(2000)
		h.expect(start, "e4 e5 Nf3 Nc6", "")
	}
}

// TestFirstMoveRightAfterTheStartFrame: the trace's first frame shows the
// start set-up and White lifts e2 68 ms later, before the set-up stood
// for a settle, and the moves come fast (no clock), none standing still
// long enough to be published before the next begins. A full frame
// showing the set-up is the set-up: the game is followed (nothing at all
// was published for a whole game).
func TestFirstMoveRightAfterTheStartFrame(t *testing.T) {
	for _, s := range allSensors {
		start := mustFEN(t, chess.StartFEN)
		h := newHands(t, s, start)
		h.events(`68 off e2
363 on e4 P
395 off d7
610 on d5 p
670 off d5
1309 off e4
1585 on d5 P
1815 off d5
2398 off d8
2668 on d5 q
2862 off b1
3213 on c3 N
3320 off d5
3494 on a5 q
3743 off d2
3900 on d4 P
4099 off g8
4359 on f6 n
4360 off g1
4688 on f3 N
4916 off c8
5134 on f5 b
5251 off f1
5552 on c4 B`).wait(3000)
		h.expect(start, "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6 Nf3 Bf5 Bc4", "")
	}
}

// TestKnockedOffAfterFastPlies: without a clock, 1. e4 e5 2. Nf3 come fast
// (e7 lifted 77 ms after e4 landed), and the knight's hand knocks the h2
// pawn off the board 60 ms after setting it down; the pawn lies there for
// 6 s. No still moment published a move, and no search from one still
// board reaches three plies with a piece out of place: the board was
// alerted as the position after 1. e4 e5 with g1, f3 and h2 out of place.
// The ordered changes, on the alert timer, may leave a piece knocked off
// as a move landed (next to where its hand passed) off the board: the
// three moves are published and h2 alone is named, as for a knock after
// one move. (Colour and piece boards: on occupancy boards the decoder
// takes only runs of five plies or more, and the board is caught up when
// the pawn is put back.)
func TestKnockedOffAfterFastPlies(t *testing.T) {
	start := mustFEN(t, chess.StartFEN)
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, s, start)
		h.events(`1165 off e2
1557 on e4 P
1634 off e7
1885 on e5 p
2035 off g1
2335 on f3 N
2395 off h2
8395 on h2 P
9919 off b8
10087 on c6 n
10361 off f1
10535 on c4 B`).wait(3000)
		h.expect(start, "e4 e5 Nf3 Nc6 Bc4", "misplaced-pieces@3")
	}
}

// TestHiddenCastlingAfterAKnockPutBack: without a clock on a colour
// board, Na4 knocks the b4 pawn onto a3; White castles, king and rook
// trading f1 and g1 (no square changes), and puts the pawn back. The
// pawn stood on a3 two seconds, but no piece of a castling stands
// anywhere but on its castling squares: the castling is no dearer for it
// than Na4 alone (which left the castling out, a false alert later).
func TestHiddenCastlingAfterAKnockPutBack(t *testing.T) {
	start := mustFEN(t, "1br1brk1/pp1qpppp/1n6/2p5/1PP5/1N1P1PN1/P4PPP/2RQBKR1 b KQ - 0 9")
	h := newHands(t, trace.Colour, start)
	h.move("b6", "a4").wait(50)
	h.move("b4", "a3").wait(700)
	h.lift("f1", "g1").placeFirst("g1").place("f1").wait(1000)
	h.move("a3", "b4").wait(5000)
	h.move("b7", "b6").wait(3000)
	h.expect(start, "Na4 O-O b6", "")
}

// TestHiddenCastlingKnockPutBackDuringReply: without a clock on a colour
// board, a Chess960 castling whose king and rook trade squares (f1 and
// g1) shows no change; its hand knocks the g2 pawn onto g3, read as g3.
// The pawn is put back while Black replies (Nb6), and g2-g4 follows half
// a second later: the board showing the castling's history again, the
// put-back shows the castling was the move (g3 then g4 from g3 left the
// game 81 plies behind).
func TestHiddenCastlingKnockPutBackDuringReply(t *testing.T) {
	start := mustFEN(t, "1rn1bkr1/ppp1bp1p/4pq2/3p2p1/2nP4/3NP3/PPP1NPPP/2RBBKRQ w Kkq - 4 8")
	h := newHands(t, trace.Colour, start)
	h.lift("f1", "g1").placeFirst("g1").place("f1").wait(100)
	h.move("g2", "g3").wait(450)
	h.move("c4", "b6").wait(400)
	h.move("g3", "g2").wait(500)
	h.slide("g2", "g3", "g4").wait(600)
	h.move("h7", "h5").wait(3000)
	h.expect(start, "O-O N4b6 g4 h5", "")
}

// TestCaptureOnASeenLandingIsNoGuess: without a clock on colour and
// piece boards, gxf6 en passant (its hand knocking the e6 pawn onto e5),
// Bxf6 pushing the pawn off, and the e6 pawn put back are published
// together; then Be4 knocks the e3 bishop onto f2 as it lets go. The
// pawn was seen set down on f6 and standing there: the two plies were
// no guess (a piece held in the hand read as taken), and taking them
// back costs what any takeback costs: Bxf5 Bxg5 Bf2 Bf6 Be4 (five
// plies through two taken back, Bf2 the knock) is no likelier than Be4
// with the bishop out of place until it is put back (79 plies behind).
func TestCaptureOnASeenLandingIsNoGuess(t *testing.T) {
	start := mustFEN(t, "1rbn1rk1/1p2b1pp/pNqpp3/5pP1/5P1P/1PPBB3/PKQ5/3R3R w - f6 0 23")
	wp, bp, wb, bb := chess.NewPiece(chess.White, chess.Pawn), chess.NewPiece(chess.Black, chess.Pawn),
		chess.NewPiece(chess.White, chess.Bishop), chess.NewPiece(chess.Black, chess.Bishop)
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, s, start)
		h.at(126890, trace.Off, "f5", 0).at(127187, trace.Off, "g5", 0).at(127323, trace.On, "f6", wp)
		h.at(127388, trace.Off, "e6", 0).at(127483, trace.On, "e5", bp)
		h.at(128481, trace.Off, "e7", 0).at(128676, trace.Off, "f6", 0).at(128676, trace.On, "f6", bb)
		h.at(129958, trace.Off, "e5", 0).at(130160, trace.On, "e6", bp)
		h.at(131005, trace.Off, "d3", 0).at(131175, trace.On, "e4", wb)
		h.at(131204, trace.Off, "e3", 0).at(131233, trace.On, "f2", wb)
		h.at(132586, trace.Off, "f2", 0).at(132755, trace.On, "e3", wb)
		h.at(138640, trace.Off, "c6", 0).at(139040, trace.On, "c7", chess.NewPiece(chess.Black, chess.Queen))
		h.wait(3000)
		h.expect(start, "gxf6 Bxf6 Be4 Qc7", "")
	}
}

// TestCaptureLandingUnseen: without a clock on piece and colour boards,
// Bd3, then Ke5 whose hand knocks the f5 pawn off the board, then Bc2
// slid back, the pawn put back after. Bd3 taken back for Bxf5 Ke5 Bc2
// explained the board exactly without the pawn, but a capture shows
// where it lands on these boards (the square changes colour even
// swapped faster than a scan), and nothing was seen set down on f5: a
// sequence with such a capture is priced as a sensor failing (70 plies
// behind, seed 46).
func TestCaptureLandingUnseen(t *testing.T) {
	start := mustFEN(t, "8/p7/5k2/2b2p2/3p4/5K2/P1B5/8 w - - 2 63")
	wb, bk := chess.NewPiece(chess.White, chess.Bishop), chess.NewPiece(chess.Black, chess.King)
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, s, start)
		h.at(343497, trace.Off, "c2", 0).at(343532, trace.On, "d3", wb)
		h.at(344098, trace.On, "e5", bk).at(344133, trace.Off, "f6", 0).at(344352, trace.Off, "f5", 0)
		h.at(344997, trace.On, "c2", wb).at(345032, trace.Off, "d3", 0)
		h.at(346102, trace.On, "f5", chess.NewPiece(chess.Black, chess.Pawn))
		h.at(346590, trace.Off, "c5", 0).at(346696, trace.On, "f8", chess.NewPiece(chess.Black, chess.Bishop))
		h.wait(3000)
		h.expect(start, "Bd3 Ke5 Bc2 Bf8", "")
	}
}

// TestChess960SwapCastlingPressed: White castles by trading king and rook
// (f1 and g1), which leaves every square as it was on colour and
// occupancy boards; only the king's lift and its square filled again are
// seen, then the press. That is the castling, not a press without a move
// (the settle before the press took the lift for a hesitation and
// forgot it: a clock-without-move alert, then Black's castling read as a
// press out of turn, and the game 123 plies behind). Without the
// castling right the same hands are a press without a move.
func TestChess960SwapCastlingPressed(t *testing.T) {
	sensors := []trace.Sensor{trace.Colour, trace.Occupancy}
	play := func(h *hands, _ bool) {
		h.lift("f1").wait(350).place("f1").wait(260).press(chess.White).wait(1200)
		h.move("e7", "e5").wait(400).press(chess.Black).wait(1500)
	}
	start := mustFEN(t, "qnnrbkrb/pppppppp/8/8/8/8/PPPPPPPP/QNNRBKRB w KQkq - 0 1")
	start.SetChess960(true)
	check(t, "960-swap-pressed", start, sensors, []bool{true}, play, "O-O e5", "")
	noRight := mustFEN(t, "qnnrbkrb/pppppppp/8/8/8/8/PPPPPPPP/QNNRBKRB w kq - 0 1")
	noRight.SetChess960(true)
	check(t, "960-swap-no-right", noRight, sensors, []bool{true}, func(h *hands, _ bool) {
		h.lift("f1").wait(350).place("f1").wait(260).press(chess.White).wait(1500)
	}, "", "clock-without-move@1")
}

// TestChess960RookThatStaysAdjusted: White castles short in Chess960 with
// the king on c1 and the rook already on f1, so the king's move is the
// whole castling. The rook lifted and put straight back on f1 before it
// was adjusted (as a king that stays may be, the other way round), not
// touched first under 2018 4.4.2; held longer than rookTouchedFirstMs it
// was in the hand before the king, and the alert stands.
func TestChess960RookThatStaysAdjusted(t *testing.T) {
	start := mustFEN(t, "1rk2r2/pppppppp/8/8/8/8/PPPPPPPP/1RK2R2 w KQkq - 0 1")
	start.SetChess960(true)
	for _, c := range []struct {
		held   int64
		alerts string
	}{{100, ""}, {800, "castling-rook-first@1"}} {
		check(t, fmt.Sprintf("960-rook-stays-held-%dms", c.held), start, allSensors, []bool{true}, func(h *hands, _ bool) {
			h.lift("f1").wait(c.held).place("f1").wait(20).move("c1", "g1").wait(300).press(chess.White).wait(1500)
		}, "O-O", c.alerts)
	}
}

// TestChess960CastlingKnockReadFirstIsNoChangedMove: Black castles by
// trading king and rook (f8 and g8); the hand setting the rook on f8
// knocks the g7 pawn onto g6, and the colour board's sweep reports g7
// emptied 11 ms before f8 filled. The pawn lies on g6 for 2.3 s (g6 is
// shown as the move on the board), is put back, and Black presses. The
// castling was complete before the pawn was lifted, as far as one sweep
// tells: no move-changed alert (4.7), which the stress grid counted
// false in four cells of seed 59.
func TestChess960CastlingKnockReadFirstIsNoChangedMove(t *testing.T) {
	start := mustFEN(t, "brnbqkrn/pppp1ppp/8/4p3/4P3/1P6/P1PP1PPP/BRNBQKRN b KQkq - 0 2")
	start.SetChess960(true)
	h := newHands(t, trace.Colour, start)
	h.at(28763, trace.Off, "f8", chess.NoPiece).at(28764, trace.Off, "g8", chess.NoPiece)
	h.at(28964, trace.On, "g8", chess.BlackKing).at(29152, trace.Off, "g7", chess.NoPiece)
	h.at(29163, trace.On, "f8", chess.BlackRook).at(29339, trace.On, "g6", chess.BlackPawn)
	h.at(31639, trace.Off, "g6", chess.NoPiece).at(31752, trace.On, "g7", chess.BlackPawn)
	h.wait(32271 - h.now).press(chess.Black).wait(2000)
	r, outs := h.run(Config{Start: start, Clock: true})
	if got, alerts := sanList(r), alertList(outs); got != "O-O" || alerts != "" {
		t.Errorf("moves %q alerts %q, want O-O and none", got, alerts)
		for _, o := range outs {
			t.Logf("%s", AppendJSON(nil, &o))
		}
	}
}

// TestMoveAfterMateIsLogged: after 2... Qh4# White moves a2-a3 anyway and
// Black answers a7-a6. No alert (the game is over) and no move of the
// score, but the arbiter's log shows each board (once), as docs/rules.md
// promises; the pieces then swept off the board are not listed.
func TestMoveAfterMateIsLogged(t *testing.T) {
	start := mustFEN(t, chess.StartFEN)
	for _, s := range allSensors {
		h := newHands(t, s, start)
		h.move("f2", "f3").wait(1500).move("e7", "e5").wait(1500).move("g2", "g4").wait(1500).move("d8", "h4").wait(4000)
		h.move("a2", "a3").wait(3000).move("a7", "a6").wait(3000)
		h.lift("h4", "g4", "f3", "e5", "a3", "a6").wait(3000)
		r, outs := h.run(Config{Start: start})
		var notes []string
		for _, o := range outs {
			if o.Kind == Note && o.Note == NoteUnrecognised {
				notes = append(notes, o.Squares.List())
			}
		}
		if got := sanList(r); got != "f3 e5 g4 Qh4#" || alertList(outs) != "checkmate@4" || strings.Join(notes, "|") != "a2 a3|a2 a3 a6 a7" {
			t.Errorf("%v: moves %q, alerts %q, notes %q", s, got, alertList(outs), notes)
			for _, o := range outs {
				t.Logf("%s", AppendJSON(nil, &o))
			}
		}
	}
}

// TestPressWithThePieceStillInTheAir: White lifts the bishop and presses
// the clock 71 ms later; a piece board's sweep reports the bishop set on
// d3 203 ms after the press (a colour board's up to 100 ms, an occupancy
// board's 20 ms). The settle after the lift came before that report, with
// the bishop seen in the air: a clock-without-move penalty and a
// misplaced-pieces alert were given, from a hand by another model. A press
// is judged no sooner than a sweep after it.
func TestPressWithThePieceStillInTheAir(t *testing.T) {
	start := mustFEN(t, "rnbqkb1r/pppp1ppp/8/4p3/3Pn3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 4")
	for _, s := range allSensors {
		lag := map[trace.Sensor]int64{trace.PieceSensor: 203, trace.Colour: 95, trace.Occupancy: 18}[s]
		h := newHands(t, s, start)
		h.at(16971, trace.Off, "f1", chess.NoPiece)
		h.evs = append(h.evs, trace.Event{T: 17042, Kind: trace.Press, Side: chess.White})
		h.at(17042+lag, trace.On, "d3", chess.WhiteBishop)
		h.at(18881, trace.Off, "d7", chess.NoPiece).at(19206, trace.On, "d5", chess.BlackPawn)
		h.evs = append(h.evs, trace.Event{T: 19671, Kind: trace.Press, Side: chess.Black})
		h.wait(2000)
		h.expect(start, "Bd3 d5", "")
	}
}

// TestMateThenAPieceMoved: 20. Qd6+ Nd7 21. Qxd7# at blitz pace without a
// clock, the knight's landing on d7 never read (taken within a sweep),
// and a black pawn moved f4-e3 400 ms after the mate: the mate never
// stood still, and the last three plies were never published (hands by
// another model). The ordered decoder stops at a move that ends the
// game; what follows is no move of it.
func TestMateThenAPieceMoved(t *testing.T) {
	start := mustFEN(t, "1nrkr3/6R1/p6p/qp1PQ3/5p2/3B1P2/PPP4P/1K6 w - - 1 20")
	h := newHands(t, trace.Colour, start)
	h.at(94302, trace.Off, "e5", chess.NoPiece).at(94472, trace.On, "d6", chess.WhiteQueen)
	h.at(94635, trace.Off, "b8", chess.NoPiece).at(95172, trace.Off, "d6", chess.NoPiece)
	h.at(95358, trace.On, "d7", chess.WhiteQueen)
	h.at(95765, trace.Off, "f4", chess.NoPiece).at(96065, trace.On, "e3", chess.BlackPawn).wait(5000)
	h.expect(start, "Qd6+ Nd7 Qxd7#", "checkmate@41")
}

// TestKnockedAfterThePressAlerted: White plays Nf3 and presses, and the
// hand on its way back knocks the g2 pawn onto g3, where it lies 5 s of
// Black's time before White puts it back. Black cannot have set it there:
// misplaced-pieces against White at once after AlertMs (7.4.1), no
// hesitation of Black's when it goes back, and the game goes on. (Before,
// nothing was alerted while it lay there.) Left until Black's press, it
// is alerted once, not again at the press.
func TestKnockedAfterThePressAlerted(t *testing.T) {
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		for _, putBack := range []bool{true, false} {
			start := mustFEN(t, chess.StartFEN)
			h := newHands(t, s, start)
			h.pressedOpening()
			h.at(7060, trace.Off, "g2", chess.NoPiece).at(7120, trace.On, "g3", chess.WhitePawn)
			if putBack {
				h.at(12100, trace.Off, "g3", chess.NoPiece).at(12300, trace.On, "g2", chess.WhitePawn)
			}
			h.movedAt(14000, "b8", 14300, "c6", chess.BlackKnight, 14500)
			h.wait(3000)
			h.expect(start, "e4 e5 Nf3 Nc6", "misplaced-pieces@3")
			_, outs := h.run(Config{Start: start})
			for _, o := range outs {
				if o.Kind == Note && o.Note == NoteHesitation {
					t.Errorf("%v: %s", s, AppendJSON(nil, &o))
				}
				if o.Kind == Alert && o.T != 7120+4000 {
					t.Errorf("%v: alert at %d, want %d", s, o.T, 7120+4000)
				}
			}
		}
	}
}

// TestReplyLiftedBeforeThePressedLandingIsRead: Black lifts b8, presses
// as the knight lands on c6, and White lifts the f1 bishop 60 ms after the
// press (10 ms on an occupancy board's 20 ms sweep); the sensors read f1
// empty before c6 filled (a sweep reads its squares in its own order). The press completes Nc6: f1 is the reply
// begun, not a piece out of place. On colour and piece boards the bishop
// may even be read landing on b5 before the press is judged.
func TestReplyLiftedBeforeThePressedLandingIsRead(t *testing.T) {
	for _, s := range allSensors {
		for _, land := range []int64{300, 900} {
			if s == trace.Occupancy && land < 900 {
				continue
			}
			start := mustFEN(t, chess.StartFEN)
			h := newHands(t, s, start)
			h.pressedOpening()
			lift, read := int64(60), int64(130) // after the press
			if s == trace.Occupancy {
				lift, read = 10, 15 // (a 20 ms sweep)
			}
			h.at(9000, trace.Off, "b8", chess.NoPiece)
			h.pressAt(9300, chess.Black)
			h.at(9300+lift, trace.Off, "f1", chess.NoPiece).at(9300+read, trace.On, "c6", chess.BlackKnight)
			h.at(9300+land, trace.On, "b5", chess.WhiteBishop)
			h.pressAt(9400+land, chess.White)
			h.wait(3000)
			h.expect(start, "e4 e5 Nf3 Nc6 Bb5", "")
		}
	}
}

// TestPressedPieceTakenBeforeItWasRead: 2. exd5 is pressed and 2...
// Qxd5 lifted 170 ms after the press, the pawn on d5 never read by a
// sweep (taken before one came round). The pressed move is exd5 with its
// landing unseen, no piece out of place; a pawn that truly never lands
// (d5 still empty after AlertMs) is alerted then.
func TestPressedPieceTakenBeforeItWasRead(t *testing.T) {
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		for _, taken := range []bool{true, false} {
			start := mustFEN(t, chess.StartFEN)
			h := newHands(t, s, start)
			h.movedAt(1040, "e2", 1353, "e4", chess.WhitePawn, 1500)
			h.movedAt(3697, "d7", 3900, "d5", chess.BlackPawn, 4100)
			h.at(6517, trace.Off, "d5", chess.NoPiece).at(6700, trace.Off, "e4", chess.NoPiece)
			h.pressAt(6850, chess.White)
			want, alerts := "e4 d5 exd5 Qxd5", ""
			if taken {
				h.movedAt(7020, "d8", 7300, "d5", chess.BlackQueen, 7500)
			} else {
				want, alerts = "e4 d5 exd5", "misplaced-pieces@3"
			}
			h.wait(6000)
			h.expect(start, want, alerts)
		}
	}
}

// TestOpponentPressWhileAPressWaits: 3. a3 is read landing before a2 is
// read empty, White presses 85 ms after the landing and a2's lift is read
// after the press, so the press waits for the board; Black's reply
// 3... Be6 slides via d7, read there before c8 empties, and Black presses
// before a2 has settled. White's press is judged at Black's: a3 with
// White's press, then Be6 with Black's, no press missed. (Before, White's
// press was replaced by Black's: "2 moves completed by one press" and a3
// with Black's clock reading.)
func TestOpponentPressWhileAPressWaits(t *testing.T) {
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		start := mustFEN(t, "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2")
		h := newHands(t, s, start)
		h.movedAt(1040, "e2", 1353, "e3", chess.WhitePawn, 1500)
		h.movedAt(3697, "g8", 3900, "f6", chess.BlackKnight, 4100)
		h.at(6833, trace.On, "a3", chess.WhitePawn)
		h.pressAt(6918, chess.White)
		h.at(6935, trace.Off, "a2", chess.NoPiece).at(7099, trace.On, "d7", chess.BlackBishop)
		h.at(7192, trace.On, "e6", chess.BlackBishop)
		h.pressAt(7252, chess.Black)
		h.at(7306, trace.Off, "c8", chess.NoPiece).at(7349, trace.Off, "d7", chess.NoPiece)
		h.wait(3000)
		h.expect(start, "e3 Nf6 a3 Be6", "")
		_, outs := h.run(Config{Start: start})
		for _, o := range outs {
			if o.Kind == Note && o.Note == NoteNoPress {
				t.Errorf("%v: %s", s, AppendJSON(nil, &o))
			}
		}
	}
}

// pressedOpening plays 1. e4 e5 2. Nf3, each pressed, Nf3 pressed at 7000.
func (h *hands) pressedOpening() *hands {
	h.movedAt(1040, "e2", 1353, "e4", chess.WhitePawn, 1500)
	h.movedAt(3697, "e7", 3900, "e5", chess.BlackPawn, 4100)
	return h.movedAt(6517, "g1", 6876, "f3", chess.WhiteKnight, 7000)
}

func TestKnockReadAsIllegalLandingOfAnotherPiece(t *testing.T) {
	// Black's knight lifted from e5 and the clock pressed; the hand knocks
	// White's c3 pawn onto c2 and sets the knight on c4, read there 360 ms
	// after c2. Colour and piece sensors read a white piece on c2: no
	// black knight's illegal e5-c2.
	start := mustFEN(t, "r1bqkbnr/pppp1ppp/8/4n3/8/2P5/PP1PPPPP/RNBQKBNR b KQkq - 0 3")
	wp, bn := chess.NewPiece(chess.White, chess.Pawn), chess.NewPiece(chess.Black, chess.Knight)
	for _, s := range []trace.Sensor{trace.Colour, trace.PieceSensor} {
		h := newHands(t, s, start)
		h.at(1000, trace.Off, "e5", chess.NoPiece).pressAt(1300, chess.Black)
		h.at(1310, trace.Off, "c3", chess.NoPiece).at(1340, trace.On, "c2", wp).at(1700, trace.On, "c4", bn)
		h.at(3000, trace.Off, "c2", chess.NoPiece).at(3200, trace.On, "c3", wp)
		h.movedAt(5000, "d2", 5200, "d4", wp, 5500)
		r, outs := h.run(Config{Start: start, Clock: true})
		if got := sanList(r); got != "Nc4 d4" {
			t.Errorf("%v: moves %q, want \"Nc4 d4\"", s, got)
		}
		for _, o := range outs {
			if o.Kind == Alert && o.Alert == IllegalMove {
				t.Errorf("%v: %s", s, AppendJSON(nil, &o))
			}
		}
	}
}
