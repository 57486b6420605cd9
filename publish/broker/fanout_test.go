package broker

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/boardd/boardd/publish"
)

// slowFanout holds a client's publication between mochi's PUBACK and its
// fan-out to the subscribers, the gap a loaded machine opens by chance.
type slowFanout struct {
	mqtt.HookBase
	client string
	delay  time.Duration
}

func (h *slowFanout) ID() string           { return "test-slow-fanout" }
func (h *slowFanout) Provides(b byte) bool { return b == mqtt.OnQosComplete }
func (h *slowFanout) OnQosComplete(cl *mqtt.Client, _ packets.Packet) {
	if cl.ID == h.client {
		time.Sleep(h.delay)
	}
}

// TestCloseDeliversTheLastAcknowledged: a board that says offline, is
// acknowledged and disconnects can be ahead of the fan-out when Close
// starts; the viewer must still get that last status.
func TestCloseDeliversTheLastAcknowledged(t *testing.T) {
	e, err := Start(Config{Listeners: []Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}}, AllowAnonymous: true,
		Passwords: Passwords{"b": HashPasswordCost("pw", []byte("salt-000000"), 101)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.srv.AddHook(&slowFanout{client: "boardd-b", delay: 300 * time.Millisecond}, nil); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var got atomic.Bool
	sub, err := publish.PahoDialer{URL: e.URL()}.Dial(ctx, publish.DialOptions{
		ClientID:  "viewer",
		OnMessage: func(string, []byte) { got.Store(true) },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if err := sub.Subscribe(ctx, "chess/v1/board/+/status", 1); err != nil {
		t.Fatal(err)
	}
	pub, err := publish.PahoDialer{URL: e.URL(), Username: "b", Password: "pw"}.Dial(ctx, publish.DialOptions{ClientID: "boardd-b"})
	if err != nil {
		t.Fatal(err)
	}
	a := pub.Publish(publish.Message{Topic: "chess/v1/board/b/status", Payload: []byte(`{"status":{"online":false}}`), QoS: 1, Retain: true})
	select {
	case <-a.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the broker did not acknowledge the status")
	}
	pub.Close()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if !got.Load() {
		t.Fatal("the acknowledged last status never reached the subscriber")
	}
}

// TestFanoutForgetsADisconnectedClient: a publication whose fan-out never
// came (its acknowledgement failed) is forgotten when mochi stops reading
// that client, so a long-running board keeps no entry for it.
func TestFanoutForgetsADisconnectedClient(t *testing.T) {
	h := &fanoutHook{pending: map[*mqtt.Client]int{}}
	a, b := &mqtt.Client{}, &mqtt.Client{}
	h.OnPublish(a, packets.Packet{})
	h.OnPublish(a, packets.Packet{})
	h.OnPublish(b, packets.Packet{})
	h.OnPublished(a, packets.Packet{})
	if h.pending[a] != 1 || h.pending[b] != 1 {
		t.Fatalf("pending a %d, b %d, want 1 and 1", h.pending[a], h.pending[b])
	}
	h.OnDisconnect(a, nil, true)
	if _, ok := h.pending[a]; ok || h.pending[b] != 1 {
		t.Fatalf("after a disconnected: pending %v, want only b's 1", h.pending)
	}
}
