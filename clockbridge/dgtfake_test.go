package clockbridge

import (
	"fmt"
	"sort"
	"sync"
	"time"
)

// fakeDGT models a DGT3000 on the DGT Pi's bus, as a DGTTransport. It
// keeps the clock's state (asleep, central control, mode 25, display),
// answers each command the way DGT's driver expects, and can be scripted
// to misbehave per command: stay silent, NACK, never ACK, corrupt an ACK,
// collide, or ACK late.
type fakeDGT struct {
	mu     sync.Mutex
	ts     *FakeTime
	listen byte // 7-bit slave address the host listens on

	sent  [][]byte // every frame the host sent, as given
	queue []fakeTx // frames the clock will send
	// drained are frames that arrived while a Send waited for the bus:
	// the transport read them then, and Receive returns them first.
	drained [][]byte
	dropped int // addressed frames the host was not listening for

	awake, central, mode25, displaying bool
	left, right                        time.Duration
	lr, rr                             byte
	text                               string
	lever                              byte // 0x40 when the right side is down

	seq     int
	latency time.Duration      // reply delay
	script  map[byte][]fakeAct // per command id, consumed in order
}

type fakeTx struct {
	at    time.Time
	frame []byte
	seq   int
}

type fakeActKind int

const (
	actNormal    fakeActKind = iota
	actSilent                // bytes not acknowledged on the bus, no reply
	actNoReply               // bytes acknowledged, no protocol ACK
	actFlags                 // ACK with the given flags
	actBadCRC                // ACK with a corrupted CRC
	actCollision             // lines low after the send
	actBusStuck              // bus never free
	actLate                  // normal ACK but after the given delay
)

type fakeAct struct {
	kind  fakeActKind
	flags byte
	delay time.Duration
}

func newFakeDGT(ts *FakeTime) *fakeDGT {
	return &fakeDGT{ts: ts, latency: 2 * time.Millisecond, script: map[byte][]fakeAct{}}
}

func (f *fakeDGT) on(cmd byte, acts ...fakeAct) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script[cmd] = append(f.script[cmd], acts...)
}

// emit queues a frame from the clock to addr (8-bit) after delay.
func (f *fakeDGT) emit(addr byte, delay time.Duration, cmd byte, payload ...byte) {
	fr := []byte{addr, dgtAddrClock, byte(5 + len(payload)), cmd}
	fr = append(fr, payload...)
	fr = append(fr, crc8(fr))
	f.emitRaw(delay, fr)
}

func (f *fakeDGT) emitRaw(delay time.Duration, fr []byte) {
	f.seq++
	f.queue = append(f.queue, fakeTx{at: f.ts.Now().Add(delay), frame: fr, seq: f.seq})
}

// Press moves the lever: the given side of the clock goes down.
func (f *fakeDGT) Press(side ClockSide) {
	f.mu.Lock()
	defer f.mu.Unlock()
	old := f.lever
	if side == Right {
		f.lever = dgtBtnLever
	} else {
		f.lever = 0
	}
	f.emit(dgtAddrBroadcast, 0, dgtMsgButton, f.lever, old)
}

// TimeMsg queues a Time broadcast with the clock's times and lever.
func (f *fakeDGT) TimeMsg() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.emitRaw(0, f.timeFrame())
}

func (f *fakeDGT) timeFrame() []byte {
	lh, lm, ls := dgtHMS(f.left)
	rh, rm, rs := dgtHMS(f.right)
	fr := make([]byte, 22)
	fr[0], fr[1], fr[2], fr[3] = dgtAddrBroadcast, dgtAddrClock, 22, dgtMsgTime
	fr[5], fr[6], fr[7] = lh, bcd(lm), bcd(ls)
	fr[11], fr[12], fr[13] = rh, bcd(rm), bcd(rs)
	if f.lever != 0 {
		fr[19] = 1
	}
	fr[21] = crc8(fr[:21])
	return fr
}

