package clockbridge

import (
	"sort"
	"sync"
	"time"
)

// TimeSource is where clock logic gets the time. Nothing in this package
// calls time.Now directly, so tests can place a flag on an exact
// millisecond with FakeTime.
type TimeSource interface {
	Now() time.Time
	NewTimer(d time.Duration) Timer
}

// Timer is the part of *time.Timer the clock needs.
type Timer interface {
	C() <-chan time.Time
	Stop() bool
}

// timerAt returns a timer firing at the instant t. A FakeTime makes it
// exact; otherwise it is NewTimer(t - Now()).
func timerAt(ts TimeSource, t time.Time) Timer {
	if a, ok := ts.(interface{ NewTimerAt(time.Time) Timer }); ok {
		return a.NewTimerAt(t)
	}
	return ts.NewTimer(t.Sub(ts.Now()))
}

// SystemTime is the real time (monotonic, from package time).
type SystemTime struct{}

// Now returns time.Now().
func (SystemTime) Now() time.Time { return time.Now() }

// NewTimer returns a time.Timer.
func (SystemTime) NewTimer(d time.Duration) Timer { return sysTimer{time.NewTimer(d)} }

type sysTimer struct{ t *time.Timer }

func (t sysTimer) C() <-chan time.Time { return t.t.C }
func (t sysTimer) Stop() bool          { return t.t.Stop() }

// FakeTime is a TimeSource that moves only when told to. Timers fire
// (in deadline order) when Advance or Set passes their deadline. It is
// safe for concurrent use.
type FakeTime struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
	// waiters are signalled whenever a timer is created, so a test can
	// wait until the code under test is blocked on one.
	created chan struct{}
}

// NewFakeTime returns a FakeTime standing at start.
func NewFakeTime(start time.Time) *FakeTime {
	return &FakeTime{now: start, created: make(chan struct{}, 1024)}
}

// Now returns the fake time.
func (f *FakeTime) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// NewTimer returns a timer firing once Advance reaches now+d.
func (f *FakeTime) NewTimer(d time.Duration) Timer {
	f.mu.Lock()
	at := f.now.Add(d)
	f.mu.Unlock()
	return f.NewTimerAt(at)
}

// NewTimerAt returns a timer firing once the time reaches at (at once if
// it has).
func (f *FakeTime) NewTimerAt(at time.Time) Timer {
	f.mu.Lock()
	t := &fakeTimer{f: f, at: at, c: make(chan time.Time, 1)}
	if !at.After(f.now) {
		t.c <- f.now
		t.fired = true
	} else {
		f.timers = append(f.timers, t)
	}
	f.mu.Unlock()
	select {
	case f.created <- struct{}{}:
	default:
	}
	return t
}

// TimerCreated is signalled each time a timer is created (buffered).
func (f *FakeTime) TimerCreated() <-chan struct{} { return f.created }

// Advance moves the time forward by d, firing due timers.
func (f *FakeTime) Advance(d time.Duration) {
	f.mu.Lock()
	target := f.now.Add(d)
	f.mu.Unlock()
	f.Set(target)
}

// Set moves the time to t (never backwards), firing due timers in order.
func (f *FakeTime) Set(t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if t.Before(f.now) {
		return
	}
	sort.SliceStable(f.timers, func(i, j int) bool { return f.timers[i].at.Before(f.timers[j].at) })
	keep := f.timers[:0]
	for _, tm := range f.timers {
		if !tm.at.After(t) {
			tm.fired = true
			tm.c <- tm.at
		} else {
			keep = append(keep, tm)
		}
	}
	f.timers = keep
	f.now = t
}

// Pending returns the deadlines of the timers not yet fired.
func (f *FakeTime) Pending() []time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]time.Time, len(f.timers))
	for i, t := range f.timers {
		out[i] = t.at
	}
	return out
}

type fakeTimer struct {
	f     *FakeTime
	at    time.Time
	c     chan time.Time
	fired bool
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func (t *fakeTimer) Stop() bool {
	t.f.mu.Lock()
	defer t.f.mu.Unlock()
	if t.fired {
		return false
	}
	for i, x := range t.f.timers {
		if x == t {
			t.f.timers = append(t.f.timers[:i], t.f.timers[i+1:]...)
			break
		}
	}
	t.fired = true
	return true
}
