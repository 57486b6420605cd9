package broker

import (
	"log/slog"
	"testing"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// One costly password check at a time: a login that needs one while
// another runs waits for it up to LoginWait and is then refused without
// computing it, the right password included; once the other is done it is
// checked. Logins with generated secrets (the board's) are cheap and never
// wait.
func TestOneCostlyPasswordCheckAtATime(t *testing.T) {
	pw := Passwords{}
	if err := pw.Set("arbiter", "chosen"); err != nil {
		t.Fatal(err)
	}
	boardSecret, err := pw.SetGenerated("b1")
	if err != nil {
		t.Fatal(err)
	}
	lim := DefaultLimits()
	lim.LoginWait = 50 * time.Millisecond
	h := newAuthHook(Config{Passwords: pw, Limits: lim, Now: time.Now, Logger: slog.New(slog.DiscardHandler)})
	login := func(user, password string) bool {
		cl := &mqtt.Client{ID: "c-" + user, Net: mqtt.ClientConnection{Remote: "192.0.2.7:40000", Listener: "tcp0"}}
		return h.OnConnectAuthenticate(cl, packets.Packet{Connect: packets.ConnectParams{Username: []byte(user), Password: []byte(password)}})
	}
	h.hashing <- struct{}{} // a costly check under way
	// The right password refused: its hash was not computed.
	if login("arbiter", "chosen") {
		t.Fatal("the arbiter logged in while another costly check ran")
	}
	// A generated secret's check is cheap: the board logs in all the same.
	if !login("b1", boardSecret) {
		t.Fatal("the board's login was refused while a costly check ran")
	}
	<-h.hashing
	if !login("arbiter", "chosen") {
		t.Fatal("the arbiter's login once no other check runs")
	}
	if len(h.hashing) != 0 {
		t.Fatal("the check's token was not given back")
	}
}

// The cost of one login's password check: a password a person chose
// (Iterations), a generated secret, an unknown user, and a hash as
// mosquitto_passwd writes it (101 iterations) as the peer.
func BenchmarkCheck(b *testing.B) {
	pw := Passwords{"mosquitto": HashPasswordCost("pw", make([]byte, 12), 101)}
	if err := pw.Set("chosen", "pw"); err != nil {
		b.Fatal(err)
	}
	if _, err := pw.SetGenerated("generated"); err != nil {
		b.Fatal(err)
	}
	for _, user := range []string{"mosquitto", "generated", "chosen", "unknown"} {
		b.Run(user, func(b *testing.B) {
			for range b.N {
				pw.Check(user, "wrong")
			}
		})
	}
}
