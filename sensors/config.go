package sensors

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
	"periph.io/x/conn/v3/physic"
)

// Config describes a sensor board: its design, how it is connected, the
// wiring map (which input reads which square) and the scanning
// parameters. It is meant to be embedded in the daemon's configuration;
// every field has a JSON name, and Duration and I2CAddr read as text
// ("10ms", "0x20"). docs/hardware.md has an example per design.
type Config struct {
	// Design is "matrix", "mcp23017", "hc165" or "analog"; exactly the
	// section of that name must be present.
	Design string `json:"design"`

	ScanInterval Duration `json:"scan_interval,omitempty"` // default 10ms
	PollInterval Duration `json:"poll_interval,omitempty"` // interrupt safety net, default 100ms
	Debounce     int      `json:"debounce,omitempty"`      // stable scans, default 4
	StuckAfter   Duration `json:"stuck_after,omitempty"`   // default 1m
	Heartbeat    Duration `json:"heartbeat,omitempty"`     // default 0: frames only on change

	Matrix   *MatrixConfig   `json:"matrix,omitempty"`
	MCP23017 *MCP23017Config `json:"mcp23017,omitempty"`
	HC165    *HC165Config    `json:"hc165,omitempty"`
	Analog   *AnalogConfig   `json:"analog,omitempty"`
}

// MatrixConfig is an 8x8 (or other) diode matrix on GPIO lines.
type MatrixConfig struct {
	Rows []string `json:"rows"` // GPIO names of the driven lines, row 0 first
	Cols []string `json:"cols"` // GPIO names of the lines read (pulled up)
	// LineSets drives the rows and reads the columns as two line sets,
	// one ioctl each, with idle rows driven high: only with every diode.
	LineSets        bool     `json:"line_sets,omitempty"`
	Settle          Duration `json:"settle,omitempty"`            // default 10µs
	DiodeCheckEvery int      `json:"diode_check_every,omitempty"` // scans; default 100, -1 never
	// Squares[row][col] is the square of the switch at row, col ("-" for
	// none).
	Squares [][]string `json:"squares,omitempty"`
}

// MCP23017Config is a bank of MCP23017s on one I2C bus.
type MCP23017Config struct {
	Bus    string `json:"bus"`               // "/dev/i2c-1", "I2C1" or "1"
	IntPin string `json:"int_pin,omitempty"` // the shared INT line; empty: poll
	// UseGPx7 allows squares on GPA7/GPB7, which current silicon cannot
	// read (Microchip's "GPA7 & GPB7 cannot be used as inputs"): only
	// for chips known to be older revisions.
	UseGPx7    bool                 `json:"use_gpx7,omitempty"`
	CheckEvery Duration             `json:"check_every,omitempty"` // IOCON read-back, default 1s
	Chips      []MCP23017ChipConfig `json:"chips"`
}

// MCP23017ChipConfig is one chip: its address and the squares on its pins.
type MCP23017ChipConfig struct {
	Addr I2CAddr  `json:"addr"`
	A    []string `json:"a,omitempty"` // squares on GPA0..GPA7 ("-" for none)
	B    []string `json:"b,omitempty"` // squares on GPB0..GPB7
}

// HC165Config is a chain of 74HC165s on SPI with SH/LD on a GPIO.
type HC165Config struct {
	SPI        string `json:"spi"`                   // "/dev/spidev0.0" or "SPI0.0"
	Latch      string `json:"latch_pin"`             // SH/LD GPIO
	SpeedHz    int64  `json:"speed_hz,omitempty"`    // default 1 MHz
	ActiveHigh bool   `json:"active_high,omitempty"` // switches to 3.3 V with pull-downs
	Sentinel   string `json:"sentinel,omitempty"`    // "low" or "high": SER of the last chip tied so
	Count      int    `json:"count,omitempty"`       // chips; default len(squares)
	// Squares[chip][bit]: chip 0 drives MISO; bit 0 is input A.
	Squares [][]string `json:"squares,omitempty"`
}

// AnalogConfig is analog Hall sensors through CD74HC4067 multiplexers
// into an ADC.
type AnalogConfig struct {
	ADC     string    `json:"adc"`             // "ads1115" or "mcp3008"
	Bus     string    `json:"bus"`             // the I2C bus (ads1115) or SPI port (mcp3008)
	Addrs   []I2CAddr `json:"addrs,omitempty"` // ads1115: one per four multiplexers; default 0x48
	SpeedHz int64     `json:"speed_hz,omitempty"`
	VRefMV  float64   `json:"vref_mv,omitempty"` // mcp3008 VREF, default 3300
	Select  []string  `json:"select"`            // GPIO names of S0..S3
	Muxes   int       `json:"muxes,omitempty"`   // default len(squares)
	Settle  Duration  `json:"settle,omitempty"`  // default 20µs
	Samples int       `json:"samples,omitempty"` // conversions averaged, default 1
	// WhiteHigh: white pieces raise the reading (default: they lower it).
	WhiteHigh bool    `json:"white_high,omitempty"`
	OnMV      float64 `json:"on_mv,omitempty"`     // default 60
	OffMV     float64 `json:"off_mv,omitempty"`    // default 30
	SupplyMV  float64 `json:"supply_mv,omitempty"` // default 3300
	// Squares[mux][channel] is the square of each sensor.
	Squares [][]string `json:"squares,omitempty"`
	// BaselineMV is each square's empty reading and ThresholdMV its own
	// "on" threshold (off is half of it), both learned by boardd calibrate.
	BaselineMV  map[string]float64 `json:"baseline_mv,omitempty"`
	ThresholdMV map[string]float64 `json:"threshold_mv,omitempty"`
}

