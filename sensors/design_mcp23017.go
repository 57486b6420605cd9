package sensors

import (
	"fmt"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors/mcp23017"
	"periph.io/x/conn/v3/gpio"
)

// MCP23017 expanders on I2C (docs/hardware.md, section 2).

func mcp23017Reference() *Config {
	c := &Config{
		Design: "mcp23017", ScanInterval: Duration(DefaultScanInterval), Debounce: DefaultDebounce,
		PollInterval: Duration(DefaultPollInterval),
		MCP23017:     &MCP23017Config{Bus: "/dev/i2c-1", IntPin: "GPIO17"},
	}
	g := groupNames(squareNames(80, 8), 8)
	for i := 0; i < 5; i++ {
		c.MCP23017.Chips = append(c.MCP23017.Chips, MCP23017ChipConfig{Addr: I2CAddr(0x20 + i), A: g[2*i], B: g[2*i+1]})
	}
	return c
}

func (m *MCP23017Config) validate() error {
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
		for p, l := range [][]string{ch.A, ch.B} {
			port := string(rune('a' + p))
			if len(l) > 8 {
				return cfgErr(key+"."+port, "%d pins, a port has 8", len(l))
			}
			if len(l) == 8 && !m.UseGPx7 && !isNone(l[7]) {
				return cfgErr(fmt.Sprintf("%s.%s[7]", key, port), "%q on GP%s7, which current MCP23017s cannot read as an input (Microchip: GPA7 & GPB7 cannot be used as inputs); use \"-\" and another chip, or set use_gpx7 for old silicon",
					l[7], strings.ToUpper(port))
			}
		}
	}
	return nil
}

func (m *MCP23017Config) inputs() int { return 16 * len(m.Chips) }

func (m *MCP23017Config) squares(set func(int, string, string) error) error {
	for i, ch := range m.Chips {
		for p, l := range [][]string{ch.A, ch.B} {
			for b, name := range l {
				if err := set(i*16+p*8+b, fmt.Sprintf("mcp23017.chips[%d].%c[%d]", i, 'a'+p, b), name); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (m *MCP23017Config) setSquares(name func(int) string) {
	g := grid(2*len(m.Chips), 8, name)
	for i := range m.Chips {
		m.Chips[i].A, m.Chips[i].B = g[2*i], g[2*i+1]
	}
}

func (m *MCP23017Config) inputName(i int) string {
	if ch := i / 16; ch < len(m.Chips) {
		return fmt.Sprintf("%#x GP%c%d", uint16(m.Chips[ch].Addr), 'A'+i/8%2, i%8)
	}
	return fmt.Sprintf("input %d", i)
}

func (m *MCP23017Config) uses() []Use {
	u := []Use{{Key: "mcp23017.bus", Kind: UseI2C, Name: m.Bus}}
	if m.IntPin != "" {
		u = append(u, Use{Key: "mcp23017.int_pin", Kind: UseGPIO, Name: m.IntPin})
	}
	return u
}

func (m *MCP23017Config) checkComplete(*Wiring) error { return nil }

func (m *MCP23017Config) scanner(hw Hardware, clk Clock, w *Wiring) (Scanner, error) {
	bus, err := hw.I2C(m.Bus)
	if err != nil {
		return nil, cfgErr("mcp23017.bus", "%q: %v", m.Bus, err)
	}
	var ip gpio.PinIn
	if m.IntPin != "" {
		p, err := hw.Pin(m.IntPin)
		if err != nil {
			return nil, cfgErr("mcp23017.int_pin", "%q: %v", m.IntPin, err)
		}
		ip = p
	}
	return NewMCP23017Bank(bus, ip, m.chipInputs(w), MCP23017Options{Clock: clk, CheckEvery: time.Duration(m.CheckEvery)})
}

// chipInputs returns, per chip, the pins to configure as inputs: those
// with a square, or (not yet calibrated) every pin the silicon can read.
func (m *MCP23017Config) chipInputs(w *Wiring) []MCP23017Chip {
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

// probeChecks: each scan's read already checks the chip's configuration.
func (m *MCP23017Config) probeChecks() {}
