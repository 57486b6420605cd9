package sensors

import (
	"fmt"
	"math/bits"

	"github.com/boardd/boardd/chess"
)

// MaxInputs bounds the inputs of one scanner: eight MCP23017 (the whole
// 0x20-0x27 range) of 16 inputs, a chain of sixteen 74HC165, or eight
// 16-channel multiplexers.
const MaxInputs = 128

// Inputs is a set of scanner inputs, bit i standing for input i. How a
// design numbers its inputs:
//
//   - diode matrix: row*len(cols) + col
//   - MCP23017 bank: chip*16 + port*8 + bit (port A = 0, B = 1)
//   - 74HC165 chain: chip*8 + bit (chip 0 drives the data line, bit 0 = A)
//   - analog: mux*16 + channel
type Inputs [2]uint64

// Has reports whether input i is in the set.
func (in *Inputs) Has(i int) bool { return in[i>>6]&(1<<(uint(i)&63)) != 0 }

// Set adds input i.
func (in *Inputs) Set(i int) { in[i>>6] |= 1 << (uint(i) & 63) }

// Clear removes input i.
func (in *Inputs) Clear(i int) { in[i>>6] &^= 1 << (uint(i) & 63) }

// IsZero reports whether the set is empty.
func (in *Inputs) IsZero() bool { return in[0]|in[1] == 0 }

// Count returns the number of inputs in the set.
func (in *Inputs) Count() int { return bits.OnesCount64(in[0]) + bits.OnesCount64(in[1]) }

// put stores the low n bits of v (n <= 16) at inputs off..off+n-1,
// replacing what was there.
func (in *Inputs) put(off, n int, v uint64) {
	mask := uint64(1)<<uint(n) - 1
	v &= mask
	w, s := off>>6, uint(off)&63
	in[w] = in[w]&^(mask<<s) | v<<s
	if s+uint(n) > 64 {
		in[w+1] = in[w+1]&^(mask>>(64-s)) | v>>(64-s)
	}
}

// span returns the inputs off..off+n-1.
func span(off, n int) Inputs {
	var in Inputs
	for n > 0 {
		k := min(n, 16)
		in.put(off, k, 1<<uint(k)-1)
		off, n = off+k, n-k
	}
	return in
}

// List returns the inputs in the set in increasing order.
func (in Inputs) List() []int {
	var l []int
	for w := 0; w < 2; w++ {
		for b := in[w]; b != 0; b &= b - 1 {
			l = append(l, w*64+bits.TrailingZeros64(b))
		}
	}
	return l
}

// Wiring maps a scanner's inputs to squares. It is compiled from a
// design's configuration (see Config) into per-byte lookup tables, so
// mapping a whole scan costs at most 16 table lookups.
type Wiring struct {
	n       int
	squares [MaxInputs]chess.Square
	inputOf [64]int16
	covered chess.Bitboard
	tab     [MaxInputs / 8][256]chess.Bitboard
}

// NewWiring builds a wiring from the square of each input (NoSquare for an
// input that is not connected to a square). Every square may appear at
// most once.
func NewWiring(squares []chess.Square) (*Wiring, error) {
	if len(squares) > MaxInputs {
		return nil, fmt.Errorf("wiring: %d inputs, at most %d", len(squares), MaxInputs)
	}
	w := &Wiring{n: len(squares)}
	for i := range w.squares {
		w.squares[i] = chess.NoSquare
	}
	for i := range w.inputOf {
		w.inputOf[i] = -1
	}
	for i, sq := range squares {
		if sq == chess.NoSquare {
			continue
		}
		if !sq.Valid() {
			return nil, fmt.Errorf("wiring: input %d: square %d out of range", i, sq)
		}
		if j := w.inputOf[sq]; j >= 0 {
			return nil, fmt.Errorf("wiring: square %s on inputs %d and %d", sq, j, i)
		}
		w.inputOf[sq] = int16(i)
		w.squares[i] = sq
		w.covered |= sq.Bitboard()
	}
	for byteIdx := 0; byteIdx*8 < w.n; byteIdx++ {
		t := &w.tab[byteIdx]
		for v := 1; v < 256; v++ {
			low := v & -v
			bit := bits.TrailingZeros8(uint8(low))
			var b chess.Bitboard
			if sq := w.squares[byteIdx*8+bit]; sq != chess.NoSquare {
				b = sq.Bitboard()
			}
			t[v] = t[v&^low] | b
		}
	}
	return w, nil
}

// Inputs returns the number of inputs.
func (w *Wiring) Inputs() int { return w.n }

// Square returns the square on input i, or NoSquare.
func (w *Wiring) Square(i int) chess.Square {
	if i < 0 || i >= w.n {
		return chess.NoSquare
	}
	return w.squares[i]
}

// Input returns the input of a square, or -1 if no input reads it.
func (w *Wiring) Input(sq chess.Square) int {
	if !sq.Valid() {
		return -1
	}
	return int(w.inputOf[sq])
}

// Covered returns the squares that some input reads.
func (w *Wiring) Covered() chess.Bitboard { return w.covered }

// Map returns the squares of the inputs in the set.
func (w *Wiring) Map(in *Inputs) chess.Bitboard {
	var b chess.Bitboard
	nb := (w.n + 7) / 8
	for i := 0; i < nb; i++ {
		if v := uint8(in[i>>3] >> (uint(i&7) * 8)); v != 0 {
			b |= w.tab[i][v]
		}
	}
	return b
}

// InputsOf returns the inputs of the squares in b.
func (w *Wiring) InputsOf(b chess.Bitboard) Inputs {
	var in Inputs
	for ; b != 0; b &= b - 1 {
		if i := w.inputOf[b.First()]; i >= 0 {
			in.Set(int(i))
		}
	}
	return in
}
