package rules

import (
	"errors"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
)

var clockT0 = time.Date(2024, 12, 26, 14, 0, 0, 0, time.UTC)

const (
	ms  = time.Millisecond
	sec = time.Second
	mn  = time.Minute
)

func clockTC(t *testing.T, s string) TimeControl {
	t.Helper()
	tc, err := ParseTimeControl(s)
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

func newClock(t *testing.T, tc string, opt ClockOptions) *ClockModel {
	t.Helper()
	m, err := NewClockModel(clockTC(t, tc), opt)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// step is one press in a scripted game: side presses after thinking for
// think; wantClk is its [%clk] after the press (-1: not checked).
type clockStep struct {
	side    chess.Color
	think   time.Duration
	wantClk time.Duration
}

// play runs steps from a clock started at clockT0 and returns the end time.
func playClock(t *testing.T, m *ClockModel, steps []clockStep) time.Time {
	t.Helper()
	at := clockT0
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

func TestClockTimeControls(t *testing.T) {
	W, B := chess.White, chess.Black
	tests := []struct {
		name  string
		tc    string
		opt   ClockOptions
		start time.Duration // both clocks before move 1
		steps []clockStep
	}{
		{"90m+30s: increment for move 1 on the clock at the start", "90m+30s", ClockOptions{}, 90*mn + 30*sec, []clockStep{
			{W, 10 * sec, 90*mn + 50*sec}, // 90:30 - 10 s + 30 s for move 2
			{B, 20 * sec, 90*mn + 40*sec},
			{W, 5 * mn, 86*mn + 20*sec},
		}},
		{"90m+30s credited after the move", "90m+30s", ClockOptions{Credit: CreditAfterMove}, 90 * mn, []clockStep{
			{W, 10 * sec, 90*mn + 20*sec},
			{B, 20 * sec, 90*mn + 10*sec},
		}},
		{"5m+3s", "5m+3s", ClockOptions{}, 5*mn + 3*sec, []clockStep{
			{W, 2 * sec, 5*mn + 4*sec},
			{B, 1500 * ms, 5*mn + 4500*ms},
			{W, 7 * sec, 5 * mn},
		}},
		{"15m d10s: delay used up to 10 s leaves the time alone", "15m d10s", ClockOptions{}, 15 * mn, []clockStep{
			{W, 8 * sec, 15 * mn},
			{B, 10 * sec, 15 * mn},
			{W, 25 * sec, 14*mn + 45*sec},
			{B, 10*sec + ms, 15*mn - ms},
		}},
		{"15m b10s: Bronstein gives back the time used, at most 10 s", "15m b10s", ClockOptions{}, 15 * mn, []clockStep{
			{W, 4 * sec, 15 * mn},
			{B, 15 * sec, 14*mn + 55*sec},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newClock(t, tc.tc, tc.opt)
			if s := m.Snapshot(clockT0); s.Remaining != [2]time.Duration{tc.start, tc.start} {
				t.Errorf("start %v, want %v each", s.Remaining, tc.start)
			}
			playClock(t, m, tc.steps)
		})
	}
}

// TestClockClassicalThreePeriods plays 61 moves each of "40/120m,60m,15m+30s"
// at one minute a move: 60 minutes arrive exactly with move 40, 15
// minutes with move 60, and the 30 s increments from move 61.
func TestClockClassicalThreePeriods(t *testing.T) {
	for _, credit := range []IncrementCredit{CreditBeforeMove, CreditAfterMove} {
		m := newClock(t, "40/120m,60m,15m+30s", ClockOptions{Credit: credit})
		var steps []clockStep
		want := func(n int) time.Duration {
			switch {
			case n < 40:
				return 120*mn - time.Duration(n)*mn
			case n < 60:
				return 180*mn - time.Duration(n)*mn
			}
			d := 195*mn - time.Duration(n)*mn + time.Duration(n-60)*30*sec
			if credit == CreditBeforeMove {
				d += 30 * sec // move n+1's increment is already on the clock
			}
			return d
		}
		for n := 1; n <= 62; n++ {
			steps = append(steps, clockStep{chess.White, mn, want(n)}, clockStep{chess.Black, mn, want(n)})
		}
		playClock(t, m, steps)
		if s := m.Snapshot(clockT0.Add(124 * mn)); s.Period != [2]int{2, 2} || s.Moves != [2]int{62, 62} {
			t.Errorf("credit %d: periods %v moves %v", credit, s.Period, s.Moves)
		}
		// The numbers the issue names: after move 39 80 minutes, after
		// move 40 (time added as it is completed) 140 minutes.
		if want(39) != 81*mn || want(40) != 140*mn || (credit == CreditBeforeMove && want(60) != 135*mn+30*sec) {
			t.Errorf("table: %v %v %v", want(39), want(40), want(60))
		}
	}
}

// TestClockTimeAddedAtMove40 presses move 40 one millisecond before the flag
// and exactly at it.
func TestClockTimeAddedAtMove40(t *testing.T) {
	for _, tc := range []struct {
		name    string
		early   time.Duration
		flagged bool
		clk     time.Duration
	}{
		{"1 ms before the flag", ms, false, 60*mn + ms},
		{"at the flag", 0, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newClock(t, "40/120m,60m,15m+30s", ClockOptions{})
			var steps []clockStep
			for range 39 {
				steps = append(steps, clockStep{chess.White, 2 * mn, -1}, clockStep{chess.Black, 10 * sec, -1})
			}
			at := playClock(t, m, steps) // White has 120 - 78 = 42 minutes for move 40
			if s := m.Snapshot(at); s.Remaining[chess.White] != 42*mn {
				t.Fatalf("white has %v", s.Remaining[chess.White])
			}
			press := at.Add(42*mn - tc.early)
			res, flags, err := m.Press(chess.White, press)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(flags) == 1; got != tc.flagged {
				t.Fatalf("flags %+v", flags)
			}
			if tc.flagged && (!flags[0].At.Equal(press) || flags[0].Move != 40 || flags[0].Period != 0 || flags[0].LastPeriod) {
				t.Errorf("flag %+v", flags[0])
			}
			if res.Outcome != PressMove || res.Move != 40 || res.Clk != tc.clk {
				t.Errorf("press: %+v, want move 40 clk %v", res, tc.clk)
			}
		})
	}
}

func TestClockFlagToTheMillisecond(t *testing.T) {
	m := newClock(t, "5m+3s", ClockOptions{})
	if err := m.Start(clockT0); err != nil {
		t.Fatal(err)
	}
	want := clockT0.Add(5*mn + 3*sec)
	if side, at, ok := m.NextFlag(); !ok || side != chess.White || !at.Equal(want) {
		t.Fatalf("NextFlag %v %v %t, want white at %v", side, at, ok, want)
	}
	if _, ok, _ := m.Advance(want.Add(-ms)); ok {
		t.Fatal("flag 1 ms early")
	}
	if s := m.Snapshot(want.Add(-ms)); s.Remaining[chess.White] != ms || s.Flagged[chess.White] {
		t.Errorf("1 ms before: %+v", s)
	}
	f, ok, err := m.Advance(want.Add(250 * ms)) // noticed late: still dated exactly
	if err != nil || !ok || !f.At.Equal(want) || f.Side != chess.White || f.Move != 1 || !f.LastPeriod {
		t.Fatalf("flag %+v %t %v", f, ok, err)
	}
	if _, ok, _ := m.Advance(want.Add(sec)); ok {
		t.Error("second flag for the same side")
	}
	s := m.Snapshot(want.Add(sec))
	if s.Remaining[chess.White] != 0 || !s.Flagged[chess.White] || !s.FlagAt[chess.White].Equal(want) {
		t.Errorf("after flag: %+v", s)
	}
}

func TestClockNoIncrementAfterFlag(t *testing.T) {
	m := newClock(t, "5m+3s", ClockOptions{})
	if err := m.Start(clockT0); err != nil {
		t.Fatal(err)
	}
	// White overruns by 7 s and then presses: the move is completed but
	// nothing is credited, and Black's clock starts.
	res, flags, err := m.Press(chess.White, clockT0.Add(5*mn+10*sec))
	if err != nil || len(flags) != 1 || flags[0].Side != chess.White {
		t.Fatalf("flags %+v err %v", flags, err)
	}
	if res.Outcome != PressMove || res.Clk != 0 || res.Credited != 0 {
		t.Errorf("press after flag: %+v", res)
	}
	// Black too lets the time run out: both flags, order known.
	f, ok, _ := m.Advance(clockT0.Add(10*mn + 20*sec))
	if !ok || f.Side != chess.Black || !f.At.Equal(clockT0.Add(5*mn+10*sec+5*mn+3*sec)) {
		t.Fatalf("black flag %+v", f)
	}
	s := m.Snapshot(clockT0.Add(11 * mn))
	if s.Flagged != [2]bool{true, true} || !s.FlagAt[chess.White].Before(s.FlagAt[chess.Black]) {
		t.Errorf("both flags: %+v", s)
	}
	// Black's late press credits nothing either.
	res, _, _ = m.Press(chess.Black, clockT0.Add(11*mn))
	if res.Clk != 0 || res.Credited != 0 || res.Move != 1 {
		t.Errorf("black press %+v", res)
	}
	// An arbiter who lets the game go on gives time; the flag lifts.
	if _, err := m.AddTime(chess.White, mn, clockT0.Add(11*mn+sec)); err != nil {
		t.Fatal(err)
	}
	if s := m.Snapshot(clockT0.Add(11*mn + 2*sec)); s.Flagged[chess.White] || s.Remaining[chess.White] != 59*sec {
		t.Errorf("after AddTime: %+v", s)
	}
}

func TestClockStopOnFlag(t *testing.T) {
	m := newClock(t, "1m", ClockOptions{StopOnFlag: true})
	_ = m.Start(clockT0)
	if _, ok, _ := m.Advance(clockT0.Add(2 * mn)); !ok {
		t.Fatal("no flag")
	}
	s := m.Snapshot(clockT0.Add(3 * mn))
	if s.Running != ClockStopped || s.Remaining != [2]time.Duration{0, mn} {
		t.Errorf("%+v", s)
	}
	if res, _, _ := m.Press(chess.White, clockT0.Add(3*mn)); res.Outcome != PressIgnored {
		t.Errorf("press after stop: %+v", res)
	}
}

func TestClockDelayAcrossPauseAndFlag(t *testing.T) {
	m := newClock(t, "1m d10s", ClockOptions{})
	_ = m.Start(clockT0)
	if s := m.Snapshot(clockT0.Add(4 * sec)); s.Delay != 6*sec || s.Remaining[chess.White] != mn {
		t.Errorf("during delay: %+v", s)
	}
	// The arbiter stops the clocks 4 s into the move; 6 s of delay remain.
	if _, err := m.Pause(clockT0.Add(4 * sec)); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := m.NextFlag(); ok {
		t.Error("flag pending while paused")
	}
	if err := m.Resume(clockT0.Add(2 * mn)); err != nil {
		t.Fatal(err)
	}
	// Flag: 6 s delay + 60 s after the resume.
	_, at, ok := m.NextFlag()
	if want := clockT0.Add(2*mn + 66*sec); !ok || !at.Equal(want) {
		t.Errorf("flag at %v, want %v", at, want)
	}
	if end, ok := m.DelayEnd(); !ok || !end.Equal(clockT0.Add(2*mn+6*sec)) {
		t.Errorf("delay end %v", end)
	}
}

func TestClockPauseResumeAndAdjust(t *testing.T) {
	m := newClock(t, "90m+30s", ClockOptions{})
	_ = m.Start(clockT0)
	if _, err := m.Pause(clockT0.Add(10 * sec)); err != nil {
		t.Fatal(err)
	}
	// A press while the arbiter has stopped the clocks does nothing.
	if res, _, _ := m.Press(chess.White, clockT0.Add(20*sec)); res.Outcome != PressIgnored {
		t.Errorf("press while paused: %+v", res)
	}
	if s := m.Snapshot(clockT0.Add(30 * sec)); !s.Paused || s.Remaining[chess.White] != 90*mn+20*sec {
		t.Errorf("paused: %+v", s)
	}
	_ = m.Resume(clockT0.Add(60 * sec))
	res, _, _ := m.Press(chess.White, clockT0.Add(70*sec))
	if res.Clk != 90*mn+40*sec { // 90:30 - 20 s + 30 s
		t.Errorf("clk %v", res.Clk)
	}
	// Illegal move by Black: 2 minutes to White (2018 7.5.5).
	if _, err := m.AddTime(chess.White, 2*mn, clockT0.Add(80*sec)); err != nil {
		t.Fatal(err)
	}
	if s := m.Snapshot(clockT0.Add(80 * sec)); s.Remaining[chess.White] != 92*mn+40*sec || s.Remaining[chess.Black] != 90*mn+20*sec {
		t.Errorf("after +2 min: %+v", s.Remaining)
	}
	// The position is reinstated (7.1): the arbiter sets times and counters.
	err := m.Set(ClockSetting{White: 80 * mn, Black: 85 * mn, WhiteMoves: 0, BlackMoves: 0, Run: WhiteRuns}, clockT0.Add(2*mn))
	if err != nil {
		t.Fatal(err)
	}
	s := m.Snapshot(clockT0.Add(2*mn + 5*sec))
	if s.Remaining != [2]time.Duration{80*mn - 5*sec, 85 * mn} || s.Moves != [2]int{0, 0} || s.Running != WhiteRuns {
		t.Errorf("after set: %+v", s)
	}
	if err := m.Set(ClockSetting{White: -1}, clockT0.Add(3*mn)); err == nil {
		t.Error("negative time accepted")
	}
}

func TestClockPressRules(t *testing.T) {
	m := newClock(t, "5m", ClockOptions{})
	if res, _, _ := m.Press(chess.White, clockT0); res.Outcome != PressIgnored {
		t.Errorf("white press before start: %+v", res)
	}
	if res, _, _ := m.Press(chess.Black, clockT0.Add(sec)); res.Outcome != PressStart {
		t.Errorf("black's starting press: %+v", res)
	}
	if res, _, _ := m.Press(chess.Black, clockT0.Add(2*sec)); res.Outcome != PressIgnored || res.Reason == "" {
		t.Errorf("press out of turn: %+v", res)
	}
	if _, _, err := m.Press(chess.White, clockT0); !errors.Is(err, ErrClockTimeBackwards) {
		t.Errorf("time backwards: %v", err)
	}
	if err := m.Start(clockT0.Add(3 * sec)); err == nil {
		t.Error("started twice")
	}
	if _, err := NewClockModel(TimeControl{}, ClockOptions{}); err == nil {
		t.Error("untimed control accepted")
	}
}

func TestClockRepeatingLastPeriod(t *testing.T) {
	m := newClock(t, "40/120m", ClockOptions{})
	var steps []clockStep
	for n := 1; n <= 80; n++ {
		want := 120*mn - time.Duration(n)*mn
		if n >= 40 {
			want += 120 * mn
		}
		if n >= 80 {
			want += 120 * mn
		}
		steps = append(steps, clockStep{chess.White, mn, want}, clockStep{chess.Black, 0, -1})
	}
	playClock(t, m, steps)
}

// TestClockStartFor starts Black's clock, as for a game set up from a
// position with Black to move.
func TestClockStartFor(t *testing.T) {
	m := newClock(t, "5m+3s", ClockOptions{})
	if err := m.StartFor(chess.Black, clockT0); err != nil {
		t.Fatal(err)
	}
	if res, _, _ := m.Press(chess.White, clockT0.Add(sec)); res.Outcome != PressIgnored {
		t.Errorf("white press while black's clock runs: %+v", res)
	}
	res, _, err := m.Press(chess.Black, clockT0.Add(10*sec))
	if err != nil || res.Outcome != PressMove || res.Move != 1 || res.Clk != 5*mn-4*sec {
		t.Errorf("black's first press: %+v %v, want move 1 clk 4:56", res, err)
	}
	if s := m.Snapshot(clockT0.Add(12 * sec)); s.Running != WhiteRuns || s.Remaining[chess.White] != 5*mn+sec {
		t.Errorf("after black's press: %+v", s)
	}
	if err := m.StartFor(chess.White, clockT0.Add(13*sec)); err == nil {
		t.Error("started twice")
	}
}
