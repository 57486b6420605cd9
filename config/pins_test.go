package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardd/boardd/sensors"
)

// sensorFile writes the reference configuration of a design.
func sensorFile(t *testing.T, design string) string {
	t.Helper()
	c, err := sensors.DefaultConfig(design)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "sensors.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLeverPinCollisionNamesBothUsers(t *testing.T) {
	// GPIO17, the old default lever pin, is the reference MCP23017 board's
	// INT line: the error names the key, its line, and both users.
	text := "[sensors]\nkind = \"hardware\"\nfile = \"" + sensorFile(t, "mcp23017") + "\"\n\n[clock]\nkind = \"lever\"\nlever_pin = \"GPIO17\"\n"
	_, err := Load(writeConfig(t, text), noEnv, nil)
	want := ":7: clock.lever_pin: GPIO17 is taken by both clock.lever_pin and sensors.file: mcp23017.int_pin"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
	// The default lever pin is free on every reference board.
	for _, d := range append(sensors.Designs, "analog-ads1115") {
		text := "[sensors]\nkind = \"hardware\"\nfile = \"" + sensorFile(t, d) + "\"\n[clock]\nkind = \"lever\"\n"
		if _, err := Load(writeConfig(t, text), noEnv, nil); err != nil {
			t.Errorf("%s with the default lever pin: %v", d, err)
		}
	}
	// A sensor file that is missing is named at load time.
	text = "[sensors]\nkind = \"hardware\"\nfile = \"/nonexistent/sensors.json\"\n"
	if _, err := Load(writeConfig(t, text), noEnv, nil); err == nil || !strings.Contains(err.Error(), ":3: sensors.file: ") {
		t.Errorf("missing sensor file: %v", err)
	}
}

func TestDGT3000PinsPerPiModel(t *testing.T) {
	dgt := ClockConfig{Kind: "dgt3000", WhiteSide: "left"}
	ref := func(design string) *sensors.Config {
		c, _ := sensors.DefaultConfig(design)
		return c
	}
	for _, c := range []struct {
		design string
		model  piModel
		want   string // "" for no clash
	}{
		// i2c-1 is GPIO2/3, the DGT3000 link's master pins, on every Pi.
		{"mcp23017", pi1to3, "GPIO2 is taken by both clock.kind (the DGT3000 link's I2C master, SDA1/SCL1) and sensors.file: mcp23017.bus (I2C bus /dev/i2c-1)"},
		{"mcp23017", piUnknown, "GPIO3 is taken by both clock.kind"},
		{"analog-ads1115", pi4, "sensors.file: analog.bus (I2C bus /dev/i2c-1)"},
		// The slave is on GPIO18/19 up to the Pi 3: matrix row 3 is GPIO19.
		{"matrix", pi1to3, "GPIO19 is taken by both clock.kind (the DGT3000 link's I2C slave on a Pi 1-3) and sensors.file: matrix.rows[3]"},
		{"matrix", pi4, ""},
		// ... and on GPIO10/11 on a Pi 4: SPI0's MOSI and SCLK.
		{"hc165", pi4, "GPIO10 is taken by both clock.kind (the DGT3000 link's I2C slave on a Pi 4) and sensors.file: hc165.spi (SPI port /dev/spidev0.0)"},
		{"hc165", pi1to3, ""},
		{"analog", pi4, "GPIO11 is taken by both"},
	} {
		err := checkPins(dgt, ref(c.design), c.model)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s on %v: %v", c.design, c.model, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s on %v: %v, want %q", c.design, c.model, err, c.want)
		}
	}
	if err := checkPins(dgt, nil, pi5); err == nil || !strings.Contains(err.Error(), "needs a Pi 1-4") {
		t.Errorf("DGT3000 on a Pi 5: %v", err)
	}
	// Within the sensor board: a matrix row that is also a column, an
	// SH/LD latch on SPI0's chip select.
	m := ref("matrix")
	m.Matrix.Rows[2] = m.Matrix.Cols[5]
	if err := checkPins(ClockConfig{Kind: "software"}, m, pi4); err == nil || !strings.Contains(err.Error(), "GPIO24 is taken by both sensors.file: matrix.rows[2] and sensors.file: matrix.cols[5]") {
		t.Errorf("row on a column: %v", err)
	}
	h := ref("hc165")
	h.HC165.Latch = "GPIO8"
	if err := checkPins(ClockConfig{Kind: "software"}, h, pi4); err == nil || !strings.Contains(err.Error(), "GPIO8 is taken by both sensors.file: hc165.spi (SPI port /dev/spidev0.0) and sensors.file: hc165.latch_pin") {
		t.Errorf("latch on CE0: %v", err)
	}
}

func TestParsePiModel(t *testing.T) {
	for text, want := range map[string]piModel{
		"Raspberry Pi 4 Model B Rev 1.4\x00":        pi4,
		"Raspberry Pi 400 Rev 1.0\x00":              pi4,
		"Raspberry Pi Compute Module 4 Rev 1.0\x00": pi4,
		"Raspberry Pi 3 Model B Plus Rev 1.3\x00":   pi1to3,
		"Raspberry Pi Zero W Rev 1.1\x00":           pi1to3,
		"Raspberry Pi Model B Rev 2\x00":            pi1to3,
		"Raspberry Pi 5 Model B Rev 1.0\x00":        pi5,
		"Raspberry Pi Compute Module 5 Rev 1.0\x00": pi5,
		"QEMU Virtual Machine":                      piUnknown,
		"":                                          piUnknown,
	} {
		if got := parsePiModel(text); got != want {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}

func TestDGTClockKeys(t *testing.T) {
	// The DGT settings are keys, and reach the device's configuration.
	text := "[clock]\nkind = \"dgt3000\"\nwhite_side = \"right\"\ndgt_lever_inverted = true\ndgt_core_mhz = 250\n"
	cfg, err := Load(writeConfig(t, text), noEnv, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Clock.WhiteSide != "right" || !cfg.Clock.DGTLeverInverted || cfg.Clock.DGTCoreMHz != 250 {
		t.Errorf("white %v, inverted %v, core %d", cfg.Clock.WhiteSide, cfg.Clock.DGTLeverInverted, cfg.Clock.DGTCoreMHz)
	}
	for _, c := range []struct{ text, want string }{
		{"[clock]\nwhite_side = \"top\"\n", `:2: clock.white_side: "top": want left or right`},
		{"[clock]\ndgt_core_mhz = 25\n", ":2: clock.dgt_core_mhz: 25: want the core clock in MHz"},
		{"[clock]\nkind = \"lever\"\nlever_pin = \"PIN7\"\n", `:3: clock.lever_pin: "PIN7": want a GPIO`},
		// The obsolete key: files that have it empty (as printed by older
		// versions) still load; a value is an error saying why.
		{"[clock]\ni2c_bus = \"1\"\n", `:2: clock.i2c_bus: "1": no longer used`},
	} {
		if _, err := Load(writeConfig(t, c.text), noEnv, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
	if _, err := Load(writeConfig(t, "[clock]\nkind = \"lever\"\nlever_pin = \"GPIO17\"\ni2c_bus = \"\"\n"), noEnv, nil); err != nil {
		t.Errorf("an older file: %v", err)
	}
	if strings.Contains(DefaultText(), "i2c_bus") {
		t.Error("the obsolete key is still printed")
	}
}
