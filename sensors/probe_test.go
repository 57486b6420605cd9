package sensors_test

import (
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/sensorstest"
)

func TestProbeFindsWhatIsWrong(t *testing.T) {
	open := func(design string) (*sensors.Config, *sensorstest.Rig, sensors.Scanner) {
		t.Helper()
		cfg, _ := sensors.DefaultConfig(design)
		if err := cfg.SetProbeChecks(); err != nil {
			t.Fatal(err)
		}
		rig, err := sensorstest.NewRig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sc, _, err := cfg.NewScanner(rig.Hardware, rig.Clock)
		if err != nil {
			t.Fatal(err)
		}
		return cfg, rig, sc
	}
	probe := func(cfg *sensors.Config, rig *sensorstest.Rig, sc sensors.Scanner) *sensors.ProbeReport {
		t.Helper()
		r, err := sensors.Probe(sc, sensors.ProbeOptions{Clock: rig.Clock, InputName: cfg.InputName})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	// A healthy matrix with a piece on d3: OK, the piece seen, and the
	// time of 100 scans of 8 settles measured.
	cfg, rig, sc := open("matrix")
	rig.Board.Set(sq("d3").Bitboard(), 0)
	r := probe(cfg, rig, sc)
	if !r.OK() || r.Occupied.List()[0] != 19 || r.Occupied.Count() != 1 || r.Rate() != 1250 {
		t.Errorf("healthy: %v, occupied %v, %.0f scans/s", r.Problems, r.Occupied.List(), r.Rate())
	}
	// d3's diode missing: the reverse-bias check runs on every scan.
	rig.Matrix.Missing[2][3] = true
	r = probe(cfg, rig, sc)
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "diode missing or shorted at row 2 col 3") {
		t.Errorf("missing diode: %q", r.Problems)
	}

	// A chip failing now and then, and a board with more pieces than a set.
	cfg, rig, sc = open("mcp23017")
	rig.Board.Set(^chess.Bitboard(0)>>8, 0)
	rig.MCP23017.Fail(0x22, 6)
	r = probe(cfg, rig, sc)
	want := []string{"mcp23017 0x22 failed in 3 of 100 scans", "56 inputs read a piece, more than a chess set has"}
	if len(r.Problems) != 2 || !strings.HasPrefix(r.Problems[0], want[0]) || !strings.HasPrefix(r.Problems[1], want[1]) {
		t.Errorf("problems %q, want %q", r.Problems, want)
	}
}
