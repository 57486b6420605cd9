package sensors

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/sensors/mcp23017"
	"github.com/boardd/boardd/trace"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
)

// MCP23017Chip is one chip of a bank: its address and the pins read as
// inputs (bit 0 = GPA0 ... bit 8 = GPB0 ... bit 15 = GPB7).
type MCP23017Chip struct {
	Addr   uint16
	Inputs uint16
}

// Bit7Pins are GPA7 and GPB7, which current MCP23017 silicon cannot read
// (Microchip: "GPA7 & GPB7 cannot be used as inputs"): a bank leaves them
// out, so it needs five chips for 64 squares.
const Bit7Pins uint16 = 0x8080

// MCP23017Options configure an MCP23017Bank.
type MCP23017Options struct {
	// Clock times the configuration check (default: the wall clock).
	Clock Clock
	// CheckEvery is how often each chip's IOCON is read back to catch a
	// chip that reset to its power-on state, which would otherwise read
	// as a board of flipped squares (default 1s; negative: never).
	CheckEvery time.Duration
}

// MCP23017Bank scans a bank of MCP23017s on one I2C bus: per chip and
// scan one transaction reading both ports; interrupt outputs mirrored,
// open-drain and wired together on one GPIO, so that an idle board costs
// no bus traffic but the polling safety net.
type MCP23017Bank struct {
	chips  []mcpChip
	intPin gpio.PinIn
	units  []Unit
	o      MCP23017Options
}

type mcpChip struct {
	dev        *mcp23017.Dev
	inputs     uint16
	configured bool
	checked    time.Time
	lost       bool   // the last read found the pull-ups not as configured
	pullups    uint16 // as last read
}

// NewMCP23017Bank returns a scanner for chips on bus. intPin is the shared
// interrupt line (nil to poll); it is configured as an input with pull-up
// and falling-edge detection. No chip is touched until the first scan,
// which configures each chip (a chip that does not answer is a fault, not
// an error).
func NewMCP23017Bank(bus i2c.Bus, intPin gpio.PinIn, chips []MCP23017Chip, o MCP23017Options) (*MCP23017Bank, error) {
	if len(chips) == 0 || len(chips) > 8 {
		return nil, fmt.Errorf("mcp23017 bank: %d chips, want 1 to 8", len(chips))
	}
	if o.Clock == nil {
		o.Clock = NewRealClock()
	}
	if o.CheckEvery == 0 {
		o.CheckEvery = time.Second
	}
	b := &MCP23017Bank{intPin: intPin, o: o}
	seen := map[uint16]bool{}
	for i, c := range chips {
		d, err := mcp23017.New(bus, c.Addr)
		if err != nil {
			return nil, fmt.Errorf("mcp23017 bank: chip %d: %w", i, err)
		}
		if seen[c.Addr] {
			return nil, fmt.Errorf("mcp23017 bank: address %#x given twice", c.Addr)
		}
		seen[c.Addr] = true
		b.chips = append(b.chips, mcpChip{dev: d, inputs: c.Inputs})
		var in Inputs
		in.put(i*16, 16, uint64(c.Inputs))
		b.units = append(b.units, Unit{Name: d.String(), Inputs: in, Kind: FaultBus})
	}
	if intPin != nil {
		if err := intPin.In(gpio.PullUp, gpio.FallingEdge); err != nil {
			return nil, fmt.Errorf("mcp23017 bank: interrupt pin %v: %w", intPin, err)
		}
	}
	return b, nil
}

// Sensor implements Scanner.
func (b *MCP23017Bank) Sensor() trace.Sensor { return trace.Occupancy }

// Inputs implements Scanner.
func (b *MCP23017Bank) Inputs() int { return 16 * len(b.chips) }

// Units implements Scanner: one per chip.
func (b *MCP23017Bank) Units() []Unit { return b.units }

