package chess

import "testing"

func TestBitboardList(t *testing.T) {
	b := NewSquare(4, 1).Bitboard() | NewSquare(4, 3).Bitboard() | NewSquare(0, 0).Bitboard() | NewSquare(7, 7).Bitboard()
	if got := b.List(); got != "a1 e2 e4 h8" {
		t.Errorf("%q", got)
	}
	if got := Bitboard(0).List(); got != "" {
		t.Errorf("empty: %q", got)
	}
}
