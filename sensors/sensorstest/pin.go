package sensorstest

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/pin"
)

// Pin is a GPIO of a model: it remembers how it was set, calls OnOut when
// driven, and reads what ReadFunc says (or its own output level). Fail
// makes its next operations fail.
type Pin struct {
	N        string
	mu       sync.Mutex
	output   bool
	level    gpio.Level
	pull     gpio.Pull
	failN    int
	OnOut    func(gpio.Level)
	ReadFunc func() gpio.Level
	// Outs counts the Out calls.
	Outs int
}

// Fail makes the next n Out or In calls fail.
func (p *Pin) Fail(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failN = n
}

// Level returns the level the pin drives (or last drove).
func (p *Pin) Level() gpio.Level {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.level
}

// Output reports whether the pin is an output, and its pull as an input.
func (p *Pin) Output() (bool, gpio.Pull) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.output, p.pull
}

func (p *Pin) fail() error {
	if p.failN > 0 {
		p.failN--
		return fmt.Errorf("%s: injected failure", p.N)
	}
	return nil
}

// String implements conn.Resource.
func (p *Pin) String() string { return p.N }

// Halt implements conn.Resource.
func (p *Pin) Halt() error { return nil }

// Name implements pin.Pin.
func (p *Pin) Name() string { return p.N }

// Number implements pin.Pin.
func (p *Pin) Number() int { return -1 }

// Function implements pin.Pin.
func (p *Pin) Function() string { return string(p.Func()) }

// Func implements pin.PinFunc.
func (p *Pin) Func() pin.Func {
	if o, _ := p.Output(); o {
		return gpio.OUT
	}
	return gpio.IN
}

// SupportedFuncs implements pin.PinFunc.
func (p *Pin) SupportedFuncs() []pin.Func { return []pin.Func{gpio.IN, gpio.OUT} }

// SetFunc implements pin.PinFunc.
func (p *Pin) SetFunc(pin.Func) error { return errors.New("model pin: use In or Out") }

// In implements gpio.PinIn.
func (p *Pin) In(pull gpio.Pull, edge gpio.Edge) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.fail(); err != nil {
		return err
	}
	if edge != gpio.NoEdge {
		return fmt.Errorf("%s: model pins have no edge detection", p.N)
	}
	p.output = false
	if pull != gpio.PullNoChange {
		p.pull = pull
	}
	return nil
}

// Read implements gpio.PinIn.
func (p *Pin) Read() gpio.Level {
	p.mu.Lock()
	f, out, l := p.ReadFunc, p.output, p.level
	p.mu.Unlock()
	if f != nil {
		return f()
	}
	if out {
		return l
	}
	return p.Pull() == gpio.PullUp
}

// WaitForEdge implements gpio.PinIn.
func (p *Pin) WaitForEdge(time.Duration) bool { return false }

// Pull implements gpio.PinIn.
func (p *Pin) Pull() gpio.Pull {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pull
}

// DefaultPull implements gpio.PinIn.
func (p *Pin) DefaultPull() gpio.Pull { return gpio.Float }

// Out implements gpio.PinOut.
func (p *Pin) Out(l gpio.Level) error {
	p.mu.Lock()
	if err := p.fail(); err != nil {
		p.mu.Unlock()
		return err
	}
	p.output, p.level = true, l
	p.Outs++
	f := p.OnOut
	p.mu.Unlock()
	if f != nil {
		f(l)
	}
	return nil
}

// PWM implements gpio.PinOut.
func (p *Pin) PWM(gpio.Duty, physic.Frequency) error { return errors.New("model pin: no PWM") }

var _ gpio.PinIO = (*Pin)(nil)
