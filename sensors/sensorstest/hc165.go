package sensorstest

import (
	"errors"
	"fmt"
	"sync"

	"github.com/boardd/boardd/chess"
	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// HC165Model is a chain of 74HC165 shift registers whose inputs read a
// Board's squares, with its SH/LD line (Latch) and SPI side (it is an
// spi.PortCloser and the spi.Conn it connects). While SH/LD is low the
// registers follow their inputs (and QH, the data line, shows chip 0's
// input H); its rising edge freezes them, and each clock shifts one bit:
// chip 0's H first, ..., then chip n-1's A, then the level on the last
// chip's serial input (SER).
type HC165Model struct {
	mu     sync.Mutex
	board  *Board
	inputs [][8]chess.Square
	latch  *Pin
	regs   []byte // snapshot taken at SH/LD's rising edge
	pos    int    // bytes shifted out since
	// ActiveHigh: switches to 3.3 V with pull-downs (default: switches to
	// ground with pull-ups).
	ActiveHigh bool
	// SER is the level on the last chip's serial input.
	SER gpio.Level
	// StuckMISO, when set, is what the data line reads whatever happens.
	StuckMISO *gpio.Level
	// BreakAfter, when >= 0, cuts the chain after that chip: the bits of
	// later chips and SER read high (the broken line floats up).
	BreakAfter int
	failN      int
	connected  bool
	// Loads counts SH/LD low pulses (parallel loads); Txs the SPI
	// transfers.
	Loads, Txs int
	// Mode, Bits and Freq are what Connect was called with.
	Mode spi.Mode
	Bits int
	Freq physic.Frequency
}

// NewHC165Model returns a chain whose chip i input b reads the square
// inputs[i][b] (chess.NoSquare: not connected, pulled to the idle level).
func NewHC165Model(board *Board, inputs [][8]chess.Square) *HC165Model {
	h := &HC165Model{board: board, inputs: inputs, BreakAfter: -1}
	h.latch = &Pin{N: "SH/LD", OnOut: h.onLatch}
	return h
}

// Latch returns the SH/LD pin.
func (h *HC165Model) Latch() *Pin { return h.latch }

// Fail makes the next n transfers fail.
func (h *HC165Model) Fail(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.failN = n
}

// parallel returns the chips' input bytes now (bit b = input b).
func (h *HC165Model) parallel() []byte {
	occ, _ := h.board.State()
	out := make([]byte, len(h.inputs))
	for i, chip := range h.inputs {
		var v byte
		for b, sq := range chip {
			closed := sq != chess.NoSquare && occ.Has(sq)
			if closed == h.ActiveHigh {
				v |= 1 << uint(b)
			}
		}
		out[i] = v
	}
	return out
}

func (h *HC165Model) onLatch(l gpio.Level) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if l == gpio.Low {
		h.Loads++
	}
	h.regs = h.parallel()
	h.pos = 0
}

// String implements conn.Resource.
func (h *HC165Model) String() string { return "74hc165 model" }

// Close implements spi.PortCloser.
func (h *HC165Model) Close() error { return nil }

// LimitSpeed implements spi.Port.
func (h *HC165Model) LimitSpeed(physic.Frequency) error { return nil }

// Connect implements spi.Port: mode 0, 8 bits, once.
func (h *HC165Model) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.connected {
		return nil, errors.New("74hc165 model: Connect called twice")
	}
	if mode != spi.Mode0 || bits != 8 {
		return nil, fmt.Errorf("74hc165 model: mode %v with %d bits, want mode 0 with 8", mode, bits)
	}
	h.connected, h.Mode, h.Bits, h.Freq = true, mode, bits, f
	return h, nil
}

// Duplex implements conn.Conn.
func (h *HC165Model) Duplex() conn.Duplex { return conn.Full }

// TxPackets implements spi.Conn.
func (h *HC165Model) TxPackets([]spi.Packet) error {
	return errors.New("74hc165 model: TxPackets not supported")
}

// Tx implements conn.Conn.
func (h *HC165Model) Tx(w, r []byte) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.Txs++
	if h.failN > 0 {
		h.failN--
		return errors.New("spi: transfer failed (injected)")
	}
	if len(w) != len(r) {
		return fmt.Errorf("74hc165 model: write %d bytes, read %d", len(w), len(r))
	}
	loading := h.latch.Level() == gpio.Low
	for i := range r {
		switch {
		case h.StuckMISO != nil:
			r[i] = fill(*h.StuckMISO)
		case loading:
			// Still loading: QH is chip 0's input H on every clock.
			r[i] = fill(gpio.Level(h.parallel()[0]&0x80 != 0))
		case h.BreakAfter >= 0 && h.pos > h.BreakAfter:
			r[i] = 0xff
		case h.pos < len(h.regs):
			r[i] = h.regs[h.pos]
		default:
			r[i] = fill(h.SER)
		}
		if !loading {
			h.pos++
		}
	}
	return nil
}

func fill(l gpio.Level) byte {
	if l {
		return 0xff
	}
	return 0
}

var _ spi.PortCloser = (*HC165Model)(nil)
var _ spi.Conn = (*HC165Model)(nil)
