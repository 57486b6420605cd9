package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/publish"
)

// TestRunFlagFallAlert runs the daemon in-process with a three-second time
// control: the simulated players' first moves take longer, so White's flag
// falls, and the clock's flag must reach subscribers as a flag-fall alert
// judged under FIDE 6.9 (from the start position the opponent can mate: a
// loss, not a draw).
func TestRunFlagFallAlert(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon for several seconds")
	}
	dir := t.TempDir()
	mqttPort := freePort(t)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	var mu sync.Mutex
	env := &cli.Env{Stdout: &bytes.Buffer{}, Stderr: &lockedBuffer{b: &stderr, mu: &mu}, Getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() {
		done <- runMain(ctx, env, []string{"run",
			"--set", "board.id=flag",
			"--set", "journal.dir=" + filepath.Join(dir, "journal"),
			"--set", "mqtt.listen=127.0.0.1:" + mqttPort,
			"--set", "mqtt.ws_listen=",
			"--set", "http.listen=",
			"--set", "game.time_control=3s",
			"--set", "simulation.seed=3",
		})
	}()

	alerts := make(chan publish.AlertPayload, 4)
	opts := mqtt.NewClientOptions().AddBroker("tcp://127.0.0.1:" + mqttPort).SetClientID("flag-viewer").SetConnectRetry(true).SetConnectRetryInterval(100 * time.Millisecond)
	opts.SetOnConnectHandler(func(c mqtt.Client) {
		c.Subscribe("chess/v1/board/flag/alert", 1, func(_ mqtt.Client, m mqtt.Message) {
			var a publish.AlertPayload
			if json.Unmarshal(m.Payload(), &a) == nil {
				alerts <- a
			}
		})
	})
	client := mqtt.NewClient(opts)
	client.Connect()
	defer client.Disconnect(100)

	select {
	case a := <-alerts:
		if a.Kind != "flag-fall" || a.Side != "white" || !strings.HasPrefix(a.Article, "6.9") || a.Penalty != "0-1" {
			t.Errorf("alert %+v, want White's flag-fall under 6.9 with 0-1", a.Alert)
		}
	case code := <-done:
		mu.Lock()
		t.Fatalf("boardd run ended (exit %d) before a flag fell:\n%s", code, stderr.String())
	case <-ctx.Done():
		mu.Lock()
		t.Fatalf("no flag-fall alert:\n%s", tail(stderr.String(), 30))
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("boardd run exit %d", code)
	}
}

type lockedBuffer struct {
	b  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
