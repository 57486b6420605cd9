package web_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
	"github.com/boardd/boardd/publish/web"
)

// The demonstration page as a spectator uses it: the players' titles,
// ratings and federations beside their names; a click on a move shows
// the position after it and Live returns to the board; PGN downloads the
// game as the board published it; and neither page logs an error (a
// Content-Security-Policy violation, a 404 such as /favicon.ico, an
// exception).
func TestBrowserViewer(t *testing.T) {
	t.Parallel()
	startBrowserCheck(t)
	pw := broker.Passwords{}
	for u, p := range users {
		pw[u] = broker.HashPassword(p, []byte("salt-"+u))
	}
	e, err := broker.Start(broker.Config{Listeners: []broker.Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}, {Kind: "ws", Addr: "127.0.0.1:0"}}, Passwords: pw, AllowAnonymous: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	ws, err := web.LocalWS(e.Addr(1))
	if err != nil {
		t.Fatal(err)
	}
	h, err := web.Handler(web.Config{ProxyTo: ws, Boards: []string{"board-1"}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	g := loadGames(t)[0]
	b1 := startBoard(t, ctx, "board-1", e.URL())
	if _, err := b1.StartGame(publish.GameInfo{White: "Ju, Wenjun", Black: "Lei, Tingjie", Round: "3", BoardNo: "1",
		WhiteTitle: "GM", WhiteElo: 2536, WhiteFed: "CHN", BlackElo: 2518}); err != nil {
		t.Fatal(err)
	}
	for _, m := range replayMoves(g)[:10] {
		if _, err := b1.Move(m.Move); err != nil {
			t.Fatal(err)
		}
	}
	downloads := t.TempDir()
	br := startBrowser(t)
	if err := br.call(ctx, "", "Browser.setDownloadBehavior", map[string]any{"behavior": "allow", "downloadPath": downloads}, nil); err != nil {
		t.Fatal(err)
	}
	demo := br.newPage(ctx, 1280, 800)
	demo.navigate(ctx, srv.URL+"/")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	after := func(n int) string {
		pos := *g.Start
		for _, m := range g.Moves[:n] {
			pos.MakeMove(m)
		}
		return pos.FEN()
	}
	must(demo.waitFor(ctx, "position after 10 moves", tileExpr("board-1", "t.dataset.fen"), after(10), 20*time.Second))
	must(demo.waitFor(ctx, "players with title, rating, federation", tileExpr("board-1",
		"['.player.bottom', '.player.top'].map(s => [...t.querySelectorAll(s + ' .who > span')].filter(e => !e.hidden).map(e => e.textContent).join('|'))"),
		[]string{"GM|Ju, Wenjun|2536|CHN", "Lei, Tingjie|2518"}, 5*time.Second))

	// A move of the list: the position after it, its squares marked.
	must(demo.waitFor(ctx, "download offered", tileExpr("board-1", "!t.querySelector('.download').hidden"), true, 5*time.Second))
	must(demo.eval(ctx, tileExpr("board-1", `(t.querySelector('.san[data-ply="4"]').click(), true)`), nil))
	must(demo.waitFor(ctx, "reviewing ply 4", tileExpr("board-1", "[t.dataset.review, t.dataset.shownFen, !t.querySelector('.live').hidden, t.querySelector('.san.current')?.dataset.ply]"),
		[]any{"4", placementOf(after(4)), true, "4"}, 5*time.Second))
	must(demo.waitFor(ctx, "drawn ply 4", drawnExpr(`document.querySelector('.tile[data-board="board-1"] .board')`), placementOf(after(4)), 5*time.Second))
	// A new move while reviewing leaves the position looked at alone.
	if _, err := b1.Move(replayMoves(g)[10].Move); err != nil {
		t.Fatal(err)
	}
	must(demo.waitFor(ctx, "11th move arrives", tileExpr("board-1", "t.dataset.fen"), after(11), 10*time.Second))
	must(demo.waitFor(ctx, "still ply 4", tileExpr("board-1", "t.dataset.shownFen"), placementOf(after(4)), time.Second))
	must(demo.eval(ctx, tileExpr("board-1", `(t.querySelector('.live').click(), true)`), nil))
	must(demo.waitFor(ctx, "back to live", tileExpr("board-1", "[t.dataset.review, t.dataset.shownFen, t.querySelector('.live').hidden]"),
		[]any{"0", after(11), true}, 5*time.Second))
	must(demo.waitFor(ctx, "drawn live", drawnExpr(`document.querySelector('.tile[data-board="board-1"] .board')`), placementOf(after(11)), 5*time.Second))

	// The PGN download is the board's PGN.
	want := b1.PGN()
	must(demo.eval(ctx, tileExpr("board-1", `(t.querySelector('.download').click(), true)`), nil))
	file := filepath.Join(downloads, "Round 3 Board 1 Ju Wenjun-Lei Tingjie.pgn")
	var got []byte
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if got, err = os.ReadFile(file); err == nil && len(got) > 0 {
			break
		}
	}
	gs, err := chess.ReadAllPGN(strings.NewReader(string(got)))
	if err != nil || len(gs) != 1 || len(gs[0].Moves) != 11 || gs[0].Tag("WhiteElo") != "2536" {
		entries, _ := os.ReadDir(downloads)
		t.Fatalf("download %s: %v, %d bytes (dir %v); want the board's PGN:\n%s", file, err, len(got), entries, want)
	}

	cons := br.newPage(ctx, 1280, 800)
	cons.navigate(ctx, srv.URL+"/console")
	must(cons.waitFor(ctx, "console lists the board", `document.querySelector('.room-board[data-board="board-1"]') !== null`, true, 20*time.Second))
	time.Sleep(time.Second) // late errors: the worker, the icon
	br.mu.Lock()
	defer br.mu.Unlock()
	for _, l := range br.logs {
		if strings.HasPrefix(l, "log.error") || strings.HasPrefix(l, "exception") || strings.HasPrefix(l, "console.error") {
			t.Errorf("the pages logged: %s", l)
		}
	}
}
