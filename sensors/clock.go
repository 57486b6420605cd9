package sensors

import (
	"context"
	"sync"
	"time"

	"github.com/boardd/boardd/internal/finesleep"
)

// Clock is the time a scanner and a frame source see. Tests and
// as-fast-as-possible replays use a virtual clock (sensorstest.Clock) so
// that debouncing, pacing and stuck detection are deterministic.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// Sleep waits for d, or until ctx is done (returning ctx.Err()).
	Sleep(ctx context.Context, d time.Duration) error
	// Delay waits a short settling time (microseconds: a matrix row or a
	// multiplexer channel settling) precisely, without giving up the CPU.
	Delay(d time.Duration)
}

// NewRealClock returns the wall clock. Each frame source should get its
// own (it keeps one reusable timer so that pacing does not allocate).
func NewRealClock() Clock { return &realClock{} }

type realClock struct {
	mu    sync.Mutex
	timer *time.Timer
}

func (c *realClock) Now() time.Time { return time.Now() }

func (c *realClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer == nil {
		c.timer = time.NewTimer(d)
	} else {
		c.timer.Reset(d)
	}
	select {
	case <-ctx.Done():
		c.timer.Stop()
		return ctx.Err()
	case <-c.timer.C:
		return nil
	}
}

// spinLimit is the longest delay done by spinning; the kernel's timer
// slack (about 50 µs) makes time.Sleep useless below it.
const spinLimit = 200 * time.Microsecond

func (c *realClock) Delay(d time.Duration) {
	if d <= 0 {
		return
	}
	if d > spinLimit {
		// time.Sleep would round a sub-millisecond wait up to about 1 ms.
		finesleep.Sleep(d)
		return
	}
	start := time.Now()
	for time.Since(start) < d {
	}
}
