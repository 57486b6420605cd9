package publish_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish"
)

const broadcastPGN = "../testdata/games/lichess_broadcast_fide_womens_world_rapid_2024_r1-6.pgn"

var (
	gamesOnce sync.Once
	games     []*chess.Game
	gamesErr  error
)

// loadGames returns real games with clock times.
func loadGames(t testing.TB, n int) []*chess.Game {
	t.Helper()
	gamesOnce.Do(func() {
		f, err := os.Open(filepath.FromSlash(broadcastPGN))
		if err != nil {
			gamesErr = err
			return
		}
		defer f.Close()
		games, gamesErr = chess.ReadAllPGN(f)
	})
	if gamesErr != nil && len(games) == 0 {
		t.Fatalf("reading %s: %v", broadcastPGN, gamesErr)
	}
	if n > len(games) {
		n = len(games)
	}
	return games[:n]
}

func infoOf(g *chess.Game) publish.GameInfo {
	return publish.GameInfo{
		White: g.Tag("White"), Black: g.Tag("Black"), Event: g.Tag("Event"), Site: g.Tag("Site"),
		Date: g.Tag("Date"), Round: g.Tag("Round"), TimeControl: "15m+10s",
	}
}

// gameMoves turns a PGN game into the moves a board would publish, with
// both clocks after each move.
func gameMoves(g *chess.Game) []publish.Move {
	pos := *g.Start
	white, black := int64(15*60*1000), int64(15*60*1000)
	out := make([]publish.Move, 0, len(g.Moves))
	for i, m := range g.Moves {
		if i < len(g.Clocks) && g.Clocks[i] >= 0 {
			if pos.SideToMove() == chess.White {
				white = g.Clocks[i].Milliseconds()
			} else {
				black = g.Clocks[i].Milliseconds()
			}
		}
		out = append(out, publish.Move{Ply: i + 1, UCI: pos.UCI(m), Clocks: &publish.Clocks{WhiteMS: white, BlackMS: black}, Final: true})
		pos.MakeMove(m)
	}
	return out
}

// waitFor polls cond until it holds or the timeout passes.
func waitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// view is a subscriber's picture of a board after dedupe.
type view struct {
	mu       sync.Mutex
	dd       publish.Deduper
	moves    []publish.MovePayload // accepted final moves, in arrival order
	corr     []publish.CorrectionPayload
	replies  map[string]publish.ReplyPayload
	alerts   []publish.AlertPayload
	retained map[string][]byte // leaf -> last accepted payload
	dups     int
	raw      int
	rawMoves int // move messages received
	dupMoves int // of them, dropped as duplicates
}

func newView() *view {
	return &view{replies: map[string]publish.ReplyPayload{}, retained: map[string][]byte{}}
}

func (v *view) add(topic string, payload []byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.raw++
	_, ok, err := v.dd.Accept(topic, payload)
	if err != nil {
		panic(err)
	}
	_, leaf, _ := publish.SplitTopic(topic)
	if leaf == publish.LeafMove {
		v.rawMoves++
		if !ok {
			v.dupMoves++
		}
	}
	if !ok {
		v.dups++
		return
	}
	switch leaf {
	case publish.LeafMove:
		var m publish.MovePayload
		json.Unmarshal(payload, &m)
		if m.Final {
			v.moves = append(v.moves, m)
		}
	case publish.LeafCorrection:
		var c publish.CorrectionPayload
		json.Unmarshal(payload, &c)
		v.corr = append(v.corr, c)
	case publish.LeafReply:
		var r publish.ReplyPayload
		json.Unmarshal(payload, &r)
		v.replies[r.Cmd] = r
	case publish.LeafAlert:
		var a publish.AlertPayload
		json.Unmarshal(payload, &a)
		v.alerts = append(v.alerts, a)
	default:
		if !strings.HasPrefix(leaf, "cmd/") {
			v.retained[leaf] = append([]byte(nil), payload...)
		}
	}
}

func (v *view) finalMoves() []publish.MovePayload {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]publish.MovePayload(nil), v.moves...)
}

func (v *view) reply(id string) (publish.ReplyPayload, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	r, ok := v.replies[id]
	return r, ok
}

func (v *view) retainedJSON(leaf string, into any) bool {
	v.mu.Lock()
	b, ok := v.retained[leaf]
	v.mu.Unlock()
	if !ok {
		return false
	}
	return json.Unmarshal(b, into) == nil
}

// checkComplete asserts the view holds exactly the game's moves, in order.
func (v *view) checkComplete(t testing.TB, want []publish.Move) {
	t.Helper()
	got := v.finalMoves()
	if len(got) != len(want) {
		t.Fatalf("subscriber has %d moves after dedupe, want %d", len(got), len(want))
	}
	for i, m := range got {
		if m.Ply != i+1 || m.UCI != want[i].UCI {
			t.Fatalf("move %d at the subscriber is ply %d %s, want ply %d %s", i, m.Ply, m.UCI, i+1, want[i].UCI)
		}
	}
}
