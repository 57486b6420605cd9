package reconstruct

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/boardd/boardd/chess"
)

// TimeControl is a parsed time control: one or more periods, each with a
// base time, an optional move count, increment and delay. It is a small
// local model, enough to give each move its remaining time; the daemon's
// clock is authoritative on a live board.
type TimeControl struct {
	Periods []Period
}

// Period is one stage of a time control.
type Period struct {
	Moves   int   // moves to make in this period; 0 means the rest of the game
	BaseMs  int64 // time added when the period starts
	IncMs   int64 // added after each move (Fischer increment)
	DelayMs int64 // the clock does not run for this long each move (simple delay)
}

// ParseTimeControl reads a time control as the trace header writes it:
// periods separated by commas, each "[N/]TIME[+INC][ dDELAY]" with times
// in h, m or s ("90m+30s", "40/120m,60m,15m+30s", "5m+3s", "15m d10s").
// A bare number is minutes, and a bare increment seconds ("15+10"). A
// period without a move count that is not the last lasts 20 moves, the
// usual second period of classical controls (40/120m, 20/60m, 15m+30s).
func ParseTimeControl(s string) (TimeControl, error) {
	var tc TimeControl
	s = strings.TrimSpace(s)
	if s == "" {
		return tc, fmt.Errorf("time control: empty")
	}
	parts := strings.Split(s, ",")
	for i, part := range parts {
		part = strings.TrimSpace(part)
		var p Period
		if n, rest, ok := strings.Cut(part, "/"); ok {
			m, err := strconv.Atoi(strings.TrimSpace(n))
			if err != nil || m <= 0 || m > 1000 {
				return tc, fmt.Errorf("time control %q: %q is not a move count", s, n)
			}
			p.Moves = m
			part = rest
		} else if i < len(parts)-1 {
			p.Moves = 20
		}
		fields := strings.Fields(part)
		if len(fields) == 0 || len(fields) > 2 {
			return tc, fmt.Errorf("time control %q: period %q: want TIME[+INC][ dDELAY]", s, part)
		}
		base, inc, hasInc := strings.Cut(fields[0], "+")
		var err error
		if p.BaseMs, err = parseDuration(base, 60000); err != nil {
			return tc, fmt.Errorf("time control %q: %w", s, err)
		}
		if hasInc {
			if p.IncMs, err = parseDuration(inc, 1000); err != nil {
				return tc, fmt.Errorf("time control %q: increment: %w", s, err)
			}
		}
		if len(fields) == 2 {
			d := fields[1]
			if !strings.HasPrefix(d, "d") {
				return tc, fmt.Errorf("time control %q: %q: want a delay like d10s", s, d)
			}
			if p.DelayMs, err = parseDuration(d[1:], 1000); err != nil {
				return tc, fmt.Errorf("time control %q: delay: %w", s, err)
			}
		}
		tc.Periods = append(tc.Periods, p)
	}
	return tc, nil
}

// parseDuration reads "90m", "1h30m", "30s", "2.5m" or a bare number in
// units of bareMs.
func parseDuration(s string, bareMs int64) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("missing time")
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f < 0 || f > 1e6 {
			return 0, fmt.Errorf("time %q out of range", s)
		}
		return int64(f * float64(bareMs)), nil
	}
	var total int64
	rest := s
	for rest != "" {
		i := 0
		for i < len(rest) && (rest[i] >= '0' && rest[i] <= '9' || rest[i] == '.') {
			i++
		}
		if i == 0 || i == len(rest) {
			return 0, fmt.Errorf("time %q: want a number with a unit h, m or s", s)
		}
		f, err := strconv.ParseFloat(rest[:i], 64)
		if err != nil || f > 1e6 {
			return 0, fmt.Errorf("time %q: bad number %q", s, rest[:i])
		}
		var unit float64
		switch rest[i] {
		case 'h':
			unit = 3600000
		case 'm':
			unit = 60000
		case 's':
			unit = 1000
		default:
			return 0, fmt.Errorf("time %q: unit %q, want h, m or s", s, rest[i])
		}
		total += int64(f * unit)
		rest = rest[i+1:]
	}
	return total, nil
}

// clockModel follows the two clocks from the presses. The clock starts
// with White's time running at the first event of the game.
type clockModel struct {
	tc        TimeControl
	on        bool
	started   bool
	running   chess.Color
	since     int64 // when the running clock started
	remaining [2]int64
	moves     [2]int // moves completed by each side
	period    [2]int
}

func (c *clockModel) reset(tc TimeControl, first chess.Color) {
	*c = clockModel{tc: tc, on: len(tc.Periods) > 0, running: first}
	if c.on {
		c.remaining[0] = tc.Periods[0].BaseMs
		c.remaining[1] = tc.Periods[0].BaseMs
	}
}

func (c *clockModel) start(t int64) {
	if c.on && !c.started {
		c.started, c.since = true, t
	}
}

// press ends side's turn at time t. It returns the side's remaining time
// after the press (with any increment) and whether the flag had fallen
// before it; ok is false when side's clock was not running.
func (c *clockModel) press(side chess.Color, t int64) (left int64, fell, ok bool) {
	if !c.on || side != c.running {
		return -1, false, false
	}
	c.start(t)
	p := c.tc.Periods[c.period[side]]
	used := t - c.since - p.DelayMs
	if used < 0 {
		used = 0
	}
	c.remaining[side] -= used
	fell = c.remaining[side] < 0
	c.remaining[side] += p.IncMs
	c.moves[side]++
	// Enter the next period once this one's moves are made.
	done := 0
	for i := 0; i <= c.period[side]; i++ {
		done += c.tc.Periods[i].Moves
	}
	if p.Moves > 0 && c.moves[side] >= done && c.period[side]+1 < len(c.tc.Periods) {
		c.period[side]++
		c.remaining[side] += c.tc.Periods[c.period[side]].BaseMs
	}
	c.running = side.Other()
	c.since = t
	return c.remaining[side], fell, true
}

// left is the running side's remaining time at t (negative once its flag
// has fallen).
func (c *clockModel) left(t int64) int64 {
	p := c.tc.Periods[c.period[c.running]]
	used := t - c.since - p.DelayMs
	if used < 0 {
		used = 0
	}
	return c.remaining[c.running] - used
}
