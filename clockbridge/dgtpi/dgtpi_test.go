package dgtpi

import (
	"bytes"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/clockbridge"
)

// tickTime advances a microsecond on every reading, so busy-wait loops
// time out without real waiting.
type tickTime struct {
	mu sync.Mutex
	t  time.Time
}

func (c *tickTime) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Microsecond)
	return c.t
}
func (c *tickTime) NewTimer(time.Duration) clockbridge.Timer { panic("not used") }

// bus models the three register blocks just enough to exercise the
// link's register sequences: a master whose 16-byte FIFO drains as soon
// as a transfer starts, a slave with a queue of received bytes, and the
// line levels.
type bus struct {
	fsel0, fsel1           uint32
	linesHigh              bool
	lowAfterStart, started bool

	c, dlen, a, div, del uint32
	fifo                 []byte
	wire                 []byte // every byte written to the FIFO
	outcome              uint32 // S bits a transfer ends with (sERR, sCLKT)
	completed            bool
	errBits              uint32 // the error bits showing (write 1 to clear)

	slv, cr, rsr uint32
	rx           []byte
	// incoming are bytes the clock is sending to the slave: one enters
	// the 16-byte FIFO each time the slave's flags or data are read, and
	// while the FIFO is full the clock holds SCL low, waiting.
	incoming []byte
}

func (b *bus) feed() {
	if len(b.incoming) > 0 && len(b.rx) < 16 {
		b.rx = append(b.rx, b.incoming[0])
		b.incoming = b.incoming[1:]
	}
}

type block struct {
	b    *bus
	kind int // 0 gpio, 1 slave, 2 master
}

func (k block) Read(off uint32) uint32 {
	b := k.b
	switch k.kind {
	case 0:
		switch off {
		case gpFSEL0:
			return b.fsel0
		case gpFSEL1:
			return b.fsel1
		case gpLEV0:
			if len(b.incoming) > 0 && len(b.rx) >= 16 {
				return 0 // the clock stretching SCL
			}
			if b.linesHigh && !(b.lowAfterStart && b.started) {
				return 0xffffffff
			}
			return 0
		}
	case 1:
		switch off {
		case slDR:
			b.feed()
			v := uint32(b.rx[0])
			b.rx = b.rx[1:]
			return v
		case slSLV:
			return b.slv
		case slRSR:
			return b.rsr
		case slFR:
			b.feed()
			fr := uint32(0)
			if len(b.rx) == 0 {
				fr |= frRXFE
			}
			if len(b.incoming) > 0 {
				fr |= frRXBUSY
			}
			return fr
		}
	case 2:
		switch off {
		case msS:
			s := uint32(0)
			if !b.started && len(b.fifo) < 16 || b.started {
				s |= sTXD
			}
			if b.started && uint32(len(b.fifo)) >= b.dlen {
				if !b.completed {
					b.completed, b.errBits = true, b.outcome
				}
				s |= sDONE | b.errBits
			}
			return s
		case msC:
			return b.c
		}
	}
	return 0
}

func (k block) Write(off, v uint32) {
	b := k.b
	switch k.kind {
	case 0:
		switch off {
		case gpFSEL0:
			b.fsel0 = v
		case gpFSEL1:
			b.fsel1 = v
		}
	case 1:
		switch off {
		case slSLV:
			b.slv = v
		case slCR:
			b.cr = v
		case slRSR:
			b.rsr = v
		}
	case 2:
		switch off {
		case msC:
			b.c = v
			if v&cCLEAR != 0 {
				b.fifo, b.started, b.completed = nil, false, false
			}
			if v&cST != 0 {
				b.started = true
			}
		case msS:
			b.errBits &^= v & (sERR | sCLKT)
		case msDLEN:
			b.dlen = v
		case msA:
			b.a = v
		case msFIFO:
			b.fifo = append(b.fifo, byte(v))
			b.wire = append(b.wire, byte(v))
		case msDIV:
			b.div = v
		case msDEL:
			b.del = v
		}
	}
}

