package clockbridge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"

	"github.com/boardd/boardd/chess"
)

// GPIOLeverConfig wires a clock lever (and optional buttons and buzzer)
// to GPIO pins.
type GPIOLeverConfig struct {
	// Lever reads the lever's position: one level when White's side is
	// down (White has pressed), the other when Black's is. A changeover
	// microswitch on the rocker gives that.
	Lever gpio.PinIn
	// WhiteDown is the level Lever reads when White's side is down.
	WhiteDown gpio.Level
	// Pull for the lever pin: the zero value (gpio.PullNoChange) means
	// gpio.PullUp; gpio.Float when the board has its own resistor.
	Pull gpio.Pull
	// Buttons are optional push buttons, wired to ground with the pin
	// pulled up: Low means pressed.
	Buttons map[Button]gpio.PinIn
	// Buzzer, if set, sounds for Beep (High = on).
	Buzzer gpio.PinOut
	// Debounce is how long a pin must stay quiet after an edge before
	// its level counts (default 20 ms; a lever microswitch bounces for a
	// few ms).
	Debounce time.Duration
	// MaxBounce bounds the settling: a pin still changing after this is
	// reported as an error and read as it is then (default 1 s).
	MaxBounce time.Duration
	Time      TimeSource   // nil: SystemTime
	Logger    *slog.Logger // nil: discard
}

// GPIOLever is a clock lever (and buttons) on GPIO pins: a Device without
// a display. Edges wake it; a level counts once the pin has been quiet
// for the debounce time, and a press is dated at its first edge.
type GPIOLever struct {
	cfg GPIOLeverConfig
	ts  TimeSource
	log *slog.Logger

	buzzMu   sync.Mutex
	buzzStop chan struct{} // closed to cancel the pending end of a beep
}

