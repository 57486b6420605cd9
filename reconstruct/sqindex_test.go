package reconstruct

import (
	"math/rand/v2"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// TestSqIndexLastMatchesScan: the index answers what scanning the log
// back answers, for every square and range, on logs of every length up
// to maxLogEvents.
func TestSqIndexLastMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	scan := func(evs []logEvent, lo, i int, s chess.Square) int {
		for j := i - 1; j >= lo; j-- {
			if evs[j].Square == s {
				return j
			}
		}
		return -1
	}
	buf := make([]logEvent, 0, maxLogEvents)
	for round := 0; round < 200; round++ {
		var x sqIndex // (a decodeState's: one log)
		n := 1 + rng.IntN(maxLogEvents)
		if round%3 == 0 {
			buf = buf[:0] // (the same backing array, another log)
		}
		for len(buf) < n {
			// (Few squares, so that most have several changes.)
			buf = append(buf, logEvent{T: int64(len(buf)), Kind: trace.Off, Square: chess.Square(rng.IntN(12) * 5)})
		}
		evs := buf[:n]
		for q := 0; q < 300; q++ {
			lo := rng.IntN(n + 1)
			i := lo + rng.IntN(n+1-lo)
			s := chess.Square(rng.IntN(64))
			if got, want := x.last(evs, lo, i, s), scan(evs, lo, i, s); got != want {
				t.Fatalf("round %d, %d changes: last(%d, %d, %v) = %d, the scan finds %d", round, n, lo, i, s, got, want)
			}
		}
	}
}
