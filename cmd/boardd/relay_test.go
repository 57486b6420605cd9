package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
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
		env := &cmdEnv{stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
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
	env := &cmdEnv{stdout: io.Discard, stderr: stderr, getenv: func(string) string { return "" }}
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