// NewGPIOLever checks cfg and returns the lever. It does not touch the
// pins until Run.
func NewGPIOLever(cfg GPIOLeverConfig) (*GPIOLever, error) {
	if cfg.Lever == nil {
		return nil, errors.New("gpio lever: no lever pin (is the pin name right? gpioreg.ByName returns nil for unknown names)")
	}
	for b, p := range cfg.Buttons {
		if p == nil {
			return nil, fmt.Errorf("gpio lever: button %v has no pin", b)
		}
	}
	if cfg.Pull == gpio.PullNoChange {
		cfg.Pull = gpio.PullUp
	}
	if cfg.Debounce <= 0 {
		cfg.Debounce = 20 * time.Millisecond
	}
	if cfg.MaxBounce <= 0 {
		cfg.MaxBounce = time.Second
	}
	if cfg.Time == nil {
		cfg.Time = SystemTime{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &GPIOLever{cfg: cfg, ts: cfg.Time, log: cfg.Logger}, nil
}

// idleWait bounds each wait for an edge, so Run notices ctx ending and a
// level change whose edge was lost.
const idleWait = 100 * time.Millisecond

// Run sets the pins up as edge-triggered inputs and reports presses and
// button changes until ctx ends.
func (g *GPIOLever) Run(ctx context.Context, report func(Report)) error {
	if err := g.cfg.Lever.In(g.cfg.Pull, gpio.BothEdges); err != nil {
		return fmt.Errorf("gpio lever: set up %s: %w", g.cfg.Lever, err)
	}
	for b, p := range g.cfg.Buttons {
		if err := p.In(gpio.PullUp, gpio.BothEdges); err != nil {
			return fmt.Errorf("gpio lever: set up button %v on %s: %w", b, p, err)
		}
	}
	var mu sync.Mutex // report is called from one goroutine at a time
	send := func(r Report) {
		mu.Lock()
		defer mu.Unlock()
		report(r)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		g.watch(ctx, g.cfg.Lever, send, func(l gpio.Level, at time.Time) {
			side := chess.Black
			if l == g.cfg.WhiteDown {
				side = chess.White
			}
			send(Report{Kind: ReportPress, At: at, Side: side})
		})
	}()
	for b, p := range g.cfg.Buttons {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.watch(ctx, p, send, func(l gpio.Level, at time.Time) {
				send(Report{Kind: ReportButton, At: at, Button: b, Down: l == gpio.Low})
			})
		}()
	}
	send(Report{Kind: ReportOnline, At: g.ts.Now(), Msg: "gpio lever " + g.cfg.Lever.String()})
	<-ctx.Done()
	for _, p := range append([]gpio.PinIn{g.cfg.Lever}, g.buttonPins()...) {
		_ = p.Halt() // interrupts a pending WaitForEdge where the driver can
	}
	wg.Wait()
	g.buzz(false)
	return nil
}

func (g *GPIOLever) buttonPins() []gpio.PinIn {
	out := make([]gpio.PinIn, 0, len(g.cfg.Buttons))
	for _, p := range g.cfg.Buttons {
		out = append(out, p)
	}
	return out
}

// watch debounces one pin: after an edge it waits until the pin has been
// quiet for Debounce, then reads the level; a level different from the
// last stable one is a change, dated at the first edge of the burst. A
// pulse shorter than Debounce (a knock, interference) changes nothing.
// Edges queue in the drivers, so the level is read, never counted.
func (g *GPIOLever) watch(ctx context.Context, p gpio.PinIn, send func(Report), changed func(gpio.Level, time.Time)) {
	stable := p.Read()
	for ctx.Err() == nil {
		if !p.WaitForEdge(idleWait) {
			if l := p.Read(); l != stable && ctx.Err() == nil {
				// A change without an edge (an edge lost by the driver):
				// take it, dated now.
				stable = l
				changed(l, g.ts.Now())
			}
			continue
		}
		first := g.ts.Now()
		limit := first.Add(g.cfg.MaxBounce)
		for p.WaitForEdge(g.cfg.Debounce) {
			if g.ts.Now().After(limit) {
				send(Report{Kind: ReportError, At: g.ts.Now(), Msg: p.String(),
					Err: fmt.Errorf("gpio lever: %s still bouncing after %v", p, g.cfg.MaxBounce)})
				break
			}
		}
		if l := p.Read(); l != stable && ctx.Err() == nil {
			stable = l
			changed(l, first)
		}
	}
}

// SetAndRun does nothing: a lever has no display.
func (g *GPIOLever) SetAndRun(context.Context, time.Duration, time.Duration, Running) error {
	return nil
}

// Show returns ErrUnsupported: a lever has no display.
func (g *GPIOLever) Show(_ context.Context, text string, _ time.Duration) error {
	return fmt.Errorf("show %q on a gpio lever: %w", text, ErrUnsupported)
}

// Beep sounds the buzzer for d, or returns ErrUnsupported without one.
func (g *GPIOLever) Beep(_ context.Context, d time.Duration) error {
	if g.cfg.Buzzer == nil {
		return fmt.Errorf("beep on a gpio lever without buzzer: %w", ErrUnsupported)
	}
	if err := g.cfg.Buzzer.Out(gpio.High); err != nil {
		return fmt.Errorf("beep: %w", err)
	}
	stop := make(chan struct{})
	g.buzzMu.Lock()
	if g.buzzStop != nil {
		close(g.buzzStop) // a new beep replaces the one sounding
	}
	g.buzzStop = stop
	g.buzzMu.Unlock()
	t := g.ts.NewTimer(d)
	go func() {
		select {
		case <-t.C():
			g.buzzMu.Lock()
			if g.buzzStop == stop {
				g.buzz(false)
				g.buzzStop = nil
			}
			g.buzzMu.Unlock()
		case <-stop:
			t.Stop()
		}
	}()
	return nil
}

func (g *GPIOLever) buzz(on bool) {
	if g.cfg.Buzzer == nil {
		return
	}
	l := gpio.Low
	if on {
		l = gpio.High
	}
	if err := g.cfg.Buzzer.Out(l); err != nil {
		g.log.Warn("gpio lever: buzzer", "err", err)
	}
}

var _ Device = (*GPIOLever)(nil)
var _ Device = (*DGT3000)(nil)
