package sensors

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors/mcp23017"
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

// Designs are the Config.Design values.
var Designs = []string{"matrix", "mcp23017", "hc165", "analog"}

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
	if c.Design == "analog" {
		var missing chess.Bitboard
		for b := w.Covered(); b != 0; b &= b - 1 {
			if _, ok := c.Analog.BaselineMV[b.First().String()]; !ok {
				missing |= b.First().Bitboard()
			}
		}
		if missing != 0 {
			return cfgErr("analog.baseline_mv", "no baseline for %s (run boardd calibrate on the empty board)", SquareSet(missing))
		}
		for _, sq := range sortedKeys(c.Analog.BaselineMV) {
			if _, ok := chess.ParseSquare(sq); !ok {
				return cfgErr("analog.baseline_mv", "%q is not a square", sq)
			}
		}
		for _, sq := range sortedKeys(c.Analog.ThresholdMV) {
			if _, ok := chess.ParseSquare(sq); !ok {
				return cfgErr("analog.threshold_mv", "%q is not a square", sq)
			}
			if v := c.Analog.ThresholdMV[sq]; v <= 0 {
				return cfgErr("analog.threshold_mv."+sq, "%v: want a positive voltage", v)
			}
		}
	}
	return nil
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
	sections := map[string]bool{"matrix": c.Matrix != nil, "mcp23017": c.MCP23017 != nil, "hc165": c.HC165 != nil, "analog": c.Analog != nil}
	present, ok := sections[c.Design]
	if !ok {
		return cfgErr("design", "%q: want one of %s", c.Design, strings.Join(Designs, ", "))
	}
	if !present {
		return cfgErr(c.Design, "missing: design %q needs its section", c.Design)
	}
	for _, d := range Designs {
		if d != c.Design && sections[d] {
			return cfgErr(d, "given, but design is %q", c.Design)
		}
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
	switch c.Design {
	case "matrix":
		m := c.Matrix
		if err := checkMatrixSize(len(m.Rows), len(m.Cols)); err != nil {
			return cfgErr("matrix.rows", "%v", err)
		}
		if err := checkNames("matrix.rows", m.Rows); err != nil {
			return err
		}
		if err := checkNames("matrix.cols", m.Cols); err != nil {
			return err
		}
		if m.LineSets && m.DiodeCheckEvery > 0 {
			return cfgErr("matrix.diode_check_every", "needs individual pins, not line_sets")
		}
		if len(m.Squares) > len(m.Rows) {
			return cfgErr("matrix.squares", "%d rows for %d row lines", len(m.Squares), len(m.Rows))
		}
		for r, row := range m.Squares {
			if len(row) > len(m.Cols) {
				return cfgErr(fmt.Sprintf("matrix.squares[%d]", r), "%d columns for %d column lines", len(row), len(m.Cols))
			}
		}
	case "mcp23017":
		m := c.MCP23017
		if m.Bus == "" {
			return cfgErr("mcp23017.bus", "missing (e.g. /dev/i2c-1)")
		}
		if len(m.Chips) == 0 || len(m.Chips) > 8 {
			return cfgErr("mcp23017.chips", "%d chips, want 1 to 8", len(m.Chips))
		}
		seen := map[I2CAddr]int{}
		for i, ch := range m.Chips {
			key := fmt.Sprintf("mcp23017.chips[%d]", i)
			if ch.Addr < mcp23017.MinAddr || ch.Addr > mcp23017.MaxAddr {
				return cfgErr(key+".addr", "%#x: an MCP23017 answers at 0x20 to 0x27", uint16(ch.Addr))
			}
			if j, dup := seen[ch.Addr]; dup {
				return cfgErr(key+".addr", "%#x also used by chips[%d]", uint16(ch.Addr), j)
			}
			seen[ch.Addr] = i
			for _, p := range []struct {
				name string
				l    []string
			}{{"a", ch.A}, {"b", ch.B}} {
				if len(p.l) > 8 {
					return cfgErr(key+"."+p.name, "%d pins, a port has 8", len(p.l))
				}
				if len(p.l) == 8 && !m.UseGPx7 && !isNone(p.l[7]) {
					return cfgErr(fmt.Sprintf("%s.%s[7]", key, p.name), "%q on GP%s7, which current MCP23017s cannot read as an input (Microchip: GPA7 & GPB7 cannot be used as inputs); use \"-\" and another chip, or set use_gpx7 for old silicon",
						p.l[7], strings.ToUpper(p.name))
				}
			}
		}
	case "hc165":
		h := c.HC165
		if h.SPI == "" {
			return cfgErr("hc165.spi", "missing (e.g. /dev/spidev0.0)")
		}
		if h.Latch == "" {
			return cfgErr("hc165.latch_pin", "missing: the GPIO on SH/LD (not CE0)")
		}
		if _, err := h.sentinel(); err != nil {
			return err
		}
		if n := h.chips(); n < 1 || n > maxHC165 {
			return cfgErr("hc165.count", "%d chips, want 1 to %d", n, maxHC165)
		}
		if len(h.Squares) > h.chips() {
			return cfgErr("hc165.squares", "%d chips listed, count is %d", len(h.Squares), h.chips())
		}
		for i, l := range h.Squares {
			if len(l) > 8 {
				return cfgErr(fmt.Sprintf("hc165.squares[%d]", i), "%d inputs, a 74HC165 has 8", len(l))
			}
		}
		if h.SpeedHz < 0 || h.SpeedHz > 25_000_000 {
			return cfgErr("hc165.speed_hz", "%d: want up to 25 MHz (a 74HC165 at 3.3 V manages about 20)", h.SpeedHz)
		}
	case "analog":
		a := c.Analog
		switch a.ADC {
		case "ads1115":
			if n := len(a.Addrs); n > 0 && n*4 < a.muxes() {
				return cfgErr("analog.addrs", "%d ADS1115 (4 inputs each) for %d multiplexers", n, a.muxes())
			}
			for i, ad := range a.Addrs {
				if ad < 0x48 || ad > 0x4b {
					return cfgErr(fmt.Sprintf("analog.addrs[%d]", i), "%#x: an ADS1115 answers at 0x48 to 0x4b", uint16(ad))
				}
			}
			if len(a.Addrs) == 0 && a.muxes() > 4 {
				return cfgErr("analog.addrs", "missing: %d multiplexers need %d ADS1115", a.muxes(), (a.muxes()+3)/4)
			}
		case "mcp3008":
			if a.muxes() > 8 {
				return cfgErr("analog.muxes", "%d multiplexers, an MCP3008 has 8 inputs", a.muxes())
			}
			if a.VRefMV < 0 {
				return cfgErr("analog.vref_mv", "%v: want a positive voltage", a.VRefMV)
			}
		default:
			return cfgErr("analog.adc", "%q: want ads1115 or mcp3008", a.ADC)
		}
		if a.Bus == "" {
			return cfgErr("analog.bus", "missing: the I2C bus (ads1115) or SPI port (mcp3008)")
		}
		if len(a.Select) != 4 {
			return cfgErr("analog.select", "%d lines: a CD74HC4067 has four, S0..S3", len(a.Select))
		}
		if err := checkNames("analog.select", a.Select); err != nil {
			return err
		}
		if n := a.muxes(); n < 1 || n > MaxInputs/16 {
			return cfgErr("analog.muxes", "%d multiplexers, want 1 to %d", n, MaxInputs/16)
		}
		if len(a.Squares) > a.muxes() {
			return cfgErr("analog.squares", "%d multiplexers listed, muxes is %d", len(a.Squares), a.muxes())
		}
		for i, l := range a.Squares {
			if len(l) > 16 {
				return cfgErr(fmt.Sprintf("analog.squares[%d]", i), "%d channels, a CD74HC4067 has 16", len(l))
			}
		}
		on, off := a.onOff()
		if a.OnMV < 0 || a.OffMV < 0 || off >= on {
			return cfgErr("analog.off_mv", "%v mV: want 0 < off_mv < on_mv (%v mV)", off, on)
		}
		if a.Samples < 0 || a.Samples > 16 {
			return cfgErr("analog.samples", "%d: want 1 to 16", a.Samples)
		}
	}
	return nil
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

func (h *HC165Config) chips() int {
	if h.Count > 0 {
		return h.Count
	}
	return len(h.Squares)
}

func (h *HC165Config) sentinel() (Sentinel, error) {
	switch h.Sentinel {
	case "":
		return NoSentinel, nil
	case "low":
		return SentinelLow, nil
	case "high":
		return SentinelHigh, nil
	}
	return 0, cfgErr("hc165.sentinel", "%q: want low, high or nothing", h.Sentinel)
}

func (a *AnalogConfig) muxes() int {
	if a.Muxes > 0 {
		return a.Muxes
	}
	return len(a.Squares)
}

func (a *AnalogConfig) onOff() (on, off float64) {
	on, off = 60, 30
	if a.OnMV > 0 {
		on = a.OnMV
	}
	if a.OffMV > 0 {
		off = a.OffMV
	}
	return on, off
}

// Inputs returns the number of inputs of the configured scanner.
func (c *Config) Inputs() int {
	switch c.Design {
	case "matrix":
		return len(c.Matrix.Rows) * len(c.Matrix.Cols)
	case "mcp23017":
		return 16 * len(c.MCP23017.Chips)
	case "hc165":
		return 8 * c.HC165.chips()
	case "analog":
		return 16 * c.Analog.muxes()
	}
	return 0
}

// Wiring compiles the wiring map. Squares may be missing (not yet
// calibrated); a square given twice or a name that is no square is an
// error naming its key.
func (c *Config) Wiring() (*Wiring, error) {
	n := c.Inputs()
	sq := make([]chess.Square, n)
	keys := make([]string, n)
	for i := range sq {
		sq[i] = chess.NoSquare
	}
	set := func(i int, key, name string) error {
		if isNone(name) {
			return nil
		}
		s, ok := chess.ParseSquare(name)
		if !ok {
			return cfgErr(key, "%q is not a square (a1..h8, or \"-\" for none)", name)
		}
		for j, t := range sq {
			if t == s {
				return cfgErr(key, "%s is also at %s", name, keys[j])
			}
		}
		sq[i], keys[i] = s, key
		return nil
	}
	var err error
	switch c.Design {
	case "matrix":
		nc := len(c.Matrix.Cols)
		for r, row := range c.Matrix.Squares {
			for col, name := range row {
				if err = set(r*nc+col, fmt.Sprintf("matrix.squares[%d][%d]", r, col), name); err != nil {
					return nil, err
				}
			}
		}
	case "mcp23017":
		for i, ch := range c.MCP23017.Chips {
			for p, l := range [][]string{ch.A, ch.B} {
				for b, name := range l {
					if err = set(i*16+p*8+b, fmt.Sprintf("mcp23017.chips[%d].%c[%d]", i, 'a'+p, b), name); err != nil {
						return nil, err
					}
				}
			}
		}
	case "hc165":
		for i, l := range c.HC165.Squares {
			for b, name := range l {
				if err = set(i*8+b, fmt.Sprintf("hc165.squares[%d][%d]", i, b), name); err != nil {
					return nil, err
				}
			}
		}
	case "analog":
		for m, l := range c.Analog.Squares {
			for ch, name := range l {
				if err = set(m*16+ch, fmt.Sprintf("analog.squares[%d][%d]", m, ch), name); err != nil {
					return nil, err
				}
			}
		}
	default:
		return nil, cfgErr("design", "%q: want one of %s", c.Design, strings.Join(Designs, ", "))
	}
	return NewWiring(sq)
}

// SetWiring stores a wiring map (learned by calibration) in the design's
// squares lists, "-" for inputs without a square.
func (c *Config) SetWiring(w *Wiring) error {
	if w.Inputs() != c.Inputs() {
		return fmt.Errorf("wiring has %d inputs, the %s design %d", w.Inputs(), c.Design, c.Inputs())
	}
	name := func(i int) string {
		if sq := w.Square(i); sq != chess.NoSquare {
			return sq.String()
		}
		return "-"
	}
	grid := func(groups, per int) [][]string {
		g := make([][]string, groups)
		for i := range g {
			g[i] = make([]string, per)
			for j := range g[i] {
				g[i][j] = name(i*per + j)
			}
		}
		return g
	}
	switch c.Design {
	case "matrix":
		c.Matrix.Squares = grid(len(c.Matrix.Rows), len(c.Matrix.Cols))
	case "mcp23017":
		g := grid(2*len(c.MCP23017.Chips), 8)
		for i := range c.MCP23017.Chips {
			c.MCP23017.Chips[i].A, c.MCP23017.Chips[i].B = g[2*i], g[2*i+1]
		}
	case "hc165":
		c.HC165.Squares = grid(c.HC165.chips(), 8)
	case "analog":
		c.Analog.Squares = grid(c.Analog.muxes(), 16)
	}
	return nil
}

// mcpInputs returns, per chip, the pins to configure as inputs: those with
// a square, or (not yet calibrated) every pin the silicon can read.
func (c *Config) mcpInputs(w *Wiring) []MCP23017Chip {
	m := c.MCP23017
	chips := make([]MCP23017Chip, len(m.Chips))
	calibrated := w.Covered() != 0
	for i, ch := range m.Chips {
		var in uint16
		for b := 0; b < 16; b++ {
			if calibrated {
				if w.Square(i*16+b) != chess.NoSquare {
					in |= 1 << uint(b)
				}
			} else if m.UseGPx7 || (1<<uint(b))&Bit7Pins == 0 {
				in |= 1 << uint(b)
			}
		}
		chips[i] = MCP23017Chip{Addr: uint16(ch.Addr), Inputs: in}
	}
	return chips
}

// hallCalibration builds the analog scanner's per-input calibration.
func (c *Config) hallCalibration(w *Wiring) []HallInput {
	a := c.Analog
	cal := make([]HallInput, c.Inputs())
	for i := range cal {
		sq := w.Square(i)
		if sq == chess.NoSquare {
			continue
		}
		if v, ok := a.BaselineMV[sq.String()]; ok {
			cal[i].Baseline = millivolts(v)
		}
		if v, ok := a.ThresholdMV[sq.String()]; ok {
			cal[i].On = millivolts(v)
			cal[i].Off = millivolts(v / 2)
		}
	}
	return cal
}

func millivolts(mv float64) physic.ElectricPotential {
	return physic.ElectricPotential(math.Round(mv * float64(physic.MilliVolt)))
}

// InputName names input i of the configured design for people: "row 2
// col 5", "0x21 GPB3", "chip 3 input D", "mux 1 ch 7".
func (c *Config) InputName(i int) string {
	switch c.Design {
	case "matrix":
		nc := len(c.Matrix.Cols)
		return fmt.Sprintf("row %d col %d", i/nc, i%nc)
	case "mcp23017":
		ch := i / 16
		if ch < len(c.MCP23017.Chips) {
			return fmt.Sprintf("%#x GP%c%d", uint16(c.MCP23017.Chips[ch].Addr), 'A'+i/8%2, i%8)
		}
	case "hc165":
		return fmt.Sprintf("chip %d input %c", i/8, 'A'+i%8)
	case "analog":
		return fmt.Sprintf("mux %d ch %d", i/16, i%16)
	}
	return fmt.Sprintf("input %d", i)
}

// ApplyCalibration stores what Calibrate learned: the wiring and, for an
// analog board, the baselines, thresholds and the white pieces' pole.
func (c *Config) ApplyCalibration(r *CalibrationResult) error {
	if err := c.SetWiring(r.Wiring); err != nil {
		return err
	}
	if c.Design != "analog" || r.Baselines == nil {
		return nil
	}
	a := c.Analog
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