func (f *fakeDGT) Send(frame []byte, listen byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, append([]byte(nil), frame...))
	if len(frame) < 5 || int(frame[2]) != len(frame) {
		return fmt.Errorf("fake clock: malformed frame % x", frame)
	}
	check := append([]byte(nil), frame[:len(frame)-1]...)
	if check[0] == dgtAddrWake {
		check[0] = dgtAddrClock // the wake carries the clock address's CRC
	}
	if crc8(check) != frame[len(frame)-1] {
		return fmt.Errorf("fake clock: bad CRC in % x", frame)
	}
	// A frame the clock is sending when the host wants the bus is taken
	// in by the slave while Send waits for the bus to be free.
	f.sortQueue()
	for len(f.queue) > 0 && !f.queue[0].at.After(f.ts.Now()) && f.accepts(f.queue[0].frame) {
		f.drained = append(f.drained, f.queue[0].frame)
		f.queue = f.queue[1:]
	}
	cmd := frame[3]
	act := fakeAct{kind: actNormal}
	if s := f.script[cmd]; len(s) > 0 {
		act, f.script[cmd] = s[0], s[1:]
	}
	switch act.kind {
	case actBusStuck:
		f.ts.Advance(10 * time.Millisecond)
		return ErrDGTTimeout
	case actCollision:
		return ErrDGTLinesLow
	case actSilent:
		return ErrDGTSilent
	}
	f.listen = listen
	if frame[0] == dgtAddrWake {
		// Nothing answers on the bus at the wake address; the clock
		// wakes and says Hello on the broadcast address.
		f.awake = true
		f.emit(dgtAddrBroadcast, 5*time.Millisecond, dgtMsgHello)
		return ErrDGTSilent
	}
	if !f.awake {
		return ErrDGTSilent
	}
	if act.kind == actNoReply {
		return nil
	}
	delay := f.latency
	if act.kind == actLate {
		delay = act.delay
	}
	ack := func(addr, flags byte) {
		if act.kind == actFlags {
			flags = act.flags
		}
		if act.kind == actBadCRC {
			fr := []byte{addr, dgtAddrClock, 7, dgtMsgAck, cmd, flags}
			f.emitRaw(delay, append(fr, crc8(fr)^0x5a))
			return
		}
		f.emit(addr, delay, dgtMsgAck, cmd, flags)
	}
	switch cmd {
	case dgtMsgSetCentral:
		if act.kind != actFlags || act.flags&0x08 != 0 {
			f.central = true
		}
		ack(dgtAddrHost, 0x08)
	case dgtMsgChangeState:
		switch frame[4] {
		case dgtMode25:
			if f.central && act.kind != actFlags {
				f.mode25 = true
				ack(dgtAddrHost, 0x08)
			} else {
				ack(dgtAddrHost, 0x00)
			}
		case 0:
			f.awake, f.central, f.mode25 = false, false, false
		}
	case dgtMsgSetAndRun:
		if !f.mode25 {
			ack(dgtAddrHost, 0x00)
			break
		}
		get := func(h, m, s byte) time.Duration {
			mm, _ := unbcd(m)
			ss, _ := unbcd(s)
			return time.Duration(h)*time.Hour + time.Duration(mm)*time.Minute + time.Duration(ss)*time.Second
		}
		f.left, f.right = get(frame[4], frame[5], frame[6]), get(frame[7], frame[8], frame[9])
		f.lr, f.rr = frame[10]&3, frame[10]>>2&3
		ack(dgtAddrHost, 0x08)
	case dgtMsgEndDisplay:
		if !f.displaying {
			fast := 500 * time.Microsecond
			if act.kind == actLate {
				fast = act.delay
			}
			f.emit(dgtAddrHost, fast, dgtMsgAck, cmd, fakeFlags(act, 0x05))
			break
		}
		f.displaying, f.text = false, ""
		ack(dgtAddrBroadcast, 0x00)
	case dgtMsgDisplay:
		if f.displaying || act.kind == actFlags {
			ack(dgtAddrBroadcast, 0x23) // busy: the text is not taken
			break
		}
		f.displaying, f.text = true, string(frame[4:15])
		ack(dgtAddrBroadcast, 0x00)
	}
	return nil
}

func fakeFlags(a fakeAct, def byte) byte {
	if a.kind == actFlags {
		return a.flags
	}
	return def
}

func (f *fakeDGT) sortQueue() {
	sort.SliceStable(f.queue, func(i, j int) bool {
		if !f.queue[i].at.Equal(f.queue[j].at) {
			return f.queue[i].at.Before(f.queue[j].at)
		}
		return f.queue[i].seq < f.queue[j].seq
	})
}

// accepts reports whether the host's slave acknowledges a frame now.
func (f *fakeDGT) accepts(fr []byte) bool {
	return fr[0] == dgtAddrBroadcast && f.listen == 0 || fr[0] == dgtAddrHost && f.listen == dgtAddrHost>>1
}

func (f *fakeDGT) Receive(timeout time.Duration) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.drained) > 0 {
		fr := f.drained[0]
		f.drained = f.drained[1:]
		return fr, nil
	}
	f.sortQueue()
	now := f.ts.Now()
	end := now.Add(timeout)
	for i := 0; i < len(f.queue); i++ {
		tx := f.queue[i]
		if tx.at.After(end) {
			break
		}
		switch {
		case tx.frame[0] == dgtAddrHost && f.listen != dgtAddrHost>>1:
			// The host does not acknowledge its address: the clock
			// gives up on this frame.
			f.dropped++
			f.queue = append(f.queue[:i], f.queue[i+1:]...)
			i--
			continue
		case tx.frame[0] == dgtAddrBroadcast && f.listen != 0:
			continue // not acknowledged now; the clock sends it again later
		}
		f.queue = append(f.queue[:i], f.queue[i+1:]...)
		if tx.at.After(now) {
			f.ts.Set(tx.at)
		}
		f.listen = 0
		return tx.frame, nil
	}
	f.ts.Set(end)
	return nil, ErrDGTNoFrame
}

func (f *fakeDGT) Listen(addr byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.listen = addr
	return nil
}

func (f *fakeDGT) Reset() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.listen = 0
	return nil
}

// sentCmds returns the command ids of the frames sent, in order.
func (f *fakeDGT) sentCmds() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, len(f.sent))
	for i, fr := range f.sent {
		out[i] = dgtMsgName(fr[3])
		if fr[0] == dgtAddrWake {
			out[i] = "Wake"
		}
	}
	return out
}
