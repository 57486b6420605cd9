package chess

import (
	"flag"
	"fmt"
	"math/bits"
	"testing"
)

var regenMagics = flag.Bool("magics.regen", false, "search new magic multipliers and print them as Go source")

// TestMagicTables checks every slider table entry against a ray walk, for
// every subset of every mask: the constant multipliers have no harmful
// collision.
func TestMagicTables(t *testing.T) {
	for _, kind := range []struct {
		name string
		tab  *[64]magic
		dirs *[4][2]int
		get  func(Square, Bitboard) Bitboard
	}{{"rook", &rookMagics, &rookDirs, RookAttacks}, {"bishop", &bishopMagics, &bishopDirs, BishopAttacks}} {
		for s := Square(0); s < 64; s++ {
			mask := kind.tab[s].mask
			for b := Bitboard(0); ; {
				// Pieces outside the mask (on the edges) must not matter.
				occ := b | edgesFor(s)&^s.Bitboard()
				if got, want := kind.get(s, occ), slowSlider(s, occ, kind.dirs); got != want {
					t.Fatalf("%s on %s with %#x: got %#x want %#x", kind.name, s, uint64(occ), uint64(got), uint64(want))
				}
				if got, want := kind.get(s, b), slowSlider(s, b, kind.dirs); got != want {
					t.Fatalf("%s on %s with %#x: got %#x want %#x", kind.name, s, uint64(b), uint64(got), uint64(want))
				}
				b = (b - mask) & mask
				if b == 0 {
					break
				}
			}
		}
	}
}

func TestMagicSearch(t *testing.T) {
	rng := xorshift64(0x9e3779b97f4a7c15)
	squares := []Square{A1, 27, H8}
	if *regenMagics {
		squares = nil
		for s := Square(0); s < 64; s++ {
			squares = append(squares, s)
		}
	}
	for _, dirs := range []*[4][2]int{&rookDirs, &bishopDirs} {
		src := "{\n"
		for _, s := range squares {
			m := findMagic(s, dirs, &rng)
			if m == 0 {
				t.Fatalf("no magic for %s", s)
			}
			src += fmt.Sprintf("%#016x, ", m)
		}
		if *regenMagics {
			t.Log(src + "\n}")
		}
	}
}

// findMagic searches a multiplier for which every subset of mask maps to an
// index that holds its attack set alone. Used by the tests that regenerate
// and check the constants.
func findMagic(s Square, dirs *[4][2]int, rng *xorshift64) uint64 {
	mask := slowSlider(s, 0, dirs) &^ edgesFor(s)
	shift := 64 - mask.Count()
	var occs, refs []Bitboard
	for b := Bitboard(0); ; {
		occs = append(occs, b)
		refs = append(refs, slowSlider(s, b, dirs))
		b = (b - mask) & mask
		if b == 0 {
			break
		}
	}
	used := make(map[uint64]Bitboard, len(occs))
	for {
		mul := rng.sparse()
		if bits.OnesCount64((uint64(mask)*mul)>>56) < 6 {
			continue
		}
		clear(used)
		ok := true
		for i, o := range occs {
			idx := (uint64(o) * mul) >> uint(shift)
			if v, seen := used[idx]; seen && v != refs[i] {
				ok = false
				break
			}
			used[idx] = refs[i]
		}
		if ok {
			return mul
		}
	}
}

// sparse returns a random number with few bits set, which makes good magic
// candidates far more often than a uniform one.
func (x *xorshift64) sparse() uint64 {
	a, b, c := x.next(), x.next(), x.next()
	return a & b & c
}
