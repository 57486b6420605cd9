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
//
// PasswdCmd is boardd's passwd command.
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

	"github.com/boardd/boardd/internal/ratelimit"
	"github.com/boardd/boardd/publish"
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
	// Limits bound what one address or user may do; zero fields take
	// DefaultLimits()' values.
	Limits Limits
	Logger *slog.Logger
	// Now replaces time.Now (tests).
	Now func() time.Time
}

// Limits are the broker's rate limits and caps. A rate is per second; a
// burst is how many may come at once.
type Limits struct {
	// Connections per listener and remote address. Connections from this
	// host (the board; browsers through the web server's /mqtt proxy,
	// which limits each browser's address itself) are not counted unless
	// LimitLoopback is set.
	ConnectRate, ConnectBurst float64
	LimitLoopback             bool
	// Failed logins per listener and remote address. Once the burst is
	// spent, every login from that address is refused unchecked (no
	// password hash is computed) until a token comes back.
	LoginFailRate, LoginFailBurst float64
	// LoginWait is how long a login waits for another's costly password
	// check (Passwords.Set's cost) to finish: one runs at a time.
	LoginWait time.Duration
	// Commands (<prefix>/<board>/cmd/<verb>) per user and board; beyond
	// them a command is acknowledged and dropped (MQTT 5: refused with
	// "quota exceeded"), so it never reaches the board's journal.
	CommandRate, CommandBurst float64
	// CommandSize is the largest command payload passed on.
	CommandSize int
	// Keys is how many addresses or users each limit tracks at once.
	Keys int
}

// DefaultLimits are the limits a Config leaves at zero: a console
// reloading or a board reconnecting never meets them; a script guessing
// passwords gets one try in 10 s after its first five; a user flooding one
// board with commands gets one a second through after its first ten.
func DefaultLimits() Limits {
	return Limits{
		ConnectRate: 2, ConnectBurst: 20,
		LoginFailRate: 0.1, LoginFailBurst: 5, LoginWait: 10 * time.Second,
		CommandRate: 1, CommandBurst: 10,
		CommandSize: publish.MaxCommandSize,
		Keys:        4096,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	pick := func(v *float64, def float64) {
		if *v <= 0 {
			*v = def
		}
	}
	pick(&l.ConnectRate, d.ConnectRate)
	pick(&l.ConnectBurst, d.ConnectBurst)
	pick(&l.LoginFailRate, d.LoginFailRate)
	pick(&l.LoginFailBurst, d.LoginFailBurst)
	pick(&l.CommandRate, d.CommandRate)
	pick(&l.CommandBurst, d.CommandBurst)
	if l.LoginWait <= 0 {
		l.LoginWait = d.LoginWait
	}
	if l.CommandSize <= 0 {
		l.CommandSize = d.CommandSize
	}
	if l.Keys <= 0 {
		l.Keys = d.Keys
	}
	return l
}

// ClientIDPrefix marks the client ids reserved to one account: when the
// broker has a password for <name>, the client id "boardd-<name>" may only
// be used by the user <name> (a board logs in as its id and connects as
// boardd-<id>; the relay as relay and boardd-relay). MQTT gives a client
// id to whoever connects with it last, so without this anyone could knock
// a board off its broker.
const ClientIDPrefix = "boardd-"

// DefaultACL is the venue ACL, identical to deploy/mosquitto/acl (a test
// keeps them equal): each board owns its subtree (its username is its
// board id), arbiters read everything and may acknowledge alerts and
// enter results, directors may send every command, relays and anonymous
// viewers only read.
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

# Arbiters see everything and may only acknowledge alerts, enter results
# and correct moves.
user arbiter
topic read chess/v1/#
topic write chess/v1/board/+/cmd/ack_alert
topic write chess/v1/board/+/cmd/set_result
topic write chess/v1/board/+/cmd/correct_move

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
	fan   *fanoutHook
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
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.Limits = cfg.Limits.withDefaults()
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
		Logger:                 slog.New(brokerLog{cfg.Logger.Handler()}),
		SysTopicResendInterval: 60,
	})
	h := newAuthHook(cfg)
	if err := srv.AddHook(h, nil); err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	fan := &fanoutHook{pending: map[*mqtt.Client]int{}}
	if err := srv.AddHook(fan, nil); err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	e := &Embedded{srv: srv, fan: fan}
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
			// mochi's WebSocket listener binds by address when it serves
			// and only logs a failure: bind here first, so that a port in
			// use (another listener's, another program's) stops the start
			// with an error, and a port 0 becomes a free one.
			ln, err := net.Listen("tcp", l.Addr)
			if err != nil {
				srv.Close()
				return nil, fmt.Errorf("broker: listener %s: %w", l.Addr, err)
			}
			addr := ln.Addr().String()
			ln.Close()
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

// closeStall is how long Close waits for subscribers to acknowledge what
// is already on its way to them without any of it being acknowledged;
// closeDrain bounds the whole wait, well inside systemd's stop timeout.
// A wait bounded only by time lost messages to a subscriber that was slow
// but still reading (a loaded Pi, a viewer on Wi-Fi).
const (
	closeStall = 2 * time.Second
	closeDrain = 8 * time.Second
)

