//go:build !periphtest

package clockbridge

import (
	"errors"
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
)

// testPin is a gpio.PinIO double with the semantics of periph's
// gpiotest.Pin: In with PullUp reads High; edges are pushed into a
// channel and the level changes when WaitForEdge takes the edge. (The
// build tag periphtest runs the same tests on gpiotest.Pin itself; it
// needs github.com/jonboulle/clockwork in go.sum.)
type testPin struct {
	name  string
	mu    sync.Mutex
	l     gpio.Level
	pull  gpio.Pull
	edges chan gpio.Level
}

func newPinDouble(name string) pinDouble {
	return &testPin{name: name, edges: make(chan gpio.Level, 64)}
}

func (p *testPin) String() string   { return p.name }
func (p *testPin) Halt() error      { return nil }
func (p *testPin) Name() string     { return p.name }
func (p *testPin) Number() int      { return -1 }
func (p *testPin) Function() string { return "In/Out" }
func (p *testPin) In(pull gpio.Pull, edge gpio.Edge) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pull = pull
	switch pull {
	case gpio.PullUp:
		p.l = gpio.High
	case gpio.PullDown:
		p.l = gpio.Low
	}
	if edge == gpio.NoEdge {
		return errors.New("testPin: want edges")
	}
	for {
		select {
		case <-p.edges:
		default:
			return nil
		}
	}
}
func (p *testPin) Read() gpio.Level {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.l
}
func (p *testPin) WaitForEdge(timeout time.Duration) bool {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case l := <-p.edges:
		_ = p.Out(l)
		return true
	case <-t.C:
		return false
	}
}
func (p *testPin) Pull() gpio.Pull        { return p.pull }
func (p *testPin) DefaultPull() gpio.Pull { return p.pull }
func (p *testPin) Out(l gpio.Level) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.l = l
	return nil
}
func (p *testPin) PWM(gpio.Duty, physic.Frequency) error { return errors.New("testPin: no PWM") }

func (p *testPin) edge(l gpio.Level)  { p.edges <- l }
func (p *testPin) level(l gpio.Level) { _ = p.Out(l) }
