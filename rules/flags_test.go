package rules

import (
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
)

func TestFlagsVerdict(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	const mn = time.Minute
	profile := func(ed Edition, gt GameType) *Profile {
		p, err := Lookup(Setting{Edition: ed, Type: gt, Supervised: true})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	at := func(s time.Duration) time.Time { return t0.Add(s) }
	one := ClockSnapshot{Flagged: [2]bool{false, true}, FlagAt: [2]time.Time{{}, at(mn)}}
	both := ClockSnapshot{Flagged: [2]bool{true, true}, FlagAt: [2]time.Time{at(2 * mn), at(mn)}, FlagLastPeriod: [2]bool{true, true}}
	unknown := both
	unknown.FlagAt = [2]time.Time{}
	notLast := unknown
	notLast.FlagLastPeriod = [2]bool{false, false}
	tests := []struct {
		name    string
		p       *Profile
		s       ClockSnapshot
		kind    string
		side    chess.Color
		article string
	}{
		{"one flag, 2018", profile(Edition2018, Standard), one, KindFlagFall, chess.Black, "6.9"},
		{"both, order known, 2018: first flag", profile(Edition2018, Standard), both, KindFlagFall, chess.Black, "6.9"},
		{"both, order unknown, 2018 last period", profile(Edition2018, Standard), unknown, KindBothFlags, chess.White, "III.3.1.2"},
		{"both, order unknown, 2018 earlier period", profile(Edition2018, Standard), notLast, KindBothFlags, chess.White, "III.3.1.1"},
		{"both, order unknown, 1997 standard", profile(Edition1997, Standard), unknown, KindBothFlags, chess.White, "6.11"},
		{"both, order known, 1997 standard: first flag", profile(Edition1997, Standard), both, KindFlagFall, chess.Black, "6.9"},
		{"both, order known, 1997 rapid: drawn (B8)", profile(Edition1997, Rapid), both, KindBothFlags, chess.White, "B8"},
	}
	for _, tc := range tests {
		v, ok := tc.p.FlagsVerdict(tc.s)
		if !ok || v.Kind != tc.kind || v.Article != tc.article || (tc.kind == KindFlagFall && v.Side != tc.side) {
			t.Errorf("%s: %+v", tc.name, v)
		}
	}
	if _, ok := profile(Edition2018, Standard).FlagsVerdict(ClockSnapshot{}); ok {
		t.Error("verdict without a flag")
	}
	// From the model: both flags of a real run, last period.
	tc1, _ := ParseTimeControl("1m")
	m, err := NewClockModel(tc1, ClockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_ = m.Start(t0)
	_, _, _ = m.Press(chess.White, t0.Add(2*mn))
	_, _, _ = m.Advance(t0.Add(4 * mn))
	s := m.Snapshot(t0.Add(4 * mn))
	if v, ok := profile(Edition1997, Rapid).FlagsVerdict(s); !ok || v.Result != "1/2-1/2" {
		t.Errorf("1997 rapid both flags: %+v", v)
	}
	if v, _ := profile(Edition2023, Standard).FlagsVerdict(s); v.Kind != KindFlagFall || v.Side != chess.White {
		t.Errorf("2023 both flags, white first: %+v", v)
	}
}
