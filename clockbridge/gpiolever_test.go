package clockbridge

import (
	"context"
	"errors"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"

	"github.com/boardd/boardd/chess"
)

// pinDouble is a GPIO pin a test can move: edge pushes an edge with the
// new level (as an interrupt would), level changes the level silently
// (an edge the driver lost).
type pinDouble interface {
	gpio.PinIO
	edge(gpio.Level)
	level(gpio.Level)
}

func runLever(t *testing.T, g *GPIOLever) <-chan Report {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan Report, 64)
	done := make(chan error, 1)
	go func() { done <- g.Run(ctx, func(r Report) { ch <- r }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	nextReport(t, ch, ReportOnline)
	return ch
}

func noReport(t *testing.T, ch <-chan Report, within time.Duration) {
	t.Helper()
	select {
	case r := <-ch:
		t.Fatalf("unexpected report %+v", r)
	case <-time.After(within):
	}
}

func TestGPIOLeverPresses(t *testing.T) {
	lever := newPinDouble("GPIO17")
	ts := NewFakeTime(t0)
	g, err := NewGPIOLever(GPIOLeverConfig{Lever: lever, WhiteDown: gpio.Low, Time: ts, Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ch := runLever(t, g)
	// Pulled up, the lever reads High: Black's side down. White presses.
	lever.edge(gpio.Low)
	r := nextReport(t, ch, ReportPress)
	if r.Side != chess.White || !r.At.Equal(t0) {
		t.Errorf("press %+v", r)
	}
	// Black presses with a bouncing contact: one press, dated at the
	// first edge.
	ts.Advance(3 * sec)
	lever.edge(gpio.High)
	lever.edge(gpio.Low)
	lever.edge(gpio.High)
	lever.edge(gpio.Low)
	lever.edge(gpio.High)
	if r := nextReport(t, ch, ReportPress); r.Side != chess.Black || !r.At.Equal(t0.Add(3*sec)) {
		t.Errorf("bouncing press %+v", r)
	}
	noReport(t, ch, 50*time.Millisecond)
	// A knock: a pulse shorter than the debounce time changes nothing.
	lever.edge(gpio.Low)
	lever.edge(gpio.High)
	noReport(t, ch, 50*time.Millisecond)
	// A change whose edge was lost is still seen (within idleWait).
	lever.level(gpio.Low)
	if r := nextReport(t, ch, ReportPress); r.Side != chess.White {
		t.Errorf("press without edge %+v", r)
	}
}

func TestGPIOLeverButtonsAndBuzzer(t *testing.T) {
	lever, plus, buzzer := newPinDouble("GPIO17"), newPinDouble("GPIO22"), newPinDouble("GPIO23")
	ts := NewFakeTime(t0)
	g, err := NewGPIOLever(GPIOLeverConfig{Lever: lever, WhiteDown: gpio.High, Time: ts, Debounce: 5 * time.Millisecond,
		Buttons: map[Button]gpio.PinIn{ButtonPlus: plus}, Buzzer: buzzer})
	if err != nil {
		t.Fatal(err)
	}
	ch := runLever(t, g)
	plus.edge(gpio.Low)
	if r := nextReport(t, ch, ReportButton); r.Button != ButtonPlus || !r.Down {
		t.Errorf("button %+v", r)
	}
	plus.edge(gpio.High)
	if r := nextReport(t, ch, ReportButton); r.Button != ButtonPlus || r.Down {
		t.Errorf("button %+v", r)
	}
	lever.edge(gpio.Low) // WhiteDown is High here: Black pressed
	if r := nextReport(t, ch, ReportPress); r.Side != chess.Black {
		t.Errorf("press %+v", r)
	}

	ctx := context.Background()
	if err := g.Beep(ctx, 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if buzzer.Read() != gpio.High {
		t.Error("buzzer off during beep")
	}
	<-ts.TimerCreated()
	ts.Advance(200 * time.Millisecond)
	deadline := time.Now().Add(5 * time.Second)
	for buzzer.Read() != gpio.Low {
		if time.Now().After(deadline) {
			t.Fatal("buzzer still on")
		}
		time.Sleep(time.Millisecond)
	}
	if err := g.Show(ctx, "X", 0); !errors.Is(err, ErrUnsupported) {
		t.Errorf("show: %v", err)
	}
	if err := g.SetAndRun(ctx, time.Minute, time.Minute, WhiteRuns); err != nil {
		t.Errorf("SetAndRun: %v", err)
	}
}

func TestGPIOLeverConfig(t *testing.T) {
	if _, err := NewGPIOLever(GPIOLeverConfig{}); err == nil {
		t.Error("no lever pin accepted")
	}
	if _, err := NewGPIOLever(GPIOLeverConfig{Lever: newPinDouble("a"), Buttons: map[Button]gpio.PinIn{ButtonBack: nil}}); err == nil {
		t.Error("nil button pin accepted")
	}
	g, _ := NewGPIOLever(GPIOLeverConfig{Lever: newPinDouble("a")})
	if err := g.Beep(context.Background(), time.Second); !errors.Is(err, ErrUnsupported) {
		t.Errorf("beep without buzzer: %v", err)
	}
}

// TestGPIOLeverDrivesSoftClock: a lever and the software clock together.
func TestGPIOLeverDrivesSoftClock(t *testing.T) {
	lever := newPinDouble("GPIO17")
	ts := NewFakeTime(t0)
	g, _ := NewGPIOLever(GPIOLeverConfig{Lever: lever, WhiteDown: gpio.Low, Time: ts, Debounce: 5 * time.Millisecond})
	c := newSoft(t, "5m+3s", g, ts)
	ch := runClock(t, c)
	nextEvent(t, ch, DeviceEvent)
	_ = c.Start(context.Background())
	nextEvent(t, ch, StateEvent)
	ts.Advance(4 * sec)
	lever.edge(gpio.Low)
	e := nextEvent(t, ch, PressEvent)
	if e.Side != chess.White || e.Clk() != 5*mn+2*sec {
		t.Errorf("press %v", e)
	}
}
