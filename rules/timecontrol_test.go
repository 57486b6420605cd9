package rules

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseTimeControl(t *testing.T) {
	const m, s = time.Minute, time.Second
	tests := []struct {
		in      string
		want    []Period
		str     string // String(); "" means the input itself
		incFrom int
	}{
		{"90m+30s", []Period{{Time: 90 * m, Increment: 30 * s}}, "", 1},
		// The classic FIDE control (encyclopedia seed 004): 120 minutes for
		// 40 moves, 60 more after move 40, 15 more after move 60 and 30 s
		// per move from move 61. The second period is moves 41-60.
		{"40/120m,60m,15m+30s", []Period{{Moves: 40, Time: 120 * m}, {Moves: 20, Time: 60 * m}, {Time: 15 * m, Increment: 30 * s}}, "40/120m,20/60m,15m+30s", 61},
		{"40/120m,20/60m,15m+30s", []Period{{Moves: 40, Time: 120 * m}, {Moves: 20, Time: 60 * m}, {Time: 15 * m, Increment: 30 * s}}, "", 61},
		{"5m+3s", []Period{{Time: 5 * m, Increment: 3 * s}}, "", 1},
		{"15m d10s", []Period{{Time: 15 * m, Delay: 10 * s, DelayMode: SimpleDelay}}, "", 0},
		{"15m b5s", []Period{{Time: 15 * m, Delay: 5 * s, DelayMode: BronsteinDelay}}, "", 0},
		{"40/90m,30m+30s", []Period{{Moves: 40, Time: 90 * m}, {Time: 30 * m, Increment: 30 * s}}, "", 41},
		{"40/90m+30s,30m+30s", []Period{{Moves: 40, Time: 90 * m, Increment: 30 * s}, {Time: 30 * m, Increment: 30 * s}}, "", 1},
		{"1h30m", []Period{{Time: 90 * m}}, "90m", 0},
		{"2m30s+2s", []Period{{Time: 150 * s, Increment: 2 * s}}, "", 1},
		{" 40/2h ", []Period{{Moves: 40, Time: 120 * m}}, "40/120m", 0},
		// PGN TimeControl tag values (seconds).
		{"40/7200:3600:900+30", []Period{{Moves: 40, Time: 120 * m}, {Moves: 20, Time: 60 * m}, {Time: 15 * m, Increment: 30 * s}}, "40/120m,20/60m,15m+30s", 61},
		{"300+3", []Period{{Time: 5 * m, Increment: 3 * s}}, "5m+3s", 1},
		{"5400", []Period{{Time: 90 * m}}, "90m", 0},
		{"40/5400+30:1800+30", []Period{{Moves: 40, Time: 90 * m, Increment: 30 * s}, {Time: 30 * m, Increment: 30 * s}}, "40/90m+30s,30m+30s", 1},
		{"0+1", []Period{{Increment: s}}, "0s+1s", 1},
		{"-", nil, "", 0},
	}
	for _, tt := range tests {
		tc, err := ParseTimeControl(tt.in)
		if err != nil {
			t.Errorf("ParseTimeControl(%q): %v", tt.in, err)
			continue
		}
		if !tc.Equal(TimeControl{Periods: tt.want}) {
			t.Errorf("ParseTimeControl(%q) = %+v, want %+v", tt.in, tc.Periods, tt.want)
		}
		want := tt.str
		if want == "" {
			want = strings.TrimSpace(tt.in)
		}
		if got := tc.String(); got != want {
			t.Errorf("ParseTimeControl(%q).String() = %q, want %q", tt.in, got, want)
		}
		back, err := ParseTimeControl(tc.String())
		if err != nil || !back.Equal(tc) {
			t.Errorf("round trip of %q via %q: %+v, %v", tt.in, tc.String(), back, err)
		}
		if got := tc.IncrementFrom(); got != tt.incFrom {
			t.Errorf("%q: IncrementFrom = %d, want %d", tt.in, got, tt.incFrom)
		}
	}

	unknown, err := ParseTimeControl("?")
	if err != nil || !unknown.Unknown || unknown.Timed() || unknown.String() != "?" {
		t.Errorf(`ParseTimeControl("?") = %+v, %v; want Unknown`, unknown, err)
	}
}

