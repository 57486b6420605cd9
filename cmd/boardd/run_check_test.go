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

// --print-config prints the configuration run would use: the file, the
// environment and --set applied; a file that does not load is an error.
// --print-defaults prints every default, whatever is given.
func TestPrintConfigIsTheLoadedOne(t *testing.T) {
	path := writeConfig(t, "[board]\nid = \"b-017\"\n[game]\ntime_control = \"5m+3s\"\n")
	env := func(k string) string {
		if k == "BOARDD_GAME_WHITE" {
			return "Carol"
		}
		return ""
	}
	var out, errb bytes.Buffer
	e := &cli.Env{Stdout: &out, Stderr: &errb, Getenv: env}
	if err := cmdRun(context.Background(), e, []string{"--config", path, "--set", "game.edition=1997", "--print-config"}); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	for _, want := range []string{`id = "b-017"`, `time_control = "5m+3s"`, `edition = "1997"`, `white = "Carol"`, "loaded from " + path} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--print-config lacks %s:\n%.600s", want, out.String())
		}
	}
	out.Reset()
	err := cmdRun(context.Background(), e, []string{"--config", filepath.Join(t.TempDir(), "missing.toml"), "--print-config"})
	if ee, ok := err.(cli.ExitError); !ok || ee.Code != 78 {
		t.Errorf("a missing file: %v, want exit status 78", err)
	}
	out.Reset()
	if err := cmdRun(context.Background(), e, []string{"--config", path, "--print-defaults"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `id = "board-1"`) || !strings.Contains(out.String(), "Every key is shown with its default.") {
		t.Errorf("--print-defaults:\n%.400s", out.String())
	}
}
