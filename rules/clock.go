package rules

import (
	"errors"
	"fmt"
	"time"

	"github.com/boardd/boardd/chess"
)

// This file is the FIDE chess clock as a pure state machine: the one
// clock model of boardd. The software clock and the clock adapters
// (package clockbridge) run it in real time, the reconstruction runs it
// over a trace's presses for the [%clk] of each move, and the physical
// clocks are checked against it.

// ClockRunning says whose clock runs.
type ClockRunning uint8

// The three states of a two-faced clock.
const (
	ClockStopped ClockRunning = iota // neither clock runs
	WhiteRuns                        // White's time runs down
	BlackRuns                        // Black's time runs down
)

// ClockRunsFor returns the ClockRunning value for side c.
func ClockRunsFor(c chess.Color) ClockRunning {
	if c == chess.White {
		return WhiteRuns
	}
	return BlackRuns
}

// Side returns the side whose clock runs, and false when stopped.
func (r ClockRunning) Side() (chess.Color, bool) {
	switch r {
	case WhiteRuns:
		return chess.White, true
	case BlackRuns:
		return chess.Black, true
	}
	return chess.White, false
}

func (r ClockRunning) String() string {
	switch r {
	case ClockStopped:
		return "stopped"
	case WhiteRuns:
		return "white"
	case BlackRuns:
		return "black"
	}
	return fmt.Sprintf("running(%d)", r)
}

// ClockSnapshot is the state of a clock at one instant. Arrays are
// indexed by chess.Color (White = 0, Black = 1).
type ClockSnapshot struct {
	At        time.Time
	Remaining [2]time.Duration // thinking time left, never negative
	// Delay is the unused fixed extra time of the running side's current
	// move in delay mode (2018 Art. 6.3.2); zero otherwise.
	Delay   time.Duration
	Running ClockRunning
	// Paused is set while the arbiter has stopped the clocks; Running
	// tells whose clock restarts on Resume.
	Paused  bool
	Moves   [2]int // moves completed by each side (clock presses counted)
	Period  [2]int // each side's current period, 0-based
	Flagged [2]bool
	FlagAt  [2]time.Time // when each flag fell (zero if it has not)
	// FlagLastPeriod: the flag fell in the period in which all remaining
	// moves must be completed (2018 Guidelines III.3.1).
	FlagLastPeriod [2]bool
}

// IncrementCredit says when a Fischer increment reaches the clock.
type IncrementCredit uint8

const (
	// CreditBeforeMove: the increment of a player's move n is on the
	// clock while move n is played. It is added at the start of the
	// game for move 1 (both clocks start at base + increment) and, for
	// later moves, when the player completes the previous move. FIDE
	// approved clocks work this way, and FIDE broadcasts show it: in
	// "15 min + 10 s from move 1" Black's first [%clk] reads up to
	// 0:15:19 (testdata/games, TestBroadcastClocksCreditBeforeMove).
	// For "40/120m,20/60m,15m+30s" the first 30 s arrive with the 15
	// minutes when move 60 is completed.
	CreditBeforeMove IncrementCredit = iota
	// CreditAfterMove: the increment of move n is added when move n is
	// completed. Every [%clk] is then one increment lower than on a FIDE
	// clock, and a flag falls one increment earlier.
	CreditAfterMove
)

// ClockOptions adjust a ClockModel. The zero value is a FIDE clock.
type ClockOptions struct {
	Credit IncrementCredit
	// StopOnFlag stops both clocks when a flag falls. By default the
	// other player's clock keeps running: under the Laws a flag counts
	// only when the arbiter sees it or a player claims it (2018 6.8,
	// 1997 6.8, B6), so play can go on and the second flag can fall too.
	StopOnFlag bool
}

