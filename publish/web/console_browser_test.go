package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
	"github.com/boardd/boardd/publish/internal/mosqtest"
	"github.com/boardd/boardd/publish/web"
)

// startVenueBroker starts an embedded broker with the test users'
// accounts and a WebSocket listener, and returns it and the address the
// pages' proxy dials.
func startVenueBroker(t *testing.T) (*broker.Embedded, string) {
	t.Helper()
	pw := broker.Passwords{}
	for u, p := range users {
		pw[u] = broker.HashPasswordCost(p, []byte("salt-"+u), 101)
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
	return e, ws
}

// gameHandler applies results and new games the way the daemon does (the
// game ends with the result; a second one is refused unless it replaces
// the first; a new game starts a game) and records what reached it.
type gameHandler struct {
	ackHandler
	p  *publish.Publisher
	mu sync.Mutex
	// got lists the commands applied or refused, as "verb by: details".
	got    []string
	result string
	// games lists the games that new_game commands started.
	games []publish.GameInfo
	ids   []string // their command ids
}

func (h *gameHandler) record(s string) {
	h.mu.Lock()
	h.got = append(h.got, s)
	h.mu.Unlock()
}

func (h *gameHandler) seen() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.got...)
}

func (h *gameHandler) CorrectMove(_ context.Context, c publish.CorrectMoveCmd) error {
	h.record(fmt.Sprintf("correct_move %s: %d %s", c.By, c.Ply, c.UCI))
	return nil
}
func (h *gameHandler) SetResult(_ context.Context, c publish.SetResultCmd) error {
	h.record(fmt.Sprintf("set_result %s: %s %s replace=%v", c.By, c.Result, c.Reason, c.Replace))
	if h.result != "" && !c.Replace {
		return fmt.Errorf("the game already has a result (%s); send replace to change it", h.result)
	}
	h.result = c.Result
	return h.p.End(publish.Result{Result: c.Result, Termination: c.Reason})
}

func (h *gameHandler) NewGame(_ context.Context, c publish.NewGameCmd) error {
	i := c.Info
	h.record(fmt.Sprintf("new_game %s: %s %s %d %s %s – %s %s %d; round %s board %s; %s", c.By,
		i.WhiteTitle, i.White, i.WhiteElo, i.WhiteFed, i.WhiteFideID, i.BlackTitle, i.Black, i.BlackElo, i.Round, i.BoardNo, i.TimeControl))
	h.mu.Lock()
	h.result = ""
	h.games = append(h.games, i)
	h.ids = append(h.ids, c.ID)
	h.mu.Unlock()
	_, err := h.p.StartGame(i)
	return err
}

