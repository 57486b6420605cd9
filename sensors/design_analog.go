package sensors

import (
	"fmt"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors/ads1115"
	"github.com/boardd/boardd/sensors/mcp3008"
	"periph.io/x/conn/v3/analog"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// Analog Hall sensors through CD74HC4067 multiplexers into an MCP3008 or
// ADS1115 (docs/hardware.md, section 4).

func analogReference() *Config {
	return &Config{
		Design: "analog", ScanInterval: Duration(5 * time.Millisecond), Debounce: 2,
		Analog: &AnalogConfig{
			ADC: "mcp3008", Bus: "/dev/spidev0.0", SpeedHz: 1_000_000, VRefMV: 3300,
			Select:  strings.Fields("GPIO5 GPIO6 GPIO13 GPIO19"),
			Samples: 2, OnMV: 60, OffMV: 30,
			Squares: groupNames(squareNames(64, 0), 16),
		},
	}
}

// analogADS1115Reference is the reference board with an ADS1115 instead
// of the MCP3008.
func analogADS1115Reference() *Config {
	c := analogReference()
	// About 11 scans a second: scan as fast as the ADC converts.
	c.ScanInterval = Duration(time.Millisecond)
	c.Analog.ADC, c.Analog.Bus, c.Analog.SpeedHz, c.Analog.VRefMV = "ads1115", "/dev/i2c-1", 0, 0
	c.Analog.Addrs = []I2CAddr{0x48}
	c.Analog.Samples = 1
	return c
}

func (a *AnalogConfig) validate() error {
	if err := a.validateADC(); err != nil {
		return err
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
	return nil
}

// validateADC checks the settings of the ADC.
func (a *AnalogConfig) validateADC() error {
	switch a.ADC {
	case "ads1115":
		if a.SpeedHz != 0 {
			return cfgErr("analog.speed_hz", "%d: an ADS1115 is on I2C, whose clock is set by dtparam=i2c_arm_baudrate in config.txt; leave speed_hz out", a.SpeedHz)
		}
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
		// MCP3008 datasheet: fCLK at most 3.6 MHz at VDD 5 V and 1.35 MHz
		// at 2.7 V; below about 10 kHz the sampling capacitor droops.
		if a.SpeedHz != 0 && (a.SpeedHz < 10_000 || a.SpeedHz > 3_600_000) {
			return cfgErr("analog.speed_hz", "%d: want 10 kHz to 3.6 MHz (an MCP3008 at 3.3 V is safe up to about 1.35 MHz; default 1 MHz)", a.SpeedHz)
		}
	default:
		return cfgErr("analog.adc", "%q: want ads1115 or mcp3008", a.ADC)
	}
	return nil
}

func (a *AnalogConfig) inputs() int { return 16 * a.muxes() }

func (a *AnalogConfig) squares(set func(int, string, string) error) error {
	return gridSquares("analog.squares", a.Squares, 16, set)
}

func (a *AnalogConfig) setSquares(name func(int) string) { a.Squares = grid(a.muxes(), 16, name) }

func (a *AnalogConfig) inputName(i int) string { return fmt.Sprintf("mux %d ch %d", i/16, i%16) }

func (a *AnalogConfig) uses() []Use {
	u := gpioUses("analog.select", a.Select)
	if a.ADC == "ads1115" {
		return append(u, Use{Key: "analog.bus", Kind: UseI2C, Name: a.Bus})
	}
	return append(u, Use{Key: "analog.bus", Kind: UseSPI, Name: a.Bus})
}

// checkComplete: every wired square needs its empty reading.
func (a *AnalogConfig) checkComplete(w *Wiring) error {
	var missing chess.Bitboard
	for b := w.Covered(); b != 0; b &= b - 1 {
		if _, ok := a.BaselineMV[b.First().String()]; !ok {
			missing |= b.First().Bitboard()
		}
	}
	if missing != 0 {
		return cfgErr("analog.baseline_mv", "no baseline for %s (run boardd calibrate on the empty board)", SquareSet(missing))
	}
	for _, sq := range sortedKeys(a.BaselineMV) {
		if _, ok := chess.ParseSquare(sq); !ok {
			return cfgErr("analog.baseline_mv", "%q is not a square", sq)
		}
	}
	for _, sq := range sortedKeys(a.ThresholdMV) {
		if _, ok := chess.ParseSquare(sq); !ok {
			return cfgErr("analog.threshold_mv", "%q is not a square", sq)
		}
		if v := a.ThresholdMV[sq]; v <= 0 {
			return cfgErr("analog.threshold_mv."+sq, "%v: want a positive voltage", v)
		}
	}
	return nil
}

func (a *AnalogConfig) scanner(hw Hardware, clk Clock, w *Wiring) (Scanner, error) {
	sel := make([]gpio.PinOut, 0, len(a.Select))
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
		devs := map[I2CAddr]*ads1115.Dev{}
		for m := 0; m < a.muxes(); m++ {
			addr := addrs[m/4]
			dev := devs[addr]
			if dev == nil {
				// 4.096 V full scale covers a 3.3 V sensor; 860 samples/s
				// is the fastest conversion (about 1.2 ms), its end found
				// by polling rather than by a millisecond-rounded sleep.
				if dev, err = ads1115.New(bus, uint16(addr), ads1115.Opts{Delay: clk.Delay, Now: clk.Now}); err != nil {
					return nil, cfgErr("analog.addrs", "%v: %v", addr, err)
				}
				devs[addr] = dev
			}
			p, _ := dev.Pin(m % 4)
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
	return NewAnalog(sel, pins, a.hallCalibration(w), AnalogOptions{
		Clock: clk, Settle: time.Duration(a.Settle), Samples: a.Samples, WhiteHigh: a.WhiteHigh,
		On: millivolts(on), Off: millivolts(off), Supply: millivolts(supply), UnitNames: names,
	})
}

// hallCalibration builds the analog scanner's per-input calibration.
func (a *AnalogConfig) hallCalibration(w *Wiring) []HallInput {
	cal := make([]HallInput, a.inputs())
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

// probeChecks: each scan already checks every reading against the rails.
func (a *AnalogConfig) probeChecks() {}
