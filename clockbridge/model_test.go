package clockbridge

import (
	"errors"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/rules"
)

var t0 = time.Date(2024, 12, 26, 14, 0, 0, 0, time.UTC)

const (
	ms  = time.Millisecond
	sec = time.Second
	mn  = time.Minute
)

func mustTC(t *testing.T, s string) rules.TimeControl {
	t.Helper()
	tc, err := rules.ParseTimeControl(s)
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

func newModel(t *testing.T, tc string, opt Options) *Model {
	t.Helper()
	m, err := NewModel(mustTC(t, tc), opt)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// step is one press in a scripted game: side presses after thinking for
// think; wantClk is its [%clk] after the press (-1: not checked).
type step struct {
	side    chess.Color
	think   time.Duration
	wantClk time.Duration
}

// play runs steps from a clock started at t0 and returns the end time.
func play(t *testing.T, m *Model, steps []step) time.Time {
	t.Helper()
	at := t0
	if err := m.Start(at); err != nil {
		t.Fatal(err)
	}
	for i, s := range steps {
		at = at.Add(s.think)
		res, flags, err := m.Press(s.side, at)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if len(flags) > 0 {
			t.Fatalf("step %d: unexpected flag %+v", i, flags)
		}
		if res.Outcome != PressMove {
			t.Fatalf("step %d: outcome %v (%s)", i, res.Outcome, res.Reason)
		}
		if s.wantClk >= 0 && res.Clk != s.wantClk {
			t.Errorf("step %d (%v move %d): clk %v, want %v", i, s.side, res.Move, res.Clk, s.wantClk)
		}
	}
	return at
}

// TestModelIsTheRulesClock checks the clockbridge names of the clock
// model (its own tests are rules' TestClock*): the same presses give the
// same times as rules.ClockModel, and a snapshot carries them with room
// for the display text.
func TestModelIsTheRulesClock(t *testing.T) {
	for _, opt := range []Options{{}, {Credit: CreditAfterMove}} {
		m := newModel(t, "5m+3s", opt)
		ref, err := rules.NewClockModel(mustTC(t, "5m+3s"), opt)
		if err != nil {
			t.Fatal(err)
		}
		var steps []step
		for i := range 6 {
			steps = append(steps, step{chess.Color(i % 2), time.Duration(i+1) * sec, -1})
		}
		end := play(t, m, steps)
		_ = ref.Start(t0)
		at := t0
		for _, s := range steps {
			at = at.Add(s.think)
			_, _, _ = ref.Press(s.side, at)
		}
		got, want := m.Snapshot(end.Add(sec)), ref.Snapshot(end.Add(sec))
		if got.ClockSnapshot.Remaining != want.Remaining || got.Running != want.Running || got.Moves != [2]int{3, 3} || got.Text != "" {
			t.Errorf("credit %v: snapshot %+v, rules model %+v", opt.Credit, got, want)
		}
	}
	m := newModel(t, "5m", Options{})
	_ = m.Start(t0.Add(sec))
	if _, _, err := m.Press(chess.White, t0); !errors.Is(err, ErrTimeBackwards) {
		t.Errorf("time backwards: %v", err)
	}
	if RunsFor(chess.Black) != BlackRuns || Stopped.String() != "stopped" {
		t.Error("Running names")
	}
}
