package relay

import (
	"container/heap"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
)

// MirrorLeaves are the topics a viewer may read, the ones the venue ACL
// gives anonymous clients; a mirror copies these and nothing else
// (commands and replies stay on the venue broker).
var MirrorLeaves = []string{
	publish.LeafStatus, publish.LeafState, publish.LeafMove, publish.LeafCorrection,
	publish.LeafPGN, publish.LeafClock, publish.LeafAlert, publish.LeafAlertsActive,
}

// retainedLeaf reports whether the boards publish leaf retained
// (docs/mqtt.md), so the mirror keeps the same topics for late viewers.
func retainedLeaf(leaf string) bool {
	switch leaf {
	case publish.LeafStatus, publish.LeafState, publish.LeafPGN, publish.LeafClock, publish.LeafAlertsActive:
		return true
	}
	return false
}

// DefaultMirrorQueue bounds the messages a mirror holds back: about 15
// minutes of 200 boards with running clocks.
const DefaultMirrorQueue = 200 * 2 * 15 * 60

// MirrorConfig configures a Mirror.
type MirrorConfig struct {
	// From is the venue broker (read access to chess/v1/#), To the broker
	// the viewers read (write access to chess/v1/#).
	From, To publish.Dialer
	// ClientID is the client id at both brokers (default boardd-mirror).
	ClientID string
	// Boards limits the mirror to these board ids; empty means all.
	Boards []string
	// Delay holds every message back until its ts (or, when later, its
	// arrival) is Delay old.
	Delay time.Duration
	// MaxQueued bounds the messages held back (default
	// DefaultMirrorQueue); beyond it the oldest are dropped.
	MaxQueued int
	Logger    *slog.Logger
	Now       func() time.Time
}

// Mirror republishes the boards' viewer topics to another broker, each
// message held back by the transmission delay. Pages that read the
// mirror's broker see the games exactly as live viewers would, only
// Delay later: a move, a state or a clock is never out before its time.
type Mirror struct {
	cfg     MirrorConfig
	log     *slog.Logger
	q       mirrorQueue
	seq     uint64
	last    map[string]time.Time // topic -> release time of its last message, to keep each topic in order
	in      chan publish.Message
	dropped int
}

type held struct {
	at  time.Time // when it may be released
	seq uint64    // arrival order among equal times
	msg publish.Message
}

type mirrorQueue []held

