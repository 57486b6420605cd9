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
// messages on its own, and an ordered-delivery-free router so a slow
// handler cannot deadlock it.
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
	handler := func(_ mqtt.Client, m mqtt.Message) {
		if o.OnMessage != nil {
			o.OnMessage(m.Topic(), m.Payload())
		}
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
		SetOrderMatters(false).
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
		go pc.c.Disconnect(0)
		return nil, ctx.Err()
	}
	if err := tok.Error(); err != nil {
		return nil, fmt.Errorf("%s: %w", d.URL, err)
	}
	return pc, nil
}

type pahoConn struct {
	c       mqtt.Client
	handler mqtt.MessageHandler
	lost    chan struct{}
	once    sync.Once
}

func (c *pahoConn) markLost() { c.once.Do(func() { close(c.lost) }) }

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
