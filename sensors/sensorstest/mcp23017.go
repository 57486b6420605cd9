package sensorstest

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors/mcp23017"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/pin"
)

// ErrNoAck is what a model returns for a chip that does not answer.
var ErrNoAck = errors.New("i2c: no acknowledge")

// MCP23017Model is a register model of MCP23017s sharing an I2C bus, their
// pins wired to a Board's squares (switch to ground: a piece pulls its pin
// low) and their open-drain INT outputs wired together on one IntLine. It
// implements i2c.Bus: registers, the BANK=0 address pointer with
// auto-increment (and the BANK=1 register map), input polarity, pull-ups, interrupt-on-change with INTF
// and INTCAP, clearing on a GPIO or INTCAP read, and IOCON.MIRROR.
type MCP23017Model struct {
	mu    sync.Mutex
	board *Board
	chips map[uint16]*mcpChip
	addrs []uint16
	line  *IntLine
	// Erratum makes GPA7/GPB7 unreadable as inputs (they read low), as on
	// current silicon.
	Erratum bool
	// Ops counts the transactions per address.
	Ops map[uint16]int
}

type mcpChip struct {
	regs  [mcp23017.NumRegs]byte
	ptr   byte
	pins  [16]chess.Square
	level uint16 // pin levels now
	intA  bool
	intB  bool
	dead  bool
	failN int
}

// NewMCP23017Model returns chips at addrs whose pins read the squares in
// pins (pins[i][p] is chip i's pin p, 0-7 = GPA0-7, 8-15 = GPB0-7;
// chess.NoSquare for an unconnected pin).
func NewMCP23017Model(board *Board, addrs []uint16, pins [][16]chess.Square) *MCP23017Model {
	m := &MCP23017Model{board: board, chips: map[uint16]*mcpChip{}, Ops: map[uint16]int{}, addrs: addrs}
	m.line = &IntLine{model: m, clk: board.clk, board: board}
	for i, a := range addrs {
		c := &mcpChip{pins: pins[i]}
		c.por()
		m.chips[a] = c
	}
	m.mu.Lock()
	m.update()
	m.mu.Unlock()
	board.OnChange(func() {
		m.mu.Lock()
		m.update()
		m.mu.Unlock()
	})
	return m
}

// por puts the registers in their power-on state.
func (c *mcpChip) por() {
	c.regs = [mcp23017.NumRegs]byte{}
	c.regs[mcp23017.IODIRA], c.regs[mcp23017.IODIRA+1] = 0xff, 0xff
	c.ptr = 0
	c.intA, c.intB = false, false
}

// IntLine returns the shared interrupt line.
func (m *MCP23017Model) IntLine() *IntLine { return m.line }

// Fail makes the next n transactions to addr fail.
func (m *MCP23017Model) Fail(addr uint16, n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.chips[addr].failN = n
}

// Unplug makes addr stop answering (dead) or answer again.
func (m *MCP23017Model) Unplug(addr uint16, dead bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.chips[addr].dead = dead
}

// Reset puts addr's registers back to their power-on state, as a
// brown-out would.
func (m *MCP23017Model) Reset(addr uint16) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.chips[addr].por()
	m.update()
}

// Reg returns a register of addr.
func (m *MCP23017Model) Reg(addr uint16, reg byte) byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.chips[addr].regs[reg]
}

// inputs returns the pin levels of c from the board.
func (m *MCP23017Model) levels(c *mcpChip, occ chess.Bitboard) uint16 {
	var v uint16
	pu := uint16(c.regs[mcp23017.GPPUA]) | uint16(c.regs[mcp23017.GPPUA+1])<<8
	dir := uint16(c.regs[mcp23017.IODIRA]) | uint16(c.regs[mcp23017.IODIRA+1])<<8
	olat := uint16(c.regs[mcp23017.OLATA]) | uint16(c.regs[mcp23017.OLATA+1])<<8
	for p := 0; p < 16; p++ {
		bit := uint16(1) << uint(p)
		switch {
		case dir&bit == 0:
			v |= olat & bit // output
		case m.Erratum && bit&0x8080 != 0:
			// reads low whatever the pin does
		case c.pins[p] != chess.NoSquare && occ.Has(c.pins[p]):
			// switch closed to ground
		case pu&bit != 0:
			v |= bit
		default:
			// floating: reads low on this model
		}
	}
	return v
}

