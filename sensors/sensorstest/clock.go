// Package sensorstest has test doubles for the sensors package: a virtual
// clock, a board whose squares follow a trace (with contact bounce), and
// register-level models of every chip the scanners drive — the MCP23017
// (an i2c.Bus), the 74HC165 chain (an spi.Port), the diode matrix (GPIO
// pins and line sets, diodes included), the CD74HC4067 multiplexers with
// analog Hall sensors, the MCP3008 (SPI) and the ADS1115 (I2C) — plus a
// scripted FrameSource and a Hardware that hands out the models by name.
//
// With them a simulated or recorded game goes through the real scanner
// code: trace -> board -> chip registers -> bus transactions -> scanner ->
// debouncer -> frames, all in virtual time.
package sensorstest

import (
	"context"
	"sync"
	"time"
)

// Clock is a virtual clock: Sleep and Delay advance it at once, so a test
// of minutes of scanning runs in milliseconds. Functions registered with
// OnAdvance run (in order) whenever it moves: that is how a Board applies
// the trace events that have become due.
type Clock struct {
	mu    sync.Mutex
	now   time.Time
	hooks []func(time.Time)
	busy  bool
}

// Epoch is the default start of a virtual clock.
var Epoch = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

// NewClock returns a clock at Epoch.
func NewClock() *Clock { return &Clock{now: Epoch} }

// Now implements sensors.Clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep implements sensors.Clock: it advances the clock by d.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.Advance(d)
	return nil
}

// Delay implements sensors.Clock: it advances the clock by d.
func (c *Clock) Delay(d time.Duration) { c.Advance(d) }

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	if d <= 0 {
		return
	}
	c.mu.Lock()
	t := c.now.Add(d)
	c.mu.Unlock()
	c.AdvanceTo(t)
}

// AdvanceTo moves the clock to t (if later) and runs the hooks.
func (c *Clock) AdvanceTo(t time.Time) {
	c.mu.Lock()
	if t.After(c.now) {
		c.now = t
	}
	now, hooks, busy := c.now, c.hooks, c.busy
	c.busy = true
	c.mu.Unlock()
	if busy {
		return // a hook advancing the clock: the outer call runs the hooks
	}
	for _, h := range hooks {
		h(now)
	}
	c.mu.Lock()
	c.busy = false
	c.mu.Unlock()
}

// OnAdvance registers f to run whenever the clock moves.
func (c *Clock) OnAdvance(f func(now time.Time)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hooks = append(c.hooks, f)
}
