// Package broker runs the embedded MQTT broker (github.com/mochi-mqtt/server
// v2) that a board uses when no venue broker is configured: TCP and
// WebSocket listeners, optional TLS with client certificates, retained
// messages kept without expiry, and users, passwords and ACLs in
// mosquitto's file formats, evaluated by the same rules, so one set of
// files serves both this broker and a venue's mosquitto (deploy/mosquitto).
//
// Retained messages live in memory only: the board's publisher re-sends
// every retained topic from its journal on each connection, so a restart
// of the process (broker included) heals them.
package broker

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
	"github.com/mochi-mqtt/server/v2/packets"
)

// Server is a broker boardd runs itself. boardd can equally use an
// external broker: then there is no Server, only its URL.
type Server interface {
	// URL is where a client on this host connects (tcp://127.0.0.1:port).
	URL() string
	Close() error
}

// Listener is one listening socket.
type Listener struct {
	// Kind is "tcp" or "ws" (MQTT over WebSocket, for browsers).
	Kind string
	// Addr is host:port; port 0 picks a free port (see Embedded.Addr).
	Addr string
	// TLS, if set, makes the listener TLS (mqtts/wss). To require client
	// certificates set ClientAuth and ClientCAs.
	TLS *tls.Config
	// IdentityAsUsername takes the client certificate's common name as
	// the username, as mosquitto's use_identity_as_username does; the
	// password is then not checked.
	IdentityAsUsername bool
}

// Config configures the embedded broker.
type Config struct {
	Listeners []Listener
	// Passwords of users who log in with a password.
	Passwords Passwords
	// ACL; nil allows nothing but what Passwords' users and anonymous
	// clients get from DefaultACL.
	ACL *ACL
	// AllowAnonymous lets clients without a username connect (they get
	// the ACL's anonymous rules: read-only in DefaultACL).
	AllowAnonymous bool
	Logger         *slog.Logger
}

// DefaultACL is the venue ACL, identical to deploy/mosquitto/acl (a test
// keeps them equal): each board owns its subtree (its username is its
// board id), arbiters read everything and may only acknowledge alerts,
// directors may send every command, relays and anonymous viewers only
// read.
const DefaultACL = `# boardd venue ACL (mosquitto acl_file format). The embedded broker of
# boardd reads the same file with the same rules.
#
# Usernames: every board logs in with its board id ([a-z0-9-]{1,32}, also
# the CN of its client certificate). Give people and services the role
# accounts below; add a "user <name>" block per extra account.

# Anonymous clients (web viewers, displays): read only, no commands and no
# command replies.
topic read chess/v1/board/+/status
topic read chess/v1/board/+/state
topic read chess/v1/board/+/move
topic read chess/v1/board/+/correction
topic read chess/v1/board/+/pgn
topic read chess/v1/board/+/clock
topic read chess/v1/board/+/alert
topic read chess/v1/board/+/alerts/active

# Each board owns its own subtree and nothing else.
pattern readwrite chess/v1/board/%u/#

# Arbiters see everything and may only acknowledge alerts and enter results.
user arbiter
topic read chess/v1/#
topic write chess/v1/board/+/cmd/ack_alert
topic write chess/v1/board/+/cmd/set_result

# The tournament director's tool may send every command.
user director
topic read chess/v1/#
topic write chess/v1/board/+/cmd/+

# Broadcast relays and archives read.
user relay
topic read chess/v1/#
`

// Embedded is the running broker.
type Embedded struct {
	srv   *mqtt.Server
	addrs []string
	kinds []string
}

