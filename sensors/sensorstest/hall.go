package sensorstest

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/boardd/boardd/chess"
	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// HallModel is a board of analog Hall sensors behind CD74HC4067
// multiplexers: sensor (mux, channel) sits under square Squares[mux][ch]
// and outputs its baseline voltage, lowered (white piece) or raised
// (black piece) by its magnet's deflection, plus a little deterministic
// noise. The four select lines (Select) pick the channel of every mux.
type HallModel struct {
	mu      sync.Mutex
	board   *Board
	squares [][16]chess.Square
	sel     [4]*Pin
	// Baseline and Deflect are each sensor's empty reading and how far a
	// magnet moves it; they start at 1.65 V +- 20 mV and 300-360 mV.
	Baseline [][16]physic.ElectricPotential
	Deflect  [][16]physic.ElectricPotential
	// WhiteHigh: white magnets raise the reading.
	WhiteHigh bool
	// Noise is the peak noise added to every reading.
	Noise physic.ElectricPotential
	// Open marks sensors whose output is disconnected (reads 0 V).
	Open map[int]bool
	rng  uint64
}

// NewHallModel returns the sensors of len(squares) multiplexers.
func NewHallModel(board *Board, squares [][16]chess.Square) *HallModel {
	h := &HallModel{board: board, squares: squares, Open: map[int]bool{}, rng: 0x9e3779b97f4a7c15}
	for i := range h.sel {
		h.sel[i] = &Pin{N: fmt.Sprintf("S%d", i)}
	}
	h.Baseline = make([][16]physic.ElectricPotential, len(squares))
	h.Deflect = make([][16]physic.ElectricPotential, len(squares))
	for m := range squares {
		for ch := 0; ch < 16; ch++ {
			i := m*16 + ch
			h.Baseline[m][ch] = 1650*physic.MilliVolt + physic.ElectricPotential((i*37)%41-20)*physic.MilliVolt
			h.Deflect[m][ch] = 300*physic.MilliVolt + physic.ElectricPotential((i*13)%61)*physic.MilliVolt
		}
	}
	return h
}

// Select returns the select lines S0..S3.
func (h *HallModel) Select() []gpio.PinOut {
	return []gpio.PinOut{h.sel[0], h.sel[1], h.sel[2], h.sel[3]}
}

// SelectPins returns the select lines as model pins.
func (h *HallModel) SelectPins() [4]*Pin { return h.sel }

// Channel returns the channel the select lines pick.
func (h *HallModel) Channel() int {
	ch := 0
	for b, p := range h.sel {
		if p.Level() {
			ch |= 1 << uint(b)
		}
	}
	return ch
}

// Voltage returns what mux m outputs now.
func (h *HallModel) Voltage(m int) physic.ElectricPotential {
	ch := h.Channel()
	h.mu.Lock()
	defer h.mu.Unlock()
	if m < 0 || m >= len(h.squares) {
		return 0
	}
	if h.Open[m*16+ch] {
		return 0
	}
	v := h.Baseline[m][ch]
	if sq := h.squares[m][ch]; sq != chess.NoSquare {
		occ, white := h.board.State()
		if occ.Has(sq) {
			d := h.Deflect[m][ch]
			if white.Has(sq) != h.WhiteHigh {
				d = -d
			}
			v += d
		}
	}
	if h.Noise > 0 {
		// xorshift: deterministic noise in [-Noise, Noise]
		h.rng ^= h.rng << 13
		h.rng ^= h.rng >> 7
		h.rng ^= h.rng << 17
		v += physic.ElectricPotential(int64(h.rng%uint64(2*h.Noise+1))) - h.Noise
	}
	return v
}

// MCP3008Model is an MCP3008 whose channel m reads multiplexer m of a
// HallModel. It is an spi.PortCloser and the spi.Conn it connects.
type MCP3008Model struct {
	mu        sync.Mutex
	hall      *HallModel
	vref      physic.ElectricPotential
	connected bool
	failN     int
	// Conversions counts conversions.
	Conversions int
}

// MCP3008 returns an MCP3008 with reference vref reading the muxes.
func (h *HallModel) MCP3008(vref physic.ElectricPotential) *MCP3008Model {
	return &MCP3008Model{hall: h, vref: vref}
}

// Fail makes the next n transfers fail.
func (a *MCP3008Model) Fail(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.failN = n
}

// String implements conn.Resource.
func (a *MCP3008Model) String() string { return "mcp3008 model" }

// Close implements spi.PortCloser.
func (a *MCP3008Model) Close() error { return nil }

// LimitSpeed implements spi.Port.
func (a *MCP3008Model) LimitSpeed(physic.Frequency) error { return nil }

// Connect implements spi.Port.
func (a *MCP3008Model) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.connected {
		return nil, errors.New("mcp3008 model: Connect called twice")
	}
	if mode != spi.Mode0 || bits != 8 {
		return nil, fmt.Errorf("mcp3008 model: mode %v, %d bits: want mode 0, 8 bits", mode, bits)
	}
	if f > 3600*physic.KiloHertz {
		return nil, fmt.Errorf("mcp3008 model: %v is above the chip's 3.6 MHz", f)
	}
	a.connected = true
	return a, nil
}

// Duplex implements conn.Conn.
func (a *MCP3008Model) Duplex() conn.Duplex { return conn.Full }

