package publish

import (
	"container/heap"
	"time"
)

// cmdSeen is what a board remembers of a command to answer a re-send of
// it: the first reply, not the payload.
type cmdSeen struct {
	id, verb, err string
	ok            bool
	until         time.Time // the command's expiry: a re-send after it is refused as expired anyway
}

// maxRememberedError bounds what an error text (which may quote the
// command) costs in memory.
const maxRememberedError = 256

// cmdStore remembers the ids of the commands that could still arrive
// unexpired, up to max of them. Ids leave in expiry order from a heap, so
// forgetting costs O(log n) per id rather than a walk of every id.
type cmdStore struct {
	max   int
	byID  map[string]*cmdSeen
	order cmdHeap
}

func newCmdStore(max int) *cmdStore {
	return &cmdStore{max: max, byID: map[string]*cmdSeen{}}
}

// get returns the remembered reply to id.
func (s *cmdStore) get(id string) (cmdSeen, bool) {
	c, ok := s.byID[id]
	if !ok {
		return cmdSeen{}, false
	}
	return *c, true
}

// prune forgets the ids whose commands have expired by now.
func (s *cmdStore) prune(now time.Time) {
	for len(s.order) > 0 && !now.Before(s.order[0].until) {
		c := heap.Pop(&s.order).(*cmdSeen)
		if s.byID[c.id] == c {
			delete(s.byID, c.id)
		}
	}
}

// full reports whether no more ids can be remembered until some expire.
func (s *cmdStore) full() bool { return len(s.byID) >= s.max }

// add remembers rec's reply until its expiry (a command without a valid
// expiry was refused and a re-send is refused the same way: nothing to
// remember). It reports false when the store is full.
func (s *cmdStore) add(rec commandRecord, now time.Time) bool {
	exp, err := time.Parse(time.RFC3339Nano, rec.Expires)
	if rec.ID == "" || err != nil || !now.Before(exp) {
		return true
	}
	if _, ok := s.byID[rec.ID]; ok {
		return true // a re-send is journaled only as a duplicate: the first reply stays
	}
	if s.full() {
		return false
	}
	e := rec.Error
	if len(e) > maxRememberedError {
		e = e[:maxRememberedError] + "…"
	}
	c := &cmdSeen{id: rec.ID, verb: rec.Verb, err: e, ok: rec.OK, until: exp}
	s.byID[rec.ID] = c
	heap.Push(&s.order, c)
	return true
}

type cmdHeap []*cmdSeen

func (h cmdHeap) Len() int           { return len(h) }
func (h cmdHeap) Less(i, j int) bool { return h[i].until.Before(h[j].until) }
func (h cmdHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *cmdHeap) Push(x any)        { *h = append(*h, x.(*cmdSeen)) }
func (h *cmdHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return c
}

// tokenBucket allows burst events at once and rate a second after.
type tokenBucket struct {
	rate, burst, tokens float64
	at                  time.Time
}

func (b *tokenBucket) allow(now time.Time) bool {
	if b.at.IsZero() {
		b.tokens, b.at = b.burst, now
	}
	if now.After(b.at) {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.at).Seconds()*b.rate)
		b.at = now
	}
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
