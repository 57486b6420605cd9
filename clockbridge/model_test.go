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
		if err := m.Start(t0); err != nil {
			t.Fatal(err)
		}
		_ = ref.Start(t0)
		at := t0
		for i := range 6 {
			at = at.Add(time.Duration(i+1) * sec)
			side := chess.Color(i % 2)
			res, _, err := m.Press(side, at)
			if err != nil || res.Outcome != PressMove {
				t.Fatalf("press %d: %v %v", i, res.Outcome, err)
			}
			_, _, _ = ref.Press(side, at)
		}
		got, want := m.Snapshot(at.Add(sec)), ref.Snapshot(at.Add(sec))
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
