package sensors

import (
	"fmt"
	"time"

	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// A 74HC165 chain on SPI (docs/hardware.md, section 3).

func hc165Reference() *Config {
	return &Config{
		Design: "hc165", ScanInterval: Duration(5 * time.Millisecond), Debounce: 6,
		HC165: &HC165Config{SPI: "/dev/spidev0.0", Latch: "GPIO25", SpeedHz: 1_000_000, Sentinel: "high", Squares: groupNames(squareNames(64, 0), 8)},
	}
}

func (h *HC165Config) validate() error {
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
	return nil
}

func (h *HC165Config) inputs() int { return 8 * h.chips() }

func (h *HC165Config) squares(set func(int, string, string) error) error {
	return gridSquares("hc165.squares", h.Squares, 8, set)
}

func (h *HC165Config) setSquares(name func(int) string) { h.Squares = grid(h.chips(), 8, name) }

func (h *HC165Config) inputName(i int) string { return fmt.Sprintf("chip %d input %c", i/8, 'A'+i%8) }

func (h *HC165Config) uses() []Use {
	return []Use{{Key: "hc165.spi", Kind: UseSPI, Name: h.SPI}, {Key: "hc165.latch_pin", Kind: UseGPIO, Name: h.Latch}}
}

func (h *HC165Config) checkComplete(*Wiring) error { return nil }

func (h *HC165Config) scanner(hw Hardware, _ Clock, _ *Wiring) (Scanner, error) {
	sen, err := h.sentinel()
	if err != nil {
		return nil, err
	}
	f := physic.Frequency(h.SpeedHz) * physic.Hertz
	if f == 0 {
		f = physic.MegaHertz
	}
	conn, err := hw.SPI(h.SPI, f, spi.Mode0, 8)
	if err != nil {
		return nil, cfgErr("hc165.spi", "%q: %v", h.SPI, err)
	}
	latch, err := hw.Pin(h.Latch)
	if err != nil {
		return nil, cfgErr("hc165.latch_pin", "%q: %v", h.Latch, err)
	}
	return NewHC165Chain(conn, latch, h.chips(), HC165Options{ActiveHigh: h.ActiveHigh, Sentinel: sen})
}

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

// probeChecks: each scan already checks the sentinel.
func (h *HC165Config) probeChecks() {}
