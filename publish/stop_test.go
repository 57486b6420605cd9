package publish_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/internal/mosqtest"
)

// A board stopped at any moment, even while it is still connecting,
// leaves its status "offline" and never its last will "lost": the
// connection being made is finished and closed cleanly.
func TestStopWhileConnectingSaysOffline(t *testing.T) {
	m := mosqtest.Start(t, mosqtest.Options{AllowAnonymous: true})
	var mu sync.Mutex
	last := map[string]string{}
	sub, err := publish.PahoDialer{URL: m.URL()}.Dial(context.Background(), publish.DialOptions{ClientID: "viewer", OnMessage: func(topic string, p []byte) {
		var st publish.StatusPayload
		if json.Unmarshal(p, &st) == nil {
			mu.Lock()
			last[topic] = st.State
			mu.Unlock()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if err := sub.Subscribe(context.Background(), "chess/v1/board/+/status", 1); err != nil {
		t.Fatal(err)
	}
	const n = 12
	for i := range n {
		p, err := publish.Open(publish.Config{Board: fmt.Sprintf("s%d", i), JournalDir: t.TempDir(), NoSync: true, Dialer: publish.PahoDialer{URL: m.URL()}})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { p.Run(ctx); close(done) }()
		// From at once to well after the connection is up.
		time.Sleep(time.Duration(i) * time.Duration(i) * time.Millisecond)
		cancel()
		<-done
		p.Close()
	}
	time.Sleep(500 * time.Millisecond) // wills come when the broker sees a socket close
	mu.Lock()
	defer mu.Unlock()
	for i := range n {
		topic := publish.Topic(fmt.Sprintf("s%d", i), publish.LeafStatus)
		if got := last[topic]; got != "offline" {
			t.Errorf("board s%d stopped %v after it started: its status ends %q, want offline", i, time.Duration(i*i)*time.Millisecond, got)
		}
	}
}
