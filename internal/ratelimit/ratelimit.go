// Package ratelimit is a bounded set of token buckets by key (a remote
// address, a user), for the broker's and the web server's limits.
package ratelimit

import (
	"sync"
	"time"
)

// Limiter is a set of token buckets by key: each key may spend burst
// tokens at once and regains rate tokens a second. Its table is bounded:
// a key whose bucket is full again is the same as a key never seen, so
// such keys are dropped when the table fills; if none can be dropped the
// new key is refused (an attacker with many addresses then gets nothing
// more, rather than memory).
type Limiter struct {
	rate, burst float64
	max         int
	now         func() time.Time

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastPrune time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

// New returns a limiter of burst tokens per key, rate a second back, for
// at most max keys at once; now is time.Now when nil.
func New(rate, burst float64, max int, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{rate: rate, burst: burst, max: max, now: now, buckets: map[string]*bucket{}}
}

// refill brings b up to now; the caller holds mu.
func (l *Limiter) refill(b *bucket, now time.Time) {
	if now.After(b.at) {
		b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
		b.at = now
	}
}

// Allow spends a token of key and reports whether there was one.
func (l *Limiter) Allow(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b, ok := l.buckets[key]
	if !ok {
		if len(l.buckets) >= l.max && !l.prune(now) {
			return false
		}
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[key] = b
	}
	l.refill(b, now)
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Blocked reports whether key has no token left, without spending one.
func (l *Limiter) Blocked(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok {
		return false
	}
	l.refill(b, l.now())
	return b.tokens < 1
}

// prune drops the keys whose buckets are full again and reports whether
// there is room. It walks the table at most once a second, so a full
// table of busy keys costs a map lookup per call, not a walk.
func (l *Limiter) prune(now time.Time) bool {
	if now.Sub(l.lastPrune) < time.Second {
		return false
	}
	l.lastPrune = now
	for k, b := range l.buckets {
		l.refill(b, now)
		if b.tokens >= l.burst {
			delete(l.buckets, k)
		}
	}
	return len(l.buckets) < l.max
}
