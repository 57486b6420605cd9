package clockbridge

import (
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
)

// BenchmarkCRC8 compares the table CRC with the bitwise one over a
// Display frame (the longest message boardd sends).
func BenchmarkCRC8(b *testing.B) {
	f := dgtDisplayFrame("ILLEGAL", time.Second, IconFlag, 0)
	b.Run("table", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = crc8(f[:len(f)-1])
		}
	})
	b.Run("bitwise", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = crc8Bitwise(f[:len(f)-1])
		}
	})
}

// BenchmarkModelPress measures one press (flag check, credit, next move)
// in a three-period control, next to a snapshot, its cheapest peer.
func BenchmarkModelPress(b *testing.B) {
	tc := mustTC(&testing.T{}, "40/120m,60m,15m+30s")
	b.Run("press", func(b *testing.B) {
		b.ReportAllocs()
		m, _ := NewModel(tc, Options{})
		at := t0
		_ = m.Start(at)
		side := chess.White
		for b.Loop() {
			at = at.Add(time.Millisecond)
			if _, _, err := m.Press(side, at); err != nil {
				b.Fatal(err)
			}
			side = side.Other()
		}
	})
	b.Run("snapshot", func(b *testing.B) {
		b.ReportAllocs()
		m, _ := NewModel(tc, Options{})
		_ = m.Start(t0)
		for b.Loop() {
			_ = m.Snapshot(t0.Add(time.Second))
		}
	})
}