// Scan implements Scanner.
func (b *MCP23017Bank) Scan(s *Scan) error {
	s.reset()
	var now time.Time
	if b.o.CheckEvery > 0 {
		now = b.o.Clock.Now()
	}
	for i := range b.chips {
		c := &b.chips[i]
		bit := uint64(1) << uint(i)
		if !c.configured {
			if err := b.configure(c, s); err != nil {
				s.Failed |= bit
				s.Errs[i] = err
				continue
			}
			c.checked = now
		} else if b.o.CheckEvery > 0 && now.Sub(c.checked) >= b.o.CheckEvery {
			v, err := c.dev.ReadReg(mcp23017.IOCON)
			if err != nil {
				s.BusErrors++
				v, err = c.dev.ReadReg(mcp23017.IOCON)
			}
			if err != nil {
				s.BusErrors++
				s.Failed |= bit
				s.Errs[i] = fmt.Errorf("reading IOCON: %w", err)
				c.configured = false
				continue
			}
			if v != mcp23017.BankIOCON {
				s.Reset |= bit
				if err := b.configure(c, s); err != nil {
					s.Failed |= bit
					s.Errs[i] = err
					continue
				}
			}
			c.checked = now
		}
		v, err := b.read(c, s)
		if err == nil && c.lost && s.Reset&bit == 0 {
			// Reset (brown-out) or in BANK=1: its inputs read without
			// pull-ups or inversion. Configure it and read again, in this
			// scan, rather than report a board of flipped squares.
			s.Reset |= bit
			if err = b.configure(c, s); err == nil {
				v, err = b.read(c, s)
			}
		}
		if err == nil && c.lost {
			err = fmt.Errorf("configuration does not hold: pull-ups read %#04x after configuring %#04x", c.pullups, c.inputs)
		}
		if err != nil {
			s.Failed |= bit
			s.Errs[i] = err
			// The chip may have been reset while unreachable: configure
			// it again before trusting it.
			c.configured, c.lost = false, false
			continue
		}
		s.Occ.put(i*16, 16, uint64(v&c.inputs))
		s.Valid.put(i*16, 16, uint64(c.inputs))
	}
	return nil
}

// read reads a chip's inputs with its pull-up configuration, retrying
// once; c.lost says whether the pull-ups are not what was configured.
func (b *MCP23017Bank) read(c *mcpChip, s *Scan) (uint16, error) {
	v, pu, err := c.dev.ReadInputsChecked()
	if err != nil {
		s.BusErrors++
		v, pu, err = c.dev.ReadInputsChecked()
	}
	if err != nil {
		s.BusErrors++
		return 0, err
	}
	c.pullups = pu
	c.lost = pu != c.inputs
	return v, nil
}

// configure sets a chip up, retrying once.
func (b *MCP23017Bank) configure(c *mcpChip, s *Scan) error {
	err := c.dev.ConfigureInputs(c.inputs)
	if err != nil {
		s.BusErrors++
		err = c.dev.ConfigureInputs(c.inputs)
	}
	if err != nil {
		s.BusErrors++
		return err
	}
	c.configured = true
	return nil
}

// WaitChange implements Waiter: true when the interrupt line is low or
// falls within timeout. Without an interrupt line it returns false at
// once, and the bank is polled.
func (b *MCP23017Bank) WaitChange(timeout time.Duration) bool {
	if b.intPin == nil {
		return false
	}
	// Still low: a chip changed again after its clearing read, so no new
	// falling edge will come.
	if b.intPin.Read() == gpio.Low {
		return true
	}
	return b.intPin.WaitForEdge(timeout)
}

// Close implements Scanner: it stops edge detection on the interrupt line.
func (b *MCP23017Bank) Close() error {
	if b.intPin != nil {
		if err := b.intPin.In(gpio.PullUp, gpio.NoEdge); err != nil {
			return fmt.Errorf("mcp23017 bank: interrupt pin %v: %w", b.intPin, err)
		}
	}
	return nil
}