// Duration is a time.Duration written as text ("10ms", "1m").
type Duration time.Duration

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("duration %q: want a number with a unit, like 10ms or 1m", b)
	}
	*d = Duration(v)
	return nil
}

// I2CAddr is an I2C address, written "0x20" (or as a number).
type I2CAddr uint16

// MarshalText implements encoding.TextMarshaler.
func (a I2CAddr) MarshalText() ([]byte, error) { return []byte(fmt.Sprintf("0x%02x", uint16(a))), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (a *I2CAddr) UnmarshalText(b []byte) error {
	v, err := strconv.ParseUint(string(b), 0, 16)
	if err != nil || v > 0x7f {
		return fmt.Errorf("I2C address %q: want 0x08 to 0x77, like 0x20", b)
	}
	*a = I2CAddr(v)
	return nil
}

// UnmarshalJSON accepts a string ("0x20") or a number (32).
func (a *I2CAddr) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		return a.UnmarshalText([]byte(s))
	}
	return a.UnmarshalText(b)
}

// ConfigError is a bad configuration value; Key is its path
// ("mcp23017.chips[1].a[7]").
type ConfigError struct {
	Key string
	Msg string
}

func (e *ConfigError) Error() string { return e.Key + ": " + e.Msg }

func cfgErr(key, format string, args ...any) error {
	return &ConfigError{Key: key, Msg: fmt.Sprintf(format, args...)}
}

