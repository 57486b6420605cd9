package publish

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"
)

// Run connects to the broker and publishes until ctx is done, reconnecting
// with jittered exponential backoff; after each (re)connection it re-sends,
// in order, every event not yet acknowledged, then every retained topic.
// On return the board's status says offline (when the broker could be
// told). Without a Dialer, Run only retries writing events held while the
// journal could not be written.
func (p *Publisher) Run(ctx context.Context) error {
	retryDone := make(chan struct{})
	go func() {
		defer close(retryDone)
		p.retryHeld(ctx)
	}()
	defer func() { <-retryDone }()
	if p.cfg.Dialer == nil {
		<-ctx.Done()
		return nil
	}
	cmdDone := make(chan struct{})
	go func() {
		defer close(cmdDone)
		for {
			select {
			case <-ctx.Done():
				return
			case in := <-p.inbox:
				p.handleCommand(ctx, in)
			}
		}
	}()
	defer func() { <-cmdDone }()

	failures := 0
	for {
		conn, err := p.dial(ctx)
		if err == nil && ctx.Err() != nil {
			// Stopped while connecting: the connection is up now, so the
			// board can say offline and leave cleanly (see dial).
			p.goodbye(conn, nil)
			return nil
		}
		if err == nil {
			var healthy bool
			healthy, err = p.serve(ctx, conn)
			if healthy {
				failures = 0
			}
		}
		if ctx.Err() != nil {
			return nil
		}
		delay := p.backoff(failures)
		failures++
		p.log.Warn("broker connection failed; retrying", "err", err, "in", delay.Round(time.Millisecond))
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

// backoff is "full jitter": uniform in [0, min(max, min*2^n)], but at
// least a tenth of the minimum so a dead broker is not hammered.
func (p *Publisher) backoff(n int) time.Duration {
	ceil := p.cfg.BackoffMin << min(n, 20)
	if ceil > p.cfg.BackoffMax || ceil <= 0 {
		ceil = p.cfg.BackoffMax
	}
	d := time.Duration(rand.Int64N(int64(ceil) + 1))
	return max(d, p.cfg.BackoffMin/10)
}

func (p *Publisher) dial(ctx context.Context) (Conn, error) {
	p.mu.Lock()
	// The will and the status of this connection share a (session, seq)
	// that is at least that of any status published before, so the will
	// replaces this connection's status and a later connection's status
	// replaces the will (subscribers accept an equal header on retained
	// topics).
	p.statusHdr = p.header(p.lastSeqLocked(), p.cfg.Now())
	will, _ := json.Marshal(StatusPayload{Header: p.statusHdr, Status: Status{Online: false, State: "lost", Firmware: p.status.Firmware}})
	willSeq := p.statusHdr.Seq
	p.mu.Unlock()
	p.saveMark(willSeq) // the broker holds the will from the connection on
	// A stop while connecting does not abandon the connection at once: a
	// connection given up half-way is closed without a DISCONNECT, and the
	// broker then sends the will ("lost") for a board that stopped
	// cleanly. It gets stopGrace to come up, so that Run can say offline
	// and disconnect.
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	defer context.AfterFunc(ctx, func() { time.AfterFunc(stopGrace, cancel) })()
	conn, err := p.cfg.Dialer.Dial(dctx, DialOptions{
		ClientID:  "boardd-" + p.board,
		Will:      &Message{Topic: Topic(p.board, LeafStatus), Payload: will, QoS: 1, Retain: true},
		OnMessage: p.onMessage,
	})
	if err != nil {
		return nil, fmt.Errorf("connecting: %w", err)
	}
	return conn, nil
}

type flight struct {
	ack     Ack
	snap    int // -1 for an event
	version uint64
	seq     uint64 // of the message's header
	sentAt  time.Time
}

// serve runs one connection until it fails or ctx is done. healthy says
// the connection got as far as publishing (so the backoff restarts).
func (p *Publisher) serve(ctx context.Context, conn Conn) (healthy bool, err error) {
	defer func() {
		p.mu.Lock()
		p.connected = false
		for i := range p.snaps {
			p.snaps[i].flying = 0
		}
		p.mu.Unlock()
		p.saveMark(0)
	}()
	if err := conn.Subscribe(ctx, Topic(p.board, LeafCmd+"/+"), 1); err != nil {
		if ctx.Err() != nil {
			p.goodbye(conn, nil)
			return false, nil
		}
		conn.Close()
		return false, fmt.Errorf("subscribing to commands: %w", err)
	}
	p.mu.Lock()
	p.connected = true
	p.connects++
	p.cursor = 0
	for i := range p.snaps {
		p.snaps[i].sent, p.snaps[i].flying = 0, 0
	}
	p.snaps[snapStatus].version++
	unsent := len(p.queue)
	p.mu.Unlock()
	p.log.Info("connected to broker", "unsent", unsent)

	var inflight []flight
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		// Send what the window allows: events in journal order first,
		// then retained topics that changed.
		for len(inflight) < p.cfg.Window {
			m, f, ok := p.next()
			if !ok {
				break
			}
			// The mark must know a seq before the broker can: a restart
			// numbers its records above it.
			p.saveMark(f.seq)
			f.ack = conn.Publish(m)
			f.sentAt = time.Now()
			inflight = append(inflight, f)
		}
		var done <-chan struct{}
		if len(inflight) > 0 {
			done = inflight[0].ack.Done()
			timer.Reset(max(time.Until(inflight[0].sentAt.Add(p.cfg.AckTimeout)), 0))
		} else {
			timer.Reset(time.Hour)
		}
		select {
		case <-ctx.Done():
			p.goodbye(conn, inflight)
			return true, nil
		case <-conn.Lost():
			return healthy, ErrConnLost
		case <-p.wake:
		case <-timer.C:
			conn.Close()
			return healthy, fmt.Errorf("no acknowledgement from the broker within %v", p.cfg.AckTimeout)
		case <-done:
			f := inflight[0]
			if err := f.ack.Err(); err != nil {
				// Later messages may have gone out: drop the connection so
				// the next one re-sends from the first unacknowledged.
				conn.Close()
				return healthy, fmt.Errorf("publish: %w", err)
			}
			healthy = true
			inflight = inflight[1:]
			p.acked(f)
			// Every acknowledgement is saved (one small write, no
			// fsync), so a restart re-sends only what the broker had
			// not acknowledged.
			if f.snap < 0 {
				p.saveMark(0)
			}
		}
	}
}

// next picks the next message to send on this connection.
func (p *Publisher) next() (Message, flight, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	// The board's status goes first: a backlog of events must not keep
	// it showing the will's "lost".
	if s := &p.snaps[snapStatus]; s.dirty() {
		if b, err := p.renderLocked(snapStatus); err == nil {
			s.flying = s.version
			return Message{Topic: Topic(p.board, LeafStatus), Payload: b, QoS: 1, Retain: true}, flight{snap: snapStatus, version: s.version, seq: p.statusHdr.Seq}, true
		}
	}
	if p.cursor < len(p.queue) {
		m := p.queue[p.cursor]
		p.cursor++
		return m.Message, flight{snap: -1, seq: m.seq}, true
	}
	for i := range p.snaps {
		s := &p.snaps[i]
		if !s.dirty() {
			continue
		}
		b, err := p.renderLocked(i)
		if err != nil {
			s.sent = s.version // nothing to publish
			continue
		}
		s.flying = s.version
		qos := s.qos
		if i == snapStatus {
			qos = 1
		}
		seq := s.hdr.Seq
		if i == snapStatus {
			seq = p.statusHdr.Seq
		}
		return Message{Topic: Topic(p.board, snapLeaf[i]), Payload: b, QoS: qos, Retain: true}, flight{snap: i, version: s.version, seq: seq}, true
	}
	return Message{}, flight{}, false
}

func (p *Publisher) acked(f flight) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if f.snap < 0 {
		p.queue = p.queue[1:]
		p.cursor--
		if len(p.queue) == 0 {
			p.queue = nil // let the backing array go
		}
		return
	}
	s := &p.snaps[f.snap]
	s.sent = max(s.sent, f.version)
	if s.flying == f.version {
		s.flying = 0
	}
}

