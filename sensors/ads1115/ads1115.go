// Package ads1115 drives the ADS1115, a 4-channel 16-bit I2C ADC, as
// periph analog pins, single-shot at its fastest rate (860 samples/s) and
// ±4.096 V full scale. A reading starts a conversion, waits most of its
// nominal time, then polls the config register's OS bit until the
// conversion is done (SBAS444: OS reads 0 while converting, 1 when not)
// and reads the result.
//
// periph's devices/v3/ads1x15 sleeps a fixed conversion time with
// time.Sleep instead, which on Linux makes each of a board's 64 readings
// about 2.3 ms; polling the OS bit makes them about 1.3 ms.
package ads1115

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/boardd/boardd/internal/finesleep"
	"periph.io/x/conn/v3/analog"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/pin"
)

// Registers and config bits (SBAS444).
const (
	regConversion = 0x00
	regConfig     = 0x01

	cfgOS       = 1 << 15 // write: start a conversion; read: 1 = not converting
	cfgMuxAIN0  = 4 << 12 // AIN0 against GND; AIN1..3 follow
	cfgPGA4096  = 1 << 9  // ±4.096 V
	cfgSingle   = 1 << 8  // single-shot mode
	cfgDR860    = 7 << 5  // 860 samples/s
	cfgCompNone = 3       // comparator off, ALERT/RDY high impedance
)

// Timing of one conversion at 860 samples/s: nominally 1/860 s, and the
// internal oscillator may be 10 % fast or slow.
const (
	convNominal = time.Second / 860
	// FirstPoll is how long a reading waits before it first asks whether
	// the conversion is done: the shortest conversion (10 % fast).
	FirstPoll = convNominal * 9 / 10
	// PollEvery is the wait between later polls.
	PollEvery = 50 * time.Microsecond
	// Timeout ends a conversion that never completes (a chip reset
	// mid-conversion, a wrong device at the address).
	Timeout = 4 * convNominal
)

// FullScale is the input voltage of the largest reading.
const FullScale = 4096 * physic.MilliVolt

// Channels is the number of input channels.
const Channels = 4

// ErrNotReady is a conversion that did not complete within Timeout.
var ErrNotReady = errors.New("ads1115: conversion not done in time")

// Opts configure a Dev.
type Opts struct {
	// Delay waits for d precisely (sub-millisecond); nil:
	// finesleep.Sleep (time.Sleep would round it up to about 1 ms).
	Delay func(d time.Duration)
	// Now is the time the timeout is measured in (nil: time.Now).
	Now func() time.Time
}

// Dev is one ADS1115 on an I2C bus.
type Dev struct {
	c    i2c.Dev
	o    Opts
	mu   sync.Mutex
	w    [3]byte
	r    [2]byte
	pins [Channels]Pin
	// Polls counts the OS-bit polls, for tests and benchmarks.
	Polls int
}

// New returns the ADC at addr (0x48-0x4b) on bus. It does not touch the
// bus.
func New(bus i2c.Bus, addr uint16, o Opts) (*Dev, error) {
	if addr < 0x48 || addr > 0x4b {
		return nil, fmt.Errorf("ads1115: address %#x out of range 0x48-0x4b", addr)
	}
	if o.Delay == nil {
		o.Delay = finesleep.Sleep
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	d := &Dev{c: i2c.Dev{Bus: bus, Addr: addr}, o: o}
	for i := range d.pins {
		d.pins[i] = Pin{d: d, ch: i}
	}
	return d, nil
}

func (d *Dev) String() string { return fmt.Sprintf("ads1115 %#x", d.c.Addr) }

// ReadRaw converts channel ch (single-ended against GND) and returns the
// signed 16-bit result (32767 = FullScale).
func (d *Dev) ReadRaw(ch int) (int16, error) {
	if ch < 0 || ch >= Channels {
		return 0, fmt.Errorf("ads1115: channel %d out of range 0-3", ch)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	cfg := uint16(cfgOS | (cfgMuxAIN0 + ch<<12) | cfgPGA4096 | cfgSingle | cfgDR860 | cfgCompNone)
	d.w = [3]byte{regConfig, byte(cfg >> 8), byte(cfg)}
	if err := d.c.Tx(d.w[:3], nil); err != nil {
		return 0, fmt.Errorf("%v: starting a conversion: %w", d, err)
	}
	start := d.o.Now()
	d.o.Delay(FirstPoll)
	for {
		d.w[0] = regConfig
		if err := d.c.Tx(d.w[:1], d.r[:]); err != nil {
			return 0, fmt.Errorf("%v: polling: %w", d, err)
		}
		d.Polls++
		if d.r[0]&(cfgOS>>8) != 0 {
			break
		}
		if d.o.Now().Sub(start) > Timeout {
			return 0, fmt.Errorf("%v channel %d: %w (%v)", d, ch, ErrNotReady, Timeout)
		}
		d.o.Delay(PollEvery)
	}
	d.w[0] = regConversion
	if err := d.c.Tx(d.w[:1], d.r[:]); err != nil {
		return 0, fmt.Errorf("%v: reading the conversion: %w", d, err)
	}
	return int16(uint16(d.r[0])<<8 | uint16(d.r[1])), nil
}

// Pin returns channel ch as an analog pin.
func (d *Dev) Pin(ch int) (*Pin, error) {
	if ch < 0 || ch >= Channels {
		return nil, fmt.Errorf("ads1115: channel %d out of range 0-3", ch)
	}
	return &d.pins[ch], nil
}

// Pin is one channel of an ADS1115; it implements analog.PinADC.
type Pin struct {
	d  *Dev
	ch int
}

// Read implements analog.PinADC.
func (p *Pin) Read() (analog.Sample, error) {
	raw, err := p.d.ReadRaw(p.ch)
	if err != nil {
		return analog.Sample{}, err
	}
	return analog.Sample{Raw: int32(raw), V: FullScale * physic.ElectricPotential(raw) / 32768}, nil
}

// Range implements analog.PinADC.
func (p *Pin) Range() (analog.Sample, analog.Sample) {
	return analog.Sample{}, analog.Sample{Raw: 32767, V: FullScale * 32767 / 32768}
}

// String implements conn.Resource.
func (p *Pin) String() string { return fmt.Sprintf("ADS1115(%d)", p.ch) }

// Name implements pin.Pin.
func (p *Pin) Name() string { return fmt.Sprintf("ADS1115_%#x_AIN%d", p.d.c.Addr, p.ch) }

// Number implements pin.Pin.
func (p *Pin) Number() int { return p.ch }

// Function implements pin.Pin.
func (p *Pin) Function() string { return string(analog.ADC) }

// Halt implements conn.Resource.
func (p *Pin) Halt() error { return nil }

var _ analog.PinADC = (*Pin)(nil)
var _ pin.Pin = (*Pin)(nil)
