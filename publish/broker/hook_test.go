package broker

import (
	"log/slog"
	"testing"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// One costly password check at a time: a login that needs one while
// another runs is refused without computing it, the right password
// included; the next one, once the first is done, is checked. Logins with
// generated secrets (the board's) are cheap and never wait.
func TestOneCostlyPasswordCheckAtATime(t *testing.T) {
	pw := Passwords{}
	if err := pw.Set("arbiter", "chosen"); err != nil {
		t.Fatal(err)
	}
	boardSecret, err := pw.SetGenerated("b1")
	if err != nil {
		t.Fatal(err)
	}
	h := newAuthHook(Config{Passwords: pw, Limits: DefaultLimits(), Now: time.Now, Logger: slog.New(slog.DiscardHandler)})
	login := func(user, password string) bool {
		cl := &mqtt.Client{ID: "c-" + user, Net: mqtt.ClientConnection{Remote: "192.0.2.7:40000", Listener: "tcp0"}}
		return h.OnConnectAuthenticate(cl, packets.Packet{Connect: packets.ConnectParams{Username: []byte(user), Password: []byte(password)}})
	}
	h.hashing <- struct{}{} // a costly check under way
	for _, user := range []string{"arbiter", "nobody"} {
		start := time.Now()
		if login(user, "chosen") {
			t.Fatalf("%s logged in while another costly check ran", user)
		}
		if d := time.Since(start); d > 20*time.Millisecond {
			t.Errorf("%s was refused after %v: the hash was computed", user, d)
		}
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
