package broker

import (
	"strings"
	"testing"
	"time"

	"github.com/mochi-mqtt/server/v2/packets"
)

// Retained messages must outlive mochi's default 24 h cut: a board's
// state retained two days ago (a board left on over a rest day) is still
// served after the broker's expiry sweep, which runs every second.
func TestRetainedMessagesDoNotExpire(t *testing.T) {
	acl, _ := ParseACL(strings.NewReader("topic readwrite #\n"))
	e, err := Start(Config{Listeners: []Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}}, ACL: acl, AllowAnonymous: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	old := time.Now().Add(-48 * time.Hour).Unix()
	pk := packets.Packet{
		FixedHeader: packets.FixedHeader{Type: packets.Publish, Retain: true, Qos: 1},
		TopicName:   "chess/v1/board/b1/state",
		Payload:     []byte(`{"v":1}`),
		Created:     old,
		Origin:      "boardd-b1",
	}
	e.srv.Topics.RetainMessage(pk)
	time.Sleep(2500 * time.Millisecond) // two sweeps
	if msgs := e.srv.Topics.Messages("chess/v1/board/b1/state"); len(msgs) != 1 {
		t.Fatalf("a 48 h old retained state was deleted (%d left)", len(msgs))
	}
}
