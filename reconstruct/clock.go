package reconstruct

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/rules"
)

// gameClock follows the chess clock from the trace's presses with
// rules.ClockModel, the FIDE clock that clockbridge runs live: Fischer
// increments on the clock while the move is played (both clocks start at
// base + increment), no credit after a flag, times never negative, a flag
// at the exact instant. The mover's clock starts at the first event of
// the game. Every press goes to the model, as it goes to a real clock,
// whether or not it completes a move; a press by the player whose clock
// is not running changes nothing. On a live board the clock itself is
// authoritative; this gives a replay its [%clk] and the flags that fell
// before a press.
type gameClock struct {
	tc    rules.TimeControl
	first chess.Color
	m     *rules.ClockModel // nil without a time control
}

// clockAt is the instant of board time t (ms); only differences count.
func clockAt(t int64) time.Time { return time.UnixMilli(t) }

// reset sets the clock up for a new game whose first move is first's.
func (c *gameClock) reset(tc rules.TimeControl, first chess.Color) {
	c.tc, c.first, c.m = tc, first, nil
	if tc.Timed() {
		// NewClockModel fails only for an untimed control.
		c.m, _ = rules.NewClockModel(tc, rules.ClockOptions{})
	}
}

// start starts the clock of the player to move at t, once.
func (c *gameClock) start(t int64) {
	if c.m != nil && !c.m.Started() {
		_ = c.m.StartFor(c.first, clockAt(t))
	}
}

// press applies side's press at t. clk is side's remaining time after it
// (ms; the increment of its next move and any period time included), -1
// without a time control; flags are the flags that fell before it.
func (c *gameClock) press(side chess.Color, t int64) (clk int64, flags []rules.ClockFlag) {
	if c.m == nil {
		return -1, nil
	}
	c.start(t)
	at := clockAt(t)
	res, flags, err := c.m.Press(side, at)
	if err != nil {
		// Only an event before the previous one: the caller feeds events
		// in time order.
		return -1, nil
	}
	if res.Outcome == rules.PressMove {
		return res.Clk.Milliseconds(), flags
	}
	return c.m.Snapshot(at).Remaining[side].Milliseconds(), flags
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
