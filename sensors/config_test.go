package sensors_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/sensorstest"
	"github.com/boardd/boardd/trace"
)

func TestConfigErrorsNameTheKey(t *testing.T) {
	base := func() *sensors.Config { c, _ := sensors.DefaultConfig("mcp23017"); return c }
	for _, c := range []struct {
		edit func(*sensors.Config)
		want string
	}{
		{func(c *sensors.Config) { c.Design = "sonar" }, `design: "sonar": want one of matrix, mcp23017, hc165, analog`},
		{func(c *sensors.Config) { c.Design = "hc165" }, "hc165: missing"},
		{func(c *sensors.Config) { c.HC165 = &sensors.HC165Config{} }, "hc165: given, but design is"},
		{func(c *sensors.Config) { c.Debounce = 99 }, "debounce: 99: want 1 to 32"},
		{func(c *sensors.Config) { c.ScanInterval = sensors.Duration(time.Microsecond) }, "scan_interval: 1µs"},
		{func(c *sensors.Config) { c.MCP23017.Bus = "" }, "mcp23017.bus: missing"},
		{func(c *sensors.Config) { c.MCP23017.Chips[2].Addr = 0x30 }, "mcp23017.chips[2].addr: 0x30"},
		{func(c *sensors.Config) { c.MCP23017.Chips[2].Addr = 0x21 }, "mcp23017.chips[2].addr: 0x21 also used by chips[1]"},
		{func(c *sensors.Config) { c.MCP23017.Chips[1].B[7] = "c1" }, "mcp23017.chips[1].b[7]: \"c1\" on GPB7"},
		{func(c *sensors.Config) { c.MCP23017.Chips[1].B[2] = "c1" }, "mcp23017.chips[1].b[2]: c1 is also at mcp23017.chips[0].a[2]"},
		{func(c *sensors.Config) { c.MCP23017.Chips[1].B[2] = "z9" }, `mcp23017.chips[1].b[2]: "z9" is not a square`},
		{func(c *sensors.Config) { c.MCP23017.Chips[1].B[2] = "-" }, "mcp23017.squares: squares h3 are not wired"},
	} {
		cfg := base()
		c.edit(cfg)
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	for _, c := range []struct {
		design string
		edit   func(*sensors.Config)
		want   string
	}{
		{"hc165", func(c *sensors.Config) { c.HC165.Sentinel = "middle" }, `hc165.sentinel: "middle"`},
		{"hc165", func(c *sensors.Config) { c.HC165.Latch = "" }, "hc165.latch_pin: missing"},
		{"matrix", func(c *sensors.Config) { c.Matrix.Cols[3] = c.Matrix.Cols[1] }, `matrix.cols[3]: "GPIO17" also at [1]`},
		{"matrix", func(c *sensors.Config) { c.Matrix.LineSets = true }, "matrix.diode_check_every: needs individual pins"},
		{"analog", func(c *sensors.Config) { c.Analog.Select = c.Analog.Select[:3] }, "analog.select: 3 lines"},
		{"analog", func(c *sensors.Config) { c.Analog.OffMV = 70 }, "analog.off_mv: 70 mV: want 0 < off_mv < on_mv"},
		{"analog", func(c *sensors.Config) { c.Analog.ADC = "ads1015" }, `analog.adc: "ads1015"`},
		{"analog", func(c *sensors.Config) {}, "analog.baseline_mv: no baseline for a1-h8 (run boardd calibrate"},
		{"analog-ads1115", func(c *sensors.Config) { c.Analog.Addrs = []sensors.I2CAddr{0x20} }, "analog.addrs[0]: 0x20"},
		{"analog-ads1115", func(c *sensors.Config) { c.Analog.SpeedHz = 400_000 }, "analog.speed_hz: 400000: an ADS1115 is on I2C"},
		{"analog", func(c *sensors.Config) { c.Analog.SpeedHz = 8_000_000 }, "analog.speed_hz: 8000000: want 10 kHz to 3.6 MHz"},
		{"analog", func(c *sensors.Config) { c.Analog.SpeedHz = 1_000 }, "analog.speed_hz: 1000: want 10 kHz"},
	} {
		cfg, _ := sensors.DefaultConfig(c.design)
		c.edit(cfg)
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.design, err, c.want)
		}
	}
}

func TestParseConfigErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"design": "matrix", "matrx": {}}`, `unknown key "matrx"`},
		{"{\n  \"design\": \"mcp23017\",\n  \"debounce\": \"four\"\n}", "line 3: debounce: want int"},
		{"{\n  \"design\": \"mcp23017\",\n  \"scan_interval\": \"fast\"\n}", `duration "fast"`},
		{"{\n  \"design\": \"mcp23017\",\n  \"mcp23017\": {\"chips\": [{\"addr\": \"0xzz\"}]}\n}", `I2C address "0xzz"`},
		{"{\n  \"design\": \"mcp23017\",\n", "line 3: unexpected end"},
		{`{"design": "hc165"} {}`, "line 1: unexpected data after the configuration"},
	} {
		_, err := sensors.ParseConfig([]byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// TestHardwareDocExamples parses every JSON block of docs/hardware.md.
func TestHardwareDocExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/hardware.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllSubmatch(doc, -1)
	if len(blocks) < 4 {
		t.Fatalf("%d JSON examples in docs/hardware.md, want one per design", len(blocks))
	}
	designs := map[string]bool{}
	for _, b := range blocks {
		c, err := sensors.ParseConfig(b[1])
		if err != nil {
			t.Errorf("example:\n%s\n%v", b[1], err)
			continue
		}
		designs[c.Design] = true
	}
	for _, d := range sensors.Designs {
		if !designs[d] {
			t.Errorf("no example of %s", d)
		}
	}
}

func TestOpenEachDesign(t *testing.T) {
	for _, design := range []string{"matrix", "matrix-lines", "mcp23017", "hc165", "analog"} {
		name := design
		cfg, _ := sensors.DefaultConfig(strings.TrimSuffix(design, "-lines"))
		if design == "matrix-lines" {
			cfg.Matrix.LineSets, cfg.Matrix.DiodeCheckEvery = true, 0
		}
		rig, err := sensorstest.NewRig(cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		clk, board := rig.Clock, rig.Board
		src, err := sensors.Open(cfg, rig.Hardware, sensors.SourceOptions{Clock: clk})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sensor := src.Sensor()
		evs := gameEvents(t, sensor, 30)
		start := clk.Now()
		board.Play(&sensorstest.Events{List: evs}, sensorstest.PlayOptions{})
		got := collect(t, src, clk, start.Add(time.Duration(evs[len(evs)-1].T+1000)*time.Millisecond))
		if f := faults(got); len(f) != 0 {
			t.Fatalf("%s: %v", name, f[0].String())
		}
		checkFrames(t, frames(got), states(evs, sensor == trace.Colour), start, 150*time.Millisecond)
		if err := src.Close(); err != nil {
			t.Errorf("%s: Close: %v", name, err)
		}
	}
	// A missing pin is named with its key.
	cfg, _ := sensors.DefaultConfig("hc165")
	_, err := sensors.Open(cfg, &sensorstest.Hardware{}, sensors.SourceOptions{})
	if err == nil || !strings.Contains(err.Error(), `hc165.spi: "/dev/spidev0.0": no SPI port`) {
		t.Errorf("error %v", err)
	}
}

func TestWiringMapsLikeALoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sqs := make([]chess.Square, 100)
	for i := range sqs {
		sqs[i] = chess.NoSquare
	}
	perm := rng.Perm(100)
	for k := 0; k < 64; k++ {
		sqs[perm[k]] = chess.Square(k)
	}
	w := mustWiring(t, sqs)
	if w.Covered() != ^chess.Bitboard(0) {
		t.Fatalf("covered %v", w.Covered())
	}
	for n := 0; n < 1000; n++ {
		in := sensors.Inputs{rng.Uint64(), rng.Uint64() & (1<<36 - 1)}
		var want chess.Bitboard
		for i := 0; i < 100; i++ {
			if in.Has(i) && sqs[i] != chess.NoSquare {
				want |= sqs[i].Bitboard()
			}
		}
		if got := w.Map(&in); got != want {
			t.Fatalf("Map(%v) = %#x, want %#x", in.List(), uint64(got), uint64(want))
		}
		back := w.InputsOf(want)
		if w.Map(&back) != want {
			t.Fatalf("InputsOf does not invert Map")
		}
	}
	if _, err := sensors.NewWiring([]chess.Square{3, 5, 3}); err == nil || !strings.Contains(err.Error(), "square d1 on inputs 0 and 2") {
		t.Errorf("duplicate: %v", err)
	}
	if got := sensors.SquareSet(0x3fff<<14 | sq("e6").Bitboard()); got != "g2-d4 e6" {
		t.Errorf("SquareSet = %q", got)
	}
}

func TestPicture(t *testing.T) {
	f := sensors.Frame{Sensor: trace.Colour, Occ: standard, White: 0xffff}
	got := sensors.Picture(&f, sq("e2").Bitboard())
	want := "8  B  B  B  B  B  B  B  B \n"
	if !strings.HasPrefix(got, want) || !strings.Contains(got, "2  W  W  W  W [W] W  W  W \n") || !strings.HasSuffix(got, "   a  b  c  d  e  f  g  h\n") {
		t.Errorf("picture:\n%s", got)
	}
}

func FuzzParseConfig(f *testing.F) {
	for _, d := range []string{"matrix", "mcp23017", "hc165", "analog", "analog-ads1115"} {
		c, _ := sensors.DefaultConfig(d)
		b, _ := c.Marshal()
		f.Add(b)
	}
	f.Add([]byte(`{"design":"mcp23017","mcp23017":{"bus":"1","chips":[{"addr":32,"a":["a1"]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := sensors.ParseConfig(data)
		if err != nil {
			return
		}
		// What parses writes back to the same configuration.
		b, err := c.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		c2, err := sensors.ParseConfig(b)
		if err != nil {
			t.Fatalf("re-reading %s: %v", b, err)
		}
		b2, _ := c2.Marshal()
		if !bytes.Equal(b, b2) {
			t.Fatalf("not stable:\n%s\n%s", b, b2)
		}
	})
}

// TestEveryDesign holds each design of the table to the same contract:
// its reference wiring validates, its squares survive a SetWiring round
// trip, it names its inputs and the GPIO lines and buses it takes.
func TestEveryDesign(t *testing.T) {
	wantUses := map[string]string{
		"matrix":   "matrix.rows[0]=GPIO GPIO5 matrix.cols[1]=GPIO GPIO17",
		"mcp23017": "mcp23017.bus=I2C bus /dev/i2c-1 mcp23017.int_pin=GPIO GPIO17",
		"hc165":    "hc165.spi=SPI port /dev/spidev0.0 hc165.latch_pin=GPIO GPIO25",
		"analog":   "analog.select[0]=GPIO GPIO5 analog.bus=SPI port /dev/spidev0.0",
	}
	for _, d := range sensors.Designs {
		cfg, err := sensors.DefaultConfig(d)
		if err != nil {
			t.Fatal(err)
		}
		if err := cfg.ValidateHardware(); err != nil {
			t.Errorf("%s: reference wiring: %v", d, err)
		}
		w, err := cfg.Wiring()
		if err != nil || w.Covered() != ^chess.Bitboard(0) {
			t.Fatalf("%s: wiring %v, covered %v", d, err, w)
		}
		before, _ := cfg.Marshal()
		if err := cfg.SetWiring(w); err != nil {
			t.Fatalf("%s: SetWiring: %v", d, err)
		}
		w2, _ := cfg.Wiring()
		for i := 0; i < cfg.Inputs(); i++ {
			if w.Square(i) != w2.Square(i) {
				t.Fatalf("%s: input %d: %v after the round trip, was %v\n%s", d, i, w2.Square(i), w.Square(i), before)
			}
		}
		if name := cfg.InputName(cfg.Inputs() - 1); name == "" || strings.HasPrefix(name, "input ") {
			t.Errorf("%s: last input named %q", d, name)
		}
		uses, err := cfg.Uses()
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		got := map[string]bool{}
		for _, u := range uses {
			got[u.Key+"="+u.Kind.String()+" "+u.Name] = true
		}
		for _, want := range regexp.MustCompile(`\S+=(?:GPIO|I2C bus|SPI port) \S+`).FindAllString(wantUses[d], -1) {
			if !got[want] {
				t.Errorf("%s: uses lack %q: %v", d, want, uses)
			}
		}
	}
}

func TestWiringOfAnUnvalidatedConfigIsAnError(t *testing.T) {
	// Lists longer than the hardware are a configuration error, found by
	// Wiring even before ValidateHardware.
	cfg, _ := sensors.DefaultConfig("matrix")
	cfg.Matrix.Squares[7] = append(cfg.Matrix.Squares[7], "-", "-", "a1")
	cfg.Matrix.Squares[0][0] = "-"
	if _, err := cfg.Wiring(); err == nil || !strings.Contains(err.Error(), "matrix.squares[7][10]: input 66 of 64") {
		t.Errorf("error %v", err)
	}
	cfg.Design = "sonar"
	if n := cfg.Inputs(); n != 0 {
		t.Errorf("%d inputs for an unknown design", n)
	}
	if _, err := cfg.Uses(); err == nil || !strings.Contains(err.Error(), `design: "sonar"`) {
		t.Errorf("Uses: %v", err)
	}
}
