package web_test

// End-to-end test in headless Debian chromium: a board publishes a real
// game through a broker (the embedded one, and mosquitto's websockets
// listener); the demonstration page must show every position and the
// clocks, a correction must show, and an alert must reach the arbiter
// console and be cleared from alerts/active by the arbiter's
// acknowledgement, and not by a user without the arbiter role.
//
// Screenshots go to $BOARDD_WEB_SCREENSHOTS/<broker>/ (default:
// $TMPDIR/boardd-web-screenshots/<broker>/, named in the log).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
	"github.com/boardd/boardd/publish/internal/mosqtest"
	"github.com/boardd/boardd/publish/web"
	"github.com/boardd/boardd/rules"
)

const gamesPGN = "../../testdata/games/lichess_broadcast_fide_womens_world_rapid_2024_r1-6.pgn"

var users = map[string]string{
	"board-1":  "pw-board-1",
	"board-2":  "pw-board-2",
	"arbiter":  "pw-arbiter",
	"board-3":  "pw-board-3",
	"board-4":  "pw-board-4",
	"relay":    "pw-relay",    // reads everything, may send no command
	"director": "pw-director", // may send every command
}

func TestBrowserEmbeddedBroker(t *testing.T) {
	t.Parallel()
	startBrowserCheck(t)
	pw := broker.Passwords{}
	i := 0
	for u, p := range users {
		pw[u] = broker.HashPasswordCost(p, []byte(fmt.Sprintf("salt-%d", i)), 101)
		i++
	}
	e, err := broker.Start(broker.Config{
		Listeners:      []broker.Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}, {Kind: "ws", Addr: "127.0.0.1:0"}},
		Passwords:      pw,
		AllowAnonymous: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	// The pages reach the embedded broker through the web server's /mqtt.
	ws, err := web.LocalWS(e.Addr(1))
	if err != nil {
		t.Fatal(err)
	}
	h, err := web.Handler(web.Config{ProxyTo: ws, Boards: []string{"board-1", "board-2", "board-3", "board-4"}, Title: "Club championship, round 3"})
	if err != nil {
		t.Fatal(err)
	}
	runScenario(t, "embedded", e.URL(), h, "?anim=100")
}

func TestBrowserMosquitto(t *testing.T) {
	t.Parallel()
	startBrowserCheck(t)
	m := mosqtest.Start(t, mosqtest.Options{Users: users, ACL: broker.DefaultACL, AllowAnonymous: true, WebSocket: true})
	// The pages connect to mosquitto's websockets listener directly; the
	// host is the one the page came from.
	// No board list: the pages find the boards through wildcard
	// subscriptions, and the demonstration page shows round 3.
	h, err := web.Handler(web.Config{Broker: fmt.Sprintf("ws://:%d/", m.WSPort), Title: "Club championship, round 3"})
	if err != nil {
		t.Fatal(err)
	}
	runScenario(t, "mosquitto", m.URL(), h, "?round=3&anim=100")
}

