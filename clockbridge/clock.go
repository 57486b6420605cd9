package clockbridge

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/rules"
)

// Clock is a chess clock as the rest of boardd sees it: it reports presses,
// flags and buttons as Events, tells the remaining times, and takes the
// commands a clock understands. SoftClock implements it (alone, or driving
// a GPIO lever or a DGT3000); Fake implements it for tests.
type Clock interface {
	// Run delivers events in the order they happened until ctx ends or
	// the clock fails. emit is called from Run's goroutine only.
	Run(ctx context.Context, emit func(Event)) error
	// Snapshot returns the clock's state now.
	Snapshot() Snapshot
	// SetAndRun sets both remaining times and starts the given side's
	// clock (or stops both).
	SetAndRun(ctx context.Context, white, black time.Duration, run Running) error
	// Show puts a short text on the clock's display, with a beep of the
	// given length (0 for none). An empty text returns to the times.
	Show(ctx context.Context, text string, beep time.Duration) error
	// Beep sounds the clock for about d.
	Beep(ctx context.Context, d time.Duration) error
}

// ErrUnsupported is returned (wrapped) by a command the hardware lacks,
// e.g. Show on a lever without a display. Callers may ignore it.
var ErrUnsupported = errors.New("not supported by this clock")

// Running says whose clock runs (rules.ClockRunning).
type Running = rules.ClockRunning

// The three states of a two-faced clock.
const (
	Stopped   = rules.ClockStopped // neither clock runs
	WhiteRuns = rules.WhiteRuns    // White's time runs down
	BlackRuns = rules.BlackRuns    // Black's time runs down
)

// RunsFor returns the Running value for side c.
func RunsFor(c chess.Color) Running { return rules.ClockRunsFor(c) }

// Snapshot is the state of a clock at one instant (rules.ClockSnapshot:
// remaining times, never negative, running side, pause, move counters,
// periods, flags), and the text on the display.
type Snapshot struct {
	rules.ClockSnapshot
	Text string // the text on the display, "" when it shows times
}

// EventKind says what an Event reports.
type EventKind uint8

// Event kinds.
const (
	PressEvent  EventKind = iota + 1 // a player pressed the clock: a move is completed
	FlagEvent                        // a player's time ran out
	ButtonEvent                      // a clock button went down or up
	StateEvent                       // times or running side changed by a command (set, pause, resume, adjust)
	DeviceEvent                      // the hardware went away, came back or reported an error
)

var eventKindNames = [...]string{"", "press", "flag", "button", "state", "device"}

func (k EventKind) String() string {
	if k > 0 && int(k) < len(eventKindNames) {
		return eventKindNames[k]
	}
	return fmt.Sprintf("event(%d)", k)
}

// Button is a button on a clock.
type Button uint8

// Buttons of the DGT3000 (the GPIO adapter maps its pins to the same names).
const (
	NoButton Button = iota
	ButtonBack
	ButtonMinus
	ButtonPlayPause
	ButtonPlus
	ButtonForward
	ButtonPower
)

var buttonNames = [...]string{"none", "back", "minus", "playpause", "plus", "forward", "power"}

func (b Button) String() string {
	if int(b) < len(buttonNames) {
		return buttonNames[b]
	}
	return fmt.Sprintf("button(%d)", b)
}

// Event is something the clock reports.
type Event struct {
	Kind EventKind
	// At is when it happened on the clock's time source. For a press it is
	// the instant the lever moved (before debouncing confirmed it); for a
	// flag the exact instant the time reached zero.
	At time.Time
	// Side is who pressed (PressEvent) or whose flag fell (FlagEvent).
	Side chess.Color
	// Move is the number of the move a press completed (1 for each side's
	// first move), 0 for other kinds.
	Move int
	// Button and Down describe a ButtonEvent.
	Button Button
	Down   bool
	// State is the clock right after the event: after a press it holds
	// the presser's time including any increment and period time, which
	// is what a [%clk] comment shows.
	State Snapshot
	// Msg is a human-readable note (state and device events).
	Msg string
	// Err is the device error of a DeviceEvent, nil when it recovered.
	Err error
}

// Clk returns the presser's remaining time after a press: the value of the
// [%clk] comment of the move it completed.
func (e Event) Clk() time.Duration { return e.State.Remaining[e.Side] }

func (e Event) String() string {
	switch e.Kind {
	case PressEvent:
		return fmt.Sprintf("press %v move %d clk %v", e.Side, e.Move, e.Clk())
	case FlagEvent:
		return fmt.Sprintf("flag %v", e.Side)
	case ButtonEvent:
		return fmt.Sprintf("button %v down=%t", e.Button, e.Down)
	case DeviceEvent:
		if e.Err != nil {
			return fmt.Sprintf("device %s: %v", e.Msg, e.Err)
		}
		return "device " + e.Msg
	}
	return fmt.Sprintf("%v %s", e.Kind, e.Msg)
}
