package sensors

import (
	"fmt"
	"math/bits"

	"github.com/boardd/boardd/trace"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/spi"
)

// Sentinel is the level the serial input (SER) of the last 74HC165 in a
// chain is tied to. With a sentinel, a scan clocks one byte more than
// the chain holds and checks that it is all that level: a broken chain, a
// missing chip or a data line stuck at the other level shows up as a
// fault instead of as a board full (or empty) of pieces. Tie it to the
// level of an open switch (high with switches to ground): a line stuck
// there reads as an empty board, harmless, while one stuck at the other
// level would read as a full board; more than MaxPieces occupied inputs
// are a fault in any case.
type Sentinel uint8

// Sentinel levels.
const (
	NoSentinel   Sentinel = iota
	SentinelLow           // SER tied to ground: the extra byte reads 0x00
	SentinelHigh          // SER tied to 3.3 V: the extra byte reads 0xff
)

// HC165Options configure an HC165Chain.
type HC165Options struct {
	// ActiveHigh: a closed switch pulls its input high (pull-down
	// resistors). Default: switches to ground with pull-ups, so a closed
	// switch reads 0.
	ActiveHigh bool
	Sentinel   Sentinel
}

// maxHC165 is the longest chain (MaxInputs / 8).
const maxHC165 = MaxInputs / 8

// HC165Chain scans a chain of 74HC165 parallel-in shift registers over
// SPI: a low pulse on SH/LD latches every input at once (an atomic
// snapshot of the board), then one SPI transfer clocks the chain out.
// The SH/LD line is a GPIO, not the SPI chip select: a chip select held
// low for the transfer would keep the registers loading.
type HC165Chain struct {
	c     spi.Conn
	latch gpio.PinOut
	n     int
	o     HC165Options
	units []Unit
	zero  [maxHC165 + 1]byte
	buf   [maxHC165 + 1]byte
}

// NewHC165Chain returns a scanner for a chain of chips 74HC165s on c (an
// SPI connection in mode 0, 8 bits per word) with SH/LD on latch. Chip 0
// is the one whose QH drives MISO; within a chip, input A is bit 0 and H
// bit 7 (H is the first bit clocked out).
func NewHC165Chain(c spi.Conn, latch gpio.PinOut, chips int, o HC165Options) (*HC165Chain, error) {
	if chips < 1 || chips > maxHC165 {
		return nil, fmt.Errorf("74hc165 chain: %d chips, want 1 to %d", chips, maxHC165)
	}
	if o.Sentinel > SentinelHigh {
		return nil, fmt.Errorf("74hc165 chain: bad sentinel %d", o.Sentinel)
	}
	h := &HC165Chain{c: c, latch: latch, n: chips, o: o}
	h.units = []Unit{{Name: "74hc165 chain", Inputs: span(0, 8*chips), Kind: FaultChain}}
	// Idle in shift mode: SH/LD high.
	if err := latch.Out(gpio.High); err != nil {
		return nil, fmt.Errorf("74hc165 chain: SH/LD pin %v: %w", latch, err)
	}
	return h, nil
}

// Sensor implements Scanner.
func (h *HC165Chain) Sensor() trace.Sensor { return trace.Occupancy }

// Inputs implements Scanner.
func (h *HC165Chain) Inputs() int { return 8 * h.n }

// Units implements Scanner: the chain is one unit.
func (h *HC165Chain) Units() []Unit { return h.units }

// Scan implements Scanner.
func (h *HC165Chain) Scan(s *Scan) error {
	s.reset()
	err := h.read()
	if err != nil {
		s.BusErrors++
		err = h.read()
	}
	if err != nil {
		s.BusErrors++
		s.Failed = 1
		s.Errs[0] = err
		return nil
	}
	for i := 0; i < h.n; i++ {
		v := h.buf[i]
		if !h.o.ActiveHigh {
			v = ^v
		}
		s.Occ.put(i*8, 8, uint64(v))
	}
	s.Valid = h.units[0].Inputs
	return nil
}

// MaxPieces is the most pieces a chess set has: a scan that reads more
// occupied inputs is a fault, not a position.
const MaxPieces = 32

// tooManyError is a chain whose inputs read more pieces than a set has:
// with switches to ground, what a data line stuck low, an unpowered
// chain or an unplugged cable (MISO pulled down) gives.
type tooManyError struct{ n int }

func (e *tooManyError) Error() string {
	return fmt.Sprintf("%d inputs read a piece, more than the %d of a chess set: data line stuck at the closed-switch level, chain unpowered or cable unplugged", e.n, MaxPieces)
}

// sentinelError is a sentinel byte that is not the level SER is tied to.
type sentinelError struct{ got, want byte }

func (e *sentinelError) Error() string {
	return fmt.Sprintf("sentinel byte %#02x, want %#02x: chain broken, chip missing or data line stuck", e.got, e.want)
}

func (h *HC165Chain) read() error {
	if err := h.latch.Out(gpio.Low); err != nil {
		return fmt.Errorf("SH/LD low: %w", err)
	}
	if err := h.latch.Out(gpio.High); err != nil {
		return fmt.Errorf("SH/LD high: %w", err)
	}
	n := h.n
	if h.o.Sentinel != NoSentinel {
		n++
	}
	if err := h.c.Tx(h.zero[:n], h.buf[:n]); err != nil {
		return err
	}
	if h.o.Sentinel != NoSentinel {
		want := byte(0)
		if h.o.Sentinel == SentinelHigh {
			want = 0xff
		}
		if got := h.buf[h.n]; got != want {
			return &sentinelError{got, want}
		}
	}
	closed := 0
	for _, v := range h.buf[:h.n] {
		if !h.o.ActiveHigh {
			v = ^v
		}
		closed += bits.OnesCount8(v)
	}
	if closed > MaxPieces {
		return &tooManyError{closed}
	}
	return nil
}

// Close implements Scanner.
func (h *HC165Chain) Close() error { return nil }
