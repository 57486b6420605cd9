package publish_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// 25 kill -9 at random moments of a game: each restart re-sends only what
// the broker had not acknowledged (the outbox mark is saved on every
// acknowledgement), so under 5% of the move messages a subscriber
// receives are duplicates. Before, the mark was saved once a minute and
// every restart re-sent the whole game so far.
func TestRealBrokerKillsResendLittle(t *testing.T) {
	for _, bk := range brokers {
		t.Run(bk.name, func(t *testing.T) {
			br := bk.start(t)
			// A ply every 40 ms: 50 times a blitz game's pace, so a kill
			// is far likelier to land while a move awaits its
			// acknowledgement than in a real game.
			const n, kills, pace = 0, 25, 40 * time.Millisecond
			g := loadGames(t, n+1)[n]
			moves := gameMoves(g)
			if len(moves) < 4*kills {
				t.Fatalf("game %d has %d plies; want at least %d", n, len(moves), 4*kills)
			}
			v := liveSubscriber(t, br.URL(), "sub-kills")
			dir := t.TempDir()
			env := []string{"BOARDD_HELPER_GAME=" + strconv.Itoa(n), "BOARDD_HELPER_PACE=" + pace.String()}
			rng := rand.New(rand.NewPCG(16, 5))
			for k := range kills {
				c := startChild(t, "game", br.URL(), dir, env...)
				waitFor(t, 30*time.Second, "the board to resume", func() bool { _, ok := c.said("resumed at ply"); return ok })
				resumed, _ := c.said("resumed at ply")
				var at int
				fmt.Sscanf(resumed, "resumed at ply %d", &at)
				// Kill between one and four plies in, at a random moment
				// between two plies.
				target := at + 1 + rng.IntN(4)
				waitFor(t, 30*time.Second, fmt.Sprintf("ply %d (kill %d)", target, k+1), func() bool { _, ok := c.said(fmt.Sprintf("ply %d", target)); return ok })
				time.Sleep(time.Duration(rng.Int64N(int64(pace))))
				c.kill9(t)
			}
			c := startChild(t, "game", br.URL(), dir, env...)
			waitFor(t, 60*time.Second, "the board to finish the game", func() bool { _, ok := c.said("done"); return ok })
			waitFor(t, 10*time.Second, "all moves", func() bool { return len(v.finalMoves()) == len(moves) })
			v.checkComplete(t, moves)
			v.mu.Lock()
			raw, dup := v.rawMoves, v.dupMoves
			v.mu.Unlock()
			share := float64(dup) / float64(raw)
			t.Logf("%d kills over %d plies: %d move messages received, %d of them duplicates (%.1f%%)", kills, len(moves), raw, dup, 100*share)
			if share >= 0.05 {
				t.Fatalf("%.1f%% of the move messages were duplicates, want under 5%%", 100*share)
			}
		})
	}
}
