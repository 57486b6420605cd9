package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish"
)

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// shortGame picks a decisive corpus game of 30-50 plies, so a simulated
// board plays it through in seconds at high speed.
func shortGame(t *testing.T) *chess.Game {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "games", "gnuchess_book_otb_masters_dev.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	pr := chess.NewPGNReader(bytes.NewReader(data))
	for {
		g, err := pr.Next()
		if err != nil {
			t.Fatalf("no suitable game: %v", err)
		}
		if n := len(g.Moves); n >= 30 && n <= 50 && (g.Result == "1-0" || g.Result == "0-1") {
			return g
		}
	}
}

// TestRunEndToEnd runs the real binary on its embedded defaults (simulated
// board, embedded broker, web pages), with a short game played fast; a
// subscriber must receive the complete game in order, and SIGTERM must end
// the daemon cleanly with the board's status saying offline.
func TestRunEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the daemon")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "boardd")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	g := shortGame(t)
	pgnFile := filepath.Join(dir, "game.pgn")
	if err := os.WriteFile(pgnFile, []byte(g.PGN()), 0o600); err != nil {
		t.Fatal(err)
	}
	want := g.SANs()

	mqttPort, httpPort := freePort(t), freePort(t)
	cmd := exec.Command(bin, "run",
		"--set", "board.id=e2e",
		"--set", "journal.dir="+filepath.Join(dir, "journal"),
		"--set", "mqtt.listen=127.0.0.1:"+mqttPort,
		"--set", "mqtt.ws_listen=127.0.0.1:0",
		"--set", "http.listen=127.0.0.1:"+httpPort,
		"--set", "simulation.pgn="+pgnFile,
		"--set", "simulation.speed=200",
		"--set", "simulation.seed=7",
		"--set", "sensors.simulated_sensor=colour",
	)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
		}
	}()

	// Subscribe as an anonymous viewer (read-only under the default ACL).
	var mu sync.Mutex
	var moves []publish.MovePayload
	var lastStatus publish.StatusPayload
	dedupe := &publish.Deduper{}
	opts := mqtt.NewClientOptions().AddBroker("tcp://127.0.0.1:" + mqttPort).SetClientID("e2e-viewer").SetConnectRetry(true).SetConnectRetryInterval(100 * time.Millisecond)
	opts.SetOnConnectHandler(func(c mqtt.Client) {
		c.Subscribe("chess/v1/board/e2e/#", 1, func(_ mqtt.Client, m mqtt.Message) {
			mu.Lock()
			defer mu.Unlock()
			if _, ok, err := dedupe.Accept(m.Topic(), m.Payload()); err != nil || !ok {
				return
			}
			switch {
			case strings.HasSuffix(m.Topic(), "/move"):
				var mp publish.MovePayload
				if json.Unmarshal(m.Payload(), &mp) == nil && mp.Final {
					moves = append(moves, mp)
				}
			case strings.HasSuffix(m.Topic(), "/status"):
				json.Unmarshal(m.Payload(), &lastStatus)
			}
		})
	})
	client := mqtt.NewClient(opts)
	tok := client.Connect()
	if !tok.WaitTimeout(20*time.Second) || tok.Error() != nil {
		t.Fatalf("subscriber cannot connect: %v\n%s", tok.Error(), stderr.String())
	}
	defer client.Disconnect(100)

	deadline := time.Now().Add(90 * time.Second)
	for {
		mu.Lock()
		// The simulated board plays the game over and over: the first
		// time through is the game under test, and the second must begin
		// as a new game in the journal.
		done := len(moves) > len(want)
		mu.Unlock()
		if done {
			break
		}
		if time.Now().After(deadline) {
			mu.Lock()
			t.Fatalf("the game did not arrive: %d of %d moves\n%s", len(moves), len(want), tail(stderr.String(), 40))
		}
		select {
		case err := <-exited:
			t.Fatalf("boardd exited early: %v\n%s", err, stderr.String())
		case <-time.After(200 * time.Millisecond):
		}
	}
	mu.Lock()
	for i, w := range want {
		if i >= len(moves) || moves[i].Ply != i+1 || moves[i].SAN != w {
			got := "-"
			if i < len(moves) {
				got = strconv.Itoa(moves[i].Ply) + " " + moves[i].SAN
			}
			t.Errorf("move %d: got %s, want %s", i+1, got, w)
		}
	}
	if next := moves[len(want)]; next.Ply != 1 || next.Game == moves[0].Game || next.Game == "" {
		t.Errorf("after the game the board's next move is ply %d of game %q, want ply 1 of a new game (first was %q)", next.Ply, next.Game, moves[0].Game)
	}
	mu.Unlock()

	// Health and metrics while it runs.
	for path, want := range map[string]string{"/healthz": `"ok":true`, "/metrics": "boardd_moves_total", "/": "<html"} {
		resp, err := http.Get("http://127.0.0.1:" + httpPort + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("GET %s: %d, body lacks %q:\n%.300s", path, resp.StatusCode, want, body)
		}
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("boardd exited with %v after SIGTERM\n%s", err, tail(stderr.String(), 20))
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("boardd did not stop within 20 s of SIGTERM")
	}
	if !strings.Contains(stderr.String(), "stopped cleanly") {
		t.Errorf("no clean stop in the log:\n%s", tail(stderr.String(), 20))
	}
	time.Sleep(300 * time.Millisecond)
	mu.Lock()
	if lastStatus.Online {
		t.Errorf("the board's last status still says online: %+v\n%s", lastStatus, tail(stderr.String(), 20))
	}
	mu.Unlock()
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
