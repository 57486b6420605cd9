package clockbridge

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
)

func hexBytes(t *testing.T, s string) []byte {
	t.Helper()
	var out []byte
	for _, f := range strings.Fields(s) {
		var b byte
		for _, c := range f {
			b <<= 4
			switch {
			case c >= '0' && c <= '9':
				b |= byte(c - '0')
			case c >= 'a' && c <= 'f':
				b |= byte(c-'a') + 10
			default:
				t.Fatalf("bad hex %q", f)
			}
		}
		out = append(out, b)
	}
	return out
}

// crc8Bitwise is an independent CRC-8 (poly 0x07) to check the table.
func crc8Bitwise(b []byte) byte {
	var c byte
	for _, x := range b {
		c ^= x
		for range 8 {
			if c&0x80 != 0 {
				c = c<<1 ^ 0x07
			} else {
				c <<= 1
			}
		}
	}
	return c
}

func TestCRC8(t *testing.T) {
	// Vectors from DGT's driver (docs/clock.md): the last byte is the CRC
	// of the others.
	for _, v := range []string{"10 20 05 0f 48", "10 20 06 0b 39 b9", "10 20 05 07 70", "10 20 05 0d 46", "10 20 06 03 d1 87"} {
		b := hexBytes(t, v)
		if got := crc8(b[:len(b)-1]); got != b[len(b)-1] {
			t.Errorf("crc8(% x) = %02x, want %02x", b[:len(b)-1], got, b[len(b)-1])
		}
	}
	// The wake frame's CRC is not the CRC of its own bytes.
	if crc8([]byte{0x50, 0x20, 0x05, 0x0d}) == 0x46 {
		t.Error("wake CRC unexpectedly matches its own address")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		b := make([]byte, r.IntN(30))
		for i := range b {
			b[i] = byte(r.UintN(256))
		}
		if crc8(b) != crc8Bitwise(b) {
			t.Fatalf("table and bitwise CRC differ on % x", b)
		}
	}
}

func TestDGTFrameBytes(t *testing.T) {
	tests := []struct {
		name string
		got  []byte
		want string
	}{
		{"wake", dgtWakeFrame, "50 20 05 0d 46"},
		{"set central control", dgtSetCentralFrame, "10 20 05 0f 48"},
		{"mode 25", dgtMode25Frame, "10 20 06 0b 39 b9"},
		{"end display", dgtEndDisplayFrame, "10 20 05 07 70"},
		{"off", dgtOffFrame, "10 20 06 0b 00 16"},
		{"display with beep and flag", dgtDisplayFrame("ILLEGAL", time.Second, IconFlag, 0),
			"10 20 15 06 49 4c 4c 45 47 41 4c 20 20 20 20 ff 10 03 01 00 9a"},
		{"display plain", dgtDisplayFrame("+2 MIN", 0, 0, 0),
			"10 20 15 06 2b 32 20 4d 49 4e 20 20 20 20 20 ff 00 03 00 00 0e"},
		{"display cut to 11", dgtDisplayFrame("+2 MIN and more", 0, 0, 0),
			"10 20 15 06 2b 32 20 4d 49 4e 20 61 6e 64 20 ff 00 03 00 00 73"},
		{"set and run, left runs, rounds up", dgtSetAndRunFrame(time.Hour+29*time.Minute+45*time.Second+200*time.Millisecond, 90*time.Minute, dgtCountDn, dgtStop),
			"10 20 0c 0a 01 29 46 01 30 00 01 b9"},
		{"set and run, right runs", dgtSetAndRunFrame(5*time.Minute, 4*time.Minute+59*time.Second, dgtStop, dgtCountDn),
			"10 20 0c 0a 00 05 00 00 04 59 04 c3"},
		{"set and run, clamped, stopped", dgtSetAndRunFrame(12*time.Hour, -time.Second, dgtStop, dgtStop),
			"10 20 0c 0a 09 59 59 00 00 00 00 72"},
	}
	for _, tc := range tests {
		if want := hexBytes(t, tc.want); !bytes.Equal(tc.got, want) {
			t.Errorf("%s: % x, want % x", tc.name, tc.got, want)
		}
	}
}

func hexOf(b byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[b>>4], digits[b&15]})
}

