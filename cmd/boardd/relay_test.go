package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
	"github.com/boardd/boardd/publish/relay"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRelayUsage(t *testing.T) {
	for _, args := range [][]string{{"--mode", "blitz"}, {"--push", "nourl"}, {"--delay", "soon"}, {"extra"}} {
		var out, errOut bytes.Buffer
		env := &cli.Env{Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }}
		if code := runMain(context.Background(), env, append([]string{"relay"}, args...)); code != 2 {
			t.Errorf("boardd relay %v: exit %d, want 2 (%s)", args, code, errOut.String())
		}
	}
}

// boardd relay, pointed at a broker, serves a board's game as the round's
// PGN (casual mode: no delay).
func TestRelayCommandServesRound(t *testing.T) {
	acl, _ := broker.ParseACL(strings.NewReader("topic readwrite #\n"))
	b, err := broker.Start(broker.Config{Listeners: []broker.Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}}, ACL: acl, AllowAnonymous: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	p, err := publish.Open(publish.Config{Board: "b7", JournalDir: t.TempDir(), Dialer: publish.PahoDialer{URL: b.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.Run(ctx)
	defer p.Close()
	p.StartGame(publish.GameInfo{White: "Alice", Black: "Bob", Round: "2", BoardNo: "7"})
	for i, u := range []string{"e2e4", "c7c5", "g1f3"} {
		if _, err := p.Move(publish.Move{Ply: i + 1, UCI: u, Final: true}); err != nil {
			t.Fatal(err)
		}
	}

	stderr := &syncBuffer{}
	env := &cli.Env{Stdout: io.Discard, Stderr: stderr, Getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() {
		done <- runMain(ctx, env, []string{"relay", "--broker", b.URL(), "--username", "", "--listen", "127.0.0.1:0", "--mode", "casual", "--client-id", "relay-cmd-test", "--web-proxy", "ws://127.0.0.1:9/", "--title", "Venue"})
	}()
	var base string
	deadline := time.Now().Add(10 * time.Second)
	re := regexp.MustCompile(`serving (http://\S+)/`)
	for base == "" && time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			base = m[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	if base == "" {
		t.Fatalf("relay did not start:\n%s", stderr.String())
	}
	var games []*chess.Game
	for time.Now().Before(deadline) {
		resp, err := http.Get(base + "/round/2.pgn")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 {
				games, _ = chess.ReadAllPGN(bytes.NewReader(body))
				if len(games) == 1 && len(games[0].Moves) == 3 {
					break
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(games) != 1 || len(games[0].Moves) != 3 || games[0].Tag("White") != "Alice" {
		t.Fatalf("round 2 feed: %d games", len(games))
	}
	// The venue's pages are served beside the feed.
	for path, want := range map[string]string{"/live/": "<html", "/live/console": "<html", "/live/config.json": `"title":"Venue"`} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(strings.ToLower(string(body)), strings.ToLower(want)) {
			t.Errorf("GET %s: %d, body lacks %q", path, resp.StatusCode, want)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("relay exit %d:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("relay did not stop")
	}
}

// startRelay runs boardd relay with args and returns its base URL and a
// function that stops it and checks its exit.
func startRelay(t *testing.T, ctx context.Context, args ...string) (string, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	stderr := &syncBuffer{}
	env := &cli.Env{Stdout: io.Discard, Stderr: stderr, Getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() { done <- runMain(ctx, env, append([]string{"relay"}, args...)) }()
	re := regexp.MustCompile(`serving (http://\S+)/`)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			return m[1], func() {
				t.Helper()
				cancel()
				select {
				case code := <-done:
					if code != 0 {
						t.Errorf("relay exit %d:\n%s", code, stderr.String())
					}
				case <-time.After(10 * time.Second):
					t.Error("relay did not stop")
				}
			}
		}
	}
	cancel()
	t.Fatalf("relay did not start:\n%s", stderr.String())
	return "", nil
}

// With a delay, nothing that leaves the relay shows a move before the
// delay has passed since it was played: not the round PGN and not the
// pages' MQTT feed at /live/mqtt, which carries state, move, pgn and
// clock. Once the delay has passed, the pages' feed has the moves.
func TestRelayPagesKeepTheDelay(t *testing.T) {
	const delay = 1500 * time.Millisecond
	acl, _ := broker.ParseACL(strings.NewReader("topic readwrite #\n"))
	b, err := broker.Start(broker.Config{Listeners: []broker.Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}, {Kind: "ws", Addr: "127.0.0.1:0"}}, ACL: acl, AllowAnonymous: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, stop := startRelay(t, ctx, "--broker", b.URL(), "--username", "", "--listen", "127.0.0.1:0", "--delay", delay.String(), "--client-id", "relay-delay-test")
	defer stop()

	// A viewer on the pages' feed, as the browser connects.
	type seen struct {
		at      time.Time
		topic   string
		payload []byte
	}
	var mu sync.Mutex
	var got []seen
	viewer := publish.PahoDialer{URL: "ws" + strings.TrimPrefix(base, "http") + "/live/mqtt"}
	var conn publish.Conn
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		conn, err = viewer.Dial(ctx, publish.DialOptions{ClientID: "viewer", OnMessage: func(topic string, payload []byte) {
			mu.Lock()
			got = append(got, seen{time.Now(), topic, payload})
			mu.Unlock()
		}})
		if err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatalf("pages' feed: %v", err)
	}
	defer conn.Close()
	if err := conn.Subscribe(ctx, "chess/v1/board/+/#", 1); err != nil {
		t.Fatal(err)
	}

	p, err := publish.Open(publish.Config{Board: "b7", JournalDir: t.TempDir(), Dialer: publish.PahoDialer{URL: b.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	go p.Run(ctx)
	defer p.Close()
	p.StartGame(publish.GameInfo{White: "Alice", Black: "Bob", Round: "2", BoardNo: "7"})
	played := time.Now()
	for i, u := range []string{"e2e4", "c7c5", "g1f3"} {
		if _, err := p.Move(publish.Move{Ply: i + 1, UCI: u, Final: true}); err != nil {
			t.Fatal(err)
		}
	}
	// Before the delay the round PGN lists the game without its moves.
	resp, err := http.Get(base + "/round/2.pgn")
	if err == nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		// Answered before the delay had passed since the first move (a
		// slow machine may take longer, and then the moves are due).
		if age := time.Since(played); age < delay {
			if gs, _ := chess.ReadAllPGN(bytes.NewReader(body)); len(gs) > 0 && len(gs[0].Moves) > 0 {
				t.Errorf("round PGN shows %d moves %v after they were played", len(gs[0].Moves), age)
			}
		}
	}
	var last publish.StatePayload
	for deadline := time.Now().Add(15 * time.Second); len(last.Moves) < 3 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		for _, s := range got {
			if strings.HasSuffix(s.topic, "/state") {
				json.Unmarshal(s.payload, &last)
			}
		}
		mu.Unlock()
	}
	if len(last.Moves) < 3 {
		t.Fatalf("the pages' feed never showed the 3 moves; last state %+v", last)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range got {
		var h publish.Header
		if err := json.Unmarshal(s.payload, &h); err != nil {
			t.Errorf("%s: %s", s.topic, s.payload)
			continue
		}
		ts, err := time.Parse(time.RFC3339Nano, h.TS)
		if err != nil {
			t.Errorf("%s: ts %q", s.topic, h.TS)
			continue
		}
		if age := s.at.Sub(ts); age < delay {
			t.Errorf("%s (seq %d) reached a viewer %v after it was journaled, before the %v delay", s.topic, h.Seq, age, delay)
		}
		if strings.Contains(s.topic, "/cmd/") || strings.HasSuffix(s.topic, "/reply") {
			t.Errorf("the pages' feed carried %s", s.topic)
		}
	}
}

// The pages cannot be pointed at the live broker while a delay holds.
func TestRelayRefusesLivePagesWithDelay(t *testing.T) {
	for _, args := range [][]string{{"--web-proxy", "ws://127.0.0.1:9001/"}, {"--web-broker", "ws://:9001/", "--mode", "tournament"}} {
		var errOut bytes.Buffer
		env := &cli.Env{Stdout: io.Discard, Stderr: &errOut, Getenv: func(string) string { return "" }}
		if code := runMain(context.Background(), env, append([]string{"relay", "--listen", "127.0.0.1:0"}, args...)); code != 2 || !strings.Contains(errOut.String(), "delay") {
			t.Errorf("boardd relay %v: exit %d, want 2 naming the delay (%s)", args, code, errOut.String())
		}
	}
}

// boardd relay with its defaults starts beside boardd run with its
// defaults: another HTTP port, and an account (anonymous, no password
// set) the embedded broker accepts. Only the ports are moved off the
// well-known ones so the test runs beside others.
func TestRelayBesideRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a simulated board")
	}
	if def := config.Default().HTTP.Listen; strings.HasSuffix(def, ":"+relay.DefaultPort) {
		t.Fatalf("boardd run serves on %s, the relay's default port too", def)
	}
	dir := t.TempDir()
	g := shortGame(t)
	pgnFile := filepath.Join(dir, "game.pgn")
	if err := os.WriteFile(pgnFile, []byte(g.PGN()), 0o600); err != nil {
		t.Fatal(err)
	}
	mqttPort := freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	runErr := &syncBuffer{}
	runDone := make(chan int, 1)
	go func() {
		env := &cli.Env{Stdout: io.Discard, Stderr: runErr, Getenv: func(string) string { return "" }}
		runDone <- runMain(ctx, env, []string{"run",
			"--set", "board.id=beside",
			"--set", "journal.dir=" + filepath.Join(dir, "journal"),
			"--set", "mqtt.listen=127.0.0.1:" + mqttPort,
			"--set", "mqtt.ws_listen=127.0.0.1:0",
			"--set", "http.listen=127.0.0.1:0",
			"--set", "simulation.pgn=" + pgnFile,
			"--set", "simulation.speed=200",
			"--set", "game.board_no=7",
		})
	}()
	base, stop := startRelay(t, ctx, "--broker", "tcp://127.0.0.1:"+mqttPort, "--listen", "127.0.0.1:0", "--mode", "casual", "--client-id", "relay-beside")
	var moves int
	var boardTag string
	for deadline := time.Now().Add(60 * time.Second); moves < 4 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		resp, err := http.Get(base + "/board/beside.pgn")
		if err != nil {
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if gs, _ := chess.ReadAllPGN(bytes.NewReader(body)); len(gs) == 1 {
			moves, boardTag = len(gs[0].Moves), gs[0].Tag("Board")
		}
	}
	if moves < 4 {
		t.Fatalf("the relay never got the board's game (%d moves)\nrun: %s", moves, runErr.String())
	}
	if boardTag != "7" {
		t.Errorf("game.board_no = 7 gave [Board %q]", boardTag)
	}
	stop()
	cancel()
	select {
	case <-runDone:
	case <-time.After(20 * time.Second):
		t.Fatal("boardd run did not stop")
	}
}
