package web_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
	"github.com/boardd/boardd/publish/relay"
	"github.com/boardd/boardd/publish/web"
)

// The pages as a relay serves them with a transmission delay (fed by a
// relay.Mirror through the viewers' broker): the demonstration page in
// chromium shows no move before the delay has passed since it was played,
// and shows them all once it has.
func TestBrowserDelayedPages(t *testing.T) {
	t.Parallel()
	startBrowserCheck(t)
	const delay = 3 * time.Second
	pw := broker.Passwords{}
	for u, p := range users {
		pw[u] = broker.HashPassword(p, []byte("salt-"+u))
	}
	venue, err := broker.Start(broker.Config{Listeners: []broker.Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}}, Passwords: pw})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { venue.Close() })
	vb, err := relay.StartViewerBroker(slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { vb.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	m, err := relay.NewMirror(relay.MirrorConfig{From: publish.PahoDialer{URL: venue.URL(), Username: "relay", Password: users["relay"]}, To: vb.Dialer, Delay: delay})
	if err != nil {
		t.Fatal(err)
	}
	go m.Run(ctx)
	h, err := web.Handler(web.Config{ProxyTo: vb.WS, Boards: []string{"board-1"}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	srv := ts.URL

	g := loadGames(t)[0]
	b1 := startBoard(t, ctx, "board-1", venue.URL())
	if _, err := b1.StartGame(publish.GameInfo{White: g.Tag("White"), Black: g.Tag("Black"), Round: "3", BoardNo: "1"}); err != nil {
		t.Fatal(err)
	}
	br := startBrowser(t)
	demo := br.newPage(ctx, 1280, 800)
	demo.navigate(ctx, srv+"/")
	moves := replayMoves(g)[:10]
	played := time.Now()
	for _, mv := range moves {
		if _, err := b1.Move(mv.Move); err != nil {
			t.Fatal(err)
		}
	}
	pos := *g.Start
	for _, mv := range g.Moves[:10] {
		pos.MakeMove(mv)
	}
	want := pos.FEN()
	for {
		var fen *string
		if err := demo.eval(ctx, tileExpr("board-1", "t.dataset.fen"), &fen); err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		if fen != nil && *fen != chess.StartFEN {
			if now.Sub(played) < delay {
				t.Fatalf("the page shows %s %v after the moves were played, before the %v delay", *fen, now.Sub(played), delay)
			}
			if *fen == want {
				t.Logf("moves shown %v after they were played (delay %v)", now.Sub(played), delay)
				return
			}
		}
		if now.Sub(played) > delay+20*time.Second {
			t.Fatalf("the page never showed the position after 10 moves; last %v", fen)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
