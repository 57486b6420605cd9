package reconstruct

import (
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// TestExplainFollowsTheView: an explanation is kept for the same still
// board, but a press is judged on the board with the reply taken off the
// view (standReply) at the same change; the answer must be the one for
// the view judged, not the one kept for the board as read.
func TestExplainFollowsTheView(t *testing.T) {
	// 1. e4 pressed before its landing was read, 1... e5 made at once.
	h := newHands(t, trace.Colour, chess.NewPosition()).
		at(1000, trace.Off, "e2", chess.NoPiece).pressAt(1200, chess.White).at(1205, trace.Off, "e7", chess.NoPiece).
		at(1215, trace.On, "e4", chess.WhitePawn).at(1260, trace.On, "e5", chess.BlackPawn)
	r, err := New(Config{Sensor: h.sensor})
	if err != nil {
		t.Fatal(err)
	}
	var out []Output
	for i := range h.evs {
		out = r.Feed(&h.evs[i], out[:0])
	}
	if !r.pending {
		t.Fatal("the press was judged before the reply landed; the test needs it pending")
	}
	r.makeView()
	if b := r.explain(true, true); b < 0 || r.cands[b].n != 2 {
		t.Fatalf("the board after e4 e5 is explained as %+v, want two moves", r.cands)
	}
	if !r.standReply(chess.White) {
		t.Fatal("the reply was not taken off the view")
	}
	if b := r.explain(true, true); b < 0 || r.cands[b].n != 1 {
		t.Errorf("the board with the reply taken off is explained by %d moves, want one (an answer kept for another view)", r.cands[max(b, 0)].n)
	}
	r.replyBack()
	if b := r.explain(true, true); b < 0 || r.cands[b].n != 2 {
		t.Errorf("the board read again is explained by %d moves, want two", r.cands[max(b, 0)].n)
	}
}
