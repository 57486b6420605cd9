package finesleep

import (
	"testing"
	"time"
)

func TestSleepWaitsAtLeastD(t *testing.T) {
	for _, d := range []time.Duration{0, 10 * time.Microsecond, 100 * time.Microsecond, 400 * time.Microsecond, 2 * time.Millisecond} {
		start := time.Now()
		Sleep(d)
		if got := time.Since(start); got < d {
			t.Errorf("Sleep(%v) returned after %v", d, got)
		}
	}
}

func TestSleepIsShorterThanAMillisecond(t *testing.T) {
	if testing.Short() {
		t.Skip("timing on a loaded or emulated machine")
	}
	// The best of 20 waits of 400 µs, against the same with time.Sleep:
	// on Linux the latter rounds up to about a millisecond.
	best := func(f func(time.Duration)) time.Duration {
		b := time.Hour
		for range 20 {
			start := time.Now()
			f(400 * time.Microsecond)
			b = min(b, time.Since(start))
		}
		return b
	}
	fine, coarse := best(Sleep), best(time.Sleep)
	t.Logf("400µs: finesleep %v, time.Sleep %v", fine, coarse)
	if fine > 900*time.Microsecond {
		t.Errorf("Sleep(400µs) took at best %v", fine)
	}
}

// BenchmarkSleep compares, for each wait, what it really takes: ns/op is
// the time one wait lasted.
func BenchmarkSleep(b *testing.B) {
	for _, d := range []time.Duration{10 * time.Microsecond, 100 * time.Microsecond, 400 * time.Microsecond} {
		b.Run("time.Sleep/"+d.String(), func(b *testing.B) {
			for range b.N {
				time.Sleep(d)
			}
		})
		b.Run("finesleep/"+d.String(), func(b *testing.B) {
			for range b.N {
				Sleep(d)
			}
		})
	}
}