func newLink(b *bus, core int) *Link {
	return New(block{b, 0}, block{b, 1}, block{b, 2}, false, core,
		Config{Time: &tickTime{t: time.Unix(0, 0)}, Sleep: func(time.Duration) {}})
}

func TestSend(t *testing.T) {
	display := []byte{0x10, 0x20, 0x15, 0x06, 'I', 'L', 'L', 'E', 'G', 'A', 'L', ' ', ' ', ' ', ' ', 0xff, 0x10, 0x03, 0x01, 0x00, 0x9a}
	tests := []struct {
		name    string
		frame   []byte
		outcome uint32
		lowLate bool
		want    error
	}{
		{"set central control", []byte{0x10, 0x20, 0x05, 0x0f, 0x48}, 0, false, nil},
		{"display, longer than the FIFO", display, 0, false, nil},
		{"wake, not acknowledged", []byte{0x50, 0x20, 0x05, 0x0d, 0x46}, sERR, false, clockbridge.ErrDGTSilent},
		{"collision: lines low after", []byte{0x10, 0x20, 0x05, 0x07, 0x70}, sERR, true, clockbridge.ErrDGTLinesLow},
		{"clock stretch timeout", []byte{0x10, 0x20, 0x05, 0x07, 0x70}, sCLKT, false, clockbridge.ErrDGTStretch},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := &bus{linesHigh: true, outcome: tc.outcome, lowAfterStart: tc.lowLate}
			l := newLink(b, 250)
			err := l.Send(tc.frame, 0x10)
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
			if b.a != uint32(tc.frame[0]>>1) || b.dlen != uint32(len(tc.frame)-1) || !bytes.Equal(b.wire, tc.frame[1:]) {
				t.Errorf("A=0x%x DLEN=%d FIFO % x", b.a, b.dlen, b.wire)
			}
			if wantSLV := map[bool]uint32{true: 0x10, false: 0}[tc.want == nil]; b.slv != wantSLV {
				t.Errorf("slave address %#x, want %#x", b.slv, wantSLV)
			}
		})
	}
}

func TestSendDrainsAFrameArrivingMeanwhile(t *testing.T) {
	// The clock starts a 22-byte Time broadcast just as a SetAndRun is
	// to go out: more than the slave's FIFO holds. The send must read the
	// FIFO while it waits for the bus, or the clock stalls, the bus
	// never comes free, the send times out and the Time message is lost.
	b := &bus{linesHigh: true}
	l := newLink(b, 250)
	timeMsg := []byte{0x00, 0x10, 0x16, 0x04, 0, 1, 0x29, 0x46, 0, 0, 0, 1, 0x30, 0, 0, 0, 0, 0, 0, 1, 0, 0x5c}
	b.incoming = append([]byte(nil), timeMsg[1:]...)
	setAndRun := []byte{0x10, 0x20, 0x0c, 0x0a, 0x01, 0x29, 0x46, 0x01, 0x30, 0x00, 0x01, 0xb9}
	if err := l.Send(setAndRun, 0x10); err != nil {
		t.Fatalf("send while a frame arrives: %v", err)
	}
	if !bytes.Equal(b.wire, setAndRun[1:]) || len(b.incoming) != 0 {
		t.Errorf("sent % x; %d bytes still incoming", b.wire, len(b.incoming))
	}
	m, err := l.Receive(time.Millisecond)
	if err != nil || !bytes.Equal(m, timeMsg) {
		t.Fatalf("frame received during the send: % x, %v", m, err)
	}
	if _, err := l.Receive(time.Millisecond); !errors.Is(err, clockbridge.ErrDGTNoFrame) {
		t.Errorf("after it: %v", err)
	}
}

