// Package mcp23017 is a small register driver for the MCP23017 16-bit I/O
// expander used as a bank of switch inputs: both ports read in one I2C
// transaction, inputs pulled up and inverted (a switch to ground reads 1),
// and the interrupt outputs mirrored and open-drain so that every chip of
// a bank can share one pulled-up GPIO line.
//
// periph's devices/v3/mcp23xxx reads eight bits per transaction and has no
// interrupts, which is why this exists. Registers are those of the
// power-on BANK=0 layout, where each B register follows its A register and
// the address pointer increments (SEQOP=0), so an A/B pair is written or
// read in one transaction (DS20001952).
package mcp23017

import (
	"fmt"

	"periph.io/x/conn/v3/i2c"
)

// Register addresses (BANK=0; the B register is the A register + 1).
const (
	IODIRA   = 0x00
	IPOLA    = 0x02
	GPINTENA = 0x04
	DEFVALA  = 0x06
	INTCONA  = 0x08
	IOCON    = 0x0A
	GPPUA    = 0x0C
	INTFA    = 0x0E
	INTCAPA  = 0x10
	GPIOA    = 0x12
	OLATA    = 0x14
	NumRegs  = 0x16
)

// IOCON bits.
const (
	IOCONBank   = 0x80 // registers of a port grouped (we keep 0: pairs adjacent)
	IOCONMirror = 0x40 // INTA and INTB are one OR-ed signal
	IOCONSeqOp  = 0x20 // 1 disables address auto-increment (we keep 0)
	IOCONDisslw = 0x10
	IOCONHaen   = 0x08 // SPI variant only
	IOCONOdr    = 0x04 // INT pins open-drain (wire-ORed on one pulled-up line)
	IOCONIntpol = 0x02 // ignored when ODR is set
)

// BankIOCON is the IOCON value of a chip in a bank: interrupts mirrored
// and open-drain, auto-increment on.
const BankIOCON = IOCONMirror | IOCONOdr

// Addresses a chip can take (A2..A0 pins).
const (
	MinAddr = 0x20
	MaxAddr = 0x27
)

// Dev is one MCP23017 on an I2C bus.
type Dev struct {
	c    i2c.Dev
	w    [3]byte
	buf  [2]byte
	long [GPIOA + 2 - GPPUA]byte
}

// New returns the chip at addr (0x20-0x27) on bus. It does not touch the
// bus.
func New(bus i2c.Bus, addr uint16) (*Dev, error) {
	if addr < MinAddr || addr > MaxAddr {
		return nil, fmt.Errorf("mcp23017: address %#x out of range 0x20-0x27", addr)
	}
	return &Dev{c: i2c.Dev{Bus: bus, Addr: addr}}, nil
}

// Addr returns the chip's I2C address.
func (d *Dev) Addr() uint16 { return d.c.Addr }

func (d *Dev) String() string { return fmt.Sprintf("mcp23017 %#x", d.c.Addr) }

// WriteReg writes one register.
func (d *Dev) WriteReg(reg, v byte) error {
	d.w[0], d.w[1] = reg, v
	return d.c.Tx(d.w[:2], nil)
}

// WritePair writes the A register reg and its B register in one
// transaction: a to port A, b to port B.
func (d *Dev) WritePair(reg, a, b byte) error {
	d.w[0], d.w[1], d.w[2] = reg, a, b
	return d.c.Tx(d.w[:3], nil)
}

// ReadReg reads one register.
func (d *Dev) ReadReg(reg byte) (byte, error) {
	d.w[0] = reg
	err := d.c.Tx(d.w[:1], d.buf[:1])
	return d.buf[0], err
}

// ReadPair reads the A register reg and its B register in one
// transaction; port A is the low byte.
func (d *Dev) ReadPair(reg byte) (uint16, error) {
	d.w[0] = reg
	if err := d.c.Tx(d.w[:1], d.buf[:2]); err != nil {
		return 0, err
	}
	return uint16(d.buf[0]) | uint16(d.buf[1])<<8, nil
}

// ReadInputs reads GPIOA and GPIOB in one transaction (port A in the low
// byte). It also clears the chip's interrupt.
func (d *Dev) ReadInputs() (uint16, error) { return d.ReadPair(GPIOA) }

// ReadInputsChecked reads, in one transaction of eight bytes from GPPUA
// to GPIOB, the inputs and the pull-up configuration: a chip reset by a
// brown-out (its pull-ups off) or left in BANK=1 (another register map)
// shows in the same read as the inputs it would have misreported, at the
// cost of six bytes (135 µs at 400 kHz). It clears the interrupt.
func (d *Dev) ReadInputsChecked() (inputs, pullups uint16, err error) {
	d.w[0] = GPPUA
	if err := d.c.Tx(d.w[:1], d.long[:]); err != nil {
		return 0, 0, err
	}
	b := &d.long
	return uint16(b[6]) | uint16(b[7])<<8, uint16(b[0]) | uint16(b[1])<<8, nil
}

// IOCONBank1 is IOCON's address in the BANK=1 register map, where a chip
// configured by other software may have been left.
const IOCONBank1 = 0x05

// ConfigureInputs sets the chip up as a bank input chip in seven
// transactions: IOCON (mirrored open-drain interrupts, BANK=0) at its
// BANK=1 and its BANK=0 address, then for the pins
// in inputs (bit 0 = GPA0, bit 8 = GPB0) direction in, polarity inverted
// (a switch to ground reads 1), pull-up on, interrupt on any change, and
// the interrupt enabled last. Pins not in inputs are made outputs
// (driving the power-on OLAT level, low) so that they cannot float.
func (d *Dev) ConfigureInputs(inputs uint16) error {
	a, b := byte(inputs), byte(inputs>>8)
	steps := [...]struct {
		reg  byte
		a, b byte
	}{
		{IODIRA, a, b},
		{IPOLA, a, b},
		{GPPUA, a, b},
		{INTCONA, 0, 0},
		{GPINTENA, a, b},
	}
	// A chip in BANK=1 has IOCON at 0x05: this write brings it back to
	// BANK=0. On a chip in BANK=0, 0x05 is GPINTENB, written again below.
	if err := d.WriteReg(IOCONBank1, BankIOCON); err != nil {
		return fmt.Errorf("%v: writing IOCON: %w", d, err)
	}
	if err := d.WriteReg(IOCON, BankIOCON); err != nil {
		return fmt.Errorf("%v: writing IOCON: %w", d, err)
	}
	for _, s := range steps {
		if err := d.WritePair(s.reg, s.a, s.b); err != nil {
			return fmt.Errorf("%v: writing register %#02x: %w", d, s.reg, err)
		}
	}
	return nil
}
