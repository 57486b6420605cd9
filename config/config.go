// Package config is boardd's configuration file: its keys with their
// defaults and documentation, loading with environment and --set
// overrides, and the checks that refuse, naming the key and line, every
// configuration the daemon could not run.
package config

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/boardd/boardd/rules"

	"github.com/BurntSushi/toml"

	"github.com/boardd/boardd/chess"
)

// Config is boardd's configuration: one TOML file (default
// /etc/boardd/boardd.toml), then BOARDD_<SECTION>_<KEY> environment
// variables, then --set section.key=value flags. Every key is documented by
// its doc tag; `boardd run --print-defaults` writes them all with defaults,
// and docs/config.md is generated from the same tags.
type Config struct {
	Board      BoardConfig      `toml:"board" doc:"The board itself."`
	Game       GameConfig       `toml:"game" doc:"The game played on the board and the Laws that apply."`
	Sensors    SensorsConfig    `toml:"sensors" doc:"The sensor hardware."`
	Clock      ClockConfig      `toml:"clock" doc:"The chess clock."`
	MQTT       MQTTConfig       `toml:"mqtt" doc:"Publishing over MQTT."`
	HTTP       HTTPConfig       `toml:"http" doc:"The demonstration page, arbiter console, health and metrics."`
	Journal    JournalConfig    `toml:"journal" doc:"The journal, the crash-safe record every published message comes from."`
	Log        LogConfig        `toml:"log" doc:"Logging."`
	Simulation SimulationConfig `toml:"simulation" doc:"The simulated board (sensors.kind = \"simulated\")."`
}

// BoardConfig names the board.
type BoardConfig struct {
	ID string `toml:"id" doc:"Board id: 1-32 of a-z, 0-9 and '-'. Also the MQTT username and the certificate CN."`
}

// GameConfig describes the game and the Laws.
type GameConfig struct {
	Edition string `toml:"edition" doc:"Edition of the FIDE Laws: 1997, 2018 or 2023."`
	Type    string `toml:"type" doc:"standard, rapid or blitz; empty: classified from the time control."`
	// Rapid and blitz without adequate supervision (2018 A.4, 2023 A.5).
	Unsupervised bool   `toml:"unsupervised" doc:"Rapid or blitz without adequate supervision (2018 A.4, 2023 A.5: one arbiter for more than three games); standard games are always supervised."`
	TimeControl  string `toml:"time_control" doc:"Time control, e.g. 90m+30s, 40/120m,60m,15m+30s, 5m+3s, 15m d10s; empty: none."`
	Start        string `toml:"start" doc:"Start position: standard, 960:<0-959> or fen:<FEN>."`
	White        string `toml:"white" doc:"White player's name for PGN and displays."`
	Black        string `toml:"black" doc:"Black player's name."`
	Event        string `toml:"event" doc:"Event name (PGN Event tag)."`
	Round        string `toml:"round" doc:"Round (PGN Round tag)."`
	BoardNo      string `toml:"board_no" doc:"This board's number in the round (PGN Board tag), by which relays order a round's games."`
}

// SensorsConfig selects the frame source.
type SensorsConfig struct {
	Kind string `toml:"kind" doc:"simulated (a simulated board replaying real games) or hardware (the board described by sensors.file)."`
	File string `toml:"file" doc:"Sensor board description (JSON: design, buses, wiring map, debouncing) as written by 'boardd calibrate'; see docs/hardware.md."`
	// Sensor kind of a simulated board.
	Simulated string `toml:"simulated_sensor" doc:"What the simulated board reports per square: occupancy, colour or piece."`
}

// ClockConfig selects the clock.
type ClockConfig struct {
	Kind     string `toml:"kind" doc:"software (boardd keeps the time; presses come from the simulated board or the web), lever (a lever switch on GPIO), dgt3000 (a DGT3000 on the Pi's I2C pins) or none (moves complete when the board stands still)."`
	LeverPin string `toml:"lever_pin" doc:"Lever: the GPIO the lever switch pulls low when White's side is down. It must not be a pin the sensor board uses (GPIO17 is the reference MCP23017 INT and matrix column 1)."`
	// I2CBus is obsolete: the DGT3000 link always uses the Pi's BSC1
	// pins. It is still read so that files written with it load.
	I2CBus           string `toml:"i2c_bus" doc:"-"`
	WhiteSide        string `toml:"white_side" doc:"DGT3000: the half of the clock, left or right as the arbiter faces the clock, that shows White's time and whose lever side White presses."`
	DGTLeverInverted bool   `toml:"dgt_lever_inverted" doc:"DGT3000: swap the lever's sides, for a clock that reports them the other way round (docs/clock.md, section 6)."`
	DGTCoreMHz       int    `toml:"dgt_core_mhz" doc:"DGT3000: the Pi's VPU core clock in MHz, fixed by core_freq and core_freq_min in config.txt; 0: ask vcgencmd at start."`
}

