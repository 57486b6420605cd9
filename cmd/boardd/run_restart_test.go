package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strconv"
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
	// It goes on with the same game, from the ply after the last one the
	// first run completed.
	plies := func(log string) []int {
		var out []int
		for _, m := range regexp.MustCompile(`msg=move ply=(\d+)`).FindAllStringSubmatch(log, -1) {
			n, _ := strconv.Atoi(m[1])
			out = append(out, n)
		}
		return out
	}
	p1, p2 := plies(first), plies(second)
	if !strings.Contains(second, "the simulated board goes on with the journal's game") || len(p1) == 0 || len(p2) == 0 || p2[0] != p1[len(p1)-1]+1 {
		t.Errorf("the restarted board did not go on with the game: first run plies %v, second %v\n%s", p1, p2, second)
	}
}
