package clockbridge

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
)

// runClock runs c in a goroutine and returns its events on a channel.
func runClock(t *testing.T, c Clock) <-chan Event {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan Event, 256)
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, func(e Event) { ch <- e }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return ch
}

func nextEvent(t *testing.T, ch <-chan Event, kind EventKind) Event {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case e := <-ch:
			if e.Kind == kind {
				return e
			}
		case <-timeout:
			t.Fatalf("no %v event", kind)
		}
	}
}

func noEvent(t *testing.T, ch <-chan Event, kind EventKind) {
	t.Helper()
	timeout := time.After(50 * time.Millisecond)
	for {
		select {
		case e := <-ch:
			if e.Kind == kind {
				t.Fatalf("unexpected %v", e)
			}
		case <-timeout:
			return
		}
	}
}

func newSoft(t *testing.T, tc string, dev Device, ts *FakeTime) *SoftClock {
	t.Helper()
	c, err := NewSoftClock(SoftClockConfig{TimeControl: mustTC(t, tc), Time: ts, Device: dev})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSoftClockFlagTimer(t *testing.T) {
	ts := NewFakeTime(t0)
	c := newSoft(t, "5m+3s", nil, ts)
	ch := runClock(t, c)
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	nextEvent(t, ch, StateEvent)
	ts.Advance(5*mn + 3*sec - ms)
	noEvent(t, ch, FlagEvent)
	if s := c.Snapshot(); s.Remaining[chess.White] != ms {
		t.Errorf("remaining %v", s.Remaining[chess.White])
	}
	ts.Advance(ms)
	e := nextEvent(t, ch, FlagEvent)
	if !e.At.Equal(t0.Add(5*mn+3*sec)) || e.Side != chess.White || e.Move != 1 {
		t.Errorf("flag %+v", e)
	}
}

func TestSoftClockPressesAndCommands(t *testing.T) {
	ts := NewFakeTime(t0)
	c := newSoft(t, "90m+30s", nil, ts)
	ch := runClock(t, c)
	ctx := context.Background()
	if err := c.Press(chess.Black); err != nil { // Black's press starts White's clock
		t.Fatal(err)
	}
	if e := nextEvent(t, ch, StateEvent); e.State.Running != WhiteRuns {
		t.Errorf("after start: %+v", e.State)
	}
	ts.Advance(12 * sec)
	_ = c.Press(chess.White)
	e := nextEvent(t, ch, PressEvent)
	if e.Side != chess.White || e.Move != 1 || e.Clk() != 90*mn+48*sec || !e.At.Equal(t0.Add(12*sec)) {
		t.Errorf("press %v at %v", e, e.At)
	}
	ts.Advance(3 * sec)
	if err := c.Pause(ctx); err != nil {
		t.Fatal(err)
	}
	if e := nextEvent(t, ch, StateEvent); !e.State.Paused || e.State.Remaining[chess.Black] != 90*mn+27*sec {
		t.Errorf("pause: %+v", e.State)
	}
	ts.Advance(10 * mn)
	if err := c.AddTime(ctx, chess.White, 2*mn); err != nil {
		t.Fatal(err)
	}
	if e := nextEvent(t, ch, StateEvent); e.State.Remaining[chess.White] != 92*mn+48*sec {
		t.Errorf("add time: %+v", e.State)
	}
	_ = c.Resume(ctx)
	nextEvent(t, ch, StateEvent)
	ts.Advance(7 * sec)
	_ = c.Press(chess.Black)
	if e := nextEvent(t, ch, PressEvent); e.Clk() != 90*mn+50*sec { // 90:30 - 3 - 7 + 30
		t.Errorf("black clk %v", e.Clk())
	}
	if err := c.SetAndRun(ctx, 10*mn, 20*mn, BlackRuns); err != nil {
		t.Fatal(err)
	}
	if e := nextEvent(t, ch, StateEvent); e.State.Remaining != [2]time.Duration{10 * mn, 20 * mn} || e.State.Moves != [2]int{1, 1} {
		t.Errorf("set: %+v", e.State)
	}
	if err := c.Show(ctx, "HELLO", 0); !errors.Is(err, ErrUnsupported) {
		t.Errorf("show without device: %v", err)
	}
	if s := c.Snapshot(); s.Text != "HELLO" {
		t.Errorf("text %q", s.Text)
	}
}

// recDevice is a Device test double: it reports what the test sends and
// records SetAndRun calls.
type recDevice struct {
	mu      sync.Mutex
	reports chan Report
	sets    []FakeCommand
	setC    chan FakeCommand
}

func newRecDevice() *recDevice {
	return &recDevice{reports: make(chan Report, 16), setC: make(chan FakeCommand, 64)}
}

func (d *recDevice) Run(ctx context.Context, report func(Report)) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case r := <-d.reports:
			report(r)
		}
	}
}