// update recomputes the pins and latches interrupts; m.mu held.
func (m *MCP23017Model) update() {
	occ, _ := m.board.State()
	for _, c := range m.chips {
		nl := m.levels(c, occ)
		changed := nl ^ c.level
		en := (uint16(c.regs[mcp23017.GPINTENA]) | uint16(c.regs[mcp23017.GPINTENA+1])<<8) &
			(uint16(c.regs[mcp23017.IODIRA]) | uint16(c.regs[mcp23017.IODIRA+1])<<8)
		intcon := uint16(c.regs[mcp23017.INTCONA]) | uint16(c.regs[mcp23017.INTCONA+1])<<8
		defval := uint16(c.regs[mcp23017.DEFVALA]) | uint16(c.regs[mcp23017.DEFVALA+1])<<8
		// INTCON=0: on change from the previous value; 1: on differing
		// from DEFVAL.
		trig := en & (changed&^intcon | (nl^defval)&intcon)
		if trig&0xff != 0 && !c.intA {
			c.intA = true
			c.regs[mcp23017.INTFA] = byte(trig)
			c.regs[mcp23017.INTCAPA] = byte(m.gpio(c, nl))
		}
		if trig&0xff00 != 0 && !c.intB {
			c.intB = true
			c.regs[mcp23017.INTFA+1] = byte(trig >> 8)
			c.regs[mcp23017.INTCAPA+1] = byte(m.gpio(c, nl) >> 8)
		}
		c.level = nl
	}
	m.line.update(m.low())
}

// gpio returns the GPIO register value for pin levels l.
func (m *MCP23017Model) gpio(c *mcpChip, l uint16) uint16 {
	ipol := uint16(c.regs[mcp23017.IPOLA]) | uint16(c.regs[mcp23017.IPOLA+1])<<8
	dir := uint16(c.regs[mcp23017.IODIRA]) | uint16(c.regs[mcp23017.IODIRA+1])<<8
	return l ^ ipol&dir
}

// low reports whether some chip pulls the INT line low.
func (m *MCP23017Model) low() bool {
	for _, c := range m.chips {
		iocon := c.regs[mcp23017.IOCON]
		if iocon&mcp23017.IOCONOdr == 0 {
			continue // push-pull outputs cannot be wired together: not modelled
		}
		a, b := c.intA, c.intB
		if iocon&mcp23017.IOCONMirror != 0 {
			a = a || b
		}
		// INTA is the pin wired to the line.
		if a {
			return true
		}
	}
	return false
}

// String implements i2c.Bus.
func (m *MCP23017Model) String() string { return "mcp23017 model" }

// SetSpeed implements i2c.Bus.
func (m *MCP23017Model) SetSpeed(physic.Frequency) error { return nil }

// Tx implements i2c.Bus.
func (m *MCP23017Model) Tx(addr uint16, w, r []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.Ops[addr]++
	c, ok := m.chips[addr]
	if !ok || c.dead {
		return fmt.Errorf("%w from %#x", ErrNoAck, addr)
	}
	if c.failN > 0 {
		c.failN--
		return fmt.Errorf("%w from %#x (injected)", ErrNoAck, addr)
	}
	if len(w) == 0 {
		return errors.New("mcp23017 model: transaction without a register address")
	}
	c.ptr = w[0]
	if _, ok := c.reg(c.ptr); !ok && c.regs[mcp23017.IOCON]&mcp23017.IOCONBank == 0 {
		return fmt.Errorf("mcp23017 model: register %#x does not exist", c.ptr)
	}
	for _, v := range w[1:] {
		if reg, ok := c.reg(c.ptr); ok {
			m.write(c, reg, v)
		}
		m.next(c)
	}
	if len(r) > 0 {
		occ, _ := m.board.State()
		c.level = m.levels(c, occ)
	}
	for i := range r {
		r[i] = 0 // an address without a register reads 0
		if reg, ok := c.reg(c.ptr); ok {
			r[i] = m.read(c, reg)
		}
		m.next(c)
	}
	m.update()
	return nil
}

// reg maps a register address to the BANK=0 register it is: itself in
// BANK=0; in BANK=1 (IOCON.BANK set) port A's registers are 0x00-0x0A and
// port B's 0x10-0x1A, in the BANK=0 order.
func (c *mcpChip) reg(addr byte) (byte, bool) {
	if c.regs[mcp23017.IOCON]&mcp23017.IOCONBank == 0 {
		return addr, addr < mcp23017.NumRegs
	}
	port, off := addr>>4, addr&0x0f
	if port > 1 || off > 0x0a {
		return 0, false
	}
	return off*2 + port, true
}

func (m *MCP23017Model) next(c *mcpChip) {
	if c.regs[mcp23017.IOCON]&mcp23017.IOCONBank != 0 {
		c.ptr++ // BANK=1: sequential through the port's registers
		if c.ptr > 0x1a {
			c.ptr = 0
		}
		return
	}
	if c.regs[mcp23017.IOCON]&mcp23017.IOCONSeqOp != 0 {
		c.ptr ^= 1 // byte mode, BANK=0: toggles within the A/B pair
		return
	}
	c.ptr++
	if c.ptr >= mcp23017.NumRegs {
		c.ptr = 0
	}
}