func (q mirrorQueue) Len() int { return len(q) }
func (q mirrorQueue) Less(i, j int) bool {
	if !q[i].at.Equal(q[j].at) {
		return q[i].at.Before(q[j].at)
	}
	return q[i].seq < q[j].seq
}
func (q mirrorQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *mirrorQueue) Push(x any)   { *q = append(*q, x.(held)) }
func (q *mirrorQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// NewMirror returns a mirror.
func NewMirror(cfg MirrorConfig) (*Mirror, error) {
	if cfg.From == nil || cfg.To == nil {
		return nil, fmt.Errorf("relay mirror: need both brokers")
	}
	if cfg.Delay < 0 {
		return nil, fmt.Errorf("relay mirror: negative delay %v", cfg.Delay)
	}
	for _, b := range cfg.Boards {
		if err := publish.ValidBoardID(b); err != nil {
			return nil, fmt.Errorf("relay mirror: %w", err)
		}
	}
	if cfg.ClientID == "" {
		cfg.ClientID = "boardd-mirror"
	}
	if cfg.MaxQueued <= 0 {
		cfg.MaxQueued = DefaultMirrorQueue
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Mirror{cfg: cfg, log: cfg.Logger, last: map[string]time.Time{}, in: make(chan publish.Message, 1024)}, nil
}

// hold queues one message from the venue broker. The release time is
// the message's ts plus the delay, as for the round PGN, but never
// earlier than its arrival plus the delay: a board whose clock runs
// behind must not get its moves out early. Messages without a readable
// ts wait Delay from arrival.
func (m *Mirror) hold(msg publish.Message, now time.Time) {
	at := now
	var h publish.Header
	if json.Unmarshal(msg.Payload, &h) == nil && h.TS != "" {
		if ts, err := time.Parse(time.RFC3339Nano, h.TS); err == nil && ts.Before(at) {
			at = ts
		}
	}
	// Retained snapshots that arrive at subscription are often old: they
	// wait only what is left of their delay.
	at = at.Add(m.cfg.Delay)
	if prev, ok := m.last[msg.Topic]; ok && at.Before(prev) {
		at = prev
	}
	m.last[msg.Topic] = at
	m.seq++
	heap.Push(&m.q, held{at: at, seq: m.seq, msg: msg})
	for m.q.Len() > m.cfg.MaxQueued {
		// The earliest is dropped: it leaks nothing, a viewer only misses
		// an intermediate message.
		heap.Pop(&m.q)
		m.dropped++
		if m.dropped == 1 || m.dropped%1000 == 0 {
			m.log.Warn("relay mirror: too many messages held back; dropping the oldest", "max", m.cfg.MaxQueued, "dropped", m.dropped)
		}
	}
}

// due pops the messages whose time has come, oldest first.
func (m *Mirror) due(now time.Time) []publish.Message {
	var out []publish.Message
	for m.q.Len() > 0 && !m.q[0].at.After(now) {
		out = append(out, heap.Pop(&m.q).(held).msg)
	}
	return out
}

// next is when the earliest held message is due (zero when none is).
func (m *Mirror) next() time.Time {
	if m.q.Len() == 0 {
		return time.Time{}
	}
	return m.q[0].at
}

func (m *Mirror) onMessage(topic string, payload []byte) {
	board, leaf, ok := publish.SplitTopic(topic)
	if !ok || !m.wanted(board, leaf) {
		return
	}
	m.in <- publish.Message{Topic: topic, Payload: append([]byte(nil), payload...), QoS: 1, Retain: retainedLeaf(leaf)}
}

func (m *Mirror) wanted(board, leaf string) bool {
	found := false
	for _, l := range MirrorLeaves {
		found = found || l == leaf
	}
	if !found {
		return false
	}
	if len(m.cfg.Boards) == 0 {
		return true
	}
	for _, b := range m.cfg.Boards {
		if b == board {
			return true
		}
	}
	return false
}

// Run mirrors until ctx is done, reconnecting to either broker with
// backoff. Messages due while the viewers' broker is away are sent when it
// is back.
func (m *Mirror) Run(ctx context.Context) error {
	out := make(chan publish.Conn, 1)
	go m.keep(ctx, "venue", m.cfg.From, func(ctx context.Context, c publish.Conn) error {
		for _, f := range m.filters() {
			if err := c.Subscribe(ctx, f, 1); err != nil {
				return fmt.Errorf("subscribe %s: %w", f, err)
			}
		}
		return nil
	}, m.onMessage)
	go m.keep(ctx, "viewers", m.cfg.To, func(ctx context.Context, c publish.Conn) error {
		select {
		case out <- c:
		case <-ctx.Done():
		}
		return nil
	}, nil)
	var conn publish.Conn
	var pending []publish.Message
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		now := m.cfg.Now()
		pending = append(pending, m.due(now)...)
		if n := len(pending) - m.cfg.MaxQueued; n > 0 {
			pending = pending[n:] // the viewers' broker is away for long
		}
		if conn != nil {
			select {
			case <-conn.Lost():
				conn = nil
			default:
			}
		}
		for conn != nil && len(pending) > 0 {
			ack := conn.Publish(pending[0])
			// QoS 1 acknowledgements are waited for so that a lost
			// connection keeps the message for the next one.
			select {
			case <-ack.Done():
			case <-ctx.Done():
				return nil
			}
			if err := ack.Err(); err != nil {
				m.log.Warn("relay mirror: publish", "topic", pending[0].Topic, "err", err)
				conn.Close() // so that keep dials a new one
				conn = nil
				break
			}
			pending = pending[1:]
		}
		wait := time.Hour
		if n := m.next(); !n.IsZero() {
			wait = max(n.Sub(now), time.Millisecond)
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return nil
		case msg := <-m.in:
			m.hold(msg, m.cfg.Now())
		case c := <-out:
			conn = c
		case <-timer.C:
		}
	}
}

func (m *Mirror) filters() []string {
	var fs []string
	boards := m.cfg.Boards
	if len(boards) == 0 {
		boards = []string{"+"}
	}
	for _, b := range boards {
		for _, l := range MirrorLeaves {
			fs = append(fs, publish.TopicPrefix+b+"/"+l)
		}
	}
	return fs
}

// keep holds one connection to d, redialling with backoff when it is lost.
func (m *Mirror) keep(ctx context.Context, name string, d publish.Dialer, setup func(context.Context, publish.Conn) error, onMessage func(string, []byte)) {
	delay := time.Second
	for ctx.Err() == nil {
		conn, err := d.Dial(ctx, publish.DialOptions{ClientID: m.cfg.ClientID, OnMessage: onMessage})
		if err == nil {
			if err = setup(ctx, conn); err == nil {
				delay = time.Second
				select {
				case <-ctx.Done():
				case <-conn.Lost():
					err = publish.ErrConnLost
				}
			}
			conn.Close()
		}
		if ctx.Err() != nil {
			return
		}
		m.log.Warn("relay mirror: broker connection", "broker", name, "err", err, "retry_in", delay, "hint", loginHint(err))
		select {
		case <-ctx.Done():
		case <-time.After(delay):
		}
		delay = min(2*delay, 30*time.Second)
	}
}

// ViewerBroker is a broker on loopback that only a mirror writes to and
// viewers read: its WebSocket listener is what a web server forwards the
// pages' /mqtt to. Anonymous clients may read the viewer topics and write
// nothing, so a console reached through it is read-only.
type ViewerBroker struct {
	// WS is the WebSocket listener's URL (ws://127.0.0.1:port/).
	WS string
	// Dialer connects as the mirror (the only account that may write).
	Dialer publish.Dialer
	b      *broker.Embedded
}

// StartViewerBroker starts a ViewerBroker on free loopback ports.
func StartViewerBroker(log *slog.Logger) (*ViewerBroker, error) {
	var acl strings.Builder
	for _, l := range MirrorLeaves {
		fmt.Fprintf(&acl, "topic read %s+/%s\n", publish.TopicPrefix, l)
	}
	acl.WriteString("user mirror\ntopic readwrite chess/v1/#\n")
	a, err := broker.ParseACL(strings.NewReader(acl.String()))
	if err != nil {
		return nil, fmt.Errorf("viewer broker: %w", err)
	}
	secret := make([]byte, 18)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("viewer broker: %w", err)
	}
	password := base64.RawURLEncoding.EncodeToString(secret)
	pw := broker.Passwords{}
	if err := pw.Set("mirror", password); err != nil {
		return nil, fmt.Errorf("viewer broker: %w", err)
	}
	b, err := broker.Start(broker.Config{
		Listeners:      []broker.Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}, {Kind: "ws", Addr: "127.0.0.1:0"}},
		Passwords:      pw,
		ACL:            a,
		AllowAnonymous: true,
		Logger:         log,
	})
	if err != nil {
		return nil, fmt.Errorf("viewer broker: %w", err)
	}
	return &ViewerBroker{
		WS:     "ws://" + b.Addr(1) + "/",
		Dialer: publish.PahoDialer{URL: b.URL(), Username: "mirror", Password: password},
		b:      b,
	}, nil
}

// Close stops the broker.
func (v *ViewerBroker) Close() error { return v.b.Close() }