// MQTTConfig configures publishing.
type MQTTConfig struct {
	Broker           string `toml:"broker" doc:"embedded (an in-process broker) or the URL of an external one: tcp://host:1883, ssl://host:8883, ws://host/mqtt."`
	Listen           string `toml:"listen" doc:"Embedded broker: MQTT TCP listener address."`
	WSListen         string `toml:"ws_listen" doc:"Embedded broker: MQTT-over-WebSocket listener address (for the web pages); empty: none."`
	Username         string `toml:"username" doc:"Username at the broker; empty: the board id."`
	Password         string `toml:"password" doc:"Password at the broker (prefer the environment: BOARDD_MQTT_PASSWORD)."`
	CAFile           string `toml:"ca_file" doc:"CA certificate (PEM) to verify the broker's TLS certificate."`
	CertFile         string `toml:"cert_file" doc:"Client certificate (PEM) for TLS client authentication."`
	KeyFile          string `toml:"key_file" doc:"Client key (PEM) for the certificate."`
	ArbiterPassword  string `toml:"arbiter_password" doc:"Embedded broker: password of the 'arbiter' account that may acknowledge alerts from the console; empty: a new one of 128 random bits at each start, shown in the log."`
	DirectorPassword string `toml:"director_password" doc:"Embedded broker: password of the 'director' account that may send every command (start new games from the console); empty: no such account."`
	WSURL            string `toml:"ws_url" doc:"External broker: its MQTT-over-WebSocket URL for the web pages (e.g. ws://broker.venue:8080/); empty: the web pages are off (health and metrics stay)."`
	ReconnectMax     string `toml:"reconnect_max" doc:"Longest wait between reconnection attempts (jittered exponential backoff)."`
}

// HTTPConfig configures the web server.
type HTTPConfig struct {
	Listen string `toml:"listen" doc:"Address of the web server (demo page, arbiter console, /healthz, /metrics); empty: off."`
}

// JournalConfig configures the journal.
type JournalConfig struct {
	Dir string `toml:"dir" doc:"Directory of the journal and the session counter. Empty: $STATE_DIRECTORY (systemd), else /var/lib/boardd for root, else ~/.local/state/boardd."`
}

// LogConfig configures logging.
type LogConfig struct {
	Level  string `toml:"level" doc:"debug, info, warn or error."`
	Format string `toml:"format" doc:"text or json."`
}

// SimulationConfig configures the simulated board.
type SimulationConfig struct {
	PGN       string  `toml:"pgn" doc:"PGN file of games to play; empty: the bundled corpus."`
	Speed     float64 `toml:"speed" doc:"Time factor: 1 plays at human speed, 10 ten times faster."`
	Seed      int64   `toml:"seed" doc:"Seed of the hand simulator; 0: a new one at each start."`
	Irregular bool    `toml:"irregular" doc:"Inject irregularities (illegal moves, knocked pieces...) for demonstrations."`
}

// Default is the configuration with every default filled in: the
// embedded, zero-setup set-up.
func Default() Config {
	return Config{
		Board:      BoardConfig{ID: "board-1"},
		Game:       GameConfig{Edition: "2023", Start: "standard", TimeControl: "90m+30s"},
		Sensors:    SensorsConfig{Kind: "simulated", File: "/etc/boardd/sensors.json", Simulated: "occupancy"},
		Clock:      ClockConfig{Kind: "software", LeverPin: "GPIO18", WhiteSide: "left"},
		MQTT:       MQTTConfig{Broker: "embedded", Listen: "127.0.0.1:1883", WSListen: "127.0.0.1:8083", ReconnectMax: "2m"},
		HTTP:       HTTPConfig{Listen: "127.0.0.1:8080"},
		Journal:    JournalConfig{},
		Log:        LogConfig{Level: "info", Format: "text"},
		Simulation: SimulationConfig{Speed: 1},
	}
}

// Error is a bad key or value, with the file and line when known.
type Error struct {
	File string // "" for environment or flags
	Line int
	Key  string // section.key
	Msg  string
}

