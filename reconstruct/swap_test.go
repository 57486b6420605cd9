package reconstruct_test

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/reconstruct"
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
	hdr, evs := readAll(t, data)
	// The same changes, each swap reported as the square emptied and
	// filled at once.
	var occ chess.Bitboard
	var expanded []trace.Event
	for _, ev := range evs {
		switch ev.Kind {
		case trace.Frame:
			occ = ev.Occ
		case trace.Off:
			occ &^= ev.Square.Bitboard()
		case trace.On:
			if occ.Has(ev.Square) {
				expanded = append(expanded, trace.Event{T: ev.T, Kind: trace.Off, Square: ev.Square})
			}
			occ |= ev.Square.Bitboard()
		}
		expanded = append(expanded, ev)
	}
	if len(expanded) == len(evs) {
		t.Fatal("the trace has no swap reported as the new piece only")
	}
	newOnly, alertsNew := replayGame(t, hdr, evs)
	offOn, alertsOffOn := replayGame(t, hdr, expanded)
	if newOnly != offOn || alertsNew != alertsOffOn {
		t.Errorf("new piece only: %q %s\noff and on:     %q %s", newOnly, alertsNew, offOn, alertsOffOn)
	}
	if n := len(strings.Fields(newOnly)); n != 92 {
		t.Errorf("%d plies published, want the game's 92", n)
	}
}

func readAll(t *testing.T, data []byte) (trace.Header, []trace.Event) {
	t.Helper()
	tr, err := trace.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var evs []trace.Event
	for {
		ev, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	return tr.Header(), evs
}

// replayGame feeds evs and returns the moves published (UCI) and the
// alerts raised.
func replayGame(t *testing.T, hdr trace.Header, evs []trace.Event) (moves, alerts string) {
	t.Helper()
	cfg, err := reconstruct.ConfigFromHeader(hdr)
	if err != nil {
		t.Fatal(err)
	}
	r, err := reconstruct.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out []reconstruct.Output
	var al []string
	collect := func() {
		for _, o := range out {
			if o.Kind == reconstruct.Alert {
				al = append(al, string(o.Alert))
			}
		}
	}
	for i := range evs {
		out = r.Feed(&evs[i], out[:0])
		collect()
	}
	out = r.End(evs[len(evs)-1].T, out[:0])
	collect()
	var ms []string
	p := r.StartPosition()
	for _, m := range r.Moves() {
		ms = append(ms, p.UCI(m))
		p.MakeMove(m)
	}
	return strings.Join(ms, " "), strings.Join(al, ",")
}
