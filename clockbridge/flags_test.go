package clockbridge

import (
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/rules"
)

func TestFlagsVerdict(t *testing.T) {
	profile := func(ed rules.Edition, gt rules.GameType) *rules.Profile {
		p, err := rules.Lookup(rules.Setting{Edition: ed, Type: gt, Supervised: true})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	at := func(s time.Duration) time.Time { return t0.Add(s) }
	one := Snapshot{ClockSnapshot: rules.ClockSnapshot{Flagged: [2]bool{false, true}, FlagAt: [2]time.Time{{}, at(mn)}}}
	both := Snapshot{ClockSnapshot: rules.ClockSnapshot{Flagged: [2]bool{true, true}, FlagAt: [2]time.Time{at(2 * mn), at(mn)}, FlagLastPeriod: [2]bool{true, true}}}
	unknown := both
	unknown.FlagAt = [2]time.Time{}
	notLast := unknown
	notLast.FlagLastPeriod = [2]bool{false, false}
	tests := []struct {
		name    string
		p       *rules.Profile
		s       Snapshot
		kind    string
		side    chess.Color
		article string
	}{
		{"one flag, 2018", profile(rules.Edition2018, rules.Standard), one, rules.KindFlagFall, chess.Black, "6.9"},
		{"both, order known, 2018: first flag", profile(rules.Edition2018, rules.Standard), both, rules.KindFlagFall, chess.Black, "6.9"},
		{"both, order unknown, 2018 last period", profile(rules.Edition2018, rules.Standard), unknown, rules.KindBothFlags, chess.White, "III.3.1.2"},
		{"both, order unknown, 2018 earlier period", profile(rules.Edition2018, rules.Standard), notLast, rules.KindBothFlags, chess.White, "III.3.1.1"},
		{"both, order unknown, 1997 standard", profile(rules.Edition1997, rules.Standard), unknown, rules.KindBothFlags, chess.White, "6.11"},
		{"both, order known, 1997 standard: first flag", profile(rules.Edition1997, rules.Standard), both, rules.KindFlagFall, chess.Black, "6.9"},
		{"both, order known, 1997 rapid: drawn (B8)", profile(rules.Edition1997, rules.Rapid), both, rules.KindBothFlags, chess.White, "B8"},
	}
	for _, tc := range tests {
		v, ok := FlagsVerdict(tc.p, tc.s)
		if !ok || v.Kind != tc.kind || v.Article != tc.article || (tc.kind == rules.KindFlagFall && v.Side != tc.side) {
			t.Errorf("%s: %+v", tc.name, v)
		}
	}
	if _, ok := FlagsVerdict(profile(rules.Edition2018, rules.Standard), Snapshot{}); ok {
		t.Error("verdict without a flag")
	}
	// From the model: both flags of a real run, last period.
	m := newModel(t, "1m", Options{})
	_ = m.Start(t0)
	_, _, _ = m.Press(chess.White, t0.Add(2*mn))
	_, _, _ = m.Advance(t0.Add(4 * mn))
	s := m.Snapshot(t0.Add(4 * mn))
	if v, ok := FlagsVerdict(profile(rules.Edition1997, rules.Rapid), s); !ok || v.Result != "1/2-1/2" {
		t.Errorf("1997 rapid both flags: %+v", v)
	}
	if v, _ := FlagsVerdict(profile(rules.Edition2023, rules.Standard), s); v.Kind != rules.KindFlagFall || v.Side != chess.White {
		t.Errorf("2023 both flags, white first: %+v", v)
	}
}