// ClockModel is the FIDE chess clock as a pure state machine: every
// operation is given the instant it happens at, so the same calls always
// give the same times. It is the reference implementation:
// clockbridge.SoftClock runs it in real time, clockbridge.Replay and the
// reconstruction run it over a trace's presses, and the physical adapters
// are checked against it.
//
// Time controls are TimeControl periods: moves per period, time
// added when the last move of a period is completed, Fischer increments
// (credited as ClockOptions.Credit says), and the delay modes (2018 6.3.2
// "time-delay mode": the main time starts only after the fixed extra time
// has run out; Bronstein: the time used, at most the delay, is given back
// at the press). Remaining times never go below zero; a flag falls at the
// exact instant the running side's time reaches zero.
type ClockModel struct {
	tc  TimeControl
	opt ClockOptions

	started bool
	paused  bool
	running ClockRunning
	// since is when the running side's clock last (re)started; rem and
	// delay are its values at that instant.
	since time.Time
	rem   [2]time.Duration
	delay time.Duration // simple delay not yet used of the current move
	used  time.Duration // Bronstein: time used on the current move before since
	moves [2]int
	flag  [2]bool
	flagT [2]time.Time
	flagL [2]bool // flag fell in the last period
}

// NewClockModel returns a clock set up for tc, not started.
func NewClockModel(tc TimeControl, opt ClockOptions) (*ClockModel, error) {
	if tc.Unknown || !tc.Timed() {
		return nil, fmt.Errorf("clock: time control %s has no periods", tc)
	}
	m := &ClockModel{tc: tc, opt: opt}
	for s := range 2 {
		m.rem[s] = tc.Initial()
		if opt.Credit == CreditBeforeMove {
			m.rem[s] += tc.IncrementFor(1)
		}
	}
	return m, nil
}

// TimeControl returns the clock's time control.
func (m *ClockModel) TimeControl() TimeControl { return m.tc }

// Started reports whether Start (or a start press) has happened.
func (m *ClockModel) Started() bool { return m.started }

// PressOutcome says what a press did.
type PressOutcome uint8

// Press outcomes.
const (
	PressMove    PressOutcome = iota + 1 // a move was completed and the other clock started
	PressStart                           // Black's press started White's clock (the game begins)
	PressIgnored                         // the press changed nothing (see PressResult.Reason)
)

// PressResult is the effect of a press.
type PressResult struct {
	Outcome PressOutcome
	Side    chess.Color
	// Move is the number of the move completed (PressMove).
	Move int
	// Clk is the presser's time after the press, with any period time
	// and increment credited: the move's [%clk].
	Clk time.Duration
	// Credited is what the press added (period time, increment, or the
	// time given back in Bronstein mode); zero after a flag.
	Credited time.Duration
	Reason   string // for PressIgnored
}

// ClockFlag is a flag fall: Side's time reached zero At, during its move Move
// (the move it had not completed), in period Period (0-based).
type ClockFlag struct {
	Side   chess.Color
	At     time.Time
	Move   int
	Period int
	// LastPeriod: the period is the one in which all remaining moves
	// must be completed (its Moves is 0). The Laws' both-flags rules
	// depend on it (2018 Guidelines III.3.1).
	LastPeriod bool
}

// ErrClockTimeBackwards is returned when an operation is dated before the
// previous one.
var ErrClockTimeBackwards = errors.New("clock: time went backwards")

func (m *ClockModel) check(at time.Time) error {
	if m.running != ClockStopped && !m.paused && at.Before(m.since) {
		return fmt.Errorf("%w: %v is before %v", ErrClockTimeBackwards, at.Format(time.StampMilli), m.since.Format(time.StampMilli))
	}
	return nil
}

// beginMove starts side's clock for its next move at at.
func (m *ClockModel) beginMove(side chess.Color, at time.Time) {
	m.running = ClockRunsFor(side)
	m.since = at
	m.delay, m.used = 0, 0
	if d, mode := m.tc.DelayFor(m.moves[side] + 1); mode == SimpleDelay {
		m.delay = d
	}
}

// remainingAt returns the running side's main time and unused simple
// delay at at (at not before since).
func (m *ClockModel) remainingAt(at time.Time) (rem, delay time.Duration) {
	side, _ := m.running.Side()
	el := at.Sub(m.since)
	delay = m.delay
	if el <= delay {
		return m.rem[side], delay - el
	}
	rem = m.rem[side] - (el - delay)
	if rem < 0 {
		rem = 0
	}
	return rem, 0
}