// TxPackets implements spi.Conn.
func (a *MCP3008Model) TxPackets([]spi.Packet) error {
	return errors.New("mcp3008 model: TxPackets not supported")
}

// Tx implements conn.Conn: a 3-byte conversion.
func (a *MCP3008Model) Tx(w, r []byte) error {
	a.mu.Lock()
	if a.failN > 0 {
		a.failN--
		a.mu.Unlock()
		return errors.New("spi: transfer failed (injected)")
	}
	a.mu.Unlock()
	if len(w) != 3 || len(r) != 3 {
		return fmt.Errorf("mcp3008 model: %d/%d bytes, a conversion is 3", len(w), len(r))
	}
	if w[0] != 0x01 || w[1]&0x80 == 0 {
		return fmt.Errorf("mcp3008 model: command % x is no single-ended conversion", w)
	}
	ch := int(w[1]>>4) & 7
	v := a.hall.Voltage(ch)
	code := int64(v) * 1024 / int64(a.vref)
	code = max(0, min(code, 1023))
	r[0], r[1], r[2] = 0, byte(code>>8)&3, byte(code)
	a.mu.Lock()
	a.Conversions++
	a.mu.Unlock()
	return nil
}

// ADS1115Model is one or more ADS1115s on an I2C bus (an i2c.Bus): the
// chip at Addrs[k] reads multiplexers 4k..4k+3 on its inputs AIN0..AIN3.
// It converts on a single-shot config write and returns the result from
// the conversion register, at the gain the config asks for.
type ADS1115Model struct {
	mu    sync.Mutex
	hall  *HallModel
	addrs []uint16
	ptr   map[uint16]byte
	conf  map[uint16]uint16
	conv  map[uint16]int16
	failN int
	// Conversions counts conversions.
	Conversions int
	// ConvTime is how long a conversion takes on the board's clock: until
	// it is done the config register's OS bit reads 0 and the conversion
	// register keeps the previous result (default 0: at once).
	ConvTime time.Duration
	// Stuck makes conversions never complete.
	Stuck   bool
	doneAt  map[uint16]time.Time
	pending map[uint16]int16
}

// ADS1115 returns ADS1115s at addrs reading the muxes, four per chip.
func (h *HallModel) ADS1115(addrs ...uint16) *ADS1115Model {
	return &ADS1115Model{hall: h, addrs: addrs, ptr: map[uint16]byte{}, conf: map[uint16]uint16{}, conv: map[uint16]int16{},
		doneAt: map[uint16]time.Time{}, pending: map[uint16]int16{}}
}

// Fail makes the next n transactions fail.
func (a *ADS1115Model) Fail(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.failN = n
}

// String implements i2c.Bus.
func (a *ADS1115Model) String() string { return "ads1115 model" }

// SetSpeed implements i2c.Bus.
func (a *ADS1115Model) SetSpeed(physic.Frequency) error { return nil }

var adsFSR = [8]physic.ElectricPotential{6144, 4096, 2048, 1024, 512, 256, 256, 256}

// Tx implements i2c.Bus.
func (a *ADS1115Model) Tx(addr uint16, w, r []byte) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	k := -1
	for i, ad := range a.addrs {
		if ad == addr {
			k = i
		}
	}
	if k < 0 {
		return fmt.Errorf("%w from %#x", ErrNoAck, addr)
	}
	if a.failN > 0 {
		a.failN--
		return fmt.Errorf("%w from %#x (injected)", ErrNoAck, addr)
	}
	if len(w) > 0 {
		a.ptr[addr] = w[0] & 3
	}
	if len(w) == 3 && a.ptr[addr] == 1 {
		c := uint16(w[1])<<8 | uint16(w[2])
		a.conf[addr] = c &^ 0x8000
		if c&0x8000 != 0 {
			mux := int(c>>12) & 7
			if mux < 4 {
				return fmt.Errorf("ads1115 model: differential input %d not modelled", mux)
			}
			a.mu.Unlock()
			v := a.hall.Voltage(4*k + mux - 4)
			a.mu.Lock()
			fsr := adsFSR[c>>9&7] * physic.MilliVolt
			code := int64(v) * 32768 / int64(fsr)
			a.pending[addr] = int16(max(-32768, min(code, 32767)))
			a.doneAt[addr] = a.hall.board.clk.Now().Add(a.ConvTime)
			a.Conversions++
		}
	} else if len(w) > 1 {
		return fmt.Errorf("ads1115 model: write of %d bytes not modelled", len(w))
	}
	converting := false
	if v, ok := a.pending[addr]; ok {
		if a.Stuck || a.hall.board.clk.Now().Before(a.doneAt[addr]) {
			converting = true
		} else {
			a.conv[addr] = v
			delete(a.pending, addr)
		}
	}
	switch {
	case len(r) == 2 && a.ptr[addr] == 0:
		c := a.conv[addr]
		r[0], r[1] = byte(uint16(c)>>8), byte(c)
	case len(r) == 2 && a.ptr[addr] == 1:
		c := a.conf[addr]
		if !converting {
			c |= 0x8000
		}
		r[0], r[1] = byte(c>>8), byte(c)
	case len(r) != 0:
		return fmt.Errorf("ads1115 model: read of %d bytes from register %d not modelled", len(r), a.ptr[addr])
	}
	return nil
}
