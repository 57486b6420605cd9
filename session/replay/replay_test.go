package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardd/boardd/internal/cli"
)

const traces = "../../reconstruct/testdata/"

// runReplay runs the replay command in-process with args and returns its
// output and exit status.
func runReplay(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	code = cli.ExitCode(env, "replay", Cmd(context.Background(), env, args))
	return out.String(), errb.String(), code
}

func TestReplayDesignExample(t *testing.T) {
	out, errs, code := runReplay(t, "--events", traces+"design-example.trace")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := `{"type":"move","ply":1,"san":"e4","uci":"e2e4","fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1","t_ms":1460}` + "\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	pgn, _, code := runReplay(t, traces+"design-example.trace")
	if code != 0 || !strings.Contains(pgn, "\n1. e4 *\n") {
		t.Errorf("PGN (exit %d):\n%s", code, pgn)
	}
}

func TestReplayEventsAreJSON(t *testing.T) {
	out, errs, code := runReplay(t, "--events", traces+"illegal-move.trace")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var kinds []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON: %s: %v", line, err)
		}
		k, _ := m["type"].(string)
		if k == "alert" {
			k += ":" + m["kind"].(string)
		}
		kinds = append(kinds, k)
	}
	// The clock lines: three presses and Black's minute for White's
	// illegal move (2023 blitz, B.2).
	if got := strings.Join(kinds, " "); got != "clock move clock move clock alert:illegal-move clock note move" {
		t.Errorf("events %q", got)
	}
}

func TestReplayPGNWithClocks(t *testing.T) {
	out, errs, code := runReplay(t, traces+"rook-first-castling.trace")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// 15m+10s on a FIDE clock: 15:10 at the start, White presses at 4.1 s
	// and gets move 2's 10 s: 15:15.9; Black 15:10 - 3.7 s + 10 s.
	if !strings.Contains(out, "1. O-O { [%clk 0:15:15.9] } 1... O-O-O { [%clk 0:15:16.3] } *") {
		t.Errorf("PGN:\n%s", out)
	}
}

func TestReplayBadTrace(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.trace")
	os.WriteFile(bad, []byte("boardtrace 1\nsensor occupancy\n0 frame 0xffff00000000ffff\n100 off e9\n"), 0o644)
	out, errs, code := runReplay(t, bad)
	if code == 0 || out != "" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	if want := bad + ":4: off: \"e9\" is not a square\n"; errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	_, errs, code = runReplay(t, filepath.Join(dir, "missing.trace"))
	if code == 0 || !strings.Contains(errs, "missing.trace") {
		t.Errorf("missing file: exit %d, %q", code, errs)
	}
	if _, _, code = runReplay(t); code != 2 {
		t.Errorf("no file: exit %d, want 2", code)
	}
}

// A bad clock header is reported as FILE:LINE like any other trace error.
func TestReplayBadClockHeaderNamesFileAndLine(t *testing.T) {
	for _, val := range []string{"90x", "0m", "-5m"} {
		p := filepath.Join(t.TempDir(), "bad.trace")
		if err := os.WriteFile(p, []byte("boardtrace 1\nsensor occupancy\nclock "+val+"\n0 frame 0xffff00000000ffff\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, errs, code := runReplay(t, p)
		if code == 0 || !strings.HasPrefix(errs, p+":3: clock \""+val+"\"") {
			t.Errorf("clock %s: exit %d, stderr %q; want %s:3: clock %q...", val, code, errs, p, val)
		}
	}
}