// ackedSeq is the newest seq up to which every event is acknowledged.
func (p *Publisher) ackedSeq() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.queue) > 0 {
		return p.queue[0].seq - 1
	}
	return p.queued
}

// saveMark records the acknowledged position and, if published is above
// it, the newest seq handed to the broker. A failure only means re-sending
// more after a restart; it is logged once until a write succeeds again.
func (p *Publisher) saveMark(published uint64) {
	p.saveMu.Lock()
	defer p.saveMu.Unlock()
	if p.mark == nil {
		return
	}
	// Never past what the journal holds durably: the mark is read
	// against it at the next start.
	a := min(p.ackedSeq(), p.j.LastSeq())
	if err := p.mark.save(a, max(published, p.mark.published, a)); err != nil {
		if !p.markFailing {
			p.log.Warn("saving the outbox mark; a restart will re-send more", "err", err)
		}
		p.markFailing = true
		return
	}
	p.markFailing = false
}

// stopGrace bounds what a stop waits for: a connection being made, the
// acknowledgements in flight, the "offline" status.
const stopGrace = 2 * time.Second

// goodbye drains what is in flight (briefly), says offline and
// disconnects, so the will is not sent for a clean stop.
func (p *Publisher) goodbye(conn Conn, inflight []flight) {
	deadline := time.After(stopGrace)
drain:
	for _, f := range inflight {
		select {
		case <-f.ack.Done():
			if f.ack.Err() != nil {
				break drain
			}
			p.acked(f)
		case <-deadline:
			break drain
		case <-conn.Lost():
			return
		}
	}
	p.mu.Lock()
	st := p.status
	st.Online, st.State = false, "offline"
	b, _ := json.Marshal(StatusPayload{Header: p.statusHdr, Status: st})
	p.mu.Unlock()
	a := conn.Publish(Message{Topic: Topic(p.board, LeafStatus), Payload: b, QoS: 1, Retain: true})
	select {
	case <-a.Done():
		if err := a.Err(); err != nil {
			p.log.Warn("the broker refused the offline status; viewers keep the last one", "err", err)
		}
	case <-time.After(stopGrace):
		p.log.Warn("the broker did not acknowledge the offline status in time; viewers may keep the last one", "wait", stopGrace)
	case <-conn.Lost():
		p.log.Warn("the connection dropped before the offline status was acknowledged; viewers get the will")
	}
	conn.Close()
}

// Pending is the number of event messages not yet acknowledged by the
// broker (0 when everything journaled has been delivered to it).
func (p *Publisher) Pending() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.queue)
}

// Connects is how many broker connections have been made since Open (one
// more than the reconnections).
func (p *Publisher) Connects() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.connects
}

// Connected reports whether a broker connection is up.
func (p *Publisher) Connected() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.connected
}