func TestSendBusNeverFree(t *testing.T) {
	b := &bus{linesHigh: false}
	if err := newLink(b, 250).Send([]byte{0x10, 0x20, 0x05, 0x0f, 0x48}, 0x10); !errors.Is(err, clockbridge.ErrDGTTimeout) {
		t.Errorf("err %v", err)
	}
	if b.started {
		t.Error("transfer started on a busy bus")
	}
}

func TestReceive(t *testing.T) {
	b := &bus{linesHigh: true, slv: 0x10}
	l := newLink(b, 250)
	b.rx = []byte{0x10, 0x07, 0x01, 0x0f, 0x08, 0xfb, 0x10, 0x05} // an ACK, then the start of another frame
	m, err := l.Receive(time.Millisecond)
	if err != nil || !bytes.Equal(m, []byte{0x20, 0x10, 0x07, 0x01, 0x0f, 0x08, 0xfb}) {
		t.Fatalf("frame % x, %v", m, err)
	}
	if b.slv != 0 {
		t.Error("slave not back on the broadcast address")
	}
	b.rx = nil
	if _, err := l.Receive(time.Millisecond); !errors.Is(err, clockbridge.ErrDGTNoFrame) {
		t.Errorf("idle: %v", err)
	}
	b.rx, b.rsr = []byte{0x10, 0x05, 0x02, 0xed}, rsrOE
	if _, err := l.Receive(time.Millisecond); !errors.Is(err, clockbridge.ErrDGTOverrun) || b.rsr != 0 {
		t.Errorf("overrun: %v rsr %d", err, b.rsr)
	}
}

func TestResetAndWiring(t *testing.T) {
	b := &bus{linesHigh: true}
	l := newLink(b, 400)
	if err := l.checkWiring(); err != nil {
		t.Fatal(err)
	}
	if err := l.Reset(); err != nil {
		t.Fatal(err)
	}
	if b.div != 400*1000/95 || b.del != 0x600060 || b.cr != crEN|crI2C|crRXE || b.a != 0x08 {
		t.Errorf("div %d del %#x cr %#x a %#x", b.div, b.del, b.cr, b.a)
	}
	if b.fsel0>>6&0x3f != 0x24 || b.fsel1>>24&0x3f != 0x3f {
		t.Errorf("pin functions fsel0 %#x fsel1 %#x", b.fsel0, b.fsel1)
	}
	b.fsel0 = 1 << 6 // GPIO2 an output
	if err := l.checkWiring(); !errors.Is(err, clockbridge.ErrDGTLinesLow) {
		t.Errorf("output pin: %v", err)
	}
	b2 := &bus{linesHigh: false}
	if err := newLink(b2, 250).checkWiring(); !errors.Is(err, clockbridge.ErrDGTLinesLow) {
		t.Errorf("low lines: %v", err)
	}
}

func TestParseCore(t *testing.T) {
	if mhz, err := parseCore("frequency(1)=250000000\n"); err != nil || mhz != 250 {
		t.Errorf("%d %v", mhz, err)
	}
	for _, s := range []string{"", "frequency(1)=", "frequency(1)=12"} {
		if _, err := parseCore(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestDefaultPollSleepIsSubMillisecond(t *testing.T) {
	if testing.Short() {
		t.Skip("timing on a loaded or emulated machine")
	}
	// The receive polls of 400 µs and 10 µs must not become the
	// millisecond time.Sleep makes of them: the slave FIFO fills in
	// about 1.5 ms.
	l := New(block{&bus{}, 0}, block{&bus{}, 1}, block{&bus{}, 2}, false, 250, Config{})
	for _, d := range []time.Duration{bytePoll, idlePoll} {
		best := time.Hour
		for range 20 {
			start := time.Now()
			l.sleep(d)
			best = min(best, time.Since(start))
		}
		if best < d || best > d+500*time.Microsecond {
			t.Errorf("poll of %v took at best %v", d, best)
		}
	}
}