func TestDGTBeepUnits(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want byte
	}{{0, 0}, {-time.Second, 0}, {62500 * time.Microsecond, 1}, {time.Second, 16}, {3 * time.Second, 48}, {10 * time.Second, 48}, {90 * time.Millisecond, 1}, {100 * time.Millisecond, 2}} {
		if got := dgtBeep(tc.d); got != tc.want {
			t.Errorf("dgtBeep(%v) = %d, want %d", tc.d, got, tc.want)
		}
	}
}

func TestDGTDecode(t *testing.T) {
	ok := []struct {
		in      string
		cmd     byte
		payload string
	}{
		{"20 10 07 01 0f 08 fb", dgtMsgAck, "0f 08"},
		{"20 10 07 01 0b 08 af", dgtMsgAck, "0b 08"},
		{"00 10 05 02 ed", dgtMsgHello, ""},
		{"00 10 07 05 40 00 cb", dgtMsgButton, "40 00"},
	}
	for _, tc := range ok {
		fr, valid, err := dgtDecode(hexBytes(t, tc.in))
		if err != nil || !valid || fr.Cmd != tc.cmd || !bytes.Equal(fr.Payload, hexBytes(t, tc.payload)) {
			t.Errorf("decode %s: %+v valid=%t err=%v", tc.in, fr, valid, err)
		}
	}
	// A Time message: left 1:29:45, right 1:30:00, lever right side down.
	tm := hexBytes(t, "00 10 16 04 00 01 29 45 00 00 00 01 30 00 00 00 00 00 00 01 00 7b")
	fr, valid, err := dgtDecode(tm)
	if err != nil || !valid || fr.Cmd != dgtMsgTime {
		t.Fatalf("time frame: %v %v", valid, err)
	}
	times, err := dgtDecodeTime(fr.Raw)
	want := dgtTimes{Left: time.Hour + 29*time.Minute + 45*time.Second, Right: 90 * time.Minute, LeverRightDown: true}
	if err != nil || times != want {
		t.Errorf("time = %+v %v, want %+v", times, err, want)
	}

	// The stray two-byte packets are ignored without error.
	if _, valid, err := dgtDecode([]byte{0, 0, 0}); valid || err != nil {
		t.Errorf("stray packet: valid=%t err=%v", valid, err)
	}
	bad := []struct {
		in   string
		want error
	}{
		{"20 10 07 01 0f 08 fa", ErrDGTCRC},
		{"20 10 08 01 0f 08 29", ErrDGTFrame}, // length byte says 8, CRC right
		{"20 11 07 01 0f 08 fb", ErrDGTFrame}, // not from the clock
		{"20 10 06", ErrDGTFrame},
		{"00 10 05 01 " + hexOf(crc8([]byte{0, 0x10, 5, 1})), ErrDGTFrame}, // Ack without payload
		{"00 10 05 04 " + hexOf(crc8([]byte{0, 0x10, 5, 4})), ErrDGTFrame}, // Time too short
	}
	for _, tc := range bad {
		if _, _, err := dgtDecode(hexBytes(t, tc.in)); !errors.Is(err, tc.want) {
			t.Errorf("decode %s: err %v, want %v", tc.in, err, tc.want)
		}
	}
	// Impossible BCD in a Time message.
	tm2 := append([]byte(nil), tm...)
	tm2[6] = 0x6a
	tm2[len(tm2)-1] = crc8(tm2[:len(tm2)-1])
	if _, err := dgtDecodeTime(tm2); !errors.Is(err, ErrDGTFrame) {
		t.Errorf("bad BCD: %v", err)
	}
}

