package reconstruct

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// TestSwapReportedAsTheNewPieceOnly: a board that sees a square go from one
// piece to another between two readings may report only the new piece (an
// on event on an occupied square) rather than the square emptied and
// filled in the same millisecond. The trace, from hands modelled apart
// from the simulator's, went dark after such a capture (54... Nb5 55.
// Bxb5): nothing was published for its last 39 plies. Both reports must
// give the same game, every ply of it.
func TestSwapReportedAsTheNewPieceOnly(t *testing.T) {
	data, err := os.ReadFile("testdata/new-piece-only.trace")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trace.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ConfigFromHeader(tr.Header())
	if err != nil {
		t.Fatal(err)
	}
	newOnly := &hands{t: t, sensor: cfg.Sensor}
	for {
		ev, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		newOnly.evs, newOnly.now = append(newOnly.evs, ev), ev.T
	}
	// The same changes, each swap reported as the square emptied and
	// filled at once.
	offOn := &hands{t: t, sensor: cfg.Sensor, now: newOnly.now}
	var occ chess.Bitboard
	for _, ev := range newOnly.evs {
		switch ev.Kind {
		case trace.Frame:
			occ = ev.Occ
		case trace.Off:
			occ &^= ev.Square.Bitboard()
		case trace.On:
			if occ.Has(ev.Square) {
				offOn.evs = append(offOn.evs, trace.Event{T: ev.T, Kind: trace.Off, Square: ev.Square})
			}
			occ |= ev.Square.Bitboard()
		}
		offOn.evs = append(offOn.evs, ev)
	}
	if len(offOn.evs) == len(newOnly.evs) {
		t.Fatal("the trace has no swap reported as the new piece only")
	}
	r1, outs1 := newOnly.run(cfg)
	r2, outs2 := offOn.run(cfg)
	moves1, moves2 := sanList(r1), sanList(r2)
	if moves1 != moves2 || alertList(outs1) != alertList(outs2) {
		t.Errorf("new piece only: %q %s\noff and on:     %q %s", moves1, alertList(outs1), moves2, alertList(outs2))
	}
	if n := len(strings.Fields(moves1)); n != 92 {
		t.Errorf("%d plies published, want the game's 92", n)
	}
}
