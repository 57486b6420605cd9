package sensors

import (
	"fmt"
	"math/bits"
	"time"

	"github.com/boardd/boardd/trace"
	"periph.io/x/conn/v3/analog"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
)

// HallInput is the calibration of one analog Hall sensor.
type HallInput struct {
	// Baseline is the sensor's reading with no magnet near (an empty
	// square).
	Baseline physic.ElectricPotential
	// On is how far from the baseline a reading must go to mean a piece;
	// Off how close it must come back to mean empty again (Off < On:
	// hysteresis). Zero takes AnalogOptions' values.
	On, Off physic.ElectricPotential
}

// AnalogOptions configure an Analog scanner.
type AnalogOptions struct {
	// Clock provides the settling delay (default: the wall clock).
	Clock Clock
	// Settle is the wait after switching the multiplexers (default 20µs).
	Settle time.Duration
	// Samples is the number of conversions averaged per sensor and scan
	// (default 1; 2-4 quieten a noisy board).
	Samples int
	// WhiteHigh: white pieces' magnets raise the reading (their pole
	// faces the sensor the other way). Default: white lowers it, black
	// raises it.
	WhiteHigh bool
	// On and Off are the default thresholds (60 mV and 30 mV).
	On, Off physic.ElectricPotential
	// Supply is the sensors' supply voltage (default 3.3 V); a reading
	// within RailMargin (default 20 mV) of 0 V or of Supply is out of range.
	Supply, RailMargin physic.ElectricPotential
	// Track follows a slowly drifting baseline (temperature): while a
	// square is empty and near its baseline, the baseline moves by
	// 1/2^Track of the difference per scan. Default 8; negative: off.
	Track int
	// UnitNames name the ADC inputs in faults (default: the pins' names).
	UnitNames []string
}

func (o *AnalogOptions) setDefaults() {
	if o.Clock == nil {
		o.Clock = NewRealClock()
	}
	if o.Settle == 0 {
		o.Settle = 20 * time.Microsecond
	}
	if o.Samples <= 0 {
		o.Samples = 1
	}
	if o.On == 0 {
		o.On = 60 * physic.MilliVolt
	}
	if o.Off == 0 {
		o.Off = 30 * physic.MilliVolt
	}
	if o.Supply == 0 {
		o.Supply = 3300 * physic.MilliVolt
	}
	if o.RailMargin == 0 {
		o.RailMargin = 20 * physic.MilliVolt
	}
	if o.Track == 0 {
		o.Track = 8
	}
}

// hall states of one square
const (
	hallEmpty int8 = iota
	hallLow        // reading below the baseline
	hallHigh       // reading above it
)

type hallState struct {
	base, on, off physic.ElectricPotential
	state         int8
}

// Analog scans analog (ratiometric) Hall sensors, sixteen per CD74HC4067
// multiplexer, each multiplexer's output on one ADC input (an ADS1115
// channel over I2C, an MCP3008 channel over SPI). The four select lines
// are shared by all multiplexers, so a scan walks the sixteen channels
// once (in Gray-code order: one select line changes per step) and reads
// every ADC input at each. Each sensor's reading is compared with its
// calibrated baseline: far enough one way is a white piece, the other way
// a black one; hysteresis keeps a piece from flickering at the threshold.
type Analog struct {
	sel     []gpio.PinOut
	adc     []analog.PinADC
	o       AnalogOptions
	units   []Unit
	hall    [MaxInputs]hallState
	volts   [MaxInputs]physic.ElectricPotential
	level   [4]gpio.Level
	started bool
}