// settle brings the running side's stored times forward to at.
func (m *ClockModel) settle(at time.Time) {
	if m.running == ClockStopped || m.paused {
		return
	}
	side, _ := m.running.Side()
	rem, delay := m.remainingAt(at)
	m.used += at.Sub(m.since)
	m.rem[side], m.delay, m.since = rem, delay, at
}

// NextFlag returns when the running side's flag will fall if nothing
// happens first; ok is false when no clock runs or it has already fallen.
func (m *ClockModel) NextFlag() (side chess.Color, at time.Time, ok bool) {
	side, run := m.running.Side()
	if !run || m.paused || m.flag[side] {
		return side, time.Time{}, false
	}
	return side, m.since.Add(m.delay + m.rem[side]), true
}

// DelayEnd returns when the running side's simple delay runs out (the
// main time starts to run), ok false when none is pending.
func (m *ClockModel) DelayEnd() (time.Time, bool) {
	if m.running == ClockStopped || m.paused || m.delay <= 0 {
		return time.Time{}, false
	}
	return m.since.Add(m.delay), true
}

// flagsBefore is Advance for the calls that act at at: the flag that fell
// before it, if any, as the list they return.
func (m *ClockModel) flagsBefore(at time.Time) ([]ClockFlag, error) {
	f, ok, err := m.Advance(at)
	if err != nil || !ok {
		return nil, err
	}
	return []ClockFlag{f}, nil
}

// Advance detects a flag that fell at or before at. A time that reaches
// zero exactly at at has fallen (a press at that instant is too late).
func (m *ClockModel) Advance(at time.Time) (ClockFlag, bool, error) {
	if err := m.check(at); err != nil {
		return ClockFlag{}, false, err
	}
	side, when, ok := m.NextFlag()
	if !ok || when.After(at) {
		return ClockFlag{}, false, nil
	}
	m.settle(when)
	m.rem[side] = 0
	m.flag[side], m.flagT[side] = true, when
	n := m.moves[side] + 1
	p, _ := m.tc.PeriodAt(n)
	f := ClockFlag{Side: side, At: when, Move: n, Period: p, LastPeriod: m.tc.Periods[p].Moves == 0}
	m.flagL[side] = f.LastPeriod
	if m.opt.StopOnFlag {
		m.running = ClockStopped
	}
	return f, true, nil
}

// Start starts White's clock (2018 6.6). Starting twice is an error.
func (m *ClockModel) Start(at time.Time) error { return m.StartFor(chess.White, at) }

// StartFor starts side's clock: Black's for a game set up from a position
// with Black to move. Starting twice is an error.
func (m *ClockModel) StartFor(side chess.Color, at time.Time) error {
	if m.started {
		return errors.New("clock: already started")
	}
	m.started = true
	m.beginMove(side, at)
	return nil
}

// Press applies side's press of the clock at at. Call Advance(at) first
// to collect a flag that fell before it (Press does so itself, and
// returns that flag too). A press by the player whose clock does not run
// changes nothing, except that before the start Black's press starts
// White's clock (a lever clock is started that way).
func (m *ClockModel) Press(side chess.Color, at time.Time) (PressResult, []ClockFlag, error) {
	flags, err := m.flagsBefore(at)
	if err != nil {
		return PressResult{}, nil, err
	}
	res := PressResult{Side: side, Outcome: PressIgnored}
	switch {
	case !m.started:
		if side == chess.Black {
			m.started = true
			m.beginMove(chess.White, at)
			res.Outcome = PressStart
			return res, flags, nil
		}
		res.Reason = "clock not started"
		return res, flags, nil
	case m.paused:
		res.Reason = "clocks stopped by the arbiter"
		return res, flags, nil
	case m.running != ClockRunsFor(side):
		res.Reason = "the clock of " + side.String() + " is not running"
		return res, flags, nil
	}
	m.settle(at)
	m.moves[side]++
	n := m.moves[side]
	if !m.flag[side] {
		// Nothing is credited after a flag: the player did not complete
		// the moves in time (6.9), so no period time and no increment.
		var c time.Duration
		c += m.tc.TimeAddedAfter(n)
		switch m.opt.Credit {
		case CreditBeforeMove:
			c += m.tc.IncrementFor(n + 1)
		case CreditAfterMove:
			c += m.tc.IncrementFor(n)
		}
		if d, mode := m.tc.DelayFor(n); mode == BronsteinDelay {
			c += min(m.used, d)
		}
		m.rem[side] += c
		res.Credited = c
	}
	res.Outcome, res.Move, res.Clk = PressMove, n, m.rem[side]
	m.beginMove(side.Other(), at)
	return res, flags, nil
}

