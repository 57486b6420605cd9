package publish

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
)

// PahoDialer connects with github.com/eclipse/paho.mqtt.golang (MQTT
// 3.1.1). It uses the library as a plain connection: one client per
// connection, auto-reconnect off, clean session off (the broker keeps the
// board's subscription and queues commands while it is away), a fresh
// in-memory store per connection so the library never replays old
// messages on its own. Inbound messages are handed over in arrival order
// through an unbounded queue, so the library's ordered router never waits
// on a slow consumer (the deadlock of its issues #474/#509).
type PahoDialer struct {
	// URL is the broker: tcp://host:1883, ssl://host:8883 (TLS),
	// ws://host:port/path or wss://host:port/path.
	URL      string
	Username string
	Password string
	// TLS is used for ssl:// and wss:// (see TLSConfig for client
	// certificates).
	TLS *tls.Config
	// KeepAlive (default 10 s): the broker sends the will about 1.5 times
	// this after the board goes silent.
	KeepAlive time.Duration
	// ConnectTimeout and WriteTimeout default to 10 s.
	ConnectTimeout time.Duration
	WriteTimeout   time.Duration
}

// Dial connects.
func (d PahoDialer) Dial(ctx context.Context, o DialOptions) (Conn, error) {
	if d.URL == "" {
		return nil, errors.New("no broker URL")
	}
	ka := d.KeepAlive
	if ka <= 0 {
		ka = 10 * time.Second
	}
	ct, wt := d.ConnectTimeout, d.WriteTimeout
	if ct <= 0 {
		ct = 10 * time.Second
	}
	if wt <= 0 {
		wt = 10 * time.Second
	}
	pc := &pahoConn{lost: make(chan struct{})}
	pc.inq.cond = sync.NewCond(&pc.inq.mu)
	handler := func(_ mqtt.Client, m mqtt.Message) { pc.inq.push(m.Topic(), m.Payload()) }
	if o.OnMessage != nil {
		go pc.inq.drain(o.OnMessage)
	}
	opts := mqtt.NewClientOptions().
		AddBroker(d.URL).
		SetClientID(o.ClientID).
		SetUsername(d.Username).
		SetPassword(d.Password).
		SetProtocolVersion(4).
		SetCleanSession(false).
		SetAutoReconnect(false).
		SetConnectRetry(false).
		SetOrderMatters(true).
		SetStore(mqtt.NewMemoryStore()).
		SetKeepAlive(ka).
		SetPingTimeout(max(ka/2, time.Second)).
		SetConnectTimeout(ct).
		SetWriteTimeout(wt).
		SetDefaultPublishHandler(handler).
		SetConnectionLostHandler(func(mqtt.Client, error) { pc.markLost() })
	if d.TLS != nil {
		opts.SetTLSConfig(d.TLS)
	}
	if o.Will != nil {
		opts.SetBinaryWill(o.Will.Topic, o.Will.Payload, o.Will.QoS, o.Will.Retain)
	}
	pc.handler = handler
	pc.c = mqtt.NewClient(opts)
	tok := pc.c.Connect()
	select {
	case <-tok.Done():
	case <-ctx.Done():
		// Once the connection is up, close it with a DISCONNECT: closed
		// half-way, the broker would send the will.
		go func() {
			tok.Wait()
			pc.c.Disconnect(250)
		}()
		return nil, ctx.Err()
	}
	if err := tok.Error(); err != nil {
		pc.inq.close()
		return nil, fmt.Errorf("%s: %w", d.URL, err)
	}
	return pc, nil
}

// inQueue hands inbound messages to the consumer in order without ever
// blocking the client library.
type inQueue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	msgs   []Message
	closed bool
}

func (q *inQueue) push(topic string, payload []byte) {
	q.mu.Lock()
	if !q.closed {
		q.msgs = append(q.msgs, Message{Topic: topic, Payload: payload})
		q.cond.Signal()
	}
	q.mu.Unlock()
}

func (q *inQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Broadcast()
	q.mu.Unlock()
}

// drain delivers until the queue is closed and empty.
func (q *inQueue) drain(fn func(string, []byte)) {
	for {
		q.mu.Lock()
		for len(q.msgs) == 0 && !q.closed {
			q.cond.Wait()
		}
		if len(q.msgs) == 0 {
			q.mu.Unlock()
			return
		}
		m := q.msgs[0]
		q.msgs[0] = Message{}
		q.msgs = q.msgs[1:]
		q.mu.Unlock()
		fn(m.Topic, m.Payload)
	}
}

type pahoConn struct {
	c       mqtt.Client
	handler mqtt.MessageHandler
	lost    chan struct{}
	once    sync.Once
	inq     inQueue
}

func (c *pahoConn) markLost() {
	c.once.Do(func() {
		close(c.lost)
		c.inq.close()
	})
}

func (c *pahoConn) Publish(m Message) Ack {
	if !c.c.IsConnectionOpen() {
		return FailedAck(ErrConnLost)
	}
	return pahoAck{c.c.Publish(m.Topic, m.QoS, m.Retain, m.Payload)}
}

func (c *pahoConn) Subscribe(ctx context.Context, filter string, qos byte) error {
	tok := c.c.Subscribe(filter, qos, c.handler)
	select {
	case <-tok.Done():
	case <-ctx.Done():
		return ctx.Err()
	case <-c.lost:
		return ErrConnLost
	}
	if err := tok.Error(); err != nil {
		return err
	}
	if st, ok := tok.(*mqtt.SubscribeToken); ok {
		if code, ok := st.Result()[filter]; ok && code == 0x80 {
			return fmt.Errorf("broker refused the subscription to %s", filter)
		}
	}
	return nil
}

func (c *pahoConn) Lost() <-chan struct{} { return c.lost }

func (c *pahoConn) Close() {
	c.c.Disconnect(250)
	c.markLost()
}

type pahoAck struct{ t mqtt.Token }

func (a pahoAck) Done() <-chan struct{} { return a.t.Done() }
func (a pahoAck) Err() error            { return a.t.Error() }

// TLSConfig builds a client TLS configuration: caFile (PEM) verifies the
// broker (the system roots if empty); certFile and keyFile (PEM) are the
// board's client certificate, whose CN is its board id.
func TLSConfig(caFile, certFile, keyFile string) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("broker CA: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("broker CA %s: no PEM certificate in it", caFile)
		}
		cfg.RootCAs = pool
	}
	if certFile != "" || keyFile != "" {
		if certFile == "" || keyFile == "" {
			return nil, errors.New("client certificate: both the certificate and the key file are needed")
		}
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}
