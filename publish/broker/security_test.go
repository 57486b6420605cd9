package broker_test

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
)

// fakeClock is a broker's clock that a test moves.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// startLimited runs an embedded broker with the venue ACL, the test users
// and the given limits on a clock the test moves.
func startLimited(t *testing.T, lim broker.Limits) (*broker.Embedded, *fakeClock) {
	t.Helper()
	pw := broker.Passwords{}
	for u, p := range users {
		pw[u] = broker.HashPasswordCost(p, []byte("salt-"+u), 101)
	}
	clk := &fakeClock{t: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)}
	e, err := broker.Start(broker.Config{Listeners: []broker.Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}}, Passwords: pw, AllowAnonymous: true, Limits: lim, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, clk
}

func dialAs(e *broker.Embedded, user, password, clientID string, onMessage func(string, []byte)) (publish.Conn, error) {
	return publish.PahoDialer{URL: e.URL(), Username: user, Password: password, ConnectTimeout: 3 * time.Second}.
		Dial(context.Background(), publish.DialOptions{ClientID: clientID, OnMessage: onMessage})
}

// A board's client id belongs to the board's account: an anonymous client
// or another user connecting with it is refused, and the board stays
// connected.
func TestBoardClientIDIsReserved(t *testing.T) {
	e, _ := startLimited(t, broker.Limits{})
	board, err := dialAs(e, "b1", users["b1"], "boardd-b1", nil)
	if err != nil {
		t.Fatalf("the board's own login: %v", err)
	}
	defer board.Close()
	for _, intruder := range []struct{ user, password string }{{"", ""}, {"b2", users["b2"]}, {"director", users["director"]}} {
		c, err := dialAs(e, intruder.user, intruder.password, "boardd-b1", nil)
		if err == nil {
			c.Close()
			t.Errorf("user %q connected with the board's client id boardd-b1", intruder.user)
		}
	}
	select {
	case <-board.Lost():
		t.Fatal("the board was disconnected by a client using its id")
	case <-time.After(200 * time.Millisecond):
	}
	// Other client ids are anyone's.
	c, err := dialAs(e, "", "", "viewer-boardd-b1", nil)
	if err != nil {
		t.Fatalf("an anonymous viewer with an unreserved id: %v", err)
	}
	c.Close()
}

// After five wrong passwords from one address even the right one is
// refused until the limit's time has passed.
func TestLoginFailuresAreLimited(t *testing.T) {
	e, clk := startLimited(t, broker.Limits{LoginFailBurst: 5, LoginFailRate: 0.1})
	for i := range 5 {
		if c, err := dialAs(e, "arbiter", "guess", fmt.Sprintf("guess-%d", i), nil); err == nil {
			c.Close()
			t.Fatal("a wrong password was accepted")
		}
	}
	if c, err := dialAs(e, "arbiter", users["arbiter"], "arbiter-1", nil); err == nil {
		c.Close()
		t.Fatal("the right password was checked after five failures: guessing is not limited")
	}
	clk.Add(11 * time.Second)
	c, err := dialAs(e, "arbiter", users["arbiter"], "arbiter-2", nil)
	if err != nil {
		t.Fatalf("the right password 11 s later: %v", err)
	}
	c.Close()
}

func TestConnectionsAreLimited(t *testing.T) {
	e, clk := startLimited(t, broker.Limits{ConnectBurst: 3, ConnectRate: 1, LimitLoopback: true})
	for i := range 3 {
		c, err := dialAs(e, "", "", fmt.Sprintf("v-%d", i), nil)
		if err != nil {
			t.Fatalf("connection %d: %v", i+1, err)
		}
		c.Close()
	}
	if c, err := dialAs(e, "", "", "v-4", nil); err == nil {
		c.Close()
		t.Fatal("a fourth connection within the burst of three was accepted")
	}
	clk.Add(time.Second)
	c, err := dialAs(e, "", "", "v-5", nil)
	if err != nil {
		t.Fatalf("a connection a second later: %v", err)
	}
	c.Close()
}

