package sensors

import (
	"fmt"

	"github.com/boardd/boardd/chess"
)

// MaxDebounce is the largest number of stable scans a Debouncer can
// require.
const MaxDebounce = 32

// Debouncer filters whole frames: a square takes a new state only after n
// consecutive scans agree on it (occupancy and, for colour sensors, the
// colour). It keeps the last n raw scans as bitboards, so one step is a
// few dozen bitwise operations whatever the number of squares changing,
// and never allocates. Debouncing the bitboard, not pins, is what lets a
// 16-input chip read in one transaction stay one transaction.
type Debouncer struct {
	n      int
	pos    int
	primed bool
	occ    [MaxDebounce]chess.Bitboard
	white  [MaxDebounce]chess.Bitboard
	stable [2]chess.Bitboard // occupancy, white
	settle chess.Bitboard    // squares whose last n scans agree
	known  chess.Bitboard    // squares read validly at least once
}

// NewDebouncer returns a debouncer requiring n (1..MaxDebounce) stable
// scans.
func NewDebouncer(n int) (*Debouncer, error) {
	if n < 1 || n > MaxDebounce {
		return nil, fmt.Errorf("debounce: %d scans, want 1 to %d", n, MaxDebounce)
	}
	return &Debouncer{n: n}, nil
}

// N returns the number of stable scans required.
func (d *Debouncer) N() int { return d.n }

// Step takes one raw scan: occ and white for the squares in valid (the
// other squares are taken to read their settled state: a chip that did
// not answer changes nothing). It returns the squares whose settled state
// changed. A square's first valid reading is adopted as its settled state
// at once: the first step's (which returns every square), or, for a
// square whose chip did not answer until then, a later one's (returned
// as changed if it is not empty). Until then the square reads empty.
func (d *Debouncer) Step(occ, white, valid chess.Bitboard) chess.Bitboard {
	white &= occ
	var adopted chess.Bitboard
	if fresh := valid &^ d.known; fresh != 0 {
		for i := 0; i < d.n; i++ {
			d.occ[i] = d.occ[i]&^fresh | occ&fresh
			d.white[i] = d.white[i]&^fresh | white&fresh
		}
		old := d.stable
		d.stable[0] = d.stable[0]&^fresh | occ&fresh
		d.stable[1] = d.stable[1]&^fresh | white&fresh
		adopted = (old[0] ^ d.stable[0]) | (old[1] ^ d.stable[1])
		d.known |= fresh
	}
	if !d.primed {
		d.settle = ^chess.Bitboard(0)
		d.primed = true
		return ^chess.Bitboard(0)
	}
	occ = occ&valid | d.stable[0]&^valid
	white = white&valid | d.stable[1]&^valid
	d.occ[d.pos], d.white[d.pos] = occ, white
	d.pos++
	if d.pos == d.n {
		d.pos = 0
	}
	allO, anyO := ^chess.Bitboard(0), chess.Bitboard(0)
	allW, anyW := ^chess.Bitboard(0), chess.Bitboard(0)
	for i := 0; i < d.n; i++ {
		allO &= d.occ[i]
		anyO |= d.occ[i]
		allW &= d.white[i]
		anyW |= d.white[i]
	}
	// A square is settled when its last n scans agree on both planes.
	settled := (allO | ^anyO) & (allW | ^anyW)
	newOcc := d.stable[0]&^settled | allO&settled
	newWhite := d.stable[1]&^settled | allW&settled
	changed := (newOcc ^ d.stable[0]) | (newWhite ^ d.stable[1])
	d.stable = [2]chess.Bitboard{newOcc, newWhite}
	d.settle = settled
	return changed | adopted
}

// Known returns the squares read validly at least once.
func (d *Debouncer) Known() chess.Bitboard { return d.known }

// State returns the settled occupancy and white squares.
func (d *Debouncer) State() (occ, white chess.Bitboard) { return d.stable[0], d.stable[1] }

// Unsettled returns the squares whose last n scans disagree: changes not
// yet accepted, bounces, flipping bits.
func (d *Debouncer) Unsettled() chess.Bitboard { return ^d.settle }