func startGameBoard(t *testing.T, ctx context.Context, id, brokerURL string) (*publish.Publisher, *gameHandler) {
	h := &gameHandler{}
	p, err := publish.Open(publish.Config{
		Board:      id,
		JournalDir: t.TempDir(),
		Dialer:     publish.PahoDialer{URL: brokerURL, Username: id, Password: users[id]},
		Handler:    h,
		Status:     publish.Status{Sensors: "simulated", Clock: "software"},
		NoSync:     true,
		BackoffMin: 100 * time.Millisecond,
		BackoffMax: 500 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	h.p = p
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.Run(ctx)
	}()
	t.Cleanup(func() {
		<-done
		p.Close()
	})
	return p, h
}

// The arbiter console's actions, with the venue ACL of the embedded
// broker: the arbiter enters a result (confirmed first) and it reaches the
// board's handler and ends the game; a second result is refused by the
// board and its error shown; a new game is refused by the broker for the
// arbiter (not allowed by the ACL) and says so; the director starts a new
// game on one board with the players' details, then on every board of
// the round; the command log lists each command with who sent it and the
// reply; and the page logs no error (no CSP violation).
func TestBrowserConsoleActions(t *testing.T) {
	t.Parallel()
	startBrowserCheck(t)
	e, ws := startVenueBroker(t)
	h, err := web.Handler(web.Config{ProxyTo: ws, Boards: []string{"board-1", "board-2"}, Title: "Club championship, round 3"})
	if err != nil {
		t.Fatal(err)
	}
	runConsoleActions(t, "embedded", e.URL(), h)
}

// The same with mosquitto and the venue ACL, the pages dialling its
// websockets listener: mosquitto refuses the arbiter's new game with its
// own reason code.
func TestBrowserConsoleActionsMosquitto(t *testing.T) {
	t.Parallel()
	startBrowserCheck(t)
	m := mosqtest.Start(t, mosqtest.Options{Users: users, ACL: broker.DefaultACL, AllowAnonymous: true, WebSocket: true})
	h, err := web.Handler(web.Config{Broker: fmt.Sprintf("ws://:%d/", m.WSPort), Boards: []string{"board-1", "board-2"}, Title: "Club championship, round 3"})
	if err != nil {
		t.Fatal(err)
	}
	runConsoleActions(t, "mosquitto", m.URL(), h)
}

func runConsoleActions(t *testing.T, name, brokerURL string, h http.Handler) {
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
	b1, h1 := startGameBoard(t, ctx, "board-1", brokerURL)
	b2, h2 := startGameBoard(t, ctx, "board-2", brokerURL)
	_, err := b1.StartGame(publish.GameInfo{White: "Ju, Wenjun", Black: "Lei, Tingjie", Round: "3", BoardNo: "1", TimeControl: "15m+10s",
		WhiteTitle: "GM", WhiteElo: 2536, WhiteFed: "CHN", WhiteFideID: "8603006", BlackTitle: "GM", BlackElo: 2518, BlackFed: "CHN"})
	must(err)
	_, err = b2.StartGame(publish.GameInfo{White: "Goryachkina, Aleksandra", Black: "Muzychuk, Anna", Round: "3", BoardNo: "2", TimeControl: "15m+10s"})
	must(err)
	for _, x := range []struct {
		p *publish.Publisher
		n int
		g int
	}{{b1, 10, 0}, {b2, 6, 1}} {
		for _, m := range replayMoves(games[x.g])[:x.n] {
			_, err := x.p.Move(m.Move)
			must(err)
		}
	}

	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("board-1's handler got %q; board-2's %q", h1.seen(), h2.seen())
		}
	})
	br := startBrowser(t)
	cons := br.newPage(ctx, 1280, 1000)
	cons.navigate(ctx, srv.URL+"/console")
	login := func(user string) {
		t.Helper()
		must(cons.eval(ctx, fmt.Sprintf(`(() => { if (!document.getElementById("logout").hidden) document.getElementById("logout").click(); user.value = %s; pass.value = %s; document.getElementById("login").requestSubmit(); return true })()`,
			jsString(user), jsString(users[user])), nil))
		must(cons.waitFor(ctx, "logged in as "+user, `[conn.dataset.conn, document.body.dataset.user, document.getElementById("res-send").disabled]`, []any{"connected", user, false}, 10*time.Second))
	}
	must(cons.waitFor(ctx, "both boards in the room", `[...document.querySelectorAll('.room-board')].map(r => r.dataset.board + ":" + r.dataset.state).join(" ")`,
		"board-1:playing board-2:playing", 20*time.Second))
	// Read-only until logged in.
	must(cons.waitFor(ctx, "buttons disabled while read-only", `["res-send", "game-send", "round-send"].map(id => document.getElementById(id).disabled)`, []bool{true, true, true}, 5*time.Second))
	login("arbiter")

	// confirmDialog waits for the confirmation, checks what it lists and
	// its warning, and confirms or cancels it.
	confirmDialog := func(what string, lines []string, warn string, ok bool) {
		t.Helper()
		must(cons.waitFor(ctx, what+": confirmation", `(() => { const d = document.getElementById("confirm"); return d.open ? [[...d.querySelectorAll("li")].map(l => l.textContent), document.getElementById("confirm-warn").textContent] : null })()`,
			[]any{lines, warn}, 10*time.Second))
		button := "confirm-cancel"
		if ok {
			button = "confirm-ok"
		}
		must(cons.eval(ctx, fmt.Sprintf(`(document.getElementById(%s).click(), true)`, jsString(button)), nil))
		must(cons.waitFor(ctx, what+": confirmation closed", `document.getElementById("confirm").open`, false, 5*time.Second))
	}
	outcome := func(what, status string) string {
		t.Helper()
		var s []string
		if err := cons.waitFor(ctx, what+": outcome", `document.getElementById("act-outcome").dataset.status`, status, 20*time.Second); err != nil {
			must(cons.eval(ctx, `[document.getElementById("act-outcome").textContent]`, &s))
			t.Fatalf("%v (%q)", err, s)
		}
		must(cons.eval(ctx, `[document.getElementById("act-outcome").textContent]`, &s))
		return s[0]
	}
	logRow := func(i int) []string {
		t.Helper()
		var r []string
		must(cons.eval(ctx, fmt.Sprintf(`(() => { const r = document.querySelectorAll("#log-rows tr")[%d]; return r ? [r.dataset.status, ...[...r.querySelectorAll("td")].slice(1).map(td => td.textContent)] : [] })()`, i), &r))
		return r
	}
	enterResult := func(result, reason string) {
		t.Helper()
		must(cons.eval(ctx, fmt.Sprintf(`(() => { document.querySelector('.room-board[data-board="board-1"]').click();
			document.getElementById("res-result").value = %s; document.getElementById("res-reason").value = %s;
			document.getElementById("act-outcome").dataset.status = ""; document.getElementById("res-send").click(); return true })()`, jsString(result), jsString(reason)), nil))
	}

	// The arbiter enters 0-1 by resignation on board 1: confirmed, sent,
	// applied by the board, shown and logged. A cancelled one first sends
	// nothing.
	enterResult("0-1", "resignation")
	confirmDialog("cancelled result", []string{"Ju, Wenjun – Lei, Tingjie: Black wins (0-1), resignation"}, "", false)
	enterResult("0-1", "resignation")
	confirmDialog("result", []string{"Ju, Wenjun – Lei, Tingjie: Black wins (0-1), resignation"}, "", true)
	if s := outcome("result", "ok"); s != "Board 1 · board-1: result 0-1 (resignation) entered" {
		t.Fatalf("outcome %q", s)
	}
	if got := h1.seen(); strings.Join(got, "|") != "set_result arbiter: 0-1 resignation replace=false" {
		t.Fatalf("board-1's handler got %q, want the one result", got)
	}
	must(cons.waitFor(ctx, "board 1 finished", `document.querySelector('.room-board[data-board="board-1"]').dataset.state`, "finished", 10*time.Second))
	if r := logRow(0); strings.Join(r, "|") != "ok|arbiter|board-1|set_result|0-1 (resignation)|ok" {
		t.Fatalf("log row %q", r)
	}

	// A second result is refused by the board, which says why.
	enterResult("1-0", "arbiter's decision")
	confirmDialog("second result", []string{"Ju, Wenjun – Lei, Tingjie: White wins (1-0), arbiter's decision"},
		`The game already has the result 0-1: the board refuses another unless "replace a result" is ticked.`, true)
	const refusal = "set_result: the game already has a result (0-1); send replace to change it"
	if s := outcome("second result", "error"); s != "Board 1 · board-1: refused by the board: "+refusal {
		t.Fatalf("outcome %q", s)
	}
	if r := logRow(0); strings.Join(r, "|") != "error|arbiter|board-1|set_result|1-0 (arbiter's decision)|"+refusal {
		t.Fatalf("log row %q", r)
	}

	// The arbiter corrects a published move: confirmed, sent, applied.
	must(cons.eval(ctx, `(() => { document.querySelector('.room-board[data-board="board-1"]').click();
		document.getElementById("cor-ply").value = "3"; document.getElementById("cor-uci").value = "G1F3";
		document.getElementById("act-outcome").dataset.status = ""; document.getElementById("cor-send").click(); return true })()`, nil))
	confirmDialog("correction", []string{"Ju, Wenjun – Lei, Tingjie: ply 3 becomes g1f3"},
		"The moves after it stay while they are legal; the others are retracted. Set the board to the corrected game.", true)
	if s := outcome("correction", "ok"); s != "Board 1 · board-1: ply 3 corrected to g1f3" {
		t.Fatalf("outcome %q", s)
	}
	if got := h1.seen(); got[len(got)-1] != "correct_move arbiter: 3 g1f3" {
		t.Fatalf("board-1's handler got %q", got)
	}
	if r := logRow(0); strings.Join(r, "|") != "ok|arbiter|board-1|correct_move|ply 3 becomes g1f3|ok" {
		t.Fatalf("log row %q", r)
	}

	// The arbiter may not start games: the broker refuses, the console
	// says so, the board never hears of it.
	must(cons.eval(ctx, `(() => { document.querySelector('.room-board[data-board="board-2"]').click(); document.getElementById("act-outcome").dataset.status = ""; document.getElementById("game-send").click(); return true })()`, nil))
	warn2 := "Board 2 · board-2 has a game in progress (Goryachkina, Aleksandra – Muzychuk, Anna, 6 plies, no result): the new game replaces it."
	confirmDialog("arbiter's new game", []string{"Board 2 · board-2: Goryachkina, Aleksandra – Muzychuk, Anna, round 3, 15m+10s"}, warn2, true)
	s := outcome("arbiter's new game", "error")
	if !strings.Contains(s, `refused by the broker: the account "arbiter" has no right to send new_game`) || !strings.Contains(s, "Not authorized") {
		t.Fatalf("outcome %q: want the broker's refusal for lack of rights", s)
	}
	if r := logRow(0); len(r) != 6 || r[0] != "error" || r[3] != "new_game" || !strings.Contains(r[5], "has no right to send new_game") {
		t.Fatalf("log row %q", r)
	}
	t.Logf("%s: new game by the arbiter: %s", name, s)
	if got := h2.seen(); len(got) != 0 {
		t.Fatalf("board-2's handler got %q, want nothing", got)
	}

	// The director starts a new game on board 2 with the players' details.
	login("director")
	must(cons.eval(ctx, `(() => { document.querySelector('.room-board[data-board="board-2"]').click(); const f = document.getElementById("game-form").elements;
		f.white.value = "Carlsen, Magnus"; f.white_title.value = "gm"; f.white_elo.value = "2831"; f.white_fed.value = "nor"; f.white_fide_id.value = "1503014";
		f.black.value = "Caruana, Fabiano"; f.black_title.value = "GM"; f.black_elo.value = "2805"; f.black_fed.value = "USA"; f.black_fide_id.value = "2020009";
		f.time_control.value = "90m+30s"; document.getElementById("act-outcome").dataset.status = ""; document.getElementById("game-send").click(); return true })()`, nil))
	confirmDialog("director's new game", []string{"Board 2 · board-2: GM Carlsen, Magnus 2831 – GM Caruana, Fabiano 2805, round 3, 90m+30s"}, warn2, true)
	if s := outcome("director's new game", "ok"); s != "Board 2 · board-2: new game started" {
		t.Fatalf("outcome %q", s)
	}
	want2 := "new_game director: GM Carlsen, Magnus 2831 NOR 1503014 – GM Caruana, Fabiano 2805; round 3 board 2; 90m+30s"
	if got := h2.seen(); strings.Join(got, "|") != want2 {
		t.Fatalf("board-2's handler got %q, want %q", got, want2)
	}
	must(cons.waitFor(ctx, "board 2's new game", `[document.querySelector('.room-board[data-board="board-2"]').dataset.state, document.querySelector('.room-board[data-board="board-2"] .rb-players').textContent]`,
		[]string{"ready", "Carlsen, Magnus – Caruana, Fabiano"}, 10*time.Second))
	if r := logRow(0); strings.Join(r, "|") != "ok|director|board-2|new_game|Board 2: GM Carlsen, Magnus 2831 – GM Caruana, Fabiano 2805, round 3, 90m+30s|ok" {
		t.Fatalf("log row %q", r)
	}

	// Every board of round 3 at once, with the players each board shows.
	must(cons.eval(ctx, `(() => { const f = document.getElementById("game-form").elements; f.round.value = "3"; f.time_control.value = "25m+10s";
		document.getElementById("act-outcome").dataset.status = ""; document.getElementById("round-send").click(); return true })()`, nil))
	confirmDialog("round", []string{
		"Board 1 · board-1: GM Ju, Wenjun 2536 – GM Lei, Tingjie 2518, round 3, 25m+10s",
		"Board 2 · board-2: GM Carlsen, Magnus 2831 – GM Caruana, Fabiano 2805, round 3, 25m+10s",
	}, "", true)
	if s := outcome("round", "ok"); s != "round 3: 2 of 2 new games started" {
		t.Fatalf("outcome %q", s)
	}
	if got := h1.seen(); len(got) != 4 || got[3] != "new_game director: GM Ju, Wenjun 2536 CHN 8603006 – GM Lei, Tingjie 2518; round 3 board 1; 25m+10s" {
		t.Fatalf("board-1's handler got %q", got)
	}
	if got := h2.seen(); len(got) != 2 || got[1] != "new_game director: GM Carlsen, Magnus 2831 NOR 1503014 – GM Caruana, Fabiano 2805; round 3 board 2; 25m+10s" {
		t.Fatalf("board-2's handler got %q", got)
	}
	must(cons.waitFor(ctx, "room after the round's start", `[...document.querySelectorAll('.room-board')].map(r => r.dataset.board + ":" + r.dataset.state).join(" ")`,
		"board-1:ready board-2:ready", 10*time.Second))
	var n int
	must(cons.eval(ctx, `document.querySelectorAll("#log-rows tr[data-status=ok]").length`, &n))
	if n != 5 {
		t.Fatalf("%d commands logged as applied, want 5", n)
	}
	// The log survives a reload of the tab.
	cons.navigate(ctx, srv.URL+"/console")
	must(cons.waitFor(ctx, "log after a reload", `document.querySelectorAll("#log-rows tr").length`, 7, 10*time.Second))
	// The form shows the first board's game once its state arrives.
	must(cons.waitFor(ctx, "form filled after a reload", `["white", "white_elo", "round", "board_no", "time_control"].map(k => document.getElementById("game-form").elements[k].value)`,
		[]string{"Ju, Wenjun", "2536", "3", "1", "25m+10s"}, 10*time.Second))
	must(cons.waitFor(ctx, "still director", `[conn.dataset.conn, document.body.dataset.user]`, []string{"connected", "director"}, 10*time.Second))
	enterResult("1/2-1/2", "agreement")
	must(cons.waitFor(ctx, "confirmation open", `document.getElementById("confirm").open`, true, 5*time.Second))
	time.Sleep(300 * time.Millisecond)
	must(cons.screenshot(ctx, filepath.Join(screenshotDir(t, "console-"+name), "console-actions.png")))
	confirmDialog("draw", []string{"Ju, Wenjun – Lei, Tingjie: draw (½-½), agreement"}, "", false)
	if got := h1.seen(); len(got) != 4 {
		t.Fatalf("board-1's handler got %q after a cancelled result", got)
	}

	br.mu.Lock()
	defer br.mu.Unlock()
	for _, l := range br.logs {
		if strings.HasPrefix(l, "log.error") || strings.HasPrefix(l, "exception") || strings.HasPrefix(l, "console.error") {
			t.Errorf("the console logged: %s", l)
		}
	}
}