func (d *recDevice) SetAndRun(_ context.Context, w, b time.Duration, run Running) error {
	c := FakeCommand{Name: "SetAndRun", White: w, Black: b, Run: run}
	d.mu.Lock()
	d.sets = append(d.sets, c)
	d.mu.Unlock()
	d.setC <- c
	return nil
}
func (d *recDevice) Show(context.Context, string, time.Duration) error { return nil }
func (d *recDevice) Beep(context.Context, time.Duration) error         { return nil }

func nextSet(t *testing.T, d *recDevice) FakeCommand {
	t.Helper()
	select {
	case c := <-d.setC:
		return c
	case <-time.After(5 * time.Second):
		t.Fatal("no SetAndRun")
	}
	return FakeCommand{}
}

func TestSoftClockDrivesDevice(t *testing.T) {
	ts := NewFakeTime(t0)
	dev := newRecDevice()
	c := newSoft(t, "15m d10s", dev, ts)
	ch := runClock(t, c)
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	// During White's delay the device shows the main time, stopped.
	if s := nextSet(t, dev); s.White != 15*mn || s.Run != Stopped {
		t.Errorf("start: %+v", s)
	}
	ts.Advance(10 * sec) // the delay runs out: now White's time runs
	if s := nextSet(t, dev); s.Run != WhiteRuns || s.White != 15*mn {
		t.Errorf("delay end: %+v", s)
	}
	// The press is dated by the device (the lever's first edge).
	dev.reports <- Report{Kind: ReportPress, At: t0.Add(14 * sec), Side: chess.White}
	ts.Advance(5 * sec)
	e := nextEvent(t, ch, PressEvent)
	if !e.At.Equal(t0.Add(14*sec)) || e.Clk() != 15*mn-4*sec {
		t.Errorf("press %v at %v", e, e.At)
	}
	if s := nextSet(t, dev); s.Run != Stopped || s.White != 15*mn-4*sec {
		t.Errorf("after press: %+v", s)
	}
	// A device that drifts is set again.
	dev.reports <- Report{Kind: ReportTimes, At: ts.Now(), Times: [2]time.Duration{15*mn - 10*sec, 15 * mn}}
	if e := nextEvent(t, ch, DeviceEvent); e.Msg == "" {
		t.Error("no drift message")
	}
	nextSet(t, dev)
	dev.reports <- Report{Kind: ReportButton, At: ts.Now(), Button: ButtonPlayPause, Down: true}
	if e := nextEvent(t, ch, ButtonEvent); e.Button != ButtonPlayPause || !e.Down {
		t.Errorf("button %+v", e)
	}
}

// TestSoftClockWithDGT3000 runs the whole chain: the clock model, the
// DGT3000 protocol and the clock model of the bus.
func TestSoftClockWithDGT3000(t *testing.T) {
	d, dev, ts := newTestDGT(t, DGT3000Config{White: Right})
	c := newSoft(t, "90m+30s", d, ts)
	ch := runClock(t, c)
	nextEvent(t, ch, DeviceEvent) // online
	// The lever starts right side down (White pressed: Black's turn),
	// then Black presses to start White's clock.
	dev.mu.Lock()
	dev.lever = dgtBtnLever
	dev.mu.Unlock()
	dev.TimeMsg()
	dev.Press(Left)
	nextEvent(t, ch, StateEvent)
	dev.Press(Right) // White's first move
	e := nextEvent(t, ch, PressEvent)
	if e.Side != chess.White || e.Move != 1 {
		t.Fatalf("press %v", e)
	}
	// The clock shows the model's times: White on the right, Black's
	// clock (left) running.
	deadline := time.Now().Add(5 * time.Second)
	for {
		dev.mu.Lock()
		right, lr := dev.right, dev.lr
		dev.mu.Unlock()
		w, _, _ := dgtHMS(e.Clk())
		if h, _, _ := dgtHMS(right); h == w && lr == 1 && right >= e.Clk() && right-e.Clk() < time.Second {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("clock shows right %v left run %d, want %v", right, lr, e.Clk())
		}
		time.Sleep(time.Millisecond)
	}
}
