package session

import (
	"strings"
	"testing"

	"github.com/boardd/boardd/reconstruct"
)

// 2018 3.7.4.2 (2023 3.7.3.2): the en passant capture "is only legal on
// the move following this advance". Made a move later it is one illegal
// move (7.5.1), not a press without a move and misplaced pieces.
func TestEnPassantOneMoveLateIsAnIllegalMove(t *testing.T) {
	for _, sensor := range []string{"piece", "colour", "occupancy"} {
		s := newScriptOn(t, sensor, "edition 2023\nclock 90m+30s", "").moves(1500, "e4", "a6", "e5", "d5", "Nf3", "h6")
		s.wait(1500).raw("off d5").wait(200).raw("off e5").wait(300).raw("on d6 P").wait(300).raw("clock w")
		// The arbiter reinstates the position; White plays on.
		s.wait(4000).raw("off d6").wait(300).raw("on e5 P").wait(300).raw("on d5 p").wait(2000)
		s.move("d4", 1500, true)
		outs := s.run(0)
		il := find(outs, reconstruct.IllegalMove)
		if len(il) != 1 || len(find(outs, reconstruct.ClockWithoutMove)) != 0 || len(find(outs, reconstruct.MisplacedPieces)) != 0 {
			t.Errorf("%s: %s\n%s", sensor, summary(outs), dump(outs))
			continue
		}
		if !strings.Contains(il[0].Text, "e.p.") || il[0].Side.String() != "white" || !strings.HasPrefix(il[0].Article, "7.5.1") {
			t.Errorf("%s: %+v", sensor, il[0].Output)
		}
		if !strings.HasSuffix(summary(outs), "d4") {
			t.Errorf("%s: the game does not go on: %s", sensor, summary(outs))
		}
	}
}