// A flood of commands from one user reaches the board only up to the
// burst, and an oversized one not at all, whatever the client id.
func TestCommandsAreLimitedPerUser(t *testing.T) {
	e, _ := startLimited(t, broker.Limits{CommandBurst: 10, CommandRate: 0.001, CommandSize: 1000})
	var mu sync.Mutex
	got := map[string]int{}
	board, err := dialAs(e, "b1", users["b1"], "boardd-b1", func(topic string, _ []byte) { mu.Lock(); got[topic]++; mu.Unlock() })
	if err != nil {
		t.Fatal(err)
	}
	defer board.Close()
	if err := board.Subscribe(context.Background(), "chess/v1/board/b1/cmd/+", 1); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"arb-a", "arb-b"} {
		arb, err := dialAs(e, "arbiter", users["arbiter"], id, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer arb.Close()
		<-arb.Publish(publish.Message{Topic: "chess/v1/board/b1/cmd/ack_alert", Payload: []byte(strings.Repeat("x", 1001)), QoS: 1}).Done()
		for range 30 {
			<-arb.Publish(publish.Message{Topic: "chess/v1/board/b1/cmd/ack_alert", Payload: []byte(`{"id":"x"}`), QoS: 1}).Done()
		}
	}
	// The board's own publishes and other boards are not limited by it.
	time.Sleep(300 * time.Millisecond)
	mu.Lock()
	n := got["chess/v1/board/b1/cmd/ack_alert"]
	mu.Unlock()
	if n != 10 {
		t.Fatalf("the board received %d of 61 commands from one user; want the burst of 10", n)
	}
}

// Passwords people choose are hashed at today's cost; generated secrets
// carry 128 random bits.
func TestCredentialStrength(t *testing.T) {
	pw := broker.Passwords{}
	if err := pw.Set("arbiter", "pw"); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("$7$%d$", broker.Iterations); !strings.HasPrefix(pw["arbiter"], want) || broker.Iterations < 210_000 {
		t.Errorf("hash %q: want PBKDF2-SHA512 at 210,000 iterations or more", pw["arbiter"])
	}
	// mosquitto reads a $7$ hash only with a salt of 12 or 64 bytes and a
	// key of 64.
	parts := strings.Split(pw["arbiter"], "$")
	salt, err1 := base64.StdEncoding.DecodeString(parts[3])
	key, err2 := base64.StdEncoding.DecodeString(parts[4])
	if err1 != nil || err2 != nil || len(salt) != 12 && len(salt) != 64 || len(key) != 64 {
		t.Errorf("hash %q: salt of %d bytes, key of %d: mosquitto would not read it", pw["arbiter"], len(salt), len(key))
	}
	if _, err := broker.ParsePasswords(strings.NewReader("a:$argon2id$v=19$m=65536,t=3,p=1$c2FsdA$aGFzaA\n")); err == nil || !strings.Contains(err.Error(), "argon2id") {
		t.Errorf("an argon2id line: %v, want an error naming argon2id", err)
	}
	seen := map[string]bool{}
	for range 100 {
		s, err := pw.SetGenerated("board")
		if err != nil {
			t.Fatal(err)
		}
		b, err := hex.DecodeString(s)
		if err != nil || len(b) < 16 {
			t.Fatalf("generated secret %q: want at least 128 bits as hex", s)
		}
		if seen[s] {
			t.Fatalf("secret %q generated twice", s)
		}
		seen[s] = true
		if !pw.Check("board", s) || pw.Check("board", s[:8]) {
			t.Fatal("a generated secret does not check")
		}
	}
}

// Failed logins through this host (browsers through the web server's
// proxy) are counted per account, so guessing one account does not lock
// the others out.
func TestLoopbackLoginFailuresPerAccount(t *testing.T) {
	e, _ := startLimited(t, broker.Limits{LoginFailBurst: 2, LoginFailRate: 0.001})
	for i := range 3 {
		if c, err := dialAs(e, "arbiter", "guess", fmt.Sprintf("g-%d", i), nil); err == nil {
			c.Close()
			t.Fatal("a wrong password was accepted")
		}
	}
	c, err := dialAs(e, "director", users["director"], "director-1", nil)
	if err != nil {
		t.Fatalf("the director after guesses at the arbiter's password: %v", err)
	}
	c.Close()
}
