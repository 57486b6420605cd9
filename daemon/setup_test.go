package daemon

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/sensors/sim"
	"github.com/boardd/boardd/trace"
)

// The simulated board plays corpus games under their own tags, except
// where the configuration sets one (game.round, the players...).
func TestSimulatedGameTags(t *testing.T) {
	pgs, err := chess.ReadAllPGN(strings.NewReader("[Event \"Corpus Open\"]\n[Round \"1.1\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 *\n"))
	if err != nil || len(pgs) != 1 {
		t.Fatal(err)
	}
	lp, err := sim.NewLoop(sim.Cycle([]sim.Game{sim.FromPGN(pgs[0])}), sim.Options{Sensor: trace.Occupancy, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	d := &daemon{simLoop: lp, simGames: []simGameInfo{{white: "A", black: "B", event: "Corpus Open", round: "1.1"}}}
	d.cfg.Game.Round, d.cfg.Game.BoardNo = "3", "12"
	g := d.setupFor(chess.NewPosition())
	if g.info.Round != "3" || g.info.BoardNo != "12" || g.info.Event != "Corpus Open" || g.info.White != "A" {
		t.Errorf("%+v", g.info)
	}
}

// The demo's clock follows the bundled corpus's control (15m+10s), not
// the default 90m+30s, unless the configuration sets another.
func TestDemoClockFollowsTheCorpus(t *testing.T) {
	for _, c := range []struct{ set, want string }{{"", bundledTimeControl}, {"5m+3s", "5m+3s"}} {
		cfg := config.Default()
		if c.set != "" {
			cfg.Game.TimeControl = c.set
		}
		d := &daemon{cfg: cfg, speed: 1, log: slog.New(slog.DiscardHandler)}
		if err := d.openSimulated(); err != nil {
			t.Fatal(err)
		}
		for _, f := range d.closers {
			f()
		}
		if d.cfg.Game.TimeControl != c.want {
			t.Errorf("time control %q set: %q, want %q", c.set, d.cfg.Game.TimeControl, c.want)
		}
	}
}
