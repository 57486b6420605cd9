package clockbridge

import (
	"time"

	"github.com/boardd/boardd/rules"
)

// The clock model itself is rules.ClockModel, the one FIDE clock of
// boardd (the reconstruction replays [%clk] with it too). These names
// keep clockbridge's API.

// IncrementCredit says when a Fischer increment reaches the clock
// (rules.IncrementCredit).
type IncrementCredit = rules.IncrementCredit

// When increments are credited: CreditBeforeMove (FIDE clocks; the
// default) or CreditAfterMove.
const (
	CreditBeforeMove = rules.CreditBeforeMove
	CreditAfterMove  = rules.CreditAfterMove
)

// Options adjust the clock model (rules.ClockOptions).
type Options = rules.ClockOptions

// PressOutcome says what a press did (rules.PressOutcome).
type PressOutcome = rules.PressOutcome

// Press outcomes.
const (
	PressMove    = rules.PressMove
	PressStart   = rules.PressStart
	PressIgnored = rules.PressIgnored
)

// PressResult is the effect of a press (rules.PressResult).
type PressResult = rules.PressResult

// Flag is a flag fall (rules.ClockFlag).
type Flag = rules.ClockFlag

// Setting is what the arbiter sets on a clock (rules.ClockSetting).
type Setting = rules.ClockSetting

// ErrTimeBackwards is returned when an operation is dated before the
// previous one.
var ErrTimeBackwards = rules.ErrClockTimeBackwards

// Model is the FIDE chess clock as a pure state machine
// (rules.ClockModel), with snapshots as clockbridge's Snapshot.
type Model struct {
	*rules.ClockModel
}

// NewModel returns a clock set up for tc, not started.
func NewModel(tc rules.TimeControl, opt Options) (*Model, error) {
	m, err := rules.NewClockModel(tc, opt)
	if err != nil {
		return nil, err
	}
	return &Model{m}, nil
}

// Snapshot returns the clock at at (which must not be before the last
// operation).
func (m *Model) Snapshot(at time.Time) Snapshot {
	return Snapshot{ClockSnapshot: m.ClockModel.Snapshot(at)}
}