func (e *Error) Error() string {
	key := e.Key
	if key == "" {
		key = "syntax" // a file that is not TOML names no key
	}
	switch {
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, key, e.Msg)
	case e.File != "":
		return fmt.Sprintf("%s: %s: %s", e.File, key, e.Msg)
	}
	return fmt.Sprintf("%s: %s", key, e.Msg)
}

// keyLines maps "section.key" to the line where the file sets it. TOML
// decoding does not report positions for keys, so they are found here.
func keyLines(data []byte) map[string]int {
	out := map[string]int{}
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	n := 0
	for sc.Scan() {
		n++
		l := strings.TrimSpace(sc.Text())
		if l == "" || l[0] == '#' {
			continue
		}
		if l[0] == '[' {
			section = strings.Trim(strings.TrimSpace(strings.Trim(l, "[]")), `"`)
			out[section] = n
			continue
		}
		if k, _, ok := strings.Cut(l, "="); ok {
			k = strings.Trim(strings.TrimSpace(k), `"`)
			if section != "" {
				k = section + "." + k
			}
			out[k] = n
		}
	}
	return out
}

// Load reads the configuration file (if path is not empty), then
// applies environment overrides and --set overrides, and validates it.
func Load(path string, getenv func(string) string, sets []string) (Config, error) {
	cfg := Default()
	lines := map[string]int{}
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return cfg, fmt.Errorf("config: %w", err)
		}
		lines = keyLines(data)
		md, err := toml.Decode(string(data), &cfg)
		if err != nil {
			var pe toml.ParseError
			if errors.As(err, &pe) {
				return cfg, &Error{File: path, Line: pe.Position.Line, Key: pe.LastKey, Msg: pe.Message}
			}
			// Type mismatches name the key; find its line.
			msg := err.Error()
			key := ""
			if m := regexp.MustCompile(`last key "([^"]+)"`).FindStringSubmatch(msg); m != nil {
				key = m[1]
			}
			return cfg, &Error{File: path, Line: lines[key], Key: key, Msg: strings.TrimPrefix(msg, "toml: ")}
		}
		if und := md.Undecoded(); len(und) > 0 {
			k := und[0].String()
			return cfg, &Error{File: path, Line: lines[k], Key: k, Msg: "unknown key (see 'boardd run --print-defaults' for every key)"}
		}
	}
	// Where a key's value came from when not from the file: an error in
	// it names the variable or the --set, not the file's line.
	override := map[string]string{}
	for _, f := range configFields(&cfg) {
		env := "BOARDD_" + strings.ToUpper(strings.ReplaceAll(f.key, ".", "_"))
		if v := getenv(env); v != "" {
			if err := f.set(v); err != nil {
				return cfg, &Error{Key: f.key, Msg: fmt.Sprintf("from %s: %v", env, err)}
			}
			override[f.key] = "from " + env // never the value: it may be a secret
		}
	}
	for _, s := range sets {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return cfg, &Error{Key: s, Msg: "--set wants section.key=value"}
		}
		found := false
		for _, f := range configFields(&cfg) {
			if f.key == k {
				if err := f.set(v); err != nil {
					return cfg, &Error{Key: k, Msg: fmt.Sprintf("from --set: %v", err)}
				}
				override[k] = "from --set"
				found = true
			}
		}
		if !found {
			return cfg, &Error{Key: k, Msg: "unknown key (see 'boardd run --print-defaults')"}
		}
	}
	err := cfg.Validate()
	if err == nil {
		err = checkHardware(&cfg, hostPiModel())
	}
	if err != nil {
		var ce *Error
		switch {
		case !errors.As(err, &ce):
		case override[ce.Key] != "":
			ce.Msg = override[ce.Key] + ": " + ce.Msg
		case path != "" && lines[ce.Key] > 0:
			ce.File, ce.Line = path, lines[ce.Key]
		}
		return cfg, err
	}
	return cfg, nil
}

var boardIDPattern = regexp.MustCompile(`^[a-z0-9-]{1,32}$`)