func newTestDGT(t *testing.T, cfg DGT3000Config) (*DGT3000, *fakeDGT, *FakeTime) {
	t.Helper()
	ts := NewFakeTime(time.Date(2024, 12, 26, 14, 0, 0, 0, time.UTC))
	dev := newFakeDGT(ts)
	cfg.Transport, cfg.Time = dev, ts
	d, err := NewDGT3000(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return d, dev, ts
}

func TestDGTConfigureWakesAsleepClock(t *testing.T) {
	d, dev, _ := newTestDGT(t, DGT3000Config{})
	if err := d.Configure(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Mode 25 is not acknowledged on the bus (asleep), so wake; then mode
	// 25 is refused (no central control), so take it; then mode 25.
	want := []string{"ChangeState", "Wake", "ChangeState", "SetCentralControl", "ChangeState"}
	if got := dev.sentCmds(); !reflect.DeepEqual(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	if !dev.mode25 {
		t.Error("clock not in mode 25")
	}
	for i, want := range []string{"10 20 06 0b 39 b9", "50 20 05 0d 46", "10 20 06 0b 39 b9", "10 20 05 0f 48", "10 20 06 0b 39 b9"} {
		if !bytes.Equal(dev.sent[i], hexBytes(t, want)) {
			t.Errorf("frame %d: % x, want %s", i, dev.sent[i], want)
		}
	}
}

func configured(t *testing.T, cfg DGT3000Config) (*DGT3000, *fakeDGT, *FakeTime) {
	t.Helper()
	d, dev, ts := newTestDGT(t, cfg)
	if err := d.Configure(context.Background()); err != nil {
		t.Fatal(err)
	}
	dev.mu.Lock()
	dev.sent = nil
	dev.mu.Unlock()
	d.mu.Lock()
	d.stats = DGTStats{}
	d.mu.Unlock()
	return d, dev, ts
}

func TestDGTSetAndRunAck(t *testing.T) {
	d, dev, _ := configured(t, DGT3000Config{White: Right})
	white, black := 89*time.Minute+15*time.Second, 90*time.Minute
	if err := d.SetAndRun(context.Background(), white, black, BlackRuns); err != nil {
		t.Fatal(err)
	}
	// White is on the right: left shows Black (running), right White.
	want := "10 20 0c 0a 01 30 00 01 29 15 01 4c"
	if len(dev.sent) != 1 || !bytes.Equal(dev.sent[0], hexBytes(t, want)) {
		t.Fatalf("sent % x, want %s", dev.sent, want)
	}
	if dev.left != black || dev.right != white || dev.lr != 1 || dev.rr != 0 {
		t.Errorf("clock shows %v %v run %d %d", dev.left, dev.right, dev.lr, dev.rr)
	}
	if s := d.Stats(); s.Retries != 0 || s.NoAcks != 0 {
		t.Errorf("stats %+v", s)
	}
}

func TestDGTSetAndRunWhileAPressArrives(t *testing.T) {
	// The lever moves just as boardd sends SetAndRun: the clock's Button
	// message is on the bus when the send wants it. The transport takes it
	// in while it waits for the bus; the command goes through at once and
	// the press is not lost.
	d, dev, _ := configured(t, DGT3000Config{White: Left})
	dev.mu.Lock()
	dev.lever = dgtBtnLever // right side down: the first position seen
	dev.mu.Unlock()
	dev.TimeMsg()
	d.mu.Lock()
	d.handle(dev.Receive(time.Millisecond))
	d.pending = nil
	d.mu.Unlock()
	dev.Press(Left)
	if err := d.SetAndRun(context.Background(), 5*time.Minute, 4*time.Minute, BlackRuns); err != nil {
		t.Fatal(err)
	}
	if s := d.Stats(); s.Retries != 0 || s.NoAcks != 0 {
		t.Errorf("stats %+v", s)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var press *Report
	for i := range d.pending {
		if d.pending[i].Kind == ReportPress {
			press = &d.pending[i]
		}
	}
	if press == nil || press.Side != chess.White {
		t.Errorf("reports %+v, want White's press", d.pending)
	}
}

func TestDGTSetAndRunRetries(t *testing.T) {
	tests := []struct {
		name  string
		acts  []fakeAct
		check func(t *testing.T, s DGTStats, dev *fakeDGT)
	}{
		{"nack then ack", []fakeAct{{kind: actFlags, flags: 0x00}}, func(t *testing.T, s DGTStats, _ *fakeDGT) {
			if s.Nacks != 1 || s.Retries != 1 {
				t.Errorf("stats %+v", s)
			}
		}},
		{"no ack then ack", []fakeAct{{kind: actNoReply}}, func(t *testing.T, s DGTStats, _ *fakeDGT) {
			if s.NoAcks != 1 || s.Retries != 1 {
				t.Errorf("stats %+v", s)
			}
		}},
		{"corrupted ack then ack", []fakeAct{{kind: actBadCRC}}, func(t *testing.T, s DGTStats, _ *fakeDGT) {
			if s.CRCErrors != 1 || s.NoAcks != 1 || s.Retries != 1 {
				t.Errorf("stats %+v", s)
			}
		}},
		// The ACK at 11 ms misses the first attempt's 10 ms window; it lands
		// in the second attempt's window (same command, so it counts), and
		// the second attempt's own ACK then finds the host no longer
		// listening and is dropped.
		{"late ack", []fakeAct{{kind: actLate, delay: 11 * time.Millisecond}}, func(t *testing.T, s DGTStats, dev *fakeDGT) {
			if _, err := dev.Receive(5 * time.Millisecond); !errors.Is(err, ErrDGTNoFrame) {
				t.Errorf("receive after: %v", err)
			}
			if s.NoAcks != 1 || s.Retries != 1 || s.Sent != 2 || dev.dropped != 1 {
				t.Errorf("stats %+v dropped %d", s, dev.dropped)
			}
		}},
		{"ack at 9 ms is in time", []fakeAct{{kind: actLate, delay: 9 * time.Millisecond}}, func(t *testing.T, s DGTStats, _ *fakeDGT) {
			if s.Retries != 0 {
				t.Errorf("stats %+v", s)
			}
		}},
		{"silence twice", []fakeAct{{kind: actSilent}, {kind: actSilent}}, func(t *testing.T, s DGTStats, _ *fakeDGT) {
			if s.Retries != 2 {
				t.Errorf("stats %+v", s)
			}
		}},
		{"collision", []fakeAct{{kind: actCollision}}, func(t *testing.T, s DGTStats, _ *fakeDGT) {
			if s.Retries != 1 {
				t.Errorf("stats %+v", s)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, dev, _ := configured(t, DGT3000Config{})
			dev.on(dgtMsgSetAndRun, tc.acts...)
			if err := d.SetAndRun(context.Background(), time.Minute, 2*time.Minute, WhiteRuns); err != nil {
				t.Fatal(err)
			}
			if dev.left != time.Minute || dev.right != 2*time.Minute || dev.lr != 1 {
				t.Errorf("clock shows %v %v run %d", dev.left, dev.right, dev.lr)
			}
			tc.check(t, d.Stats(), dev)
		})
	}
}

func TestDGTSetAndRunRecoversAfterClockRestart(t *testing.T) {
	d, dev, _ := configured(t, DGT3000Config{})
	// The clock was switched off and on: it is awake but out of mode 25,
	// so SetAndRun is refused three times, then boardd configures it.
	dev.mu.Lock()
	dev.central, dev.mode25 = false, false
	dev.mu.Unlock()
	if err := d.SetAndRun(context.Background(), time.Minute, time.Minute, BlackRuns); err != nil {
		t.Fatal(err)
	}
	want := []string{"SetAndRun", "SetAndRun", "SetAndRun", "ChangeState", "SetCentralControl", "ChangeState", "SetAndRun"}
	if got := dev.sentCmds(); !reflect.DeepEqual(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
}

func TestDGTSetAndRunGivesUp(t *testing.T) {
	d, dev, _ := configured(t, DGT3000Config{})
	var acts []fakeAct
	for range 6 {
		acts = append(acts, fakeAct{kind: actFlags, flags: 0x02})
	}
	dev.on(dgtMsgSetAndRun, acts...)
	err := d.SetAndRun(context.Background(), time.Minute, time.Minute, BlackRuns)
	if !errors.Is(err, ErrDGTNack) {
		t.Fatalf("err = %v, want a NACK", err)
	}
	if n := len(dev.sentCmds()); n != 3+1+3 {
		t.Errorf("%d frames sent, want 3 tries, a mode 25, 3 tries: %v", n, dev.sentCmds())
	}
}

func TestDGTConfigureErrors(t *testing.T) {
	t.Run("clock never answers", func(t *testing.T) {
		d, dev, _ := newTestDGT(t, DGT3000Config{})
		dev.on(dgtMsgPing, fakeAct{kind: actSilent}, fakeAct{kind: actSilent}, fakeAct{kind: actSilent}) // the fake stays asleep
		dev.mu.Lock()
		dev.script[dgtMsgChangeState] = []fakeAct{{kind: actSilent}, {kind: actSilent}, {kind: actSilent}, {kind: actSilent}}
		dev.mu.Unlock()
		err := d.Configure(context.Background())
		if !errors.Is(err, ErrDGTSilent) {
			t.Fatalf("err = %v", err)
		}
		if s := d.Stats(); s.Wakes != 3 {
			t.Errorf("wakes %d, want 3", s.Wakes)
		}
	})
	t.Run("bus stuck", func(t *testing.T) {
		d, dev, _ := newTestDGT(t, DGT3000Config{})
		dev.on(dgtMsgChangeState, fakeAct{kind: actBusStuck}, fakeAct{kind: actBusStuck})
		err := d.Configure(context.Background())
		if !errors.Is(err, ErrDGTTimeout) || !strings.Contains(err.Error(), "after a reset") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("bus stuck once", func(t *testing.T) {
		d, dev, _ := newTestDGT(t, DGT3000Config{})
		dev.on(dgtMsgChangeState, fakeAct{kind: actBusStuck}, fakeAct{kind: actCollision}, fakeAct{kind: actCollision})
		if err := d.Configure(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("central control refused", func(t *testing.T) {
		d, dev, _ := newTestDGT(t, DGT3000Config{})
		dev.mu.Lock()
		dev.awake = true
		dev.mu.Unlock()
		dev.on(dgtMsgSetCentral, fakeAct{kind: actFlags, flags: 0x01}, fakeAct{kind: actFlags, flags: 0x01}, fakeAct{kind: actFlags, flags: 0x01})
		err := d.Configure(context.Background())
		if !errors.Is(err, ErrDGTNack) {
			t.Fatalf("err = %v", err)
		}
		want := []string{"ChangeState", "SetCentralControl", "ChangeState", "SetCentralControl", "ChangeState", "SetCentralControl", "ChangeState"}
		if got := dev.sentCmds(); !reflect.DeepEqual(got, want) {
			t.Errorf("sent %v, want %v", got, want)
		}
	})
}

func TestDGTDisplay(t *testing.T) {
	d, dev, _ := configured(t, DGT3000Config{})
	ctx := context.Background()
	if err := d.Show(ctx, "ILLEGAL", time.Second); err != nil {
		t.Fatal(err)
	}
	// Display is preceded by EndDisplay (fast ACK: already showing times).
	if got, want := dev.sentCmds(), []string{"EndDisplay", "Display"}; !reflect.DeepEqual(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	if !dev.displaying || dev.text != "ILLEGAL    " {
		t.Errorf("clock display %q %t", dev.text, dev.displaying)
	}
	// A second text: EndDisplay now takes the slow, broadcast ACK.
	if err := d.Show(ctx, "+2 MIN", 0); err != nil {
		t.Fatal(err)
	}
	if dev.text != "+2 MIN     " {
		t.Errorf("clock display %q", dev.text)
	}
	if err := d.Show(ctx, "", 0); err != nil {
		t.Fatal(err)
	}
	if dev.displaying {
		t.Error("display not ended")
	}
	// Busy once: retried.
	dev.on(dgtMsgDisplay, fakeAct{kind: actFlags, flags: 0x23})
	if err := d.Show(ctx, "HELLO", 0); err != nil {
		t.Fatal(err)
	}
	if s := d.Stats(); s.Nacks != 1 {
		t.Errorf("stats %+v", s)
	}
	// EndDisplay answered with a wrong fast ACK is a NACK.
	dev.mu.Lock()
	dev.displaying = false
	dev.mu.Unlock()
	dev.on(dgtMsgEndDisplay, fakeAct{kind: actFlags, flags: 0x07}, fakeAct{kind: actFlags, flags: 0x07}, fakeAct{kind: actFlags, flags: 0x07})
	if err := d.Show(ctx, "", 0); err != nil {
		t.Fatalf("after configure: %v", err)
	}
}

func TestDGTOff(t *testing.T) {
	d, dev, _ := configured(t, DGT3000Config{})
	if err := d.Off(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(dev.sent) != 1 || !bytes.Equal(dev.sent[0], hexBytes(t, "10 20 06 0b 00 16")) || dev.awake {
		t.Errorf("sent % x awake %t", dev.sent, dev.awake)
	}
}

// runDGT runs d in a goroutine and returns its reports on a channel.
func runDGT(t *testing.T, d *DGT3000) (<-chan Report, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan Report, 256)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = d.Run(ctx, func(r Report) { ch <- r })
	}()
	t.Cleanup(func() { cancel(); <-done })
	return ch, cancel
}

func nextReport(t *testing.T, ch <-chan Report, kind ReportKind) Report {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case r := <-ch:
			if r.Kind == kind {
				return r
			}
		case <-timeout:
			t.Fatalf("no %v report", kind)
		}
	}
}

func TestDGTRunReportsLeverButtonsTimes(t *testing.T) {
	d, dev, _ := newTestDGT(t, DGT3000Config{White: Left})
	ch, _ := runDGT(t, d)
	nextReport(t, ch, ReportOnline)

	// The first Time message only tells the lever's position.
	dev.mu.Lock()
	dev.left, dev.right, dev.lever = 5*time.Minute, 4*time.Minute, dgtBtnLever
	dev.mu.Unlock()
	dev.TimeMsg()
	r := nextReport(t, ch, ReportTimes)
	if r.Times != [2]time.Duration{5 * time.Minute, 4 * time.Minute} {
		t.Errorf("times %v", r.Times)
	}
	// White (left) presses: left side down.
	dev.Press(Left)
	if r := nextReport(t, ch, ReportPress); r.Side != chess.White {
		t.Errorf("press by %v, want white", r.Side)
	}
	dev.Press(Right)
	if r := nextReport(t, ch, ReportPress); r.Side != chess.Black {
		t.Errorf("press by %v, want black", r.Side)
	}
	// A lost Button message: the Time message still shows the move.
	dev.mu.Lock()
	dev.lever = 0
	dev.mu.Unlock()
	dev.TimeMsg()
	if r := nextReport(t, ch, ReportPress); r.Side != chess.White {
		t.Errorf("press from time message by %v, want white", r.Side)
	}
	// Buttons: plus down and up.
	dev.mu.Lock()
	dev.emit(dgtAddrBroadcast, 0, dgtMsgButton, dgtBtnPlus, 0)
	dev.emit(dgtAddrBroadcast, time.Millisecond, dgtMsgButton, 0, dgtBtnPlus)
	dev.mu.Unlock()
	if r := nextReport(t, ch, ReportButton); r.Button != ButtonPlus || !r.Down {
		t.Errorf("button %+v", r)
	}
	if r := nextReport(t, ch, ReportButton); r.Button != ButtonPlus || r.Down {
		t.Errorf("button %+v", r)
	}
	// A corrupted frame is reported and skipped.
	dev.mu.Lock()
	dev.emitRaw(0, hexBytes(t, "00 10 07 05 40 00 ca"))
	dev.mu.Unlock()
	if r := nextReport(t, ch, ReportError); !errors.Is(r.Err, ErrDGTCRC) {
		t.Errorf("error report %v", r.Err)
	}
}

func TestDGTRunReconfiguresAfterPowerCycle(t *testing.T) {
	d, dev, _ := newTestDGT(t, DGT3000Config{})
	ch, _ := runDGT(t, d)
	nextReport(t, ch, ReportOnline)
	// Switched off: the clock reports the off bit and forgets mode 25.
	dev.mu.Lock()
	dev.emit(dgtAddrBroadcast, 0, dgtMsgButton, dgtBtnOff, 0)
	dev.mode25, dev.central = false, false
	dev.mu.Unlock()
	if r := nextReport(t, ch, ReportButton); r.Button != ButtonPower || r.Down {
		t.Errorf("power report %+v", r)
	}
	// Run configures again at once (the clock is awake here).
	nextReport(t, ch, ReportOnline)
	dev.mu.Lock()
	defer dev.mu.Unlock()
	if !dev.mode25 {
		t.Error("not reconfigured")
	}
}

func TestDGTRunRetriesAbsentClock(t *testing.T) {
	d, dev, _ := newTestDGT(t, DGT3000Config{Reconfigure: time.Second})
	// Nothing on the bus at all.
	var acts []fakeAct
	for range 8 {
		acts = append(acts, fakeAct{kind: actSilent})
	}
	dev.on(dgtMsgPing, acts...)
	dev.on(dgtMsgChangeState, acts...)
	ch, _ := runDGT(t, d)
	if r := nextReport(t, ch, ReportError); !errors.Is(r.Err, ErrDGTSilent) {
		t.Errorf("error %v", r.Err)
	}
	// Once the clock is plugged in, the next attempt configures it.
	nextReport(t, ch, ReportOnline)
}
