package daemon

import (
	"testing"
	"time"

	"github.com/boardd/boardd/rules"
)

// The clock topic numbers periods from 1 (docs/mqtt.md: "period":1 in the
// first period), for the side whose clock runs.
func TestClockStatePeriod(t *testing.T) {
	tc, err := rules.ParseTimeControl("2/1m,30m")
	if err != nil {
		t.Fatal(err)
	}
	m, err := rules.NewClockModel(tc, rules.ClockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(1_000_000, 0)
	if err := m.Start(t0); err != nil {
		t.Fatal(err)
	}
	if got := clockState(m.Snapshot(t0), "start"); got.Period != 1 || got.Running != "white" {
		t.Errorf("first period: %+v, want period 1, white running", got)
	}
	// Two moves each complete the first period: the third is in period 2.
	at := t0
	for i := 0; i < 4; i++ {
		at = at.Add(time.Second)
		side := m.Snapshot(at).Running
		s, _ := side.Side()
		if _, _, err := m.Press(s, at); err != nil {
			t.Fatal(err)
		}
	}
	if got := clockState(m.Snapshot(at), "press"); got.Period != 2 {
		t.Errorf("after two moves each: %+v, want period 2", got)
	}
}