// NewAnalog returns a scanner for len(adcs) multiplexers with select lines
// sel (S0..S3) and calibration cal (one per input, mux*16+channel; nil or
// short: the rest read as having a zero baseline until SetCalibration).
func NewAnalog(sel []gpio.PinOut, adcs []analog.PinADC, cal []HallInput, o AnalogOptions) (*Analog, error) {
	if len(sel) != 4 {
		return nil, fmt.Errorf("analog: %d select lines, a CD74HC4067 has 4", len(sel))
	}
	if len(adcs) < 1 || len(adcs) > MaxInputs/16 {
		return nil, fmt.Errorf("analog: %d ADC inputs, want 1 to %d", len(adcs), MaxInputs/16)
	}
	o.setDefaults()
	if o.Off >= o.On {
		return nil, fmt.Errorf("analog: off threshold %v not below on threshold %v", o.Off, o.On)
	}
	if len(o.UnitNames) != 0 && len(o.UnitNames) != len(adcs) {
		return nil, fmt.Errorf("analog: %d unit names for %d ADC inputs", len(o.UnitNames), len(adcs))
	}
	a := &Analog{sel: sel, adc: adcs, o: o}
	for m, p := range adcs {
		name := fmt.Sprintf("%s (mux %d)", p, m)
		if len(o.UnitNames) != 0 {
			name = o.UnitNames[m]
		}
		a.units = append(a.units, Unit{Name: name, Inputs: span(m*16, 16), Kind: FaultBus})
	}
	if err := a.SetCalibration(cal); err != nil {
		return nil, err
	}
	return a, nil
}

// SetCalibration replaces the calibration and forgets the squares' states.
func (a *Analog) SetCalibration(cal []HallInput) error {
	if len(cal) > a.Inputs() {
		return fmt.Errorf("analog: calibration for %d inputs, the scanner has %d", len(cal), a.Inputs())
	}
	for i := range a.hall {
		h := hallState{on: a.o.On, off: a.o.Off}
		if i < len(cal) {
			c := cal[i]
			h.base = c.Baseline
			if c.On != 0 {
				h.on = c.On
			}
			if c.Off != 0 {
				h.off = c.Off
			}
			if h.off >= h.on || h.on < 0 || h.off < 0 {
				return fmt.Errorf("analog: input %d: thresholds on %v, off %v: want 0 <= off < on", i, h.on, h.off)
			}
		}
		a.hall[i] = h
	}
	return nil
}

// Calibration returns the current calibration (baselines as tracked).
func (a *Analog) Calibration() []HallInput {
	cal := make([]HallInput, a.Inputs())
	for i := range cal {
		h := &a.hall[i]
		cal[i] = HallInput{Baseline: h.base, On: h.on, Off: h.off}
	}
	return cal
}

// MeasureBaselines scans an empty board n times and returns each input's
// mean reading, the baseline to calibrate with. Inputs that failed to
// read in any scan get 0 and are listed in the error.
func (a *Analog) MeasureBaselines(n int) ([]physic.ElectricPotential, error) {
	if n < 1 {
		return nil, fmt.Errorf("analog: %d scans to measure baselines, want at least 1", n)
	}
	sum := make([]physic.ElectricPotential, a.Inputs())
	var bad Inputs
	var s Scan
	failing := ^uint64(0) // units that failed in every scan
	var errs [64]error
	for k := 0; k < n; k++ {
		if err := a.Scan(&s); err != nil {
			return nil, err
		}
		failing &= s.Failed
		for b := s.Failed; b != 0; b &= b - 1 {
			errs[bits.TrailingZeros64(b)] = s.Errs[bits.TrailingZeros64(b)]
		}
		for i := range sum {
			if s.Valid.Has(i) || s.Range.Has(i) {
				sum[i] += a.volts[i]
			} else {
				bad.Set(i)
			}
		}
	}
	for i := range sum {
		sum[i] /= physic.ElectricPotential(n)
		if bad.Has(i) {
			sum[i] = 0
		}
	}
	if failing != 0 {
		// Name the parts, not 16 inputs each.
		e := &UnitError{}
		for b := failing; b != 0; b &= b - 1 {
			i := bits.TrailingZeros64(b)
			e.Units = append(e.Units, a.units[i].Name)
			e.Errs = append(e.Errs, errs[i])
		}
		return sum, e
	}
	if !bad.IsZero() {
		return sum, fmt.Errorf("analog: inputs %v could not be read", bad.List())
	}
	return sum, nil
}

// Voltages returns the readings of the last scan, per input.
func (a *Analog) Voltages() []physic.ElectricPotential { return a.volts[:a.Inputs()] }

// Sensor implements Scanner: analog Hall sensors tell the colour.
func (a *Analog) Sensor() trace.Sensor { return trace.Colour }

