package publish

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
)

// The MQTT client is only a transport: the journal decides what is sent
// and in which order, and re-sends from the journal after a reconnect. The
// interfaces are small so that another client (paho.golang's autopaho for
// MQTT 5) can replace paho.mqtt.golang, and so that tests can use a fake.

// Message is one MQTT message.
type Message struct {
	Topic   string
	Payload []byte
	QoS     byte
	Retain  bool
}

// Ack is the outcome of a publish: Done is closed when the broker has
// acknowledged it (QoS 1) or it has been written (QoS 0), or the send
// failed; Err then says which.
type Ack interface {
	Done() <-chan struct{}
	Err() error
}

// Conn is one connection to a broker. A Conn is not reconnected: when it
// is lost, Lost is closed and the Publisher dials a new one. That keeps the
// client library's own offline queue and redelivery out of the picture
// (paho.mqtt.golang replays its store out of order and drops QoS 0 during
// a reconnect).
type Conn interface {
	// Publish sends m. It must not block for long; the outcome comes
	// through the Ack.
	Publish(m Message) Ack
	// Subscribe subscribes to filter; messages arrive through
	// DialOptions.OnMessage.
	Subscribe(ctx context.Context, filter string, qos byte) error
	// Lost is closed when the connection is gone.
	Lost() <-chan struct{}
	// Close disconnects cleanly (the broker does not send the will).
	Close()
}

// DialOptions are what a Publisher asks of a connection.
type DialOptions struct {
	// ClientID is stable per board, and the session is persistent (clean
	// session off), so commands queued while the board was away are
	// delivered when it returns.
	ClientID string
	// Will is the last will (retained, QoS 1, on <b>/status).
	Will *Message
	// OnMessage receives inbound messages. It may block briefly (the
	// Publisher only queues them); it must be safe for concurrent calls.
	OnMessage func(topic string, payload []byte)
}

// UniqueClientID is prefix with a random suffix nobody can guess, for a
// client whose login cannot reserve its id (an anonymous one) or whose
// runs must not share a session.
func UniqueClientID(prefix string) (string, error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("client id: %w", err)
	}
	return prefix + "-" + hex.EncodeToString(b[:]), nil
}

// Dialer opens connections.
type Dialer interface {
	Dial(ctx context.Context, o DialOptions) (Conn, error)
}

// ErrConnLost is returned when a connection drops while a publish waits.
var ErrConnLost = errors.New("publish: connection lost")

// doneAck is an Ack that is already complete.
type doneAck struct{ err error }

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (a doneAck) Done() <-chan struct{} { return closedChan }
func (a doneAck) Err() error            { return a.err }

// FailedAck returns an Ack that has already failed with err.
func FailedAck(err error) Ack { return doneAck{err} }
