package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/internal/cli"
)

// A simulated board restarted on its journal plays on: its next corpus
// game starts from the start position, so the journal's unfinished game
// is ended, not resumed against a board that can never show it.
func TestRunSimulatedRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon twice")
	}
	dir := t.TempDir()
	run := func() string {
		var stderr bytes.Buffer
		var mu sync.Mutex
		env := &cli.Env{Stdout: &bytes.Buffer{}, Stderr: &lockedBuffer{b: &stderr, mu: &mu}, Getenv: func(string) string { return "" }}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		code := runMain(ctx, env, []string{"run", "--for", "6s",
			"--set", "board.id=restart",
			"--set", "journal.dir=" + filepath.Join(dir, "journal"),
			"--set", "mqtt.listen=127.0.0.1:" + freePort(t),
			"--set", "mqtt.ws_listen=",
			"--set", "http.listen=",
			"--set", "simulation.speed=20",
			"--set", "simulation.seed=5",
		})
		mu.Lock()
		defer mu.Unlock()
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr.String())
		}
		return stderr.String()
	}
	first := run()
	if strings.Count(first, "msg=move") == 0 {
		t.Fatalf("the first run published no move:\n%s", first)
	}
	second := run()
	if strings.Count(second, "msg=move") == 0 || strings.Contains(second, "kind=misplaced-pieces") || strings.Contains(second, "kind=wrong-setup") {
		t.Errorf("the restarted board does not play on:\n%s", second)
	}
}