// ParseConfig reads a Config from JSON, rejecting unknown keys, and
// validates it. Errors name the line or the key.
func ParseConfig(data []byte) (*Config, error) {
	c, err := DecodeConfig(data)
	if err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// DecodeConfig reads a Config from JSON, rejecting unknown keys, without
// validating it (boardd calibrate starts from a configuration without
// squares).
func DecodeConfig(data []byte) (*Config, error) {
	var c Config
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, jsonError(data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("line %d: unexpected data after the configuration", lineOf(data, dec.InputOffset()))
	}
	return &c, nil
}

func lineOf(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

func jsonError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("line %d: %v", lineOf(data, se.Offset), se)
	case errors.As(err, &te):
		return fmt.Errorf("line %d: %s: want %v, got %s", lineOf(data, te.Offset), te.Field, te.Type, te.Value)
	}
	if errors.Is(err, io.EOF) {
		return errors.New("empty: want a JSON object such as {\"design\": \"mcp23017\", ...}")
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("line %d: unexpected end of the configuration (a { or [ not closed?)", lineOf(data, int64(len(data))))
	}
	if strings.HasPrefix(err.Error(), "json: unknown field ") {
		return fmt.Errorf("unknown key %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return err
}

// Validate checks the whole configuration, the wiring map included: it
// must place every square exactly once.
func (c *Config) Validate() error {
	if err := c.ValidateHardware(); err != nil {
		return err
	}
	w, err := c.Wiring()
	if err != nil {
		return err
	}
	if missing := ^w.Covered(); missing != 0 {
		return cfgErr(c.Design+".squares", "squares %s are not wired (run boardd calibrate to learn the map)", SquareSet(missing))
	}
	s, err := c.section()
	if err != nil {
		return err
	}
	return s.checkComplete(w)
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ValidateHardware checks everything but the squares of the wiring map
// (which boardd calibrate learns).
func (c *Config) ValidateHardware() error {
	s, err := c.section()
	if err != nil {
		return err
	}
	if c.Debounce < 0 || c.Debounce > MaxDebounce {
		return cfgErr("debounce", "%d: want 1 to %d scans", c.Debounce, MaxDebounce)
	}
	for _, d := range []struct {
		key string
		v   Duration
	}{{"scan_interval", c.ScanInterval}, {"poll_interval", c.PollInterval}, {"heartbeat", c.Heartbeat}} {
		if d.v < 0 {
			return cfgErr(d.key, "%v: want a positive duration", time.Duration(d.v))
		}
	}
	if c.ScanInterval > 0 && c.ScanInterval < Duration(time.Millisecond) {
		return cfgErr("scan_interval", "%v: below 1ms the debounce count means nothing", time.Duration(c.ScanInterval))
	}
	return s.validate()
}

func checkNames(key string, names []string) error {
	seen := map[string]int{}
	for i, n := range names {
		if n == "" {
			return cfgErr(fmt.Sprintf("%s[%d]", key, i), "empty GPIO name")
		}
		if j, dup := seen[n]; dup {
			return cfgErr(fmt.Sprintf("%s[%d]", key, i), "%q also at [%d]", n, j)
		}
		seen[n] = i
	}
	return nil
}

func isNone(s string) bool { return s == "" || s == "-" }

// Inputs returns the number of inputs of the configured scanner (0 for a
// configuration whose design is not valid).
func (c *Config) Inputs() int {
	s, err := c.section()
	if err != nil {
		return 0
	}
	return s.inputs()
}

// Wiring compiles the wiring map. Squares may be missing (not yet
// calibrated); a square given twice or a name that is no square is an
// error naming its key.
func (c *Config) Wiring() (*Wiring, error) {
	s, err := c.section()
	if err != nil {
		return nil, err
	}
	n := s.inputs()
	sq := make([]chess.Square, n)
	keys := make([]string, n)
	for i := range sq {
		sq[i] = chess.NoSquare
	}
	at := map[chess.Square]string{}
	err = s.squares(func(i int, key, name string) error {
		if isNone(name) {
			return nil
		}
		t, ok := chess.ParseSquare(name)
		if !ok {
			return cfgErr(key, "%q is not a square (a1..h8, or \"-\" for none)", name)
		}
		if other, dup := at[t]; dup {
			return cfgErr(key, "%s is also at %s", name, other)
		}
		if i < 0 || i >= n {
			return cfgErr(key, "input %d of %d", i, n)
		}
		at[t] = key
		sq[i], keys[i] = t, key
		return nil
	})
	if err != nil {
		return nil, err
	}
	return NewWiring(sq)
}

// SetWiring stores a wiring map (learned by calibration) in the design's
// squares lists, "-" for inputs without a square.
func (c *Config) SetWiring(w *Wiring) error {
	s, err := c.section()
	if err != nil {
		return err
	}
	if w.Inputs() != s.inputs() {
		return fmt.Errorf("wiring has %d inputs, the %s design %d", w.Inputs(), c.Design, s.inputs())
	}
	s.setSquares(func(i int) string {
		if sq := w.Square(i); sq != chess.NoSquare {
			return sq.String()
		}
		return "-"
	})
	return nil
}

func millivolts(mv float64) physic.ElectricPotential {
	return physic.ElectricPotential(math.Round(mv * float64(physic.MilliVolt)))
}

// InputName names input i of the configured design for people: "row 2
// col 5", "0x21 GPB3", "chip 3 input D", "mux 1 ch 7".
func (c *Config) InputName(i int) string {
	if s, err := c.section(); err == nil {
		return s.inputName(i)
	}
	return fmt.Sprintf("input %d", i)
}

// ApplyCalibration stores what Calibrate learned: the wiring and, for an
// analog board, the baselines, thresholds and the white pieces' pole.
func (c *Config) ApplyCalibration(r *CalibrationResult) error {
	if err := c.SetWiring(r.Wiring); err != nil {
		return err
	}
	a := c.Analog
	if a == nil || r.Baselines == nil {
		return nil
	}
	a.BaselineMV = map[string]float64{}
	a.ThresholdMV = map[string]float64{}
	a.WhiteHigh = r.WhiteHigh
	for i := 0; i < r.Wiring.Inputs(); i++ {
		sq := r.Wiring.Square(i)
		if sq == chess.NoSquare {
			continue
		}
		mv := func(v physic.ElectricPotential) float64 {
			return math.Round(float64(v)/float64(physic.MilliVolt)*10) / 10
		}
		a.BaselineMV[sq.String()] = mv(r.Baselines[i])
		if i < len(r.Thresholds) && r.Thresholds[i] > 0 {
			a.ThresholdMV[sq.String()] = mv(r.Thresholds[i])
		}
	}
	return nil
}

// Marshal writes the configuration as indented JSON with each list of
// squares on one line.
func (c *Config) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(compactLists(b), '\n'), nil
}

// scalarList matches a JSON array of strings or numbers spread over lines.
var scalarList = regexp.MustCompile(`\[\s*(?:"[^"]*"|[-0-9.]+)(?:,\s*(?:"[^"]*"|[-0-9.]+))*\s*\]`)

var listSpace = regexp.MustCompile(`,\s+`)

func compactLists(b []byte) []byte {
	return scalarList.ReplaceAllFunc(b, func(m []byte) []byte {
		m = bytes.TrimSpace(m[1 : len(m)-1])
		return append(append([]byte{'['}, listSpace.ReplaceAll(m, []byte(", "))...), ']')
	})
}

// LoadConfigFile reads a sensor configuration file (JSON); with
// hardwareOnly the wiring may be incomplete.
func LoadConfigFile(path string, hardwareOnly bool) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := DecodeConfig(data)
	if err == nil {
		if hardwareOnly {
			err = c.ValidateHardware()
		} else {
			err = c.Validate()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}