// Close stops the broker. It first lets connected subscribers receive
// what was published before it (the board's last "offline" status above
// all), while they keep acknowledging, for up to closeDrain: mochi drops a
// client's write queue when it disconnects it, so a viewer would otherwise
// keep a stale "online".
func (e *Embedded) Close() error {
	e.drain(closeStall, closeDrain)
	return e.srv.Close()
}

// drain waits until no connected client has a QoS 1/2 delivery
// unacknowledged, until stall has passed with no delivery acknowledged,
// or until limit has passed. A client's queue is written in order, so QoS 0
// messages queued before the last acknowledged one are out too.
func (e *Embedded) drain(stall, limit time.Duration) {
	start := time.Now()
	deadline := start.Add(limit)
	lastProgress, lastLeft := start, -1
	for {
		left := e.fan.left()
		for _, cl := range e.srv.Clients.GetAll() {
			if !cl.Net.Inline && !cl.Closed() {
				left += cl.State.Inflight.Len()
			}
		}
		now := time.Now()
		if left == 0 || now.After(deadline) {
			return
		}
		if lastLeft < 0 || left < lastLeft {
			lastProgress = now
		}
		lastLeft = left
		if now.Sub(lastProgress) > stall {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// fanoutHook counts, per client, the publications mochi has taken but not
// yet handed to the subscribers' queues. mochi writes a QoS 1 PUBACK before
// that fan-out, so a board can be told its "offline" status arrived and
// disconnect while the status is still on its way to the queues Close
// drains; registered after authHook, it sees only what that let through.
type fanoutHook struct {
	mqtt.HookBase
	mu      sync.Mutex
	pending map[*mqtt.Client]int
}

func (h *fanoutHook) ID() string { return "boardd-fanout" }

func (h *fanoutHook) Provides(b byte) bool {
	return b == mqtt.OnPublish || b == mqtt.OnPublished || b == mqtt.OnDisconnect
}

func (h *fanoutHook) OnPublish(cl *mqtt.Client, pk packets.Packet) (packets.Packet, error) {
	if !cl.Net.Inline { // an inline publish is fanned out before it returns
		h.mu.Lock()
		h.pending[cl]++
		h.mu.Unlock()
	}
	return pk, nil
}

func (h *fanoutHook) OnPublished(cl *mqtt.Client, _ packets.Packet) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := h.pending[cl]; n > 1 {
		h.pending[cl] = n - 1
	} else {
		delete(h.pending, cl)
	}
}

// OnDisconnect forgets a client once mochi has stopped reading it (its
// read loop has ended: nothing it took is still on its way), so a viewer
// whose acknowledgement failed leaves no entry behind on a long-running
// board.
func (h *fanoutHook) OnDisconnect(cl *mqtt.Client, _ error, _ bool) {
	h.mu.Lock()
	delete(h.pending, cl)
	h.mu.Unlock()
}

// left is how many taken publications still wait for their fan-out. A
// closed client has none: mochi reads a client's packets in order, so it
// has fanned out all it took before it read the DISCONNECT, and one that
// failed on its acknowledgement is never fanned out.
func (h *fanoutHook) left() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for cl, k := range h.pending {
		if cl.Closed() {
			delete(h.pending, cl)
			continue
		}
		n += k
	}
	return n
}

// authHook authenticates and authorises clients with Config's passwords
// and ACL, and applies the limits. mochi denies everything without such a
// hook.
type authHook struct {
	mqtt.HookBase
	cfg  Config
	byID map[string]Listener
	mu   sync.Mutex

	connects, failures, commands *ratelimit.Limiter
	logs                         *ratelimit.Limiter // so that a flood is not also a flood of log lines
	hashing                      chan struct{}      // holds a token while a costly password check runs
}

// newAuthHook makes the hook of a Config whose defaults are filled in.
func newAuthHook(cfg Config) *authHook {
	lim := cfg.Limits
	return &authHook{
		cfg:      cfg,
		byID:     map[string]Listener{},
		connects: ratelimit.New(lim.ConnectRate, lim.ConnectBurst, lim.Keys, cfg.Now),
		failures: ratelimit.New(lim.LoginFailRate, lim.LoginFailBurst, lim.Keys, cfg.Now),
		commands: ratelimit.New(lim.CommandRate, lim.CommandBurst, lim.Keys, cfg.Now),
		logs:     ratelimit.New(1, 5, 16, cfg.Now),
		hashing:  make(chan struct{}, 1),
	}
}

func (h *authHook) ID() string { return "boardd-auth" }

func (h *authHook) Provides(b byte) bool {
	switch b {
	case mqtt.OnConnect, mqtt.OnConnectAuthenticate, mqtt.OnACLCheck, mqtt.OnPublish:
		return true
	}
	return false
}

// warn logs at most a few lines a second of each kind.
func (h *authHook) warn(kind, msg string, args ...any) {
	if h.logs.Allow(kind) {
		h.cfg.Logger.Warn(msg, args...)
	}
}

// source is the limits' key of a client: its listener and remote host.
func source(cl *mqtt.Client) string {
	host, _, err := net.SplitHostPort(cl.Net.Remote)
	if err != nil {
		host = cl.Net.Remote
	}
	return cl.Net.Listener + "|" + host
}

var errTooManyConnections = errors.New("broker: too many connections from this address")

// loopback reports whether a client connects from this host: the board
// itself, or browsers through the web server's /mqtt proxy, which limits
// each browser's address itself (one address here for all of them).
func loopback(cl *mqtt.Client) bool {
	host, _, err := net.SplitHostPort(cl.Net.Remote)
	ip := net.ParseIP(host)
	return err == nil && ip != nil && ip.IsLoopback()
}

func (h *authHook) OnConnect(cl *mqtt.Client, pk packets.Packet) error {
	if (h.cfg.Limits.LimitLoopback || !loopback(cl)) && !h.connects.Allow(source(cl)) {
		h.warn("connect", "broker: connection refused: too many from this address", "remote", cl.Net.Remote, "listener", cl.Net.Listener)
		return errTooManyConnections
	}
	return nil
}

func (h *authHook) OnConnectAuthenticate(cl *mqtt.Client, pk packets.Packet) bool {
	l := h.byID[cl.Net.Listener]
	user := string(pk.Connect.Username)
	if l.IdentityAsUsername {
		tc, ok := cl.Net.Conn.(*tls.Conn)
		if !ok {
			return false
		}
		st := tc.ConnectionState()
		if len(st.PeerCertificates) == 0 || st.PeerCertificates[0].Subject.CommonName == "" {
			return false
		}
		user = st.PeerCertificates[0].Subject.CommonName
		h.mu.Lock()
		cl.Properties.Username = []byte(user)
		h.mu.Unlock()
	} else if user == "" {
		if !h.cfg.AllowAnonymous {
			return false
		}
	} else {
		src := source(cl)
		if loopback(cl) {
			// Through the proxy every browser is this host: one
			// guesser must not lock every account out.
			src += "|" + user
		}
		if h.failures.Blocked(src) {
			h.warn("login", "broker: login refused unchecked: too many failed logins from this address", "remote", cl.Net.Remote, "user", user)
			return false
		}
		if h.cfg.Passwords.costly(user) {
			// One costly check at a time: logins through the proxy with
			// ever new user names pass the per-account limit, and each
			// costs a Pi's core for a while. Others wait their turn for
			// up to LoginWait.
			t := time.NewTimer(h.cfg.Limits.LoginWait)
			select {
			case h.hashing <- struct{}{}:
				t.Stop()
				defer func() { <-h.hashing }()
			case <-t.C:
				h.warn("busy", "broker: login refused: other password checks took its turn", "remote", cl.Net.Remote, "user", user)
				return false
			}
		}
		if !h.cfg.Passwords.Check(user, string(pk.Connect.Password)) {
			h.failures.Allow(src)
			h.warn("login", "broker: login failed", "remote", cl.Net.Remote, "user", user)
			return false
		}
	}
	if owner, ok := strings.CutPrefix(cl.ID, ClientIDPrefix); ok && owner != user && h.cfg.Passwords[owner] != "" {
		h.warn("clientid", "broker: client id reserved to another account; refused", "client_id", cl.ID, "user", user, "remote", cl.Net.Remote)
		return false
	}
	return true
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

// commandKey is whose commands to which board a bucket counts: the user's,
// whatever client id they connect with.
func commandKey(cl *mqtt.Client, user, board string) string {
	if user == "" {
		return "anonymous " + source(cl) + "|" + board
	}
	return "user " + user + "|" + board
}

// OnPublish caps and rate-limits commands, which mochi calls after the
// ACL allowed the publish: what is dropped here never reaches the board.
func (h *authHook) OnPublish(cl *mqtt.Client, pk packets.Packet) (packets.Packet, error) {
	if cl.Net.Inline {
		return pk, nil
	}
	board, leaf, ok := publish.SplitTopic(pk.TopicName)
	if !ok || !strings.HasPrefix(leaf, publish.LeafCmd+"/") {
		return pk, nil
	}
	h.mu.Lock()
	user := string(cl.Properties.Username)
	h.mu.Unlock()
	var code packets.Code
	switch {
	case len(pk.Payload) > h.cfg.Limits.CommandSize:
		h.warn("command-size", "broker: command dropped: payload too large", "user", user, "topic", pk.TopicName, "bytes", len(pk.Payload), "max", h.cfg.Limits.CommandSize)
		code = packets.ErrPacketTooLarge
	case !h.commands.Allow(commandKey(cl, user, board)):
		h.warn("command-rate", "broker: command dropped: too many from this user for this board", "user", user, "topic", pk.TopicName)
		code = packets.ErrQuotaExceeded
	default:
		return pk, nil
	}
	if cl.Properties.ProtocolVersion == 5 && pk.FixedHeader.Qos > 0 {
		return pk, code // a PUBACK with the reason
	}
	return pk, packets.CodeSuccessIgnore // acknowledged, not delivered
}
