package broker_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
	"github.com/boardd/boardd/publish/internal/mosqtest"
)

var users = map[string]string{"b1": "pw-b1", "b2": "pw-b2", "arbiter": "pw-arb", "director": "pw-dir", "relay": "pw-relay"}

// target is a broker under test with the venue rules.
type target struct {
	url, tlsURL string
	certs       mosqtest.Certs
}

func mosquittoTarget(t *testing.T) target {
	acl, err := os.ReadFile("../../deploy/mosquitto/acl")
	if err != nil {
		t.Fatal(err)
	}
	certs := mosqtest.WriteCerts(t, t.TempDir(), "b1", "b2")
	m := mosqtest.Start(t, mosqtest.Options{Users: users, ACL: string(acl), AllowAnonymous: true, TLSCA: certs.CA, TLSCert: certs.ServerCert, TLSKey: certs.ServerKey})
	return target{url: m.URL(), tlsURL: fmt.Sprintf("ssl://127.0.0.1:%d", m.TLSPort), certs: certs}
}

func embeddedTarget(t *testing.T) target {
	pw := broker.Passwords{}
	i := 0
	for u, p := range users {
		pw[u] = broker.HashPasswordCost(p, []byte(fmt.Sprintf("salt-%06d", i)), 101)
		i++
	}
	certs := mosqtest.WriteCerts(t, t.TempDir(), "b1", "b2")
	srvCert, err := tls.LoadX509KeyPair(certs.ServerCert, certs.ServerKey)
	if err != nil {
		t.Fatal(err)
	}
	caPEM, _ := os.ReadFile(certs.CA)
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	e, err := broker.Start(broker.Config{
		Listeners: []broker.Listener{
			{Kind: "tcp", Addr: "127.0.0.1:0"},
			{Kind: "tcp", Addr: "127.0.0.1:0", TLS: &tls.Config{Certificates: []tls.Certificate{srvCert}, ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool}, IdentityAsUsername: true},
		},
		Passwords:      pw,
		AllowAnonymous: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return target{url: e.URL(), tlsURL: "ssl://" + e.Addr(1), certs: certs}
}

// client is a connected test client that records what it receives.
type client struct {
	conn publish.Conn
	mu   sync.Mutex
	got  map[string]string // payload -> topic
}

func (c *client) received() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]string{}
	for k, v := range c.got {
		out[k] = v
	}
	return out
}

var clientSeq int

func connect(t *testing.T, d publish.PahoDialer, user string) (*client, error) {
	t.Helper()
	clientSeq++
	c := &client{got: map[string]string{}}
	conn, err := d.Dial(context.Background(), publish.DialOptions{
		ClientID: fmt.Sprintf("test-%s-%d", user, clientSeq),
		OnMessage: func(topic string, p []byte) {
			c.mu.Lock()
			c.got[string(p)] = topic
			c.mu.Unlock()
		},
	})
	if err != nil {
		return nil, err
	}
	c.conn = conn
	t.Cleanup(conn.Close)
	return c, nil
}

func login(t *testing.T, tg target, user string) *client {
	t.Helper()
	c, err := connect(t, publish.PahoDialer{URL: tg.url, Username: user, Password: users[user]}, user)
	if err != nil {
		t.Fatalf("connecting as %q: %v", user, err)
	}
	return c
}

