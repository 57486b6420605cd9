// Package publishtest provides an in-memory MQTT broker that implements
// publish.Dialer, for tests of code that publishes or consumes board
// topics without a real broker. It keeps retained messages and persistent
// sessions (QoS 1 messages are queued for a subscriber that is away), sends
// wills, and can be taken down and brought back to simulate an outage.
package publishtest

import (
	"context"
	"errors"
	"sync"

	"github.com/boardd/boardd/publish"
)

// Broker is the fake broker. The zero value is not usable; use New.
type Broker struct {
	mu        sync.Mutex
	down      bool
	retained  map[string]publish.Message
	sessions  map[string]*session
	observers []*Observer
	published int
	// failAfter > 0: the broker drops every connection after that many
	// more publishes (the message that hits the limit is lost).
	failAfter int
}

type session struct {
	id     string
	subs   map[string]byte
	queue  []publish.Message // QoS 1 messages while away
	conn   *conn
	onMsg  func(string, []byte)
	online bool
}

// New returns a running broker.
func New() *Broker {
	return &Broker{retained: map[string]publish.Message{}, sessions: map[string]*session{}}
}

// ErrDown is returned by Dial while the broker is down.
var ErrDown = errors.New("publishtest: broker down")

// Dial implements publish.Dialer.
func (b *Broker) Dial(ctx context.Context, o publish.DialOptions) (publish.Conn, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.down {
		return nil, ErrDown
	}
	s := b.sessions[o.ClientID]
	if s == nil {
		s = &session{id: o.ClientID, subs: map[string]byte{}}
		b.sessions[o.ClientID] = s
	}
	if s.conn != nil {
		b.dropLocked(s.conn, true) // session takeover
	}
	c := &conn{b: b, s: s, will: o.Will, lost: make(chan struct{}), deliver: make(chan publish.Message, 1<<16)}
	s.conn, s.onMsg, s.online = c, o.OnMessage, true
	go c.run(s.onMsg)
	for _, m := range s.queue {
		c.deliver <- m
	}
	s.queue = nil
	return c, nil
}

// Down drops every connection (sending wills) and refuses new ones until
// Up. Persistent sessions and retained messages survive, as with a broker
// that persists its state.
func (b *Broker) Down() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.down = true
	for _, s := range b.sessions {
		if s.conn != nil {
			b.dropLocked(s.conn, false)
		}
	}
}

// Up accepts connections again.
func (b *Broker) Up() {
	b.mu.Lock()
	b.down = false
	b.mu.Unlock()
}

// Kill drops a client's connection as if its network died: the will is
// sent.
func (b *Broker) Kill(clientID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s := b.sessions[clientID]; s != nil && s.conn != nil {
		b.dropLocked(s.conn, true)
	}
}

// FailAfter makes the broker drop all connections after n more publishes;
// the nth is lost (never delivered, never acknowledged).
func (b *Broker) FailAfter(n int) {
	b.mu.Lock()
	b.failAfter = n
	b.mu.Unlock()
}

// Published counts the publishes the broker accepted.
func (b *Broker) Published() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.published
}

// Retained returns the retained message of a topic.
func (b *Broker) Retained(topic string) (publish.Message, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	m, ok := b.retained[topic]
	return m, ok
}

// Observer sees every message matching its filter, in broker order,
// including (first) the retained ones at the time it subscribed.
type Observer struct {
	filter string
	mu     sync.Mutex
	msgs   []publish.Message
	cond   *sync.Cond
}

// Observe starts observing filter.
func (b *Broker) Observe(filter string) *Observer {
	o := &Observer{filter: filter}
	o.cond = sync.NewCond(&o.mu)
	b.mu.Lock()
	defer b.mu.Unlock()
	for t, m := range b.retained {
		if publish.MatchTopic(filter, t) {
			o.msgs = append(o.msgs, m)
		}
	}
	b.observers = append(b.observers, o)
	return o
}

// Messages returns what the observer has seen so far.
func (o *Observer) Messages() []publish.Message {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]publish.Message(nil), o.msgs...)
}

func (o *Observer) add(m publish.Message) {
	o.mu.Lock()
	o.msgs = append(o.msgs, m)
	o.cond.Broadcast()
	o.mu.Unlock()
}

func (b *Broker) dropLocked(c *conn, sendWill bool) {
	if c.closed {
		return
	}
	c.closed = true
	close(c.lost)
	close(c.deliver)
	c.s.conn = nil
	c.s.online = false
	if sendWill && c.will != nil {
		b.routeLocked(*c.will)
	}
}

func (b *Broker) routeLocked(m publish.Message) {
	if m.Retain {
		if len(m.Payload) == 0 {
			delete(b.retained, m.Topic)
		} else {
			b.retained[m.Topic] = m
		}
	}
	for _, o := range b.observers {
		if publish.MatchTopic(o.filter, m.Topic) {
			o.add(m)
		}
	}
	for _, s := range b.sessions {
		qos := -1
		for f, q := range s.subs {
			if publish.MatchTopic(f, m.Topic) && int(q) > qos {
				qos = int(q)
			}
		}
		if qos < 0 {
			continue
		}
		d := m
		d.Retain = false
		d.QoS = min(m.QoS, byte(qos))
		switch {
		case s.conn != nil:
			s.conn.deliver <- d
		case d.QoS > 0:
			s.queue = append(s.queue, d)
		}
	}
}

type conn struct {
	b       *Broker
	s       *session
	will    *publish.Message
	lost    chan struct{}
	deliver chan publish.Message
	closed  bool
}

func (c *conn) run(on func(string, []byte)) {
	for m := range c.deliver {
		if on != nil {
			on(m.Topic, m.Payload)
		}
	}
}

func (c *conn) Publish(m publish.Message) publish.Ack {
	b := c.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if c.closed {
		return publish.FailedAck(publish.ErrConnLost)
	}
	if b.failAfter > 0 {
		b.failAfter--
		if b.failAfter == 0 {
			for _, s := range b.sessions {
				if s.conn != nil {
					b.dropLocked(s.conn, true)
				}
			}
			return publish.FailedAck(publish.ErrConnLost)
		}
	}
	b.published++
	m.Payload = append([]byte(nil), m.Payload...)
	b.routeLocked(m)
	return publish.FailedAck(nil)
}

func (c *conn) Subscribe(ctx context.Context, filter string, qos byte) error {
	b := c.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if c.closed {
		return publish.ErrConnLost
	}
	c.s.subs[filter] = qos
	for t, m := range b.retained {
		if publish.MatchTopic(filter, t) {
			c.deliver <- m
		}
	}
	return nil
}

func (c *conn) Lost() <-chan struct{} { return c.lost }

func (c *conn) Close() {
	c.b.mu.Lock()
	defer c.b.mu.Unlock()
	c.b.dropLocked(c, false)
}