// Validate checks every value; the error names the key.
func (c *Config) Validate() error {
	bad := func(key, format string, args ...any) error {
		return &Error{Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	oneOf := func(key, v string, allowed ...string) error {
		for _, a := range allowed {
			if v == a {
				return nil
			}
		}
		return bad(key, "%q: want one of %s", v, strings.Join(allowed, ", "))
	}
	if !boardIDPattern.MatchString(c.Board.ID) {
		return bad("board.id", "%q: want 1-32 characters of a-z, 0-9 and '-'", c.Board.ID)
	}
	if _, err := rules.ParseEdition(c.Game.Edition); err != nil {
		return bad("game.edition", "%v", err)
	}
	if c.Game.Type != "" {
		gt, err := rules.ParseGameType(c.Game.Type)
		if err != nil || c.Game.Type != gt.String() {
			return bad("game.type", "%q: want standard, rapid or blitz", c.Game.Type)
		}
		if gt == rules.Standard && c.Game.Unsupervised {
			return bad("game.unsupervised", "a standard game is always supervised; set game.type to rapid or blitz")
		}
	}
	if err := oneOf("sensors.kind", c.Sensors.Kind, "simulated", "hardware"); err != nil {
		return err
	}
	if c.Sensors.Kind == "hardware" && c.Sensors.File == "" {
		return bad("sensors.file", "a hardware board needs its description file")
	}
	if err := oneOf("sensors.simulated_sensor", c.Sensors.Simulated, "occupancy", "colour", "piece"); err != nil {
		return err
	}
	if err := c.Clock.validate(); err != nil {
		return err
	}
	if c.MQTT.Broker != "embedded" {
		if !regexp.MustCompile(`^(tcp|ssl|tls|mqtt|mqtts|ws|wss)://[^/]+`).MatchString(c.MQTT.Broker) {
			return bad("mqtt.broker", "%q: want embedded or a URL like tcp://host:1883", c.MQTT.Broker)
		}
	}
	if d, err := time.ParseDuration(c.MQTT.ReconnectMax); err != nil || d <= 0 {
		return bad("mqtt.reconnect_max", "%q: want a duration like 2m", c.MQTT.ReconnectMax)
	}
	if (c.MQTT.CertFile == "") != (c.MQTT.KeyFile == "") {
		return bad("mqtt.cert_file", "a client certificate needs its key (mqtt.key_file), and a key its certificate")
	}
	if err := oneOf("log.level", c.Log.Level, "debug", "info", "warn", "error"); err != nil {
		return err
	}
	if err := oneOf("log.format", c.Log.Format, "text", "json"); err != nil {
		return err
	}
	return c.checkRunnable()
}

// validate checks the clock keys.
func (c *ClockConfig) validate() error {
	bad := func(key, format string, args ...any) error {
		return &Error{Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	switch c.Kind {
	case "software", "lever", "dgt3000", "none":
	default:
		return bad("clock.kind", "%q: want one of software, lever, dgt3000, none", c.Kind)
	}
	if c.Kind == "lever" {
		if _, ok := gpioNumber(c.LeverPin); !ok {
			return bad("clock.lever_pin", "%q: want a GPIO of the Pi's header, GPIO0 to GPIO27", c.LeverPin)
		}
	}
	if c.WhiteSide != "left" && c.WhiteSide != "right" {
		return bad("clock.white_side", "%q: want left or right", c.WhiteSide)
	}
	if c.DGTCoreMHz != 0 && (c.DGTCoreMHz < 100 || c.DGTCoreMHz > 1000) {
		return bad("clock.dgt_core_mhz", "%d: want the core clock in MHz (250 or 300 as fixed in config.txt), or 0 to ask vcgencmd", c.DGTCoreMHz)
	}
	if c.I2CBus != "" {
		return bad("clock.i2c_bus", "%q: no longer used: the DGT3000 link always uses the Pi's GPIO2/GPIO3 (BSC1); remove the key", c.I2CBus)
	}
	return nil
}

// StartSpec is a parsed game.start value.
type StartSpec struct {
	Kind string // "standard", "960", "fen"
	N    int
	FEN  string
}

// ParseStart parses game.start, the FEN included, so that a bad one is an
// error rather than the standard start.
func ParseStart(s string) (StartSpec, error) {
	switch {
	case s == "standard":
		return StartSpec{Kind: "standard"}, nil
	case strings.HasPrefix(s, "960:"):
		n, err := strconv.Atoi(s[4:])
		if err != nil || n < 0 || n > 959 {
			return StartSpec{}, fmt.Errorf("%q: want 960:<0-959>", s)
		}
		return StartSpec{Kind: "960", N: n}, nil
	case strings.HasPrefix(s, "fen:"):
		fen := strings.TrimSpace(s[4:])
		if _, err := chess.ParseFEN(fen); err != nil {
			return StartSpec{}, fmt.Errorf("%q: %v", s, err)
		}
		return StartSpec{Kind: "fen", FEN: fen}, nil
	}
	return StartSpec{}, fmt.Errorf("%q: want standard, 960:<n> or fen:<FEN>", s)
}

// configField is one leaf key of the configuration, reachable by reflection
// so that defaults, documentation and overrides come from one place.
type configField struct {
	key     string // section.key
	section string
	doc     string
	value   reflect.Value
}

func (f configField) set(s string) error {
	switch f.value.Kind() {
	case reflect.String:
		f.value.SetString(s)
	case reflect.Int, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not an integer", s)
		}
		f.value.SetInt(n)
	case reflect.Float64:
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", s)
		}
		f.value.SetFloat(x)
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("%q is not true or false", s)
		}
		f.value.SetBool(b)
	default:
		return fmt.Errorf("cannot be set from text")
	}
	return nil
}

func configFields(c *Config) []configField {
	var out []configField
	v := reflect.ValueOf(c).Elem()
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sec := t.Field(i).Tag.Get("toml")
		sv := v.Field(i)
		st := sv.Type()
		for j := 0; j < st.NumField(); j++ {
			f := st.Field(j)
			if f.Tag.Get("doc") == "-" {
				continue // obsolete: read, never written or documented
			}
			out = append(out, configField{key: sec + "." + f.Tag.Get("toml"), section: sec, doc: f.Tag.Get("doc"), value: sv.Field(j)})
		}
	}
	return out
}

