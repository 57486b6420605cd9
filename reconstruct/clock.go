package reconstruct

import (
	"fmt"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/rules"
)

// clockModel follows the two clocks from the presses, with the time
// control's periods, increments and delay (rules.TimeControl). White's
// clock starts at the first event of the game. It only gives each move
// its remaining time and sees a flag that fell before a press; on a live
// board the clock itself is authoritative.
type clockModel struct {
	tc        rules.TimeControl
	on        bool
	started   bool
	running   chess.Color
	since     int64 // when the running clock started
	remaining [2]int64
	moves     [2]int // moves completed by each side
}

func (c *clockModel) reset(tc rules.TimeControl, first chess.Color) {
	*c = clockModel{tc: tc, on: tc.Timed(), running: first}
	if c.on {
		ms := tc.Initial().Milliseconds()
		c.remaining = [2]int64{ms, ms}
	}
}

func (c *clockModel) start(t int64) {
	if c.on && !c.started {
		c.started, c.since = true, t
	}
}

// used is how much of side's time a move that took elapsed ms costs.
func (c *clockModel) used(side chess.Color, elapsed int64) int64 {
	d, mode := c.tc.DelayFor(c.moves[side] + 1)
	if mode != rules.NoDelay {
		// Simple delay: the clock waits; Bronstein: the same time comes
		// back at the press. Either way the move costs what exceeds it.
		elapsed -= d.Milliseconds()
	}
	return max(elapsed, 0)
}

// press ends side's turn at time t. It returns the side's remaining time
// after the press (increment and any new period included) and whether the
// flag had fallen before it; ok is false when side's clock was not running.
func (c *clockModel) press(side chess.Color, t int64) (left int64, fell, ok bool) {
	if !c.on || side != c.running {
		return -1, false, false
	}
	c.start(t)
	c.remaining[side] -= c.used(side, t-c.since)
	fell = c.remaining[side] < 0
	c.moves[side]++
	n := c.moves[side]
	c.remaining[side] += c.tc.IncrementFor(n).Milliseconds() + c.tc.TimeAddedAfter(n).Milliseconds()
	c.running = side.Other()
	c.since = t
	return c.remaining[side], fell, true
}

// ParseTimeControl reads a time control as the trace header writes it
// (rules.ParseTimeControl).
func ParseTimeControl(s string) (rules.TimeControl, error) {
	tc, err := rules.ParseTimeControl(s)
	if err != nil {
		return tc, fmt.Errorf("time control: %w", err)
	}
	return tc, nil
}
