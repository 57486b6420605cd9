package config

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// brokenConfigs are configurations `run` refuses or would change without
// a word; each must fail to load with file:line: key: message.
var brokenConfigs = []struct{ text, key, msg string }{
	{"[game]\ntime_control = \"90x\"\n", "game.time_control", `"90x"`},
	{"[game]\ntime_control = \"0m\"\n", "game.time_control", `"0m"`},
	{"[clock]\nkind = \"lever\"\n[game]\ntime_control = \"\"\n", "game.time_control", "needs a time control"},
	{"[game]\nstart = \"fen:garbage\"\n", "game.start", `"fen:garbage"`},
	{"[game]\nstart = \"fen:8/8/8/8/8/8/8/8 w - - 0 1\"\n", "game.start", "fen:"},
	{"[game]\nstart = \"\"\n", "game.start", "want standard"},
	{"[game]\nstart = \"960:-1\"\n", "game.start", "want 960:<0-959>"},
	{"[mqtt]\nlisten = \"not an address\"\n", "mqtt.listen", "want host:port"},
	{"[mqtt]\nlisten = \"127.0.0.1:99999\"\n", "mqtt.listen", `port "99999"`},
	{"[mqtt]\nlisten = \"127.0.0.1:21980\"\nws_listen = \"127.0.0.1:21980\"\n", "mqtt.ws_listen", "port 21980 is also mqtt.listen's"},
	{"[http]\nlisten = \"127.0.0.1:1883\"\n", "http.listen", "port 1883 is also mqtt.listen's"},
	{"[mqtt]\nws_listen = \"127.0.0.1:-1\"\n", "mqtt.ws_listen", "want 0 to 65535"},
	{"[mqtt]\nws_listen = \"bad host!:8083\"\n", "mqtt.ws_listen", "neither an IP address nor a host name"},
	{"[http]\nlisten = \"8080\"\n", "http.listen", "want host:port"},
	{"[http]\nlisten = \":http-alt\"\n", "http.listen", `port "http-alt"`},
	{"[mqtt]\nbroker = \"tcp://broker.venue:99999\"\n", "mqtt.broker", `port "99999"`},
	{"[mqtt]\nws_url = \"http://broker.venue/\"\n", "mqtt.ws_url", "want a ws:// or wss://"},
	{"[sensors]\nkind = \"hardware\"\nfile = \"{dir}/missing.json\"\n", "sensors.file", "missing.json"},
	{"[sensors]\nkind = \"hardware\"\nfile = \"{dir}/garbage.json\"\n", "sensors.file", "garbage.json"},
	{"[simulation]\npgn = \"{dir}/missing.pgn\"\n", "simulation.pgn", "missing.pgn"},
	{"[simulation]\npgn = \"{dir}/garbage.json\"\n", "simulation.pgn", "no games"},
	{"[journal]\ndir = \"/etc/passwd\"\n", "journal.dir", "not a directory"},
	{"[journal]\ndir = \"/etc/passwd/boardd\"\n", "journal.dir", "/etc/passwd is not a directory"},
	{"[mqtt]\nbroker = \"ssl://broker.venue:8883\"\nca_file = \"{dir}/missing-ca.pem\"\n", "mqtt.ca_file", "missing-ca.pem"},
	{"[simulation]\nspeed = nan\n", "simulation.speed", "NaN"},
	{"[simulation]\nspeed = inf\n", "simulation.speed", "+Inf"},
	{"[simulation]\nspeed = 0.0\n", "simulation.speed", "want a number more than 0"},
	{"[game]\ntype = \"bullet\"\n", "game.type", `"bullet"`},
	{"[game]\nwhite = \"Carlsen\\nMagnus\"\n", "game.white", "line break"},
	{"[game]\nevent = \"" + strings.Repeat("e", 201) + "\"\n", "game.event", "at most 200"},
}

func TestBrokenConfigsNameFileLineAndKey(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "garbage.json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range brokenConfigs {
		text := "# a broken configuration\n" + strings.ReplaceAll(c.text, "{dir}", dir)
		path := writeConfig(t, text)
		line := 0
		for i, l := range strings.Split(text, "\n") {
			if k := c.key[strings.Index(c.key, ".")+1:]; strings.HasPrefix(l, k+" =") {
				line = i + 1
			}
		}
		_, err := Load(path, noEnv, nil)
		want := regexp.MustCompile("^" + regexp.QuoteMeta(path) + `:(\d+): ` + regexp.QuoteMeta(c.key) + ": .*" + regexp.QuoteMeta(c.msg))
		if err == nil {
			t.Errorf("%q loads without an error", c.text)
			continue
		}
		m := want.FindStringSubmatch(err.Error())
		if m == nil || m[1] != strconv.Itoa(line) {
			t.Errorf("%q: error %q, want %s:%d: %s: ...%s", c.text, err, path, line, c.key, c.msg)
		}
	}
}

// A bad value from the environment or --set is named as such, not blamed
// on the file's line that the override replaced.
func TestOverrideErrorsNameTheirSource(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "boardd.toml")
	if err := os.WriteFile(path, []byte("[board]\nid = \"b-017\"\n[game]\ntime_control = \"5m+3s\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string {
		if k == "BOARDD_GAME_TIME_CONTROL" {
			return "zz"
		}
		return ""
	}
	_, err := Load(path, env, nil)
	if err == nil || !strings.Contains(err.Error(), "game.time_control: from BOARDD_GAME_TIME_CONTROL: ") || strings.Contains(err.Error(), path+":4") {
		t.Errorf("environment: %v", err)
	}
	_, err = Load(path, func(string) string { return "" }, []string{"game.time_control=abc"})
	if err == nil || !strings.Contains(err.Error(), "game.time_control: from --set: ") || strings.Contains(err.Error(), path+":4") {
		t.Errorf("--set: %v", err)
	}
	if err := os.WriteFile(path, []byte("[board]\nid = \"b-017\"\n[game]\ntime_control = \"5x\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err = Load(path, func(string) string { return "" }, nil); err == nil || !strings.Contains(err.Error(), path+":4: game.time_control") {
		t.Errorf("the file's own bad value: %v", err)
	}
}