// Pause stops both clocks (the arbiter, 2018 6.11; or a player calling
// the arbiter, 6.12.2), keeping the running side's unused delay.
func (m *ClockModel) Pause(at time.Time) ([]ClockFlag, error) {
	flags, err := m.flagsBefore(at)
	if err != nil {
		return nil, err
	}
	if !m.paused {
		m.settle(at)
		m.paused = true
	}
	return flags, nil
}

// Resume restarts the clock that was running before Pause.
func (m *ClockModel) Resume(at time.Time) error {
	if !m.paused {
		return nil
	}
	m.paused = false
	m.since = at
	return nil
}

// Paused reports whether the arbiter has stopped the clocks.
func (m *ClockModel) Paused() bool { return m.paused }

// AddTime adds d to side's time (d may be negative; the result is at
// least zero), e.g. the 2 minutes for the opponent of an illegal move
// (2018 7.5.5) or for an incorrect claim (9.5). Time given to a flagged
// player lifts the flag: the arbiter decided the game goes on.
func (m *ClockModel) AddTime(side chess.Color, d time.Duration, at time.Time) ([]ClockFlag, error) {
	flags, err := m.flagsBefore(at)
	if err != nil {
		return nil, err
	}
	m.settle(at)
	m.rem[side] = max(0, m.rem[side]+d)
	if m.rem[side] > 0 {
		m.flag[side], m.flagT[side], m.flagL[side] = false, time.Time{}, false
	}
	return flags, nil
}

// ClockSetting is what the arbiter sets on a clock: both times, the move
// counters and who runs (2018 7.1 after a position is reinstated, 6.10.2
// when a clock was set wrongly).
type ClockSetting struct {
	White, Black           time.Duration
	WhiteMoves, BlackMoves int // moves completed; negative keeps the current count
	Run                    ClockRunning
}

// Set applies an arbiter's setting at at. Flags of sides given time are
// lifted; the running side starts a fresh move (with its delay).
func (m *ClockModel) Set(s ClockSetting, at time.Time) error {
	if s.White < 0 || s.Black < 0 {
		return fmt.Errorf("clock: negative time in setting %v / %v", s.White, s.Black)
	}
	if err := m.check(at); err != nil {
		return err
	}
	m.rem = [2]time.Duration{s.White, s.Black}
	if s.WhiteMoves >= 0 {
		m.moves[chess.White] = s.WhiteMoves
	}
	if s.BlackMoves >= 0 {
		m.moves[chess.Black] = s.BlackMoves
	}
	for side := range 2 {
		if m.rem[side] > 0 {
			m.flag[side], m.flagT[side], m.flagL[side] = false, time.Time{}, false
		}
	}
	m.started, m.paused = true, false
	if side, ok := s.Run.Side(); ok {
		m.beginMove(side, at)
	} else {
		m.running, m.since = ClockStopped, at
		m.delay, m.used = 0, 0
	}
	return nil
}

// Snapshot returns the clock at at (which must not be before the last
// operation).
func (m *ClockModel) Snapshot(at time.Time) ClockSnapshot {
	s := ClockSnapshot{At: at, Remaining: m.rem, Running: m.running, Paused: m.paused, Moves: m.moves,
		Flagged: m.flag, FlagAt: m.flagT, FlagLastPeriod: m.flagL}
	if side, ok := m.running.Side(); ok && !m.paused && !at.Before(m.since) {
		s.Remaining[side], s.Delay = m.remainingAt(at)
	} else if ok {
		s.Delay = m.delay
	}
	for side := range 2 {
		s.Period[side], _ = m.tc.PeriodAt(m.moves[side] + 1)
	}
	return s
}