// sectionDocs returns each section's doc tag by name.
func sectionDocs() map[string]string {
	out := map[string]string{}
	t := reflect.TypeOf(Config{})
	for i := 0; i < t.NumField(); i++ {
		out[t.Field(i).Tag.Get("toml")] = t.Field(i).Tag.Get("doc")
	}
	return out
}

func tomlValue(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return strconv.Quote(v.String())
	case reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	}
	return fmt.Sprint(v.Interface())
}

// DefaultText is a complete configuration file with every key, its
// default and its documentation.
func DefaultText() string {
	return text(Default(), "# boardd configuration. Every key is shown with its default.\n")
}

// Text is cfg as a complete configuration file, every key with its value
// and documentation; from says where cfg came from (a file, with the
// environment's and --set overrides applied).
func Text(cfg Config, from string) string {
	return text(cfg, "# boardd configuration as loaded from "+from+". Every key is shown.\n")
}

func text(cfg Config, head string) string {
	var b strings.Builder
	b.WriteString(head)
	b.WriteString("# Environment variables BOARDD_<SECTION>_<KEY> and --set section.key=value override it.\n")
	docs := sectionDocs()
	section := ""
	for _, f := range configFields(&cfg) {
		if f.section != section {
			section = f.section
			fmt.Fprintf(&b, "\n# %s\n[%s]\n", docs[section], section)
		}
		fmt.Fprintf(&b, "# %s\n%s = %s\n", f.doc, f.key[len(section)+1:], tomlValue(f.value))
	}
	return b.String()
}

// DocMarkdown is the configuration reference as a Markdown table
// (docs/config.md is generated from it and a test keeps them equal).
func DocMarkdown() string {
	cfg := Default()
	var b strings.Builder
	b.WriteString("# Configuration reference\n\n")
	b.WriteString("boardd reads one TOML file (`boardd run --config FILE`; the package installs\n")
	b.WriteString("`/etc/boardd/boardd.toml`). Every key may be left out; the defaults below are\n")
	b.WriteString("the embedded, zero-setup set-up. An environment variable `BOARDD_<SECTION>_<KEY>`\n")
	b.WriteString("(e.g. `BOARDD_MQTT_PASSWORD`) overrides the file, and `--set section.key=value`\n")
	b.WriteString("overrides both. Unknown keys and bad values are errors that name the key and\n")
	b.WriteString("the line. `boardd run --check-config` checks a file as `run` would: it parses\n")
	b.WriteString("the time control and the start position, checks every address and port, reads\n")
	b.WriteString("the files the configuration names (sensor board, PGN, TLS certificates) and\n")
	b.WriteString("checks that the journal's directory can be one; a value that is wrong is never\n")
	b.WriteString("replaced by a default. `boardd run --print-config` prints the configuration\n")
	b.WriteString("`run` would use (the file, the environment and `--set` applied), every key\n")
	b.WriteString("with its value; `--print-defaults` prints a complete file with every default.\n\n")
	b.WriteString("This page is generated from the code (`go test ./config -run ConfigDoc -update`).\n")
	docs := sectionDocs()
	section := ""
	for _, f := range configFields(&cfg) {
		if f.section != section {
			section = f.section
			fmt.Fprintf(&b, "\n## [%s]\n\n%s\n\n| key | default | meaning |\n| --- | --- | --- |\n", section, docs[section])
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", f.key[len(section)+1:], tomlValue(f.value), strings.ReplaceAll(f.doc, "|", "\\|"))
	}
	return b.String()
}
