package sensors

import (
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// Hardware opens the pins and buses a Config names. sensors/host implements
// it with periph's registries after host bring-up; tests implement it with
// fakes and chip models. This package never opens hardware itself.
type Hardware interface {
	// Pin returns a GPIO by name ("GPIO17", "17").
	Pin(name string) (gpio.PinIO, error)
	// I2C returns a bus by name ("/dev/i2c-1", "1").
	I2C(name string) (i2c.Bus, error)
	// SPI connects to a port by name ("/dev/spidev0.0", "SPI0.0").
	SPI(name string, f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error)
	// LineSet requests lines as one set read or written in one operation:
	// outputs (initially high), or inputs with pull.
	LineSet(names []string, output bool, pull gpio.Pull) (gpio.Group, error)
}

// NewScanner builds the configured scanner on hw, and the wiring of its
// inputs. The configuration's hardware part must be valid; its wiring may
// be incomplete (as for calibration).
func (c *Config) NewScanner(hw Hardware, clk Clock) (Scanner, *Wiring, error) {
	if err := c.ValidateHardware(); err != nil {
		return nil, nil, err
	}
	w, err := c.Wiring()
	if err != nil {
		return nil, nil, err
	}
	if clk == nil {
		clk = NewRealClock()
	}
	s, err := c.section()
	if err != nil {
		return nil, nil, err
	}
	sc, err := s.scanner(hw, clk, w)
	if err != nil {
		return nil, nil, err
	}
	return sc, w, nil
}

// SourceOptions returns the scanning options of the configuration, with
// clock and logger from o.
func (c *Config) SourceOptions(o SourceOptions) SourceOptions {
	o.ScanInterval = time.Duration(c.ScanInterval)
	o.PollInterval = time.Duration(c.PollInterval)
	o.Debounce = c.Debounce
	o.StuckAfter = time.Duration(c.StuckAfter)
	o.Heartbeat = time.Duration(c.Heartbeat)
	return o
}

// Open validates c, builds its scanner on hw and returns its frame source.
// o supplies the clock and the logger; the scanning options come from c.
func Open(c *Config, hw Hardware, o SourceOptions) (*ScanSource, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	o = c.SourceOptions(o)
	if o.Clock == nil {
		o.Clock = NewRealClock()
	}
	sc, w, err := c.NewScanner(hw, o.Clock)
	if err != nil {
		return nil, err
	}
	return NewScanSource(sc, w, o)
}