func (m *MCP23017Model) write(c *mcpChip, reg, v byte) {
	switch reg {
	case mcp23017.IOCON, mcp23017.IOCON + 1:
		c.regs[mcp23017.IOCON], c.regs[mcp23017.IOCON+1] = v, v
	case mcp23017.INTFA, mcp23017.INTFA + 1, mcp23017.INTCAPA, mcp23017.INTCAPA + 1:
		// read-only
	case mcp23017.GPIOA, mcp23017.GPIOA + 1:
		c.regs[reg+2] = v // writes go to OLAT
	default:
		c.regs[reg] = v
	}
}

func (m *MCP23017Model) read(c *mcpChip, reg byte) byte {
	switch reg {
	case mcp23017.GPIOA, mcp23017.GPIOA + 1, mcp23017.INTCAPA, mcp23017.INTCAPA + 1:
		port := reg & 1
		if port == 0 {
			c.intA = false
			c.regs[mcp23017.INTFA] = 0
		} else {
			c.intB = false
			c.regs[mcp23017.INTFA+1] = 0
		}
		if reg >= mcp23017.GPIOA {
			return byte(m.gpio(c, c.level) >> (8 * port))
		}
	}
	return c.regs[reg]
}

// IntLine is the pulled-up GPIO the chips' open-drain INT outputs share.
// It implements gpio.PinIO for the scanner; WaitForEdge advances the
// virtual clock to the board's next change until the line falls or the
// timeout passes.
type IntLine struct {
	model   *MCP23017Model
	clk     *Clock
	board   *Board
	mu      sync.Mutex
	low     bool
	edge    gpio.Edge
	pending bool
	// Edges counts the falling edges.
	Edges int
	// Deaf loses every edge (a broken edge detection, or an edge missed
	// while the line was being cleared): only polling sees changes.
	Deaf bool
}

func (l *IntLine) update(low bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if low && !l.low {
		l.Edges++
		if !l.Deaf && (l.edge == gpio.FallingEdge || l.edge == gpio.BothEdges) {
			l.pending = true
		}
	}
	l.low = low
}

// String implements conn.Resource.
func (l *IntLine) String() string { return "INT" }

// Halt implements conn.Resource.
func (l *IntLine) Halt() error { return nil }

// Name implements pin.Pin.
func (l *IntLine) Name() string { return "INT" }

// Number implements pin.Pin.
func (l *IntLine) Number() int { return 17 }

// Function implements pin.Pin.
func (l *IntLine) Function() string { return "In" }

// Func implements pin.PinFunc.
func (l *IntLine) Func() pin.Func { return gpio.IN }

// SupportedFuncs implements pin.PinFunc.
func (l *IntLine) SupportedFuncs() []pin.Func { return []pin.Func{gpio.IN} }

// SetFunc implements pin.PinFunc.
func (l *IntLine) SetFunc(pin.Func) error { return errors.New("INT line: input only") }

// In implements gpio.PinIn.
func (l *IntLine) In(pull gpio.Pull, edge gpio.Edge) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if pull != gpio.PullUp && pull != gpio.PullNoChange {
		return fmt.Errorf("INT line: pull %v: the open-drain line needs a pull-up", pull)
	}
	l.edge = edge
	l.pending = false
	return nil
}

// Read implements gpio.PinIn.
func (l *IntLine) Read() gpio.Level {
	l.mu.Lock()
	defer l.mu.Unlock()
	return gpio.Level(!l.low || l.Deaf)
}

// WaitForEdge implements gpio.PinIn, in virtual time.
func (l *IntLine) WaitForEdge(timeout time.Duration) bool {
	l.mu.Lock()
	if l.edge == gpio.NoEdge {
		l.mu.Unlock()
		return false
	}
	l.mu.Unlock()
	deadline := l.clk.Now().Add(timeout)
	for {
		l.mu.Lock()
		if l.pending {
			l.pending = false
			l.mu.Unlock()
			return true
		}
		l.mu.Unlock()
		next, ok := l.board.NextChange()
		if !ok || next.After(deadline) {
			l.clk.AdvanceTo(deadline)
			l.mu.Lock()
			p := l.pending
			l.pending = false
			l.mu.Unlock()
			return p
		}
		l.clk.AdvanceTo(next)
	}
}

// Pull implements gpio.PinIn.
func (l *IntLine) Pull() gpio.Pull { return gpio.PullUp }

// DefaultPull implements gpio.PinIn.
func (l *IntLine) DefaultPull() gpio.Pull { return gpio.PullUp }

// Out implements gpio.PinOut.
func (l *IntLine) Out(gpio.Level) error { return errors.New("INT line: input only") }

// PWM implements gpio.PinOut.
func (l *IntLine) PWM(gpio.Duty, physic.Frequency) error {
	return errors.New("INT line: input only")
}

var _ i2c.Bus = (*MCP23017Model)(nil)
var _ gpio.PinIO = (*IntLine)(nil)
