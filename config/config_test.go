package config

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite generated docs")

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "boardd.toml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func noEnv(string) string { return "" }

func TestDefaultConfigValidAndPrintedFileLoads(t *testing.T) {
	cfg := Default()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("defaults do not validate: %v", err)
	}
	// The printed default file loads back to the defaults.
	got, err := Load(writeConfig(t, DefaultText()), noEnv, nil)
	if err != nil {
		t.Fatalf("printed default config does not load: %v", err)
	}
	if got != cfg {
		t.Errorf("printed defaults load as %+v, want %+v", got, cfg)
	}
}

func TestConfigErrorsNameKeyAndLine(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[board]\nid = \"Board 1\"\n", ":2: board.id: \"Board 1\": want 1-32"},
		{"[board]\nid = \"b1\"\ncolour = \"red\"\n", ":3: board.colour: unknown key"},
		{"[game]\n\nedition = \"2020\"\n", ":3: game.edition: FIDE edition \"2020\": want 1997, 2018 or 2023"},
		{"[sensors]\ndebounce_scans = \"three\"\n", ":2: sensors.debounce_scans:"},
		{"[mqtt]\nbroker = \"localhost\"\n", ":2: mqtt.broker: \"localhost\": want embedded or a URL"},
		{"[game]\nstart = \"960:1000\"\n", ":2: game.start:"},
		{"[mqtt\nbroker = 1\n", "syntax: expected '.' or ']' to end table name"},
		{"[nosuch]\nx = 1\n", ":1: nosuch: unknown key"},
	} {
		_, err := Load(writeConfig(t, c.text), noEnv, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("config %q: error %v, want it to contain %q", c.text, err, c.want)
		}
	}
}

func TestConfigOverrides(t *testing.T) {
	path := writeConfig(t, "[board]\nid = \"from-file\"\n[mqtt]\npassword = \"file\"\n")
	env := map[string]string{"BOARDD_MQTT_PASSWORD": "from-env", "BOARDD_SIMULATION_SPEED": "10"}
	cfg, err := Load(path, func(k string) string { return env[k] }, []string{"board.id=from-flag"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Board.ID != "from-flag" || cfg.MQTT.Password != "from-env" || cfg.Simulation.Speed != 10 {
		t.Errorf("overrides not applied: %+v", cfg)
	}
	if _, err := Load("", func(k string) string { return map[string]string{"BOARDD_SIMULATION_SEED": "x"}[k] }, nil); err == nil ||
		!strings.Contains(err.Error(), "BOARDD_SIMULATION_SEED") {
		t.Errorf("bad environment value: %v", err)
	}
	if _, err := Load("", noEnv, []string{"board.nope=1"}); err == nil || !strings.Contains(err.Error(), "board.nope: unknown key") {
		t.Errorf("unknown --set key: %v", err)
	}
}

func TestConfigDocUpToDate(t *testing.T) {
	path := filepath.Join("..", "docs", "config.md")
	want := DocMarkdown()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("docs/config.md is out of date: go test ./config -run ConfigDoc -update")
	}
}

// An error without a key reads as a syntax error, and printing it leaves
// it as it was (callers look at Key to tell a syntax error from a bad key).
func TestErrorWithoutKey(t *testing.T) {
	e := &Error{File: "boardd.toml", Line: 3, Msg: "expected '='"}
	if got := e.Error(); got != "boardd.toml:3: syntax: expected '='" {
		t.Errorf("Error() = %q", got)
	}
	if e.Key != "" {
		t.Errorf("Error() changed Key to %q", e.Key)
	}
}
