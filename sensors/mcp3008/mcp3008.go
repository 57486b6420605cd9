// Package mcp3008 drives the MCP3008, an 8-channel 10-bit SPI ADC, as
// periph analog pins. One conversion is one 3-byte SPI transfer (mode 0):
// start bit, single-ended flag and channel out; the 10-bit result back in
// the last two bytes (DS21295).
package mcp3008

import (
	"fmt"
	"sync"

	"periph.io/x/conn/v3/analog"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/pin"
	"periph.io/x/conn/v3/spi"
)

// Channels is the number of input channels.
const Channels = 8

// MaxRaw is the largest conversion result (VREF).
const MaxRaw = 1023

// Dev is one MCP3008 on an SPI connection (mode 0, 8 bits; up to 1.35 MHz
// at 2.7 V, 3.6 MHz at 5 V).
type Dev struct {
	c    spi.Conn
	vref physic.ElectricPotential
	mu   sync.Mutex
	w, r [3]byte
	pins [Channels]Pin
}

// New returns the ADC on c with reference voltage vref (its VREF pin).
func New(c spi.Conn, vref physic.ElectricPotential) (*Dev, error) {
	if vref <= 0 {
		return nil, fmt.Errorf("mcp3008: reference voltage %v, want a positive voltage", vref)
	}
	d := &Dev{c: c, vref: vref}
	for i := range d.pins {
		d.pins[i] = Pin{d: d, ch: i}
	}
	return d, nil
}

// ReadRaw converts channel ch (single-ended) and returns 0..MaxRaw.
func (d *Dev) ReadRaw(ch int) (int32, error) {
	if ch < 0 || ch >= Channels {
		return 0, fmt.Errorf("mcp3008: channel %d out of range 0-7", ch)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.w = [3]byte{0x01, 0x80 | byte(ch)<<4, 0}
	if err := d.c.Tx(d.w[:], d.r[:]); err != nil {
		return 0, err
	}
	return int32(d.r[1]&0x03)<<8 | int32(d.r[2]), nil
}

// Pin returns channel ch as an analog pin.
func (d *Dev) Pin(ch int) (*Pin, error) {
	if ch < 0 || ch >= Channels {
		return nil, fmt.Errorf("mcp3008: channel %d out of range 0-7", ch)
	}
	return &d.pins[ch], nil
}

// Pin is one channel of an MCP3008; it implements analog.PinADC.
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
	return analog.Sample{Raw: raw, V: p.d.vref * physic.ElectricPotential(raw) / (MaxRaw + 1)}, nil
}

// Range implements analog.PinADC.
func (p *Pin) Range() (analog.Sample, analog.Sample) {
	return analog.Sample{}, analog.Sample{Raw: MaxRaw, V: p.d.vref * MaxRaw / (MaxRaw + 1)}
}

// String implements conn.Resource.
func (p *Pin) String() string { return p.Name() }

// Name implements pin.Pin.
func (p *Pin) Name() string { return fmt.Sprintf("MCP3008_CH%d", p.ch) }

// Number implements pin.Pin.
func (p *Pin) Number() int { return p.ch }

// Function implements pin.Pin.
func (p *Pin) Function() string { return string(analog.ADC) }

// Halt implements conn.Resource.
func (p *Pin) Halt() error { return nil }

var _ analog.PinADC = (*Pin)(nil)
var _ pin.Pin = (*Pin)(nil)