func clientTLS(t *testing.T, tg target, cn string) *tls.Config {
	var certFile, keyFile string
	if cn != "" {
		certFile, keyFile = tg.certs.Client[cn][0], tg.certs.Client[cn][1]
	}
	cfg, err := publish.TLSConfig(tg.certs.CA, certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func runACL(t *testing.T, tg target) {
	// Wrong or missing credentials are refused.
	if _, err := connect(t, publish.PahoDialer{URL: tg.url, Username: "b1", Password: "wrong"}, "b1"); err == nil {
		t.Error("a wrong password was accepted")
	}
	if _, err := connect(t, publish.PahoDialer{URL: tg.url, Username: "nobody", Password: "x"}, "nobody"); err == nil {
		t.Error("an unknown user was accepted")
	}

	observer := login(t, tg, "relay")
	readers := map[string]*client{"relay": observer, "b2": login(t, tg, "b2"), "arbiter": login(t, tg, "arbiter")}
	anon, err := connect(t, publish.PahoDialer{URL: tg.url}, "anonymous")
	if err != nil {
		t.Fatalf("anonymous viewer refused: %v", err)
	}
	readers["anonymous"] = anon
	ctx := context.Background()
	for name, r := range readers {
		if err := r.conn.Subscribe(ctx, "chess/v1/#", 1); err != nil {
			t.Fatalf("%s subscribing to chess/v1/#: %v", name, err)
		}
	}
	writers := map[string]*client{"b1": login(t, tg, "b1"), "arbiter": readers["arbiter"], "director": login(t, tg, "director"), "relay": observer, "anonymous": anon}

	// TLS: the certificate's CN is the username.
	b1tls, err := connect(t, publish.PahoDialer{URL: tg.tlsURL, TLS: clientTLS(t, tg, "b1")}, "b1-tls")
	if err != nil {
		t.Fatalf("b1 with a client certificate: %v", err)
	}
	writers["b1-tls"] = b1tls
	if _, err := connect(t, publish.PahoDialer{URL: tg.tlsURL, TLS: clientTLS(t, tg, ""), Username: "b1", Password: users["b1"]}, "no-cert"); err == nil {
		t.Error("a TLS client without a certificate was accepted")
	}

	probes := []struct {
		who, topic string
		allowed    bool
	}{
		{"b1", "chess/v1/board/b1/state", true},
		{"b1", "chess/v1/board/b1/reply", true},
		{"b1", "chess/v1/board/b2/state", false},
		{"b1", "chess/v1/board/b2/cmd/new_game", false},
		{"b1-tls", "chess/v1/board/b1/move", true},
		{"b1-tls", "chess/v1/board/b2/move", false},
		{"arbiter", "chess/v1/board/b1/cmd/ack_alert", true},
		{"arbiter", "chess/v1/board/b1/cmd/new_game", false},
		{"arbiter", "chess/v1/board/b1/state", false},
		{"director", "chess/v1/board/b1/cmd/new_game", true},
		{"director", "chess/v1/board/b1/move", false},
		{"relay", "chess/v1/board/b1/state", false},
		{"anonymous", "chess/v1/board/b1/state", false},
		{"anonymous", "chess/v1/board/b1/cmd/ack_alert", false},
	}
	for i, p := range probes {
		// QoS 0: mochi drops a refused QoS 1 publish of an MQTT 3.1.1
		// client by disconnecting it.
		a := writers[p.who].conn.Publish(publish.Message{Topic: p.topic, Payload: []byte(fmt.Sprintf("probe-%d", i)), QoS: 0})
		<-a.Done()
	}
	// What each reader should see of the probes that got through.
	canRead := map[string]func(topic string) bool{
		"relay":   func(string) bool { return true },
		"arbiter": func(string) bool { return true },
		"b2":      func(topic string) bool { return strings.HasPrefix(topic, "chess/v1/board/b2/") },
		"anonymous": func(topic string) bool {
			return !strings.Contains(topic, "/cmd/") && !strings.HasSuffix(topic, "/reply")
		},
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		complete := true
		for name, r := range readers {
			got := r.received()
			for i, p := range probes {
				if p.allowed && canRead[name](p.topic) && got[fmt.Sprintf("probe-%d", i)] == "" {
					complete = false
				}
			}
		}
		if complete || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // give anything refused a chance to show up
	for name, r := range readers {
		got := r.received()
		var wrong []string
		for i, p := range probes {
			want := p.allowed && canRead[name](p.topic)
			if _, ok := got[fmt.Sprintf("probe-%d", i)]; ok != want {
				wrong = append(wrong, fmt.Sprintf("%s publishing %s: %s received it = %v, want %v", p.who, p.topic, name, ok, want))
			}
		}
		sort.Strings(wrong)
		for _, w := range wrong {
			t.Error(w)
		}
	}
}

func TestACLMosquitto(t *testing.T) { runACL(t, mosquittoTarget(t)) }
func TestACLEmbedded(t *testing.T)  { runACL(t, embeddedTarget(t)) }

// A browser's view: an anonymous client over WebSocket reads a board's
// retained state and cannot write.
func TestWebSocketViewer(t *testing.T) {
	acl, err := os.ReadFile("../../deploy/mosquitto/acl")
	if err != nil {
		t.Fatal(err)
	}
	m := mosqtest.Start(t, mosqtest.Options{Users: users, ACL: string(acl), AllowAnonymous: true, WebSocket: true})
	pw := broker.Passwords{"b1": broker.HashPasswordCost(users["b1"], []byte("salt-000001"), 101)}
	e, err := broker.Start(broker.Config{Listeners: []broker.Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}, {Kind: "ws", Addr: "127.0.0.1:0"}}, Passwords: pw, AllowAnonymous: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, c := range []struct{ name, tcp, ws string }{
		{"mosquitto", m.URL(), fmt.Sprintf("ws://127.0.0.1:%d/mqtt", m.WSPort)},
		{"embedded", e.URL(), "ws://" + e.Addr(1) + "/mqtt"},
	} {
		t.Run(c.name, func(t *testing.T) {
			board := login(t, target{url: c.tcp}, "b1")
			<-board.conn.Publish(publish.Message{Topic: "chess/v1/board/b1/state", Payload: []byte("state-1"), QoS: 1, Retain: true}).Done()
			viewer, err := connect(t, publish.PahoDialer{URL: c.ws}, "viewer")
			if err != nil {
				t.Fatalf("anonymous WebSocket client: %v", err)
			}
			if err := viewer.conn.Subscribe(context.Background(), "chess/v1/board/+/state", 0); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(5 * time.Second)
			for viewer.received()["state-1"] == "" && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if viewer.received()["state-1"] == "" {
				t.Fatal("the viewer did not get the retained state over WebSocket")
			}
			<-viewer.conn.Publish(publish.Message{Topic: "chess/v1/board/b1/state", Payload: []byte("forged"), QoS: 0, Retain: true}).Done()
			time.Sleep(300 * time.Millisecond)
			if viewer.received()["forged"] != "" {
				t.Fatal("an anonymous WebSocket client could publish")
			}
		})
	}
}