// Inputs implements Scanner.
func (a *Analog) Inputs() int { return 16 * len(a.adc) }

// Units implements Scanner: one per ADC input (multiplexer).
func (a *Analog) Units() []Unit { return a.units }

// selectChannel sets the select lines to ch, touching only those that
// change.
func (a *Analog) selectChannel(ch int) error {
	for b := 0; b < 4; b++ {
		l := gpio.Level(ch>>uint(b)&1 != 0)
		if a.started && a.level[b] == l {
			continue
		}
		if err := a.sel[b].Out(l); err != nil {
			return fmt.Errorf("select line S%d (%v): %w", b, a.sel[b], err)
		}
		a.level[b] = l
	}
	a.started = true
	return nil
}

// Scan implements Scanner.
func (a *Analog) Scan(s *Scan) error {
	s.reset()
	lo, hi := a.o.RailMargin, a.o.Supply-a.o.RailMargin
	for k := 0; k < 16; k++ {
		ch := k ^ k>>1 // Gray code
		err := a.selectChannel(ch)
		if err != nil {
			s.BusErrors++
			a.started = false
			err = a.selectChannel(ch)
		}
		if err != nil {
			// Without the select lines nothing read means anything.
			s.BusErrors++
			a.started = false
			for m := range a.adc {
				s.Failed |= 1 << uint(m)
				s.Errs[m] = err
			}
			s.Valid = Inputs{}
			s.Occ, s.White = Inputs{}, Inputs{}
			return nil
		}
		a.o.Clock.Delay(a.o.Settle)
		for m, p := range a.adc {
			if s.Failed&(1<<uint(m)) != 0 {
				continue
			}
			i := m*16 + ch
			v, err := a.sample(p, s)
			if err != nil {
				s.Failed |= 1 << uint(m)
				s.Errs[m] = err
				continue
			}
			a.volts[i] = v
			if v < lo || v > hi {
				s.Range.Set(i)
				continue
			}
			s.Valid.Set(i)
			switch a.classify(i, v) {
			case hallLow:
				s.Occ.Set(i)
				if !a.o.WhiteHigh {
					s.White.Set(i)
				}
			case hallHigh:
				s.Occ.Set(i)
				if a.o.WhiteHigh {
					s.White.Set(i)
				}
			}
		}
	}
	// A mux that failed part-way reports none of its inputs.
	for m := range a.adc {
		if s.Failed&(1<<uint(m)) != 0 {
			u := &a.units[m].Inputs
			for w := range s.Valid {
				s.Valid[w] &^= u[w]
				s.Occ[w] &^= u[w]
				s.White[w] &^= u[w]
				s.Range[w] &^= u[w]
			}
		}
	}
	return nil
}

// sample averages o.Samples conversions, retrying a failed one once.
func (a *Analog) sample(p analog.PinADC, s *Scan) (physic.ElectricPotential, error) {
	var sum physic.ElectricPotential
	for n := 0; n < a.o.Samples; n++ {
		v, err := p.Read()
		if err != nil {
			s.BusErrors++
			v, err = p.Read()
		}
		if err != nil {
			s.BusErrors++
			return 0, fmt.Errorf("reading %v: %w", p, err)
		}
		sum += v.V
	}
	return sum / physic.ElectricPotential(a.o.Samples), nil
}

// classify updates input i's state with reading v.
func (a *Analog) classify(i int, v physic.ElectricPotential) int8 {
	h := &a.hall[i]
	d := v - h.base
	switch h.state {
	case hallEmpty:
		switch {
		case d <= -h.on:
			h.state = hallLow
		case d >= h.on:
			h.state = hallHigh
		default:
			if a.o.Track > 0 && d < h.off/2 && d > -h.off/2 {
				h.base += d >> uint(a.o.Track)
			}
		}
	case hallLow:
		switch {
		case d >= h.on:
			h.state = hallHigh
		case d > -h.off:
			h.state = hallEmpty
		}
	case hallHigh:
		switch {
		case d <= -h.on:
			h.state = hallLow
		case d < h.off:
			h.state = hallEmpty
		}
	}
	return h.state
}

// Close implements Scanner.
func (a *Analog) Close() error { return nil }
