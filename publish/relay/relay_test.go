package relay_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/internal/mosqtest"
	"github.com/boardd/boardd/publish/publishtest"
	"github.com/boardd/boardd/publish/relay"
)

func loadGames(t *testing.T, n int) []*chess.Game {
	t.Helper()
	f, err := os.Open("../../testdata/games/lichess_broadcast_fide_womens_world_rapid_2024_r1-6.pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pr := chess.NewPGNReader(f)
	var out []*chess.Game
	for len(out) < n {
		g, err := pr.Next()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	return out
}

// board is an in-process board publishing a game.
type board struct {
	p    *publish.Publisher
	stop func()
}

func newBoard(t *testing.T, id string, d publish.Dialer) *board {
	t.Helper()
	p, err := publish.Open(publish.Config{Board: id, JournalDir: t.TempDir(), Dialer: d, BackoffMin: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	b := &board{p: p, stop: func() { cancel(); <-done; p.Close() }}
	t.Cleanup(b.stop)
	return b
}

func (b *board) play(t *testing.T, g *chess.Game, round, no string, upto int) {
	t.Helper()
	if _, err := b.p.StartGame(publish.GameInfo{White: g.Tag("White"), Black: g.Tag("Black"), Event: "Test Open", Round: round, BoardNo: no}); err != nil {
		t.Fatal(err)
	}
	pos := *g.Start
	for i, m := range g.Moves[:upto] {
		var clk *publish.Clocks
		if i < len(g.Clocks) && g.Clocks[i] >= 0 {
			clk = publish.ClocksOf(g.Clocks[i], g.Clocks[i])
		}
		if _, err := b.p.Move(publish.Move{Ply: i + 1, UCI: pos.UCI(m), Clocks: clk, Final: true}); err != nil {
			t.Fatal(err)
		}
		pos.MakeMove(m)
	}
}

func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func runRelay(t *testing.T, cfg relay.Config) *relay.Relay {
	t.Helper()
	r, err := relay.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return r
}

func readRound(t *testing.T, pgn string) []*chess.Game {
	t.Helper()
	gs, err := chess.ReadAllPGN(strings.NewReader(pgn))
	if err != nil {
		t.Fatalf("round PGN does not read back: %v\n%s", err, pgn)
	}
	return gs
}

func TestRoundFeedAndCorrection(t *testing.T) {
	games := loadGames(t, 2)
	b := publishtest.New()
	r := runRelay(t, relay.Config{Dialer: b})
	b2 := newBoard(t, "b2", b)
	b1 := newBoard(t, "b1", b)
	b2.play(t, games[1], "3", "2", 30)
	b1.play(t, games[0], "3", "1", 20)
	var gs []*chess.Game
	waitFor(t, 5*time.Second, "both games in the round", func() bool {
		pgn, n := r.RoundPGN("3")
		if n != 2 {
			return false
		}
		gs = readRound(t, pgn)
		return len(gs) == 2 && len(gs[0].Moves) == 20 && len(gs[1].Moves) == 30
	})
	// Ordered by the Board tag; stable White/Black/Round.
	if gs[0].Tag("White") != games[0].Tag("White") || gs[1].Tag("Black") != games[1].Tag("Black") || gs[0].Tag("Round") != "3" {
		t.Fatalf("tags: %v / %v", gs[0].Tags, gs[1].Tags)
	}
	if gs[0].Clocks[0] != games[0].Clocks[0] {
		t.Fatalf("[%%clk] lost: %v, want %v", gs[0].Clocks[0], games[0].Clocks[0])
	}
	// A correction on board 1 (the arbiter takes back to ply 10 and a
	// different move is played) re-sends the whole game.
	pos := games[0].Position(9)
	alt := pos.LegalMoves()[0]
	if alt == games[0].Moves[9] {
		alt = pos.LegalMoves()[1]
	}
	if _, err := b1.p.Correct(publish.Correction{Ply: 10, New: &publish.Move{Ply: 10, UCI: pos.UCI(alt), Final: true}, Why: "arbiter"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "the corrected game", func() bool {
		pgn, _ := r.RoundPGN("3")
		gs = readRound(t, pgn)
		return len(gs) == 2 && len(gs[0].Moves) == 10 && gs[0].Moves[9] == alt
	})
	if got := r.Rounds(); len(got) != 1 || got[0] != "3" {
		t.Fatalf("Rounds = %v", got)
	}
}

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func pgnMessage(t *testing.T, board string, seq uint64, at time.Time, g *chess.Game, moves int) (string, []byte) {
	t.Helper()
	cg := chess.NewGame(g.Start)
	for _, tg := range []string{"White", "Black", "Round"} {
		cg.SetTag(tg, g.Tag(tg))
	}
	for i := 0; i < moves; i++ {
		cg.Append(g.Moves[i], g.Clocks[i])
	}
	b, _ := json.Marshal(publish.PGNPayload{
		Header: publish.Header{V: 1, Board: board, Session: 1, Seq: seq, TS: at.UTC().Format(time.RFC3339Nano)},
		Game:   board + "-g", PGN: cg.PGN(),
	})
	return publish.Topic(board, "pgn"), b
}

// Nothing is shown before it is Delay old; before the first move is, the
// game is listed without moves (its tags known, no move leaked).
func TestTransmissionDelay(t *testing.T) {
	g := loadGames(t, 1)[0]
	clk := &fakeClock{t: time.Date(2025, 6, 1, 14, 0, 0, 0, time.UTC)}
	r, err := relay.New(relay.Config{Delay: relay.TournamentDelay, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	start := clk.Now()
	for i := 1; i <= 30; i++ { // a move a minute
		topic, payload := pgnMessage(t, "b1", uint64(i), start.Add(time.Duration(i)*time.Minute), g, i)
		clk.t = start.Add(time.Duration(i) * time.Minute)
		if err := r.Ingest(topic, payload); err != nil {
			t.Fatal(err)
		}
		pgn, _ := r.RoundPGN(g.Tag("Round"))
		gs := readRound(t, pgn)
		want := max(i-15, 0) // the version published 15 minutes ago
		if len(gs) != 1 || len(gs[0].Moves) != want {
			t.Fatalf("at minute %d the feed shows %d moves, want %d", i, len(gs[0].Moves), want)
		}
		if gs[0].Tag("White") != g.Tag("White") {
			t.Fatalf("tags missing before the delay passed")
		}
	}
	clk.Add(time.Hour)
	pgn, _ := r.BoardPGN("b1")
	if gs := readRound(t, pgn); len(gs[0].Moves) != 30 {
		t.Fatalf("after the delay the board shows %d moves, want 30", len(gs[0].Moves))
	}
	// Casual mode: no delay.
	r0, _ := relay.New(relay.Config{Delay: relay.CasualDelay, Now: clk.Now})
	topic, payload := pgnMessage(t, "b1", 1, clk.Now(), g, 5)
	r0.Ingest(topic, payload)
	if pgn, _ := r0.BoardPGN("b1"); len(readRound(t, pgn)[0].Moves) != 5 {
		t.Fatal("casual relay held a move back")
	}
}

func TestIllegalPGNNeverPassedOn(t *testing.T) {
	g := loadGames(t, 1)[0]
	r, _ := relay.New(relay.Config{})
	topic, payload := pgnMessage(t, "b1", 1, time.Now(), g, 6)
	if err := r.Ingest(topic, payload); err != nil {
		t.Fatal(err)
	}
	bad, _ := json.Marshal(publish.PGNPayload{
		Header: publish.Header{V: 1, Board: "b1", Session: 1, Seq: 2, TS: time.Now().UTC().Format(time.RFC3339Nano)},
		Game:   "b1-g", PGN: "[White \"x\"]\n\n1. e4 e5 2. Ke3 *\n",
	})
	if err := r.Ingest(topic, bad); err == nil {
		t.Fatal("an illegal game was accepted")
	}
	pgn, _ := r.BoardPGN("b1")
	if gs := readRound(t, pgn); len(gs[0].Moves) != 6 {
		t.Fatalf("after an illegal version the feed shows %d moves, want the previous 6", len(gs[0].Moves))
	}
	// An older version (a re-send) does not replace a newer one.
	topic, old := pgnMessage(t, "b1", 1, time.Now(), g, 3)
	r.Ingest(topic, old)
	pgn, _ = r.BoardPGN("b1")
	if gs := readRound(t, pgn); len(gs[0].Moves) != 6 {
		t.Fatalf("an older version replaced a newer one: %d moves", len(gs[0].Moves))
	}
}

func TestHTTPAndPush(t *testing.T) {
	g := loadGames(t, 1)[0]
	var mu sync.Mutex
	var pushes []string
	var auth string
	lichess := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		mu.Lock()
		pushes = append(pushes, string(b))
		auth = req.Header.Get("Authorization")
		mu.Unlock()
		fmt.Fprint(w, `{"games":[{"tags":{"White":"x"},"moves":3}]}`)
	}))
	defer lichess.Close()
	round := g.Tag("Round")
	r, err := relay.New(relay.Config{Push: []relay.PushTarget{{Round: round, URL: lichess.URL + "/api/broadcast/round/abc/push"}}, Token: "lip_secret"})
	if err != nil {
		t.Fatal(err)
	}
	topic, payload := pgnMessage(t, "b1", 1, time.Now(), g, 8)
	r.Ingest(topic, payload)
	ctx := context.Background()
	target := relay.PushTarget{Round: round, URL: lichess.URL + "/api/broadcast/round/abc/push"}
	if err := r.PushRound(ctx, target); err != nil {
		t.Fatal(err)
	}
	if err := r.PushRound(ctx, target); err != nil { // unchanged: not sent again
		t.Fatal(err)
	}
	topic, payload = pgnMessage(t, "b1", 2, time.Now(), g, 9)
	r.Ingest(topic, payload)
	r.PushRound(ctx, target)
	mu.Lock()
	if len(pushes) != 2 || auth != "Bearer lip_secret" {
		t.Fatalf("%d pushes, auth %q; want 2 with the bearer token", len(pushes), auth)
	}
	if gs := readRound(t, pushes[1]); len(gs) != 1 || len(gs[0].Moves) != 9 {
		t.Fatalf("second push: %q", pushes[1])
	}
	mu.Unlock()

	srv := httptest.NewServer(r.Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/round/" + round + ".pgn")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(readRound(t, string(body))) != 1 {
		t.Fatalf("GET round: %s\n%s", resp.Status, body)
	}
	req, _ := http.NewRequest("GET", srv.URL+"/round/"+round+".pgn", nil)
	req.Header.Set("If-None-Match", resp.Header.Get("ETag"))
	resp2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusNotModified {
		t.Fatalf("conditional GET: %s, want 304", resp2.Status)
	}
	for _, path := range []string{"/round/nope.pgn", "/board/b9.pgn", "/round/" + round} {
		resp, _ := http.Get(srv.URL + path)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %s, want 404", path, resp.Status)
		}
	}
	if _, err := relay.New(relay.Config{Push: []relay.PushTarget{{Round: "1", URL: "https://x"}}}); err == nil {
		t.Error("push without a token accepted")
	}
}

// Boards publishing through mosquitto reach the relay's round feed.
func TestRelayThroughMosquitto(t *testing.T) {
	m := mosqtest.Start(t, mosqtest.Options{AllowAnonymous: true})
	d := publish.PahoDialer{URL: m.URL()}
	r := runRelay(t, relay.Config{Dialer: d, ClientID: "relay-test"})
	games := loadGames(t, 3)
	for i, g := range games {
		b := newBoard(t, fmt.Sprintf("b%d", i+1), d)
		b.play(t, g, "5", fmt.Sprint(i+1), len(g.Moves))
		b.p.End(publish.Result{Result: g.Result})
	}
	waitFor(t, 15*time.Second, "three finished games", func() bool {
		pgn, n := r.RoundPGN("5")
		if n != 3 {
			return false
		}
		gs := readRound(t, pgn)
		for i, g := range gs {
			if len(g.Moves) != len(games[i].Moves) || g.Result != games[i].Result {
				return false
			}
		}
		return true
	})
}

// A board's next game (next round) does not cut the previous one short:
// its last moves still come out when their delay has passed.
func TestNextRoundKeepsPreviousGame(t *testing.T) {
	gs := loadGames(t, 2)
	clk := &fakeClock{t: time.Date(2025, 6, 1, 14, 0, 0, 0, time.UTC)}
	r, _ := relay.New(relay.Config{Delay: 10 * time.Minute, Now: clk.Now})
	g1, g2 := gs[0], gs[1]
	g1.SetTag("Round", "1")
	g2.SetTag("Round", "2")
	topic, p := pgnMessage(t, "b1", 1, clk.Now(), g1, 10)
	r.Ingest(topic, p)
	clk.Add(5 * time.Minute)
	topic, p = pgnMessage(t, "b1", 2, clk.Now(), g1, 20) // round 1 ends
	r.Ingest(topic, p)
	clk.Add(time.Minute)
	b, _ := json.Marshal(publish.PGNPayload{Header: publish.Header{V: 1, Board: "b1", Session: 1, Seq: 3, TS: clk.Now().Format(time.RFC3339Nano)}, Game: "b1-next", PGN: g2.PGN()})
	r.Ingest(topic, b) // round 2 starts on the same board
	clk.Add(10 * time.Minute)
	pgn, n := r.RoundPGN("1")
	if n != 1 || len(readRound(t, pgn)[0].Moves) != 20 {
		t.Fatalf("round 1 after the board moved on: %d games %q", n, pgn)
	}
	if _, n := r.RoundPGN("2"); n != 1 {
		t.Fatalf("round 2: %d games", n)
	}
}
