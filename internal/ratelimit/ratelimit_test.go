package ratelimit

import (
	"fmt"
	"testing"
	"time"
)

func TestBurstThenRate(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := New(0.5, 3, 10, func() time.Time { return now })
	for i := range 3 {
		if !l.Allow("a") {
			t.Fatalf("token %d of a burst of 3 refused", i+1)
		}
	}
	if l.Allow("a") || !l.Blocked("a") {
		t.Fatal("a fourth token within the burst")
	}
	if !l.Allow("b") {
		t.Fatal("another key shares a's bucket")
	}
	now = now.Add(2 * time.Second)
	if l.Blocked("a") || !l.Allow("a") || l.Allow("a") {
		t.Fatal("not exactly one token back after 2 s at 0.5 a second")
	}
}

// The table holds at most max keys: new keys are refused while every
// bucket is in use, and taken again once buckets are full (idle) again.
func TestTableBounded(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := New(1, 2, 100, func() time.Time { return now })
	for i := range 100 {
		l.Allow(fmt.Sprint(i))
	}
	if l.Allow("new") {
		t.Fatal("a 101st key was taken into a table of 100 busy keys")
	}
	now = now.Add(5 * time.Second)
	if !l.Allow("new") {
		t.Fatal("a new key refused after every bucket refilled")
	}
	if n := len(l.buckets); n > 100 {
		t.Fatalf("%d keys in a table of 100", n)
	}
}
