package daemon

import (
	"log/slog"
	"testing"
	"time"

	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/publishtest"
	"github.com/boardd/boardd/reconstruct"
)

// A lasting irregularity is one alert on the active list, replaced by its
// latest state at most every alertRefresh, and gone when the board is
// put right; other alerts stay until the arbiter acknowledges them.
func TestBoardAlertsDoNotFlood(t *testing.T) {
	pub, err := publish.Open(publish.Config{Board: "b1", JournalDir: t.TempDir(), Dialer: publishtest.New(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	if _, err := pub.StartGame(publish.GameInfo{White: "A", Black: "B"}); err != nil {
		t.Fatal(err)
	}
	d := &daemon{pub: pub, log: slog.New(slog.DiscardHandler), m: newMetrics(),
		boardAlerts: map[reconstruct.AlertKind]activeAlert{}, pendingAlerts: map[reconstruct.AlertKind]publish.Alert{}}
	d.alerts = d.m.counter("alerts_total", "test")
	t0 := time.Now()
	active := func() []publish.Alert { return pub.Current().Alerts }
	// 20 frames of a board being rebuilt, 100 ms apart.
	for i := 0; i < 20; i++ {
		a := publish.Alert{Kind: string(reconstruct.MisplacedPieces), Ply: 5, Side: "white", Text: "pieces out of place", Squares: []string{"h1"}}
		if i == 19 {
			a.Squares = []string{"c6"} // the last state
		}
		d.raiseAlert(reconstruct.MisplacedPieces, a, t0.Add(time.Duration(i)*100*time.Millisecond))
	}
	d.raiseAlert(reconstruct.ThreefoldClaimable, publish.Alert{Kind: string(reconstruct.ThreefoldClaimable), Ply: 9, Side: "black", Text: "a draw may be claimed"}, t0)
	if n := len(active()); n != 2 {
		t.Fatalf("%d active alerts after 20 frames, want 2: %+v", n, active())
	}
	// The latest state replaces the first once alertRefresh has passed.
	d.flushAlerts(t0.Add(3 * time.Second))
	if al := active(); len(al) != 2 || al[1].Squares[0] != "c6" && al[0].Squares[0] != "c6" {
		t.Fatalf("after the refresh: %+v", al)
	}
	d.resolveBoardAlerts("the board is back")
	if al := active(); len(al) != 1 || al[0].Kind != string(reconstruct.ThreefoldClaimable) {
		t.Fatalf("after the board was put right: %+v", al)
	}
}
