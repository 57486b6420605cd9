package sensors

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/sensors/mcp3008"
	"periph.io/x/conn/v3/analog"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/ads1x15"
)

// Hardware opens the pins and buses a Config names. cmd/boardd implements
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
	var sc Scanner
	switch c.Design {
	case "matrix":
		sc, err = c.newMatrix(hw, clk)
	case "mcp23017":
		m := c.MCP23017
		var bus i2c.Bus
		if bus, err = hw.I2C(m.Bus); err != nil {
			return nil, nil, cfgErr("mcp23017.bus", "%q: %v", m.Bus, err)
		}
		var intPin gpio.PinIO
		if m.IntPin != "" {
			if intPin, err = hw.Pin(m.IntPin); err != nil {
				return nil, nil, cfgErr("mcp23017.int_pin", "%q: %v", m.IntPin, err)
			}
		}
		var ip gpio.PinIn
		if intPin != nil {
			ip = intPin
		}
		sc, err = NewMCP23017Bank(bus, ip, c.mcpInputs(w), MCP23017Options{Clock: clk, CheckEvery: time.Duration(m.CheckEvery)})
	case "hc165":
		h := c.HC165
		sen, _ := h.sentinel()
		f := physic.Frequency(h.SpeedHz) * physic.Hertz
		if f == 0 {
			f = physic.MegaHertz
		}
		var conn spi.Conn
		if conn, err = hw.SPI(h.SPI, f, spi.Mode0, 8); err != nil {
			return nil, nil, cfgErr("hc165.spi", "%q: %v", h.SPI, err)
		}
		var latch gpio.PinIO
		if latch, err = hw.Pin(h.Latch); err != nil {
			return nil, nil, cfgErr("hc165.latch_pin", "%q: %v", h.Latch, err)
		}
		sc, err = NewHC165Chain(conn, latch, h.chips(), HC165Options{ActiveHigh: h.ActiveHigh, Sentinel: sen})
	case "analog":
		sc, err = c.newAnalog(hw, clk, w)
	}
	if err != nil {
		return nil, nil, err
	}
	return sc, w, nil
}

func (c *Config) newMatrix(hw Hardware, clk Clock) (Scanner, error) {
	m := c.Matrix
	o := MatrixOptions{Clock: clk, Settle: time.Duration(m.Settle), DiodeCheckEvery: m.DiodeCheckEvery}
	if m.LineSets {
		rows, err := hw.LineSet(m.Rows, true, gpio.PullNoChange)
		if err != nil {
			return nil, cfgErr("matrix.rows", "%v", err)
		}
		cols, err := hw.LineSet(m.Cols, false, gpio.PullUp)
		if err != nil {
			return nil, cfgErr("matrix.cols", "%v", err)
		}
		o.DiodeCheckEvery = -1
		return NewMatrixGroup(rows, cols, len(m.Rows), len(m.Cols), o)
	}
	pins := func(key string, names []string) ([]gpio.PinIO, error) {
		var ps []gpio.PinIO
		for i, n := range names {
			p, err := hw.Pin(n)
			if err != nil {
				return nil, cfgErr(fmt.Sprintf("%s[%d]", key, i), "%q: %v", n, err)
			}
			ps = append(ps, p)
		}
		return ps, nil
	}
	rows, err := pins("matrix.rows", m.Rows)
	if err != nil {
		return nil, err
	}
	cols, err := pins("matrix.cols", m.Cols)
	if err != nil {
		return nil, err
	}
	return NewMatrix(rows, cols, o)
}

func (c *Config) newAnalog(hw Hardware, clk Clock, w *Wiring) (Scanner, error) {
	a := c.Analog
	var sel []gpio.PinOut
	for i, n := range a.Select {
		p, err := hw.Pin(n)
		if err != nil {
			return nil, cfgErr(fmt.Sprintf("analog.select[%d]", i), "%q: %v", n, err)
		}
		sel = append(sel, p)
	}
	var pins []analog.PinADC
	var names []string
	switch a.ADC {
	case "ads1115":
		bus, err := hw.I2C(a.Bus)
		if err != nil {
			return nil, cfgErr("analog.bus", "%q: %v", a.Bus, err)
		}
		addrs := a.Addrs
		if len(addrs) == 0 {
			addrs = []I2CAddr{0x48}
		}
		for m := 0; m < a.muxes(); m++ {
			addr := addrs[m/4]
			dev, err := ads1x15.NewADS1115(bus, &ads1x15.Opts{I2cAddress: uint16(addr)})
			if err != nil {
				return nil, cfgErr("analog.addrs", "%v: %v", addr, err)
			}
			// 4.096 V full scale covers a 3.3 V sensor; 860 samples/s is
			// the fastest conversion (about 1.2 ms).
			p, err := dev.PinForChannel(ads1x15.Channel0+ads1x15.Channel(m%4), 4096*physic.MilliVolt, 860*physic.Hertz, ads1x15.SaveEnergy)
			if err != nil {
				return nil, cfgErr("analog.adc", "ads1115 %v channel %d: %v", addr, m%4, err)
			}
			pins = append(pins, p)
			names = append(names, fmt.Sprintf("ads1115 %#x ch%d (mux %d)", uint16(addr), m%4, m))
		}
	case "mcp3008":
		f := physic.Frequency(a.SpeedHz) * physic.Hertz
		if f == 0 {
			f = physic.MegaHertz
		}
		conn, err := hw.SPI(a.Bus, f, spi.Mode0, 8)
		if err != nil {
			return nil, cfgErr("analog.bus", "%q: %v", a.Bus, err)
		}
		vref := a.VRefMV
		if vref == 0 {
			vref = 3300
		}
		dev, err := mcp3008.New(conn, millivolts(vref))
		if err != nil {
			return nil, cfgErr("analog.vref_mv", "%v", err)
		}
		for m := 0; m < a.muxes(); m++ {
			p, _ := dev.Pin(m)
			pins = append(pins, p)
			names = append(names, fmt.Sprintf("mcp3008 ch%d (mux %d)", m, m))
		}
	}
	on, off := a.onOff()
	supply := a.SupplyMV
	if supply == 0 {
		supply = 3300
	}
	return NewAnalog(sel, pins, c.hallCalibration(w), AnalogOptions{
		Clock: clk, Settle: time.Duration(a.Settle), Samples: a.Samples, WhiteHigh: a.WhiteHigh,
		On: millivolts(on), Off: millivolts(off), Supply: millivolts(supply), UnitNames: names,
	})
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