// startBrowserCheck skips early (before brokers start) without chromium.
func startBrowserCheck(t *testing.T) {
	chromiumBinary(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
}

func screenshotDir(t *testing.T, name string) string {
	base := os.Getenv("BOARDD_WEB_SCREENSHOTS")
	if base == "" {
		// One fixed place, overwritten by each run, so runs do not pile up.
		base = filepath.Join(os.TempDir(), "boardd-web-screenshots")
	}
	dir := filepath.Join(base, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", dir)
	return dir
}

func loadGames(t *testing.T) []*chess.Game {
	f, err := os.Open(filepath.FromSlash(gamesPGN))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gs, err := chess.ReadAllPGN(f)
	if err != nil && len(gs) == 0 {
		t.Fatal(err)
	}
	return gs
}

// ackHandler accepts acknowledgements (the Publisher then clears the
// alert) and refuses every other command.
type ackHandler struct{}

func (ackHandler) NewGame(context.Context, publish.NewGameCmd) error { return errors.New("not here") }
func (ackHandler) SetPosition(context.Context, publish.SetPositionCmd) error {
	return errors.New("not here")
}
func (ackHandler) SetTimeControl(context.Context, publish.SetTimeControlCmd) error {
	return errors.New("not here")
}
func (ackHandler) AckAlert(context.Context, publish.AckAlertCmd) error { return nil }
func (ackHandler) Promote(context.Context, publish.PromoteCmd) error   { return errors.New("not here") }
func (ackHandler) CorrectMove(context.Context, publish.CorrectMoveCmd) error {
	return errors.New("not here")
}
func (ackHandler) SetResult(context.Context, publish.SetResultCmd) error {
	return errors.New("not here")
}

func startBoard(t *testing.T, ctx context.Context, id, brokerURL string) *publish.Publisher {
	p, err := publish.Open(publish.Config{
		Board:      id,
		JournalDir: t.TempDir(),
		Dialer:     publish.PahoDialer{URL: brokerURL, Username: id, Password: users[id]},
		Handler:    ackHandler{},
		Status:     publish.Status{Sensors: "simulated", Clock: "software"},
		NoSync:     true,
		BackoffMin: 100 * time.Millisecond,
		BackoffMax: 500 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.Run(ctx)
	}()
	t.Cleanup(func() {
		<-done
		p.Close()
	})
	return p
}

// watcher follows a board's alerts/active as the arbiter.
type watcher struct {
	mu     sync.Mutex
	alerts *publish.AlertsPayload
}

func watchAlerts(t *testing.T, ctx context.Context, brokerURL, board string) *watcher {
	w := &watcher{}
	topic := publish.Topic(board, publish.LeafAlertsActive)
	conn, err := publish.PahoDialer{URL: brokerURL, Username: "arbiter", Password: users["arbiter"]}.Dial(ctx, publish.DialOptions{
		ClientID: "web-test-watch-" + board,
		OnMessage: func(tp string, payload []byte) {
			if tp != topic {
				return
			}
			var a publish.AlertsPayload
			if json.Unmarshal(payload, &a) == nil {
				w.mu.Lock()
				w.alerts = &a
				w.mu.Unlock()
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	if err := conn.Subscribe(ctx, topic, 1); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *watcher) ids() ([]string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.alerts == nil {
		return nil, false
	}
	var ids []string
	for _, a := range w.alerts.Alerts {
		ids = append(ids, a.ID)
	}
	return ids, true
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// tileExpr is a JavaScript expression reading the tile of board id.
func tileExpr(id, what string) string {
	return fmt.Sprintf(`(() => { const t = document.querySelector('.tile[data-board=%s]'); return t ? %s : null })()`, jsString(id), what)
}

// drawnExpr reads the position drawn on a cm-chessboard under root (a JS
// expression) as a FEN piece placement.
func drawnExpr(root string) string {
	return `(() => { const b = Array(64).fill(""); for (const g of ` + root + `.querySelectorAll('.pieces g[data-piece][data-square]')) {
		const p = g.dataset.piece, s = g.dataset.square; b[(s.charCodeAt(1) - 49) * 8 + s.charCodeAt(0) - 97] = p[0] === "w" ? p[1].toUpperCase() : p[1] }
		const rows = []; for (let r = 7; r >= 0; r--) { let row = "", e = 0; for (let f = 0; f < 8; f++) { const p = b[r * 8 + f]; if (!p) { e++; continue } if (e) { row += e; e = 0 } row += p } if (e) row += e; rows.push(row) }
		return rows.join("/") })()`
}

func placementOf(fen string) string { return strings.Fields(fen)[0] }

// formatClock is the page's clock format for times of ten seconds and up.
func formatClock(ms int64) string {
	s := (ms + 999) / 1000
	h, m, sec := s/3600, s/60%60, s%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, sec)
	}
	return fmt.Sprintf("%d:%02d", m, sec)
}

// runScenario runs the game, alert and correction checks; demoQuery is
// the demonstration page's URL query.
func runScenario(t *testing.T, name, brokerURL string, h http.Handler, demoQuery string) {
	start := time.Now()
	shots := screenshotDir(t, name)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	srv := httptest.NewServer(h)
	defer srv.Close()

	games := loadGames(t)
	gA, gB, gC, gD := games[0], games[1], games[2], games[3]
	if len(gA.Moves) < 40 || len(gB.Moves) < 30 {
		t.Fatalf("test games too short: %d and %d moves", len(gA.Moves), len(gB.Moves))
	}
	pctx, pcancel := context.WithCancel(ctx)
	defer pcancel()
	b1 := startBoard(t, pctx, "board-1", brokerURL)
	b2 := startBoard(t, pctx, "board-2", brokerURL)
	b3 := startBoard(t, pctx, "board-3", brokerURL)
	b4 := startBoard(t, pctx, "board-4", brokerURL)
	alerts := watchAlerts(t, ctx, brokerURL, "board-1")
	info := func(g *chess.Game, no string) publish.GameInfo {
		return publish.GameInfo{White: g.Tag("White"), Black: g.Tag("Black"), Event: g.Tag("Event"),
			Round: "3", BoardNo: no, TimeControl: "15m+10s"}
	}
	for _, x := range []struct {
		p *publish.Publisher
		g *chess.Game
		n string
	}{{b1, gA, "1"}, {b2, gB, "2"}, {b3, gC, "3"}, {b4, gD, "4"}} {
		if _, err := x.p.StartGame(info(x.g, x.n)); err != nil {
			t.Fatal(err)
		}
		if err := x.p.Clock(publish.ClockState{Clocks: publish.Clocks{WhiteMS: 900000, BlackMS: 900000}, Event: "start", Running: "white"}); err != nil {
			t.Fatal(err)
		}
	}

	br := startBrowser(t)
	demo := br.newPage(ctx, 1440, 900)
	demo.navigate(ctx, srv.URL+"/"+demoQuery)
	cons := br.newPage(ctx, 1280, 860)
	cons.navigate(ctx, srv.URL+"/console")

	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(demo.waitFor(ctx, "board-1 start position", tileExpr("board-1", "t.dataset.fen"), chess.StartFEN, 20*time.Second))

	// Board 2 plays 30 moves at once; the page must land on the position.
	movesB := replayMoves(gB)
	for _, m := range movesB[:30] {
		if _, err := b2.Move(m.Move); err != nil {
			t.Fatal(err)
		}
		must(b2.Clock(m.clock))
	}
	must(demo.waitFor(ctx, "board-2 after 30 plies", tileExpr("board-2", "t.dataset.fen"), gB.Position(30).FEN(), 20*time.Second))
	must(demo.waitFor(ctx, "board-2 drawn after 30 plies", tileExpr("board-2", drawnExpr("t")), placementOf(gB.Position(30).FEN()), 10*time.Second))

	// Board 2 is turned: Black at the bottom.
	must(demo.eval(ctx, tileExpr("board-2", "t.querySelector('.flip').click()"), nil))
	must(demo.waitFor(ctx, "board-2 turned", tileExpr("board-2", "[t.dataset.orientation, t.querySelector('.player.bottom .name').textContent, t.querySelector('.board .coordinates')?.textContent.slice(0, 8)]"),
		[]any{"b", gB.Tag("Black"), "hgfedcba"}, 10*time.Second))

	// Board 3 finishes (a resignation), board 4's white flag falls.
	for _, m := range replayMoves(gC)[:12] {
		_, err := b3.Move(m.Move)
		must(err)
		must(b3.Clock(m.clock))
	}
	must(b3.End(publish.Result{Result: "1-0", Termination: "resignation"}))
	movesD := replayMoves(gD)
	for _, m := range movesD[:20] {
		_, err := b4.Move(m.Move)
		must(err)
		must(b4.Clock(m.clock))
	}
	must(b4.Clock(publish.ClockState{Clocks: publish.Clocks{WhiteMS: 0, BlackMS: movesD[19].clock.BlackMS}, Event: "flag"}))
	must(demo.waitFor(ctx, "board-4 flag", tileExpr("board-4", "[t.querySelector('.clock[data-side=white]').textContent, t.querySelector('.clock[data-side=white]').classList.contains('flag')]"), []any{"0:00", true}, 10*time.Second))
	must(demo.waitFor(ctx, "board-3 result", tileExpr("board-3", "t.querySelector('.result').textContent"), "1-0 (resignation)", 10*time.Second))
	must(cons.waitFor(ctx, "room states", `[...document.querySelectorAll('.room-board')].map(r => r.dataset.board + ":" + r.dataset.state).join(" ")`,
		"board-1:playing board-2:playing board-3:finished board-4:flag", 10*time.Second))

	// Board 1 replays game A move by move: FEN, last move and both clocks
	// after each one. The arbiter console is logged in meanwhile.
	movesA := replayMoves(gA)
	const alertPly = 21
	n := min(len(movesA), 40)
	var alertID string
	for i, m := range movesA[:n] {
		if i == 9 {
			// A move made on the board before the clock is pressed shows
			// as provisional: on the board and in the move list, but the
			// confirmed position stays.
			prov := m.Move
			prov.Final = false
			if _, err := b1.Move(prov); err != nil {
				t.Fatal(err)
			}
			must(demo.waitFor(ctx, "provisional move", tileExpr("board-1", "[t.dataset.fen, t.dataset.shownFen, t.querySelectorAll('.marker-prov').length, t.querySelector('.san.prov')?.textContent]"),
				[]any{gA.Position(i).FEN(), gA.Position(i + 1).FEN(), 2, gA.SANs()[i]}, 10*time.Second))
		}
		if _, err := b1.Move(m.Move); err != nil {
			t.Fatal(err)
		}
		must(b1.Clock(m.clock))
		sent := time.Now()
		fen := gA.Position(i + 1).FEN()
		must(demo.waitFor(ctx, fmt.Sprintf("ply %d FEN", i+1), tileExpr("board-1", "[t.dataset.fen, t.dataset.last, t.querySelectorAll('.marker-last').length]"), []any{fen, m.UCI, 2}, 10*time.Second))
		// What is drawn is that position (after any animation).
		must(demo.waitFor(ctx, fmt.Sprintf("ply %d drawn", i+1), tileExpr("board-1", drawnExpr("t")), placementOf(fen), 10*time.Second))
		// The mover's clock stopped: it shows exactly the time published.
		mover, other := "white", "black"
		moverMS, otherMS := m.clock.WhiteMS, m.clock.BlackMS
		if i%2 == 1 {
			mover, other = other, mover
			moverMS, otherMS = otherMS, moverMS
		}
		must(demo.waitFor(ctx, fmt.Sprintf("ply %d %s clock", i+1, mover),
			tileExpr("board-1", fmt.Sprintf("[t.querySelector('.clock[data-side=%s]').dataset.ms, t.querySelector('.clock[data-side=%s]').textContent]", mover, mover)),
			[]string{fmt.Sprint(moverMS), formatClock(moverMS)}, 5*time.Second))
		// The other clock runs down from its published time.
		var ms []string
		must(demo.eval(ctx, tileExpr("board-1", fmt.Sprintf("[t.querySelector('.clock[data-side=%s]').dataset.ms, String(t.querySelector('.player.running .clock')?.dataset.side)]", other)), &ms))
		var got int64
		fmt.Sscan(ms[0], &got)
		if el := time.Since(sent).Milliseconds(); got > otherMS || got < otherMS-el-1000 || ms[1] != other {
			t.Fatalf("ply %d: %s clock shows %d ms (running: %s), want %s running from %d ms (%d ms since the press)", i+1, other, got, ms[1], other, otherMS, el)
		}
		if i == 0 {
			// A running clock counts down on screen, in step with real
			// time: between two readings it loses what passed between them
			// (bounded by when each reading was asked and answered, and
			// the page's 100 ms refresh).
			read := func() (ms int64, asked, answered time.Time) {
				var v []string
				asked = time.Now()
				must(demo.eval(ctx, tileExpr("board-1", "[t.querySelector('.clock[data-side=black]').dataset.ms]"), &v))
				answered = time.Now()
				fmt.Sscan(v[0], &ms)
				return ms, asked, answered
			}
			ms1, a1, b1t := read()
			time.Sleep(1500 * time.Millisecond)
			ms2, a2, b2t := read()
			lo, hi := a2.Sub(b1t).Milliseconds()-150, b2t.Sub(a1).Milliseconds()+150
			if d := ms1 - ms2; d < lo || d > hi {
				t.Fatalf("black's clock went from %d to %d ms (-%d ms) while %d to %d ms passed", ms1, ms2, d, lo+150, hi-150)
			}
		}
		if i+1 == alertPly-1 {
			must(cons.eval(ctx, `(() => { user.value = "relay"; pass.value = "pw-relay"; document.getElementById("login").requestSubmit(); return true })()`, nil))
			// White plays an illegal move at alertPly: the board alerts.
			nextFrom, nextTo := movesA[i+1].UCI[:2], movesA[i+1].UCI[2:4]
			// The penalty as the Laws give it for this game: 2023, rapid,
			// supervised.
			prof, err := rules.Lookup(rules.Setting{Edition: rules.Edition2023, Type: rules.Rapid, Supervised: true})
			must(err)
			a, err := b1.Alert(publish.Alert{Kind: "illegal-move", Ply: alertPly, Side: "white",
				Squares: []string{nextFrom, nextTo}, Article: "7.5.1", Edition: "2023",
				Penalty: prof.IllegalMoveText,
				Text:    fmt.Sprintf("White moved %s-%s, which is not a legal move; the position before it is to be reinstated", nextFrom, nextTo)})
			must(err)
			alertID = a.ID
			checkAlertOnConsole(t, ctx, cons, gA, a, alerts, shots)
		}
	}

	// The SAN move list is the game's. The page shows a move in UCI until
	// the PGN (a topic of its own) names it, so the last one may lag.
	must(demo.waitFor(ctx, "SAN move list", tileExpr("board-1", "[...t.querySelectorAll('.moves .san')].map(e => e.textContent).join(' ')"),
		strings.Join(gA.SANs()[:n], " "), 10*time.Second))
	if alertID == "" {
		t.Fatal("no alert was raised")
	}

	// A correction takes the last move back: the page shows the position
	// before it and says so.
	if _, err := b1.Correct(publish.Correction{Ply: n, Why: "illegal move"}); err != nil {
		t.Fatal(err)
	}
	must(demo.waitFor(ctx, "position after the correction", tileExpr("board-1", "[t.dataset.fen, t.querySelector('.notice').hidden]"), []any{gA.Position(n - 1).FEN(), false}, 10*time.Second))
	must(demo.waitFor(ctx, "position drawn after the correction", tileExpr("board-1", drawnExpr("t")), placementOf(gA.Position(n-1).FEN()), 10*time.Second))
	var notice string
	must(demo.eval(ctx, tileExpr("board-1", "t.querySelector('.notice').textContent"), &notice))
	if san := gA.SANs()[n-1]; !strings.Contains(notice, san) || !strings.Contains(notice, "taken back") || !strings.Contains(notice, "illegal move") {
		t.Fatalf("correction notice %q: want the move %s, 'taken back' and the reason", notice, san)
	}
	// The move is played again and the game ends.
	if _, err := b1.Move(movesA[n-1].Move); err != nil {
		t.Fatal(err)
	}
	must(b1.Clock(movesA[n-1].clock))
	must(demo.waitFor(ctx, "replayed move", tileExpr("board-1", "t.dataset.fen"), gA.Position(n).FEN(), 10*time.Second))
	must(b2.Clock(publish.ClockState{Clocks: publish.Clocks{WhiteMS: movesB[29].clock.WhiteMS, BlackMS: movesB[29].clock.BlackMS}, Running: "", Event: "stop"}))
	must(b2.End(publish.Result{Result: "1/2-1/2", Termination: "agreement"}))
	must(demo.waitFor(ctx, "board-2 result", tileExpr("board-2", "[t.dataset.result, t.querySelector('.result').textContent]"), []string{"1/2-1/2", "1/2-1/2 (agreement)"}, 10*time.Second))
	time.Sleep(600 * time.Millisecond) // let the last animation finish
	must(demo.screenshot(ctx, filepath.Join(shots, "board-grid.png")))

	// The large mode for a wall display.
	large := br.newPage(ctx, 1920, 1080)
	large.navigate(ctx, srv.URL+"/?boards=board-1&large=1")
	must(large.waitFor(ctx, "large board", tileExpr("board-1", drawnExpr("t")), placementOf(gA.Position(n).FEN()), 20*time.Second))
	var fontPx float64
	must(large.eval(ctx, `parseFloat(getComputedStyle(document.querySelector('.clock')).fontSize)`, &fontPx))
	if fontPx < 50 {
		t.Fatalf("large mode clock font is %.0f px on a 1080p display; want at least 50 (legible from ten metres)", fontPx)
	}
	time.Sleep(600 * time.Millisecond)
	must(large.screenshot(ctx, filepath.Join(shots, "board-large.png")))
	t.Logf("%s: %d plies checked in the browser in %v", name, n+30, time.Since(start).Round(time.Millisecond))
}

type replayMove struct {
	publish.Move
	clock publish.ClockState
}

// replayMoves turns a PGN game into the moves and clock presses a board
// publishes.
func replayMoves(g *chess.Game) []replayMove {
	pos := *g.Start
	white, black := int64(900000), int64(900000)
	var out []replayMove
	for i, m := range g.Moves {
		running := "black"
		if g.Clocks[i] >= 0 {
			if pos.SideToMove() == chess.White {
				white = g.Clocks[i].Milliseconds()
			} else {
				black = g.Clocks[i].Milliseconds()
			}
		}
		if pos.SideToMove() == chess.Black {
			running = "white"
		}
		c := publish.Clocks{WhiteMS: white, BlackMS: black}
		out = append(out, replayMove{
			Move:  publish.Move{Ply: i + 1, UCI: pos.UCI(m), Clocks: &c, Final: true},
			clock: publish.ClockState{Clocks: c, Running: running, Event: "press"},
		})
		pos.MakeMove(m)
	}
	return out
}

// checkAlertOnConsole: the alert shows with its article, penalty and the
// position before it; a user without the arbiter role cannot acknowledge
// it; the arbiter can, and it leaves alerts/active.
func checkAlertOnConsole(t *testing.T, ctx context.Context, cons *page, g *chess.Game, a publish.Alert, w *watcher, shots string) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	card := fmt.Sprintf(`document.querySelector('.alert-card[data-alert-id=%s]')`, jsString(a.ID))
	must(cons.waitFor(ctx, "alert card", fmt.Sprintf(`(() => { const c = %s; return c ? [c.dataset.board, c.querySelector('.kind').textContent, c.querySelector('.article').textContent, c.querySelector('.penalty').textContent, c.querySelector('.mini').dataset.fen, c.querySelector('.ply').dataset.ply] : null })()`, card),
		[]string{"board-1", "Illegal move", "FIDE Laws 2023, Art. 7.5.1", a.Penalty, strings.Fields(g.Position(a.Ply - 1).FEN())[0], fmt.Sprint(a.Ply)}, 10*time.Second))
	must(cons.waitFor(ctx, "small board drawn", drawnExpr(card+`.querySelector('.mini')`), placementOf(g.Position(a.Ply-1).FEN()), 5*time.Second))
	// The squares named are marked on the small board.
	var marked int
	must(cons.eval(ctx, card+`.querySelectorAll('.marker-diff').length`, &marked))
	if marked != len(a.Squares) {
		t.Fatalf("small board marks %d squares, want %d", marked, len(a.Squares))
	}
	must(cons.waitFor(ctx, "room shows the alert", `document.querySelector('.room-board[data-board="board-1"]')?.dataset.state`, "alert", 5*time.Second))
	waitIDs(t, w, []string{a.ID})

	// "relay" may read but not acknowledge: the broker refuses the command.
	must(cons.waitFor(ctx, "logged in as relay", `[conn.dataset.conn, document.body.dataset.user]`, []string{"connected", "relay"}, 10*time.Second))
	must(cons.waitFor(ctx, "card after login", card+`?.querySelector('button[data-decision=upheld]').disabled`, false, 10*time.Second))
	must(cons.eval(ctx, card+`.querySelector('button[data-decision=upheld]').click()`, nil))
	must(cons.waitFor(ctx, "refused acknowledgement", card+`?.querySelector('.outcome').dataset.status`, "error", 20*time.Second))
	var outcome string
	must(cons.eval(ctx, card+`.querySelector('.outcome').textContent`, &outcome))
	t.Logf("acknowledgement by relay: %q", outcome)
	time.Sleep(300 * time.Millisecond)
	waitIDs(t, w, []string{a.ID})

	// The arbiter decides.
	must(cons.eval(ctx, `(() => { document.getElementById("logout").click(); user.value = "arbiter"; pass.value = "pw-arbiter"; document.getElementById("login").requestSubmit(); return true })()`, nil))
	must(cons.waitFor(ctx, "logged in as arbiter", `[conn.dataset.conn, document.body.dataset.user]`, []string{"connected", "arbiter"}, 10*time.Second))
	must(cons.waitFor(ctx, "card after login", card+`?.querySelector('button[data-decision=upheld]').disabled`, false, 10*time.Second))
	must(cons.eval(ctx, card+`.querySelector('.note').value = "one minute added to Black's clock"`, nil))
	time.Sleep(300 * time.Millisecond)
	must(cons.screenshot(ctx, filepath.Join(shots, "console-alert.png")))
	must(cons.eval(ctx, card+`.querySelector('button[data-decision=upheld]').click()`, nil))
	must(cons.waitFor(ctx, "card gone", fmt.Sprintf(`%s === null && document.body.dataset.alerts`, card), "0", 15*time.Second))
	waitIDs(t, w, nil)
	must(cons.waitFor(ctx, "room shows play again", `document.querySelector('.room-board[data-board="board-1"]')?.dataset.state`, "playing", 5*time.Second))
}

func waitIDs(t *testing.T, w *watcher, want []string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ids, ok := w.ids()
		if ok && strings.Join(ids, ",") == strings.Join(want, ",") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("alerts/active holds %v (received: %v), want %v", ids, ok, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestBrowserURL screenshots the pages of a running boardd (or relay):
//
//	BOARDD_WEB_URL=http://127.0.0.1:8080 go test ./publish/web -run TestBrowserURL -v
//
// It waits until each page is live and shows a board, and leaves the
// screenshots in the screenshot directory under "url".
func TestBrowserURL(t *testing.T) {
	base := os.Getenv("BOARDD_WEB_URL")
	if base == "" {
		t.Skip("set BOARDD_WEB_URL to the address of a running boardd")
	}
	chromiumBinary(t)
	shots := screenshotDir(t, "url")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	br := startBrowser(t)
	for _, p := range []struct{ path, file, ready string }{
		{"/", "board.png", `conn.dataset.conn === "connected" && !!document.querySelector('.tile[data-fen]')`},
		{"/console", "console.png", `conn.dataset.conn === "connected" && !!document.querySelector('.room-board[data-state]')`},
	} {
		pg := br.newPage(ctx, 1280, 860)
		pg.navigate(ctx, strings.TrimSuffix(base, "/")+p.path)
		if err := pg.waitFor(ctx, p.path+" live", p.ready, true, 20*time.Second); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		if err := pg.screenshot(ctx, filepath.Join(shots, p.file)); err != nil {
			t.Fatal(err)
		}
	}
}