func TestTimeControlErrorsNameThePart(t *testing.T) {
	tests := []struct{ in, part string }{
		{"", "empty"},
		{"90x", `period 1 "90x"`},
		{"90", "first period needs a time"}, // PGN: 90 seconds is fine; see below
		{"40/120m,60m,15m+", `period 3 "15m+": increment`},
		{"0/90m", `period 1 "0/90m": move count`},
		{"abc/90m", `move count`},
		{"40/120m,,15m", `period 2 "": empty period`},
		{"15m d", `period 1 "15m d": delay`},
		{"15m dx", `delay`},
		{"15m d0s", `delay of zero`},
		{"30s1m", `units out of order`},
		{"90m+30", `has no unit`},
		{"25h", `more than`},
		{"40/7200:abc", `has no unit`}, // letters: read as the written form
		{"40/7200:*60", `PGN field 2 "*60": sandclock`},
		{"40/7200::900", `PGN field 2 "": seconds`},
		{"9999/60", `PGN field 1 "9999/60": move count`},
		{"0", `first period needs a time`},
		{"1,2,3,4,5,6,7,8,9,10,11", "periods"},
		{"90m 30s", `unexpected`},
	}
	for _, tt := range tests {
		_, err := ParseTimeControl(tt.in)
		if tt.in == "90" {
			// Digits only: a PGN tag meaning 90 seconds, which is valid.
			if err != nil {
				t.Errorf("ParseTimeControl(%q) = %v, want 90 seconds", tt.in, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("ParseTimeControl(%q) succeeded, want an error mentioning %q", tt.in, tt.part)
			continue
		}
		var tce *TimeControlError
		if !errors.As(err, &tce) {
			t.Errorf("ParseTimeControl(%q) error %T, want *TimeControlError", tt.in, err)
		}
		if !strings.Contains(err.Error(), tt.part) {
			t.Errorf("ParseTimeControl(%q) = %q, want it to mention %q", tt.in, err, tt.part)
		}
	}
}

func TestTimeControlPeriods(t *testing.T) {
	tc, err := ParseTimeControl("40/120m,60m,15m+30s")
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		move      int
		period    int
		first     int
		added     time.Duration
		inc       time.Duration
		controlAt int
	}
	for _, r := range []row{
		{1, 0, 1, 0, 0, 40},
		{39, 0, 1, 0, 0, 40},
		{40, 0, 1, 60 * time.Minute, 0, 40},
		{41, 1, 41, 0, 0, 60},
		{60, 1, 41, 15 * time.Minute, 0, 60},
		{61, 2, 61, 0, 30 * time.Second, 0},
		{200, 2, 61, 0, 30 * time.Second, 0},
	} {
		i, first := tc.PeriodAt(r.move)
		if i != r.period || first != r.first {
			t.Errorf("PeriodAt(%d) = %d, %d; want %d, %d", r.move, i, first, r.period, r.first)
		}
		if got := tc.TimeAddedAfter(r.move); got != r.added {
			t.Errorf("TimeAddedAfter(%d) = %v, want %v", r.move, got, r.added)
		}
		if got := tc.IncrementFor(r.move); got != r.inc {
			t.Errorf("IncrementFor(%d) = %v, want %v", r.move, got, r.inc)
		}
		if got := tc.ControlAt(r.move); got != r.controlAt {
			t.Errorf("ControlAt(%d) = %d, want %d", r.move, got, r.controlAt)
		}
	}
	if tc.Initial() != 120*time.Minute {
		t.Errorf("Initial = %v", tc.Initial())
	}

	// A last period with a move count repeats.
	rep, _ := ParseTimeControl("40/120m,20/60m")
	for _, r := range []struct {
		move, first int
		added       time.Duration
	}{{60, 41, 60 * time.Minute}, {61, 61, 0}, {80, 61, 60 * time.Minute}, {81, 81, 0}} {
		if _, first := rep.PeriodAt(r.move); first != r.first {
			t.Errorf("repeating: PeriodAt(%d) first = %d, want %d", r.move, first, r.first)
		}
		if got := rep.TimeAddedAfter(r.move); got != r.added {
			t.Errorf("repeating: TimeAddedAfter(%d) = %v, want %v", r.move, got, r.added)
		}
	}

	d, _ := ParseTimeControl("15m d10s")
	if dl, mode := d.DelayFor(33); dl != 10*time.Second || mode != SimpleDelay {
		t.Errorf("DelayFor = %v %v", dl, mode)
	}
	var none TimeControl
	if i, _ := none.PeriodAt(1); i != -1 || none.IncrementFor(1) != 0 || none.TimeAddedAfter(1) != 0 {
		t.Errorf("untimed control reports periods")
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		tc   string
		ed   Edition
		want GameType
		art  string
	}{
		// 2018/2023 A.1, B.1: time + 60 x increment.
		{"90m+30s", Edition2018, Standard, "A.1"},
		{"40/120m,60m,15m+30s", Edition2023, Standard, "A.1"},
		{"5m+3s", Edition2018, Blitz, "B.1"},   // 5 + 3 = 8 minutes
		{"10m", Edition2018, Blitz, "B.1"},     // 10 or less
		{"10m+1s", Edition2018, Rapid, "A.1"},  // 11 minutes
		{"3m+2s", Edition2023, Blitz, "B.1"},   // 5 minutes
		{"15m+10s", Edition2018, Rapid, "A.1"}, // 25 minutes
		{"59m", Edition2018, Rapid, "A.1"},
		{"60m", Edition2018, Standard, "A.1"}, // "less than 60" is rapid
		{"50m+10s", Edition2018, Standard, "A.1"},
		{"15m d10s", Edition2018, Rapid, "A.1"},
		// 1997 B1 (15-60 minutes) and C1 (under 15).
		{"15m", Edition1997, Rapid, "B1"},
		{"14m", Edition1997, Blitz, "C1"},
		{"60m", Edition1997, Rapid, "B1"},
		{"61m", Edition1997, Standard, "B1"},
		{"5m+3s", Edition1997, Blitz, "C1"},
		{"10m+5s", Edition1997, Rapid, "B1"},
		{"40/120m,60m,15m+30s", Edition1997, Standard, "B1"},
	}
	for _, tt := range tests {
		tc, err := ParseTimeControl(tt.tc)
		if err != nil {
			t.Fatal(err)
		}
		c, err := tc.Classify(tt.ed)
		if err != nil {
			t.Errorf("%s %s: %v", tt.tc, tt.ed, err)
			continue
		}
		if c.Type != tt.want || c.Article != tt.art || c.Edition != tt.ed {
			t.Errorf("%s under %s = %s (%s), want %s (%s)", tt.tc, tt.ed, c.Type, c.Article, tt.want, tt.art)
		}
		if c.Reason == "" {
			t.Errorf("%s: no reason", tt.tc)
		}
	}
	if _, err := (TimeControl{}).Classify(Edition2018); err == nil {
		t.Error("classifying no time control succeeded")
	}
	if _, err := (TimeControl{Unknown: true}).Classify(Edition2018); err == nil {
		t.Error("classifying an unknown time control succeeded")
	}
	tc, _ := ParseTimeControl("5m")
	if _, err := tc.Classify(Edition(2001)); err == nil {
		t.Error("classifying under an unknown edition succeeded")
	}
}

func TestTimeControlPGN(t *testing.T) {
	for _, in := range []string{"40/7200:3600:900+30", "300+3", "-", "?", "40/5400+30:1800+30"} {
		tc, err := ParseTimeControl(in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tc.PGN()
		want := in
		if in == "40/7200:3600:900+30" {
			want = "40/7200:20/3600:900+30"
		}
		if err != nil || got != want {
			t.Errorf("PGN of %q = %q, %v; want %q", in, got, err, want)
		}
	}
	tc, _ := ParseTimeControl("15m d10s")
	if _, err := tc.PGN(); err == nil {
		t.Error("a delay written as a PGN tag without error")
	}
}

func FuzzParseTimeControl(f *testing.F) {
	for _, s := range []string{"90m+30s", "40/120m,60m,15m+30s", "5m+3s", "15m d10s", "40/90m,30m+30s",
		"40/7200:3600:900+30", "300+3", "-", "?", "1h30m", "15m b3s", "0+1", "*60"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := ParseTimeControl(s)
		if err != nil {
			if !strings.Contains(err.Error(), "time control") {
				t.Fatalf("error %q does not say what it is about", err)
			}
			return
		}
		out := tc.String()
		back, err := ParseTimeControl(out)
		if err != nil {
			t.Fatalf("%q -> %q does not parse: %v", s, out, err)
		}
		if !back.Equal(tc) {
			t.Fatalf("%q -> %q -> %+v, want %+v", s, out, back, tc)
		}
		if back.String() != out {
			t.Fatalf("String not stable: %q -> %q", out, back.String())
		}
		if pgn, err := tc.PGN(); err == nil {
			again, err := ParseTimeControl(pgn)
			if err != nil || !again.Equal(tc) {
				t.Fatalf("PGN round trip %q -> %q -> %+v, %v", s, pgn, again, err)
			}
		}
		if tc.Timed() {
			for _, ed := range Editions {
				if _, err := tc.Classify(ed); err != nil {
					t.Fatalf("Classify(%s) of %q: %v", ed, s, err)
				}
			}
			for move := 1; move < 130; move++ {
				if i, first := tc.PeriodAt(move); i < 0 || first < 1 || first > move {
					t.Fatalf("%q: PeriodAt(%d) = %d, %d", s, move, i, first)
				}
			}
		}
	})
}
