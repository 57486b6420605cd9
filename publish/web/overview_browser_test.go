package web_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/web"
)

// The demonstration page's round overview (?view=overview): every board
// the page sees, grouped by round and ordered by board number, with the
// players' titles and ratings and the result or the move being played;
// results and moves show as they come; a click on a board opens it.
func TestBrowserOverview(t *testing.T) {
	t.Parallel()
	startBrowserCheck(t)
	e, ws := startVenueBroker(t)
	h, err := web.Handler(web.Config{ProxyTo: ws, Title: "Club championship"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	games := loadGames(t)
	boards := map[string]*publish.Publisher{}
	for _, g := range []struct {
		id   string
		info publish.GameInfo
	}{
		{"board-1", publish.GameInfo{White: "Ju, Wenjun", Black: "Lei, Tingjie", Event: "Club championship", Round: "3", BoardNo: "2", WhiteTitle: "GM", WhiteElo: 2536, BlackTitle: "GM", BlackElo: 2518}},
		{"board-2", publish.GameInfo{White: "Goryachkina, Aleksandra", Black: "Muzychuk, Anna", Event: "Club championship", Round: "3", BoardNo: "1", WhiteElo: 2553, BlackTitle: "GM"}},
		{"board-3", publish.GameInfo{White: "Doe, Jane", Black: "Roe, Richard", Event: "Club championship", Round: "2", BoardNo: "1", BlackTitle: "CM", BlackElo: 2000}},
		{"board-4", publish.GameInfo{White: "Person, Late", Black: "Müller, Jürgen", Event: "Club championship", Round: "3", BoardNo: "10"}},
	} {
		p := startBoard(t, ctx, g.id, e.URL())
		_, err := p.StartGame(g.info)
		must(err)
		boards[g.id] = p
	}
	play := func(id string, g, from, to int) {
		t.Helper()
		for _, m := range replayMoves(games[g])[from:to] {
			_, err := boards[id].Move(m.Move)
			must(err)
		}
	}
	play("board-1", 0, 0, 10)
	play("board-2", 1, 0, 7)
	play("board-3", 1, 0, 4)
	must(boards["board-3"].End(publish.Result{Result: "0-1", Termination: "resignation"}))

	br := startBrowser(t)
	demo := br.newPage(ctx, 1280, 900)
	demo.navigate(ctx, srv.URL+"/")
	// The grid links to the overview.
	must(demo.waitFor(ctx, "grid shows the boards", `document.querySelectorAll(".tile").length`, 4, 20*time.Second))
	must(demo.eval(ctx, `(document.getElementById("overview-link").click(), true)`, nil))
	const rows = `[...document.querySelectorAll(".ov-round")].map(s => s.querySelector("h2").textContent + ": " +
		[...s.querySelectorAll(".ov-board")].map(r => [...r.querySelectorAll("td")].map(td => td.textContent).join("|")).join(" / "))`
	must(demo.waitFor(ctx, "overview by round and board", rows, []string{
		"Round 2 · Club championship: 1|Doe, Jane|0-1|CM Roe, Richard 2000|finished",
		"Round 3 · Club championship: 1|Goryachkina, Aleksandra 2553||GM Muzychuk, Anna|in progress, move 4 / " +
			"2|GM Ju, Wenjun 2536||GM Lei, Tingjie 2518|in progress, move 6 / 10|Person, Late||Müller, Jürgen|not started",
	}, 20*time.Second))
	if u := must2(demo, ctx, `location.search`); u != "?view=overview" {
		t.Errorf("overview at %q", u)
	}

	// Live: a move, a result and a draw change the rows as they come.
	play("board-2", 1, 7, 8)
	must(boards["board-1"].End(publish.Result{Result: "1-0", Termination: "resignation"}))
	play("board-4", 0, 0, 1)
	must(demo.waitFor(ctx, "results and moves live", `[...document.querySelectorAll('.ov-round[data-round="3"] .ov-board')].map(r => r.dataset.board + ":" + r.dataset.status + ":" +
		r.querySelector(".ov-result").textContent + ":" + r.querySelector(".ov-status").textContent)`,
		[]string{"board-2:playing::in progress, move 5", "board-1:finished:1-0:finished", "board-4:playing::in progress, move 1"}, 10*time.Second))
	must(boards["board-2"].End(publish.Result{Result: "1/2-1/2", Termination: "agreement"}))
	must(demo.waitFor(ctx, "a draw", `document.querySelector('.ov-board[data-board="board-2"] .ov-result').textContent`, "½-½", 10*time.Second))

	must(demo.screenshot(ctx, filepath.Join(screenshotDir(t, "overview"), "overview.png")))

	// A click on a board opens it.
	must(demo.eval(ctx, `(document.querySelector('.ov-board[data-board="board-1"] .ov-white').click(), true)`, nil))
	must(demo.waitFor(ctx, "board 1 opened", `[location.search, [...document.querySelectorAll(".tile")].filter(t => !t.hidden).map(t => t.dataset.board)]`,
		[]any{"?boards=board-1", []string{"board-1"}}, 20*time.Second))
	must(demo.waitFor(ctx, "its result", tileExpr("board-1", "t.querySelector('.result').textContent.startsWith('1-0')"), true, 10*time.Second))

	br.mu.Lock()
	defer br.mu.Unlock()
	for _, l := range br.logs {
		if strings.HasPrefix(l, "log.error") || strings.HasPrefix(l, "exception") || strings.HasPrefix(l, "console.error") {
			t.Errorf("the page logged: %s", l)
		}
	}
}

func must2(p *page, ctx context.Context, expr string) string {
	var s string
	if err := p.eval(ctx, expr, &s); err != nil {
		return "error: " + err.Error()
	}
	return s
}
