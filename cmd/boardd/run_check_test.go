package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardd/boardd/internal/cli"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "boardd.toml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func noEnv(string) string { return "" }

// --check-config says no to configurations run refuses (config's tests
// have the full list), with the same message, and exit status 78 like run.
func TestCheckConfigRefusesWhatRunRefuses(t *testing.T) {
	for _, c := range []struct{ text, key string }{
		{"[game]\ntime_control = \"90x\"\n", "game.time_control"},
		{"[game]\ntime_control = \"0m\"\n", "game.time_control"},
		{"[clock]\nkind = \"lever\"\n[game]\ntime_control = \"\"\n", "game.time_control"},
		{"[game]\nstart = \"fen:garbage\"\n", "game.start"},
		{"[game]\nstart = \"fen:8/8/8/8/8/8/8/8 w - - 0 1\"\n", "game.start"},
	} {
		path := writeConfig(t, c.text)
		var out, errb bytes.Buffer
		env := &cli.Env{Stdout: &out, Stderr: &errb, Getenv: noEnv}
		err := cmdRun(context.Background(), env, []string{"--config", path, "--check-config"})
		if e, ok := err.(cli.ExitError); !ok || e.Code != 78 {
			t.Errorf("%q: --check-config returned %v (stdout %q), want exit status 78", c.text, err, out.String())
		}
		if !strings.Contains(errb.String(), path+":") || !strings.Contains(errb.String(), c.key+": ") {
			t.Errorf("%q: --check-config said %q", c.text, errb.String())
		}
	}
}
