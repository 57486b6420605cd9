package broker_test

import (
	"context"
	"fmt"
	"io"
	"net"
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
		missing := missingAfterClose(&mu, got, n)
		pub.Close()
		sub.Close()
		if missing > 0 {
			t.Fatalf("round %d: %d of %d acknowledged messages never reached the subscriber", round, missing, n)
		}
	}
}

// TestCloseWaitsForASlowSubscriber: a subscriber behind a slow link that
// keeps acknowledging gets everything, even when that takes longer than a
// stalled subscriber would be waited for.
func TestCloseWaitsForASlowSubscriber(t *testing.T) {
	e, err := broker.Start(broker.Config{Listeners: []broker.Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}}, AllowAnonymous: true,
		Passwords: broker.Passwords{"b": broker.HashPasswordCost("pw", []byte("salt-000000"), 101)}})
	if err != nil {
		t.Fatal(err)
	}
	slow, _ := throttle(t, strings.TrimPrefix(e.URL(), "tcp://"), 1<<20) // 1 MiB/s towards the subscriber
	ctx := context.Background()
	var mu sync.Mutex
	got := map[string]bool{}
	sub, err := publish.PahoDialer{URL: "tcp://" + slow}.Dial(ctx, publish.DialOptions{
		ClientID: "viewer",
		OnMessage: func(_ string, p []byte) {
			mu.Lock()
			got[string(p[:8])] = true
			mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if err := sub.Subscribe(ctx, "chess/v1/board/+/status", 1); err != nil {
		t.Fatal(err)
	}
	pub, err := publish.PahoDialer{URL: e.URL(), Username: "b", Password: "pw"}.Dial(ctx, publish.DialOptions{ClientID: "board"})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	// 3.5 MiB: about 3.5 s through the link, longer than the stall bound.
	const n = 220
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
	if missing := missingAfterClose(&mu, got, n); missing > 0 {
		t.Fatalf("%d of %d acknowledged messages never reached the slow subscriber", missing, n)
	}
}

// missingAfterClose is how many of the n messages got (keyed by their
// first 8 bytes, guarded by mu) still lacks 5 s after the broker closed.
// The subscriber acknowledges a message as it takes it off the wire and
// hands it to OnMessage from its own queue after: what it took before
// Close reaches the callback soon after (on a loaded machine, after
// Close returns), what the broker never sent never does.
func missingAfterClose(mu *sync.Mutex, got map[string]bool, n int) int {
	for wait := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		missing := n - len(got)
		mu.Unlock()
		if missing == 0 || time.Now().After(wait) {
			return missing
		}
	}
}

// TestCloseGivesUpOnAStalledSubscriber: a subscriber that stops reading
// does not hold the daemon's stop for longer than the stall bound.
func TestCloseGivesUpOnAStalledSubscriber(t *testing.T) {
	e, err := broker.Start(broker.Config{Listeners: []broker.Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}}, AllowAnonymous: true,
		Passwords: broker.Passwords{"b": broker.HashPasswordCost("pw", []byte("salt-000000"), 101)}})
	if err != nil {
		t.Fatal(err)
	}
	link, stall := throttle(t, strings.TrimPrefix(e.URL(), "tcp://"), 8<<20)
	ctx := context.Background()
	sub, err := publish.PahoDialer{URL: "tcp://" + link}.Dial(ctx, publish.DialOptions{ClientID: "viewer", OnMessage: func(string, []byte) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if err := sub.Subscribe(ctx, "chess/v1/board/+/status", 1); err != nil {
		t.Fatal(err)
	}
	stall()
	pub, err := publish.PahoDialer{URL: e.URL(), Username: "b", Password: "pw"}.Dial(ctx, publish.DialOptions{ClientID: "board"})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	var last publish.Ack
	for i := 0; i < 50; i++ {
		last = pub.Publish(publish.Message{Topic: "chess/v1/board/b/status", Payload: []byte(strings.Repeat("x", 16<<10)), QoS: 1})
	}
	<-last.Done()
	start := time.Now()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < time.Second || d > 5*time.Second {
		t.Fatalf("Close took %v with a stalled subscriber; want about the 2 s stall bound", d)
	}
}

// throttle listens on a local port and forwards each connection to addr,
// passing at most rate bytes a second from addr back to the client; after
// stall is called nothing more is passed back.
func throttle(t *testing.T, addr string, rate int) (link string, stall func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stalled, done := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { ln.Close(); close(done) })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", addr)
			if err != nil {
				c.Close()
				return
			}
			go func() { io.Copy(s, c); s.Close() }()
			go func() {
				defer c.Close()
				buf := make([]byte, rate/50)
				for {
					select {
					case <-stalled:
						<-done // hold the connection open, unread
						return
					default:
					}
					k, err := s.Read(buf)
					if k > 0 {
						if _, werr := c.Write(buf[:k]); werr != nil {
							return
						}
					}
					if err != nil {
						return
					}
					time.Sleep(20 * time.Millisecond)
				}
			}()
		}
	}()
	var once sync.Once
	return ln.Addr().String(), func() { once.Do(func() { close(stalled) }) }
}
