package broker_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
)

// TestCloseDeliversWhatWasPublished: what the broker acknowledged before
// Close reaches a connected subscriber, so a viewer sees the board's last
// "offline" status when the daemon stops with its embedded broker.
func TestCloseDeliversWhatWasPublished(t *testing.T) {
	for round := 0; round < 5; round++ {
		e, err := broker.Start(broker.Config{Listeners: []broker.Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}}, AllowAnonymous: true,
			Passwords: broker.Passwords{"b": broker.HashPasswordCost("pw", []byte("salt-000000"), 101)}})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		var mu sync.Mutex
		got := map[string]bool{}
		sub, err := publish.PahoDialer{URL: e.URL()}.Dial(ctx, publish.DialOptions{
			ClientID: fmt.Sprintf("viewer-%d", round),
			OnMessage: func(_ string, p []byte) {
				mu.Lock()
				got[string(p[:8])] = true
				mu.Unlock()
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := sub.Subscribe(ctx, "chess/v1/board/+/status", 1); err != nil {
			t.Fatal(err)
		}
		pub, err := publish.PahoDialer{URL: e.URL(), Username: "b", Password: "pw"}.Dial(ctx, publish.DialOptions{ClientID: fmt.Sprintf("board-%d", round)})
		if err != nil {
			t.Fatal(err)
		}
		// Enough bytes that the subscriber's write queue is still full
		// when the last acknowledgement reaches the publisher.
		const n = 300
		pad := strings.Repeat("x", 16<<10)
		var last publish.Ack
		for i := 0; i < n; i++ {
			last = pub.Publish(publish.Message{Topic: "chess/v1/board/b/status", Payload: []byte(fmt.Sprintf("%08d%s", i, pad)), QoS: 1})
		}
		select {
		case <-last.Done():
		case <-time.After(10 * time.Second):
			t.Fatal("the broker did not acknowledge the publications")
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		missing := 0
		for i := 0; i < n; i++ {
			if !got[fmt.Sprintf("%08d", i)] {
				missing++
			}
		}
		mu.Unlock()
		pub.Close()
		sub.Close()
		if missing > 0 {
			t.Fatalf("round %d: %d of %d acknowledged messages never reached the subscriber", round, missing, n)
		}
	}
}
