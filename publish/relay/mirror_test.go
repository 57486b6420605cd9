package relay_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/publishtest"
	"github.com/boardd/boardd/publish/relay"
)

// A mirror copies the viewer topics (never commands) and, while the
// viewers' broker is away, holds what is due, at most MaxQueued of the
// newest, for when it is back.
func TestMirrorRunThroughOutage(t *testing.T) {
	venue, viewers := publishtest.New(), publishtest.New()
	m, err := relay.NewMirror(relay.MirrorConfig{From: venue, To: viewers, Delay: 0, MaxQueued: 3})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { m.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	seen := viewers.Observe("chess/v1/board/#")
	board, err := venue.Dial(ctx, publish.DialOptions{ClientID: "b1"})
	if err != nil {
		t.Fatal(err)
	}
	send := func(leaf string, i int) {
		board.Publish(publish.Message{Topic: publish.Topic("b1", leaf), Payload: fmt.Appendf(nil, `{"v":1,"board":"b1","session":1,"seq":%d}`, i), QoS: 1})
	}
	waitFor(t, 5*time.Second, "the mirror's subscription", func() bool {
		send(publish.LeafState, 0)
		return len(seen.Messages()) > 0
	})
	send(publish.LeafCmd+"/new_game", 1)
	send(publish.LeafReply, 2)
	send(publish.LeafMove, 3)
	waitFor(t, 5*time.Second, "the move", func() bool {
		ms := seen.Messages()
		return ms[len(ms)-1].Topic == publish.Topic("b1", publish.LeafMove)
	})
	for _, msg := range seen.Messages() {
		if msg.Topic != publish.Topic("b1", publish.LeafState) && msg.Topic != publish.Topic("b1", publish.LeafMove) {
			t.Errorf("mirrored %s", msg.Topic)
		}
		if r, _ := viewers.Retained(publish.Topic("b1", publish.LeafMove)); r.Topic != "" {
			t.Error("a move was mirrored retained")
		}
	}
	if r, ok := viewers.Retained(publish.Topic("b1", publish.LeafState)); !ok || !r.Retain {
		t.Error("the state was not mirrored retained")
	}

	viewers.Down()
	before := len(seen.Messages())
	for i := 10; i < 20; i++ {
		send(publish.LeafClock, i)
	}
	time.Sleep(300 * time.Millisecond)
	viewers.Up()
	waitFor(t, 10*time.Second, "the held messages after the outage", func() bool { return len(seen.Messages()) >= before+3 })
	time.Sleep(200 * time.Millisecond)
	got := seen.Messages()[before:]
	if len(got) != 3 || string(got[0].Payload) != `{"v":1,"board":"b1","session":1,"seq":17}` {
		t.Fatalf("after the outage the viewers got %d messages, first %s; want the newest 3 (seq 17-19)", len(got), got[0].Payload)
	}
}
