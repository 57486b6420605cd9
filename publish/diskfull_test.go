package publish_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/journal"
	"github.com/boardd/boardd/publish/publishtest"
)

// fullDisk fails every journal write and sync with ENOSPC while full is
// set, having written part of the bytes, as a file system does when it
// runs out of space mid-write.
type fullDisk struct {
	journal.File
	full *atomic.Bool
}

func (f fullDisk) Write(b []byte) (int, error) {
	if f.full.Load() {
		n, _ := f.File.Write(b[:len(b)/3])
		return n, syscall.ENOSPC
	}
	return f.File.Write(b)
}

func (f fullDisk) Sync() error {
	if f.full.Load() {
		return syscall.ENOSPC
	}
	return f.File.Sync()
}

// countingHandler counts log records at error level or above.
type countingHandler struct {
	slog.Handler
	mu     sync.Mutex
	errors []string
}

func (h *countingHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelError {
		h.mu.Lock()
		h.errors = append(h.errors, r.Message)
		h.mu.Unlock()
	}
	return nil
}
func (h *countingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *countingHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *countingHandler) WithGroup(string) slog.Handler            { return h }
func (h *countingHandler) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.errors)
}

// The disk fills up mid-game, a new game is started on it, and space
// returns: the moves are held in memory and published meanwhile; health,
// the status topic and the write-error count say why; one alert and one
// error log line for the whole failure, however many moves it spans; once
// space returns everything held is journaled under the seqs it was
// published with, the alert is cleared, and a restart finds every move.
func TestFullDiskHoldsMovesAndRecovers(t *testing.T) {
	games := loadGames(t, 2)
	moves := gameMoves(games[0])
	moves2 := gameMoves(games[1])
	dir := t.TempDir()
	b := publishtest.New()
	v := subscribe(t, b, "sub")
	var full atomic.Bool
	logs := &countingHandler{Handler: slog.DiscardHandler}
	p, err := publish.Open(publish.Config{
		Board: "b1", JournalDir: dir, Dialer: b,
		BackoffMin: 5 * time.Millisecond, BackoffMax: 50 * time.Millisecond,
		JournalRetry: 20 * time.Millisecond,
		Logger:       slog.New(logs),
		WrapJournalFile: func(f journal.File) journal.File {
			return fullDisk{File: f, full: &full}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	stop := run(t, p)
	if _, err := p.StartGame(infoOf(games[0])); err != nil {
		t.Fatal(err)
	}
	third := len(moves) / 3
	play := func(ms []publish.Move) {
		t.Helper()
		for _, m := range ms {
			if _, err := p.Move(m); err != nil {
				t.Fatalf("ply %d: %v", m.Ply, err)
			}
		}
	}
	play(moves[:third])
	full.Store(true)
	play(moves[third : 2*third])

	h := p.Health()
	if h.OK || !strings.Contains(h.Problem, "no space left on device") || h.Held < third || h.WriteErrors == 0 {
		t.Fatalf("health on a full disk: %+v; want not ok, the cause, %d+ events held, write errors counted", h, third)
	}
	alerts := 0
	for _, a := range p.Current().Alerts {
		if a.Kind == publish.AlertJournalWrite {
			alerts++
		}
	}
	if alerts != 1 {
		t.Fatalf("%d journal write alerts active, want 1", alerts)
	}
	if n := logs.count(); n != 1 {
		t.Fatalf("%d error log lines over %d moves on a full disk, want 1: %v", n, third, logs.errors)
	}
	var st publish.StatusPayload
	waitFor(t, 5*time.Second, "the status to say why", func() bool {
		return v.retainedJSON("status", &st) && st.State == "error" && strings.Contains(st.Detail, "no space left on device")
	})
	waitFor(t, 5*time.Second, "the held moves published", func() bool { return len(v.finalMoves()) == 2*third })

	// A new game on the full disk: its segment is made once space returns.
	play(moves[2*third:])
	if _, err := p.StartGame(infoOf(games[1])); err != nil {
		t.Fatalf("new game on a full disk: %v", err)
	}
	play(moves2[:10])
	if n := logs.count(); n != 1 {
		t.Fatalf("%d error log lines, want still 1: %v", n, logs.errors)
	}

	full.Store(false)
	waitFor(t, 5*time.Second, "the held events journaled", func() bool { return p.Health().OK })
	if h := p.Health(); h.Held != 0 || h.HeldBytes != 0 {
		t.Fatalf("after recovery: %+v, want nothing held", h)
	}
	// The alert is cleared by a record written right after the held ones
	// (it outlived the new game, as the journal's own alerts do).
	waitFor(t, 5*time.Second, "the journal write alert cleared", func() bool {
		for _, a := range p.Current().Alerts {
			if a.Kind == publish.AlertJournalWrite {
				return false
			}
		}
		return true
	})
	waitFor(t, 5*time.Second, "the status back to normal", func() bool {
		st = publish.StatusPayload{}
		return v.retainedJSON("status", &st) && st.State != "error" && st.Detail == ""
	})
	play(moves2[10:20])
	waitFor(t, 5*time.Second, "every move published", func() bool { return len(v.finalMoves()) == len(moves)+20 })
	stop()
	p.Crash()

	// Everything was journaled, under the seqs subscribers saw.
	p2, err := publish.Open(publish.Config{Board: "b1", JournalDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	r := p2.Current()
	if r.Info.White != games[1].Tag("White") || len(r.Moves) != 20 {
		t.Fatalf("after a restart: game of %q with %d moves, want the second game with 20", r.Info.White, len(r.Moves))
	}
	if h := p2.Health(); !h.OK {
		t.Fatalf("after a restart: %+v; the journal should be whole", h)
	}
	// The journal holds every move under the seq it was published with.
	published := map[uint64]string{}
	for _, m := range v.finalMoves() {
		published[m.Seq] = m.Game + " " + m.UCI
	}
	journaled := p2.JournaledMoves()
	if len(journaled) != len(moves)+20 {
		t.Fatalf("%d final moves in the journal, want %d", len(journaled), len(moves)+20)
	}
	for seq, m := range journaled {
		if published[seq] != m {
			t.Fatalf("journal seq %d is %q, published as %q", seq, m, published[seq])
		}
	}
}

// The memory kept for held events is bounded: beyond it an event is
// refused with an error that says why.
func TestFullDiskHoldsBounded(t *testing.T) {
	var full atomic.Bool
	p, err := publish.Open(publish.Config{
		Board: "b1", JournalDir: t.TempDir(), MaxHeldBytes: 4000,
		WrapJournalFile: func(f journal.File) journal.File { return fullDisk{File: f, full: &full} },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	moves := gameMoves(loadGames(t, 1)[0])
	p.StartGame(publish.GameInfo{White: "A", Black: "B"})
	full.Store(true)
	var refused error
	n := 0
	for _, m := range moves {
		if _, refused = p.Move(m); refused != nil {
			break
		}
		n++
	}
	if refused == nil || !strings.Contains(refused.Error(), "held in memory") {
		t.Fatalf("after %d held moves: %v; want a refusal naming the memory bound", n, refused)
	}
	if h := p.Health(); h.HeldBytes > 4000 {
		t.Fatalf("%d bytes held, over the 4000 bound", h.HeldBytes)
	}
	// Space returns: the next move writes the held ones first.
	full.Store(false)
	if _, err := p.Move(moves[n]); err != nil {
		t.Fatalf("after space returned: %v", err)
	}
	if h := p.Health(); !h.OK || h.Held != 0 {
		t.Fatalf("after space returned: %+v", h)
	}
}
