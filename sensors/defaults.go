package sensors

import (
	"fmt"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
)

// DefaultConfig returns the reference wiring of a design, as drawn in
// docs/hardware.md: the pins and buses, and the squares in a1, b1, ...,
// h8 order. design is "matrix", "mcp23017", "hc165", "analog" (an
// MCP3008), or "analog-ads1115". An analog board still needs its
// baselines, from boardd calibrate.
func DefaultConfig(design string) (*Config, error) {
	names := func(n, skipEvery int) []string {
		var l []string
		k := 0
		for i := 0; len(l) < n; i++ {
			if skipEvery > 0 && i%skipEvery == skipEvery-1 || k >= 64 {
				l = append(l, "-")
				continue
			}
			l = append(l, chess.Square(k).String())
			k++
		}
		return l
	}
	groups := func(l []string, per int) [][]string {
		var g [][]string
		for i := 0; i < len(l); i += per {
			g = append(g, l[i:i+per])
		}
		return g
	}
	c := &Config{Design: design, ScanInterval: Duration(DefaultScanInterval), Debounce: DefaultDebounce}
	switch design {
	case "matrix":
		c.Matrix = &MatrixConfig{
			Rows:            strings.Fields("GPIO5 GPIO6 GPIO13 GPIO19 GPIO26 GPIO16 GPIO20 GPIO21"),
			Cols:            strings.Fields("GPIO4 GPIO17 GPIO27 GPIO22 GPIO23 GPIO24 GPIO25 GPIO12"),
			Settle:          Duration(10 * time.Microsecond),
			DiodeCheckEvery: 100,
			Squares:         groups(names(64, 0), 8),
		}
	case "mcp23017":
		c.PollInterval = Duration(DefaultPollInterval)
		c.MCP23017 = &MCP23017Config{Bus: "/dev/i2c-1", IntPin: "GPIO17"}
		g := groups(names(80, 8), 8)
		for i := 0; i < 5; i++ {
			c.MCP23017.Chips = append(c.MCP23017.Chips, MCP23017ChipConfig{Addr: I2CAddr(0x20 + i), A: g[2*i], B: g[2*i+1]})
		}
	case "hc165":
		c.ScanInterval, c.Debounce = Duration(5*time.Millisecond), 6
		c.HC165 = &HC165Config{SPI: "/dev/spidev0.0", Latch: "GPIO25", SpeedHz: 1_000_000, Sentinel: "high", Squares: groups(names(64, 0), 8)}
	case "analog", "analog-ads1115":
		c.Design = "analog"
		c.Debounce = 2
		c.Analog = &AnalogConfig{
			ADC: "mcp3008", Bus: "/dev/spidev0.0", SpeedHz: 1_000_000, VRefMV: 3300,
			Select:  strings.Fields("GPIO5 GPIO6 GPIO13 GPIO19"),
			Samples: 2, OnMV: 60, OffMV: 30,
			Squares: groups(names(64, 0), 16),
		}
		c.ScanInterval = Duration(5 * time.Millisecond)
		if design == "analog-ads1115" {
			// About 11 scans a second: scan as fast as the ADC converts.
			c.ScanInterval = Duration(time.Millisecond)
			c.Analog.ADC, c.Analog.Bus, c.Analog.SpeedHz, c.Analog.VRefMV = "ads1115", "/dev/i2c-1", 0, 0
			c.Analog.Addrs = []I2CAddr{0x48}
			c.Analog.Samples = 1
		}
	default:
		return nil, fmt.Errorf("design %q: want one of %s or analog-ads1115", design, strings.Join(Designs, ", "))
	}
	return c, nil
}
