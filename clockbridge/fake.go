package clockbridge

import (
	"context"
	"sync"
	"time"

	"github.com/boardd/boardd/chess"
)

// Fake is a Clock for other packages' tests: the test injects events,
// which Run delivers in order, and reads back the commands it received.
type Fake struct {
	mu       sync.Mutex
	events   chan Event
	state    Snapshot
	commands []FakeCommand
	err      error
}

// FakeCommand is one command a Fake received.
type FakeCommand struct {
	Name         string // "SetAndRun", "Show" or "Beep"
	White, Black time.Duration
	Run          Running
	Text         string
	Beep         time.Duration
}

// NewFake returns a Fake with room for 1024 pending events.
func NewFake() *Fake { return &Fake{events: make(chan Event, 1024)} }

// Inject queues e for Run and makes its State the Fake's snapshot.
func (f *Fake) Inject(e Event) {
	f.mu.Lock()
	if !e.State.At.IsZero() {
		f.state = e.State
	}
	f.mu.Unlock()
	f.events <- e
}

// Press injects a press by side at at completing move, with clk the
// presser's time after the press (the move's [%clk]).
func (f *Fake) Press(side chess.Color, move int, at time.Time, clk time.Duration) {
	f.mu.Lock()
	s := f.state
	f.mu.Unlock()
	s.At = at
	s.Remaining[side] = clk
	s.Moves[side] = move
	s.Running = RunsFor(side.Other())
	f.Inject(Event{Kind: PressEvent, At: at, Side: side, Move: move, State: s})
}

// Flag injects side's flag fall at at.
func (f *Fake) Flag(side chess.Color, at time.Time) {
	f.mu.Lock()
	s := f.state
	f.mu.Unlock()
	s.At = at
	s.Remaining[side] = 0
	s.Flagged[side], s.FlagAt[side] = true, at
	f.Inject(Event{Kind: FlagEvent, At: at, Side: side, Move: s.Moves[side] + 1, State: s})
}

// SetError makes every later command fail with err (nil: succeed).
func (f *Fake) SetError(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.err = err
}

// Commands returns the commands received so far.
func (f *Fake) Commands() []FakeCommand {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]FakeCommand(nil), f.commands...)
}

// Run delivers injected events until ctx ends.
func (f *Fake) Run(ctx context.Context, emit func(Event)) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case e := <-f.events:
			emit(e)
		}
	}
}

// Snapshot returns the state of the last injected event or command.
func (f *Fake) Snapshot() Snapshot {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.state
}

func (f *Fake) record(c FakeCommand) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.commands = append(f.commands, c)
	return f.err
}

// SetAndRun records the command and updates the snapshot.
func (f *Fake) SetAndRun(_ context.Context, white, black time.Duration, run Running) error {
	if err := f.record(FakeCommand{Name: "SetAndRun", White: white, Black: black, Run: run}); err != nil {
		return err
	}
	f.mu.Lock()
	f.state.Remaining, f.state.Running = [2]time.Duration{white, black}, run
	f.mu.Unlock()
	return nil
}

// Show records the command.
func (f *Fake) Show(_ context.Context, text string, beep time.Duration) error {
	if err := f.record(FakeCommand{Name: "Show", Text: text, Beep: beep}); err != nil {
		return err
	}
	f.mu.Lock()
	f.state.Text = text
	f.mu.Unlock()
	return nil
}

// Beep records the command.
func (f *Fake) Beep(_ context.Context, d time.Duration) error {
	return f.record(FakeCommand{Name: "Beep", Beep: d})
}

var _ Clock = (*Fake)(nil)
