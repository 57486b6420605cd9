package chess

// Attack and geometry tables. They are computed once at package
// initialisation and never written afterwards: read-only lookup data, not
// state.
var (
	knightAttacks [64]Bitboard
	kingAttacks   [64]Bitboard
	pawnAttacks   [2][64]Bitboard
	// betweenBB[a][b]: the squares strictly between a and b on a line, 0 if
	// they share no line.
	betweenBB [64][64]Bitboard
	// lineBB[a][b]: the whole line (edge to edge) through a and b, 0 if none.
	lineBB [64][64]Bitboard

	// rookRays, bishopRays: a slider's attacks on an empty board, every
	// square it can ever attack from there.
	rookRays, bishopRays [64]Bitboard

	rookMagics   [64]magic
	bishopMagics [64]magic
	// One shared table for both sliders, indexed by magic.offset + index.
	sliderAttacks []Bitboard
)

type magic struct {
	mask   Bitboard
	mul    uint64
	offset uint32
	shift  uint8
}

func (m *magic) index(occ Bitboard) uint32 {
	return m.offset + uint32((uint64(occ&m.mask)*m.mul)>>m.shift)
}

// RookAttacks is the set a rook on s attacks given the occupied squares.
func RookAttacks(s Square, occ Bitboard) Bitboard {
	m := &rookMagics[s]
	return sliderAttacks[m.index(occ)]
}

// BishopAttacks is the set a bishop on s attacks given the occupied squares.
func BishopAttacks(s Square, occ Bitboard) Bitboard {
	m := &bishopMagics[s]
	return sliderAttacks[m.index(occ)]
}

// QueenAttacks is the set a queen on s attacks given the occupied squares.
func QueenAttacks(s Square, occ Bitboard) Bitboard {
	return RookAttacks(s, occ) | BishopAttacks(s, occ)
}

// KnightAttacks is the set a knight on s attacks.
func KnightAttacks(s Square) Bitboard { return knightAttacks[s] }

// KingAttacks is the set a king on s attacks.
func KingAttacks(s Square) Bitboard { return kingAttacks[s] }

// PawnAttacks is the set a pawn of colour c on s attacks.
func PawnAttacks(c Color, s Square) Bitboard { return pawnAttacks[c][s] }

// Attacks is the set a piece of type t and colour c on s attacks given
// the occupied squares (the colour matters only for pawns).
func Attacks(t PieceType, c Color, s Square, occ Bitboard) Bitboard {
	switch t {
	case Pawn:
		return pawnAttacks[c][s]
	case Knight:
		return knightAttacks[s]
	case Bishop:
		return BishopAttacks(s, occ)
	case Rook:
		return RookAttacks(s, occ)
	case Queen:
		return QueenAttacks(s, occ)
	case King:
		return kingAttacks[s]
	}
	return 0
}

// Between is the set of squares strictly between a and b when they share a
// rank, file or diagonal, and empty otherwise.
func Between(a, b Square) Bitboard { return betweenBB[a][b] }

var rookDirs = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
var bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

// slowSlider walks the rays from s until it leaves the board or meets an
// occupied square (included). Used only to fill the tables.
func slowSlider(s Square, occ Bitboard, dirs *[4][2]int) Bitboard {
	var b Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			t := NewSquare(f, r)
			b |= t.Bitboard()
			if occ.Has(t) {
				break
			}
			f, r = f+d[0], r+d[1]
		}
	}
	return b
}

func stepAttacks(s Square, deltas [][2]int) Bitboard {
	var b Bitboard
	for _, d := range deltas {
		f, r := s.File()+d[0], s.Rank()+d[1]
		if f >= 0 && f < 8 && r >= 0 && r < 8 {
			b |= NewSquare(f, r).Bitboard()
		}
	}
	return b
}

func init() {
	knightD := [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	kingD := [][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	for s := Square(0); s < 64; s++ {
		knightAttacks[s] = stepAttacks(s, knightD)
		kingAttacks[s] = stepAttacks(s, kingD)
		pawnAttacks[White][s] = stepAttacks(s, [][2]int{{-1, 1}, {1, 1}})
		pawnAttacks[Black][s] = stepAttacks(s, [][2]int{{-1, -1}, {1, -1}})
		rookRays[s] = slowSlider(s, 0, &rookDirs)
		bishopRays[s] = slowSlider(s, 0, &bishopDirs)
	}
	initMagics()
	for a := Square(0); a < 64; a++ {
		for b := Square(0); b < 64; b++ {
			if a == b {
				continue
			}
			for _, dirs := range []*[4][2]int{&rookDirs, &bishopDirs} {
				if slowSlider(a, 0, dirs).Has(b) {
					lineBB[a][b] = (slowSlider(a, 0, dirs) & slowSlider(b, 0, dirs)) | a.Bitboard() | b.Bitboard()
					betweenBB[a][b] = slowSlider(a, b.Bitboard(), dirs) & slowSlider(b, a.Bitboard(), dirs)
				}
			}
		}
	}
}

// edgesFor is the board edge that does not matter to a slider on s: a piece
// on the last square of a ray never changes the ray.
func edgesFor(s Square) Bitboard {
	return ((Rank1 | Rank8) &^ rankBB(s.Rank())) | ((FileA | FileH) &^ fileBB(s.File()))
}

func rankBB(r int) Bitboard { return Rank1 << (8 * uint(r)) }
func fileBB(f int) Bitboard { return FileA << uint(f) }

// initMagics fills the slider attack tables from the magic multipliers.
func initMagics() {
	sliderAttacks = make([]Bitboard, 0, 102400+5248)
	for _, kind := range []struct {
		table *[64]magic
		muls  *[64]uint64
		dirs  *[4][2]int
	}{{&rookMagics, &rookMagicNumbers, &rookDirs}, {&bishopMagics, &bishopMagicNumbers, &bishopDirs}} {
		for s := Square(0); s < 64; s++ {
			m := &kind.table[s]
			m.mask = slowSlider(s, 0, kind.dirs) &^ edgesFor(s)
			m.mul = kind.muls[s]
			n := m.mask.Count()
			m.shift = uint8(64 - n)
			m.offset = uint32(len(sliderAttacks))
			sliderAttacks = append(sliderAttacks, make([]Bitboard, 1<<uint(n))...)
			// Carry-Rippler enumeration of every subset of the mask. A
			// collision would overwrite an entry with a different attack
			// set; TestMagicTables checks that none does.
			for b := Bitboard(0); ; {
				sliderAttacks[m.index(b)] = slowSlider(s, b, kind.dirs)
				b = (b - m.mask) & m.mask
				if b == 0 {
					break
				}
			}
		}
	}
}

type xorshift64 uint64

func (x *xorshift64) next() uint64 {
	v := uint64(*x)
	v ^= v >> 12
	v ^= v << 25
	v ^= v >> 27
	*x = xorshift64(v)
	return v * 2685821657736338717
}