// Start starts the broker and its listeners.
func Start(cfg Config) (*Embedded, error) {
	if len(cfg.Listeners) == 0 {
		return nil, errors.New("broker: no listeners configured")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.ACL == nil {
		a, err := ParseACL(strings.NewReader(DefaultACL))
		if err != nil {
			return nil, err
		}
		cfg.ACL = a
	}
	caps := mqtt.NewDefaultServerCapabilities()
	// Retained messages (state, pgn, alerts/active, status) must outlive
	// a quiet day: mochi would delete them after 24 h by default.
	caps.MaximumMessageExpiryInterval = 0
	// A board's retained topics are small; keep per-client buffers modest
	// so the broker stays light on a Pi.
	caps.MaximumClientWritesPending = 1024
	caps.MaximumInflight = 1024
	srv := mqtt.New(&mqtt.Options{
		Capabilities:           caps,
		Logger:                 cfg.Logger,
		SysTopicResendInterval: 60,
	})
	h := &authHook{cfg: cfg, byID: map[string]Listener{}}
	if err := srv.AddHook(h, nil); err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	e := &Embedded{srv: srv}
	for i, l := range cfg.Listeners {
		id := fmt.Sprintf("%s%d", l.Kind, i)
		h.byID[id] = l
		switch l.Kind {
		case "tcp":
			ln, err := net.Listen("tcp", l.Addr)
			if err != nil {
				srv.Close()
				return nil, fmt.Errorf("broker: listener %s: %w", l.Addr, err)
			}
			e.addrs = append(e.addrs, ln.Addr().String())
			if l.TLS != nil {
				ln = tls.NewListener(ln, l.TLS)
			}
			if err := srv.AddListener(listeners.NewNet(id, ln)); err != nil {
				ln.Close()
				srv.Close()
				return nil, fmt.Errorf("broker: %w", err)
			}
		case "ws":
			addr := l.Addr
			if strings.HasSuffix(addr, ":0") {
				// mochi's WebSocket listener binds by address; find a
				// free port first.
				ln, err := net.Listen("tcp", addr)
				if err != nil {
					srv.Close()
					return nil, fmt.Errorf("broker: listener %s: %w", l.Addr, err)
				}
				addr = ln.Addr().String()
				ln.Close()
			}
			e.addrs = append(e.addrs, addr)
			if err := srv.AddListener(listeners.NewWebsocket(listeners.Config{ID: id, Address: addr, TLSConfig: l.TLS})); err != nil {
				srv.Close()
				return nil, fmt.Errorf("broker: %w", err)
			}
		default:
			srv.Close()
			return nil, fmt.Errorf("broker: listener kind %q: want tcp or ws", l.Kind)
		}
		e.kinds = append(e.kinds, l.Kind)
	}
	if err := srv.Serve(); err != nil {
		srv.Close()
		return nil, fmt.Errorf("broker: %w", err)
	}
	return e, nil
}

// Addr is listener i's bound address.
func (e *Embedded) Addr(i int) string { return e.addrs[i] }

// URL is the first TCP listener's address as a client on this host dials
// it.
func (e *Embedded) URL() string {
	for i, k := range e.kinds {
		if k != "tcp" {
			continue
		}
		host, port, _ := net.SplitHostPort(e.addrs[i])
		if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
			host = "127.0.0.1"
		}
		return "tcp://" + net.JoinHostPort(host, port)
	}
	return ""
}

// closeDrain bounds how long Close waits for subscribers to acknowledge
// what is already on its way to them.
const closeDrain = 2 * time.Second

// Close stops the broker. It first lets connected subscribers receive
// what was published before it (the board's last "offline" status above
// all), for up to closeDrain: mochi drops a client's write queue when it
// disconnects it, so a viewer would otherwise keep a stale "online".
func (e *Embedded) Close() error {
	e.drain(closeDrain)
	return e.srv.Close()
}

// drain waits until no connected client has a QoS 1/2 delivery
// unacknowledged, or until d has passed. A client's queue is written in
// order, so QoS 0 messages queued before the last acknowledged one are
// out too.
func (e *Embedded) drain(d time.Duration) {
	deadline := time.Now().Add(d)
	for {
		busy := false
		for _, cl := range e.srv.Clients.GetAll() {
			if !cl.Net.Inline && !cl.Closed() && cl.State.Inflight.Len() > 0 {
				busy = true
				break
			}
		}
		if !busy || time.Now().After(deadline) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// authHook authenticates and authorises clients with Config's passwords
// and ACL. mochi denies everything without such a hook.
type authHook struct {
	mqtt.HookBase
	cfg  Config
	byID map[string]Listener
	mu   sync.Mutex
}

func (h *authHook) ID() string { return "boardd-auth" }

func (h *authHook) Provides(b byte) bool {
	return b == mqtt.OnConnectAuthenticate || b == mqtt.OnACLCheck
}

func (h *authHook) OnConnectAuthenticate(cl *mqtt.Client, pk packets.Packet) bool {
	l := h.byID[cl.Net.Listener]
	if l.IdentityAsUsername {
		tc, ok := cl.Net.Conn.(*tls.Conn)
		if !ok {
			return false
		}
		st := tc.ConnectionState()
		if len(st.PeerCertificates) == 0 || st.PeerCertificates[0].Subject.CommonName == "" {
			return false
		}
		h.mu.Lock()
		cl.Properties.Username = []byte(st.PeerCertificates[0].Subject.CommonName)
		h.mu.Unlock()
		return true
	}
	user := string(pk.Connect.Username)
	if user == "" {
		return h.cfg.AllowAnonymous
	}
	return h.cfg.Passwords.Check(user, string(pk.Connect.Password))
}

func (h *authHook) OnACLCheck(cl *mqtt.Client, topic string, write bool) bool {
	h.mu.Lock()
	user := string(cl.Properties.Username)
	h.mu.Unlock()
	if write {
		return h.cfg.ACL.Allowed(user, cl.ID, topic, Write)
	}
	if rest, ok := strings.CutPrefix(topic, "$share/"); ok {
		if _, f, ok := strings.Cut(rest, "/"); ok {
			topic = f
		}
	}
	if strings.ContainsAny(topic, "+#") {
		return h.cfg.ACL.AllowedFilter(user, cl.ID, topic)
	}
	return h.cfg.ACL.Allowed(user, cl.ID, topic, Read)
}
