package relay

import (
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/boardd/boardd/publish"
)

func stamped(topic string, seq int, ts time.Time) publish.Message {
	return publish.Message{Topic: topic, Payload: fmt.Appendf(nil, `{"v":1,"board":"b1","session":1,"seq":%d,"ts":%q}`, seq, ts.UTC().Format(time.RFC3339Nano))}
}

// A message is released Delay after the earlier of its ts and its
// arrival, never before, and each topic keeps its order.
func TestMirrorHoldsBackByDelay(t *testing.T) {
	t0 := time.Date(2025, 6, 1, 14, 0, 0, 0, time.UTC)
	m, err := NewMirror(MirrorConfig{From: nil, To: nil, Delay: 15 * time.Minute})
	if err == nil || m != nil {
		t.Fatal("a mirror without brokers was accepted")
	}
	m = &Mirror{cfg: MirrorConfig{Delay: 15 * time.Minute, MaxQueued: 100}, last: map[string]time.Time{}}
	state := publish.Topic("b1", publish.LeafState)
	m.hold(stamped(state, 1, t0), t0)                                                       // just played
	m.hold(stamped(state, 2, t0.Add(time.Hour)), t0.Add(time.Second))                       // a board clock ahead: arrival counts
	m.hold(stamped(publish.Topic("b2", publish.LeafState), 3, t0.Add(-14*time.Minute)), t0) // an old retained snapshot
	m.hold(publish.Message{Topic: publish.Topic("b3", publish.LeafStatus), Payload: []byte("not json")}, t0)

	if got := m.due(t0.Add(59 * time.Second)); len(got) != 0 {
		t.Fatalf("released %d messages a minute early", len(got))
	}
	if got := m.due(t0.Add(time.Minute)); len(got) != 1 || got[0].Topic != publish.Topic("b2", publish.LeafState) {
		t.Fatalf("at 14:01 released %v, want only b2's snapshot (journaled 13:46)", got)
	}
	if got := m.due(t0.Add(15*time.Minute - time.Millisecond)); len(got) != 0 {
		t.Fatalf("released %d messages before their 15 minutes", len(got))
	}
	got := m.due(t0.Add(15 * time.Minute))
	if len(got) != 2 || got[0].Topic != state || got[1].Topic != publish.Topic("b3", publish.LeafStatus) {
		t.Fatalf("at 14:15 released %v, want b1's first state and b3's status", got)
	}
	if got := m.due(t0.Add(15*time.Minute + 999*time.Millisecond)); len(got) != 0 {
		t.Fatal("the state from a board clock ahead came out before its arrival was 15 minutes old")
	}
	if got := m.due(t0.Add(15*time.Minute + time.Second)); len(got) != 1 {
		t.Fatalf("released %d, want the second state", len(got))
	}

	// Per topic, a later message never overtakes an earlier one.
	m.hold(stamped(state, 5, t0.Add(20*time.Minute)), t0.Add(20*time.Minute))
	m.hold(stamped(state, 6, t0.Add(10*time.Minute)), t0.Add(20*time.Minute))
	got = m.due(t0.Add(time.Hour))
	if len(got) != 2 || string(got[0].Payload) != string(stamped(state, 5, t0.Add(20*time.Minute)).Payload) {
		t.Fatalf("topic order lost: first out %s", got[0].Payload)
	}
}

func TestMirrorQueueBounded(t *testing.T) {
	t0 := time.Date(2025, 6, 1, 14, 0, 0, 0, time.UTC)
	m := &Mirror{cfg: MirrorConfig{Delay: time.Minute, MaxQueued: 3}, last: map[string]time.Time{}, log: slog.New(slog.DiscardHandler)}
	for i := range 5 {
		m.hold(stamped(publish.Topic("b1", publish.LeafClock), i, t0.Add(time.Duration(i)*time.Second)), t0.Add(time.Duration(i)*time.Second))
	}
	if got := m.due(t0.Add(time.Hour)); len(got) != 3 {
		t.Fatalf("kept %d messages, want the newest 3", len(got))
	}
}
