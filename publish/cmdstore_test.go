package publish

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// Ids leave the store exactly when their commands expire, whatever the
// order they were added in (a rebuild meets the newest segment first).
func TestCmdStoreForgetsByExpiry(t *testing.T) {
	s := newCmdStore(1000)
	t0 := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(1, 2))
	exp := map[string]time.Time{}
	for i := range 500 {
		id := string(rune('a'+i%26)) + time.Duration(i).String()
		e := t0.Add(time.Duration(1+r.IntN(3600)) * time.Second)
		exp[id] = e
		if !s.add(commandRecord{ID: id, Verb: VerbPromote, OK: true, Expires: e.Format(time.RFC3339Nano)}, t0) {
			t.Fatal("store full at 500 of 1000")
		}
	}
	for _, at := range []time.Duration{0, time.Minute, 10 * time.Minute, 59 * time.Minute, 2 * time.Hour} {
		now := t0.Add(at)
		s.prune(now)
		for id, e := range exp {
			_, ok := s.get(id)
			if want := now.Before(e); ok != want {
				t.Fatalf("at +%v id %s expiring at +%v: remembered %v", at, id, e.Sub(t0), ok)
			}
		}
	}
	if len(s.byID) != 0 || len(s.order) != 0 {
		t.Fatalf("%d ids and %d heap entries left after every expiry", len(s.byID), len(s.order))
	}
}

// The cost of remembering a command per command, with a full store of
// 4,096 ids: with pruning by expiry it does not grow with the store.
func BenchmarkCmdStoreAddPrune(b *testing.B) {
	for _, n := range []int{64, 4096} {
		b.Run(fmt.Sprintf("ids=%d", n), func(b *testing.B) {
			s := newCmdStore(n + 1)
			t0 := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
			ids := make([]string, b.N+n)
			for i := range ids {
				ids[i] = "cmd-" + time.Duration(i).String()
			}
			for i := range n {
				s.add(commandRecord{ID: ids[i], Expires: t0.Add(time.Duration(i+1) * time.Second).Format(time.RFC3339Nano)}, t0)
			}
			b.ResetTimer()
			for i := range b.N {
				now := t0.Add(time.Duration(i+1) * time.Second)
				s.prune(now)
				s.add(commandRecord{ID: ids[n+i], Expires: now.Add(time.Duration(n) * time.Second).Format(time.RFC3339Nano)}, now)
			}
		})
	}
}
