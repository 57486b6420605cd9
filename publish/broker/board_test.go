package broker_test

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
)

// A board under the venue ACL on the embedded broker: it logs in with its
// id and a per-start password, publishes its whole tree (retained topics
// included) and takes commands; a director's command gets a reply, an
// anonymous viewer sees the state.
func TestBoardUnderVenueACL(t *testing.T) {
	pw := broker.Passwords{}
	if err := pw.Set("b-017", "per-start-secret"); err != nil {
		t.Fatal(err)
	}
	pw.Set("director", users["director"])
	e, err := broker.Start(broker.Config{Listeners: []broker.Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}}, Passwords: pw, AllowAnonymous: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	p, err := publish.Open(publish.Config{Board: "b-017", JournalDir: t.TempDir(), Dialer: publish.PahoDialer{URL: e.URL(), Username: "b-017", Password: "per-start-secret"}, BackoffMin: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	var mu sync.Mutex
	got := map[string][]byte{}
	record := func(topic string, b []byte) { mu.Lock(); got[topic] = b; mu.Unlock() }
	get := func(topic string) []byte { mu.Lock(); defer mu.Unlock(); return got[topic] }
	viewer, err := publish.PahoDialer{URL: e.URL()}.Dial(ctx, publish.DialOptions{ClientID: "viewer", OnMessage: record})
	if err != nil {
		t.Fatal(err)
	}
	defer viewer.Close()
	viewer.Subscribe(ctx, "chess/v1/board/+/state", 1)
	director, err := publish.PahoDialer{URL: e.URL(), Username: "director", Password: users["director"]}.Dial(ctx, publish.DialOptions{ClientID: "director", OnMessage: record})
	if err != nil {
		t.Fatal(err)
	}
	defer director.Close()
	director.Subscribe(ctx, "chess/v1/board/+/reply", 1)

	p.StartGame(publish.GameInfo{White: "A", Black: "B"})
	p.Move(publish.Move{Ply: 1, UCI: "e2e4", Final: true})
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(string(get("chess/v1/board/b-017/state")), "e2e4") {
		if time.Now().After(deadline) {
			t.Fatal("the viewer did not see the board's state")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd := `{"id":"d1","expires":"` + time.Now().Add(time.Minute).UTC().Format(time.RFC3339) + `","white":"X"}`
	director.Publish(publish.Message{Topic: "chess/v1/board/b-017/cmd/new_game", Payload: []byte(cmd), QoS: 1})
	for get("chess/v1/board/b-017/reply") == nil {
		if time.Now().After(deadline) {
			t.Fatal("no reply to the director's command")
		}
		time.Sleep(10 * time.Millisecond)
	}
	var r publish.ReplyPayload
	json.Unmarshal(get("chess/v1/board/b-017/reply"), &r)
	if r.Cmd != "d1" || r.OK || !strings.Contains(r.Error, "does not take commands") {
		t.Fatalf("reply %+v", r)
	}
	if p.Pending() != 0 || !p.Connected() {
		t.Fatalf("board: pending %d connected %v (a refused publish would have dropped it)", p.Pending(), p.Connected())
	}
}

// A WebSocket listener whose port is taken stops the start with an error
// naming it, as a TCP one does; mochi would only log it while serving.
func TestWebSocketPortInUse(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	e, err := broker.Start(broker.Config{Listeners: []broker.Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}, {Kind: "ws", Addr: taken.Addr().String()}}, AllowAnonymous: true})
	if err == nil {
		e.Close()
		t.Fatal("started with its WebSocket port in use")
	}
	if !strings.Contains(err.Error(), taken.Addr().String()) {
		t.Errorf("error %q does not name the address", err)
	}
}
