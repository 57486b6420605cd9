package publish_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/publish"
)

var corruptOps = flag.String("journal.ops", "flip,zero512,dup512,truncate", "the kinds of damage TestJournalCorruption makes")

var corruptStride = flag.Int("journal.stride", 397, "corrupt the journal at every Nth byte offset in TestJournalCorruption (1: every offset)")

// writeGameJournal journals a whole real game as the daemon does (game,
// clock start, a move and a clock press per ply, an alert, the result),
// marks it all published, and returns the files of the journal directory.
func writeGameJournal(t *testing.T, gameNo int) (files map[string][]byte, moves []publish.Move, info publish.GameInfo, last uint64) {
	t.Helper()
	dir := t.TempDir()
	at := time.Date(2025, 6, 1, 14, 0, 0, 0, time.UTC)
	p, err := publish.Open(publish.Config{Board: "b1", JournalDir: dir, NoSync: true, Now: func() time.Time { at = at.Add(time.Second); return at }})
	if err != nil {
		t.Fatal(err)
	}
	g := loadGames(t, gameNo+1)[gameNo]
	moves = gameMoves(g)
	if info, err = p.StartGame(infoOf(g)); err != nil {
		t.Fatal(err)
	}
	p.Clock(publish.ClockState{Clocks: publish.Clocks{WhiteMS: 900000, BlackMS: 900000}, Running: "white", Event: "start"})
	for i, m := range moves {
		if _, err := p.Move(m); err != nil {
			t.Fatal(err)
		}
		running := "black"
		if m.Ply%2 == 0 {
			running = "white"
		}
		p.Clock(publish.ClockState{Clocks: *m.Clocks, Running: running, Event: "press"})
		if i == len(moves)/3 {
			p.Alert(publish.Alert{Kind: "illegal-move", Ply: m.Ply, Text: "test alert"})
		}
	}
	if err := p.End(publish.Result{Result: g.Result, Termination: "resignation"}); err != nil {
		t.Fatal(err)
	}
	last = p.JournalLastSeq()
	p.MarkAllPublished()
	p.Close()
	files = map[string][]byte{}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files, moves, info, last
}

type corruptionStats struct {
	cases, damaged, movesLost, resultLost, clocksLost, tagsLost int
	worstMoves                                                  int // most final moves lost in one case
	worstAt                                                     int
}

// The journal of a whole game is damaged at every byte offset (or every
// -journal.stride-th): a bit flipped, a 512-byte block zeroed, a
// 512-byte block written twice, the file cut off. Every case must open;
// the game recovered must be the real game or a prefix of it, never a
// wrong move; whatever differs from the real game must be reported (an
// active journal-damaged alert, Health not ok); and the new session's
// seqs must lie above every seq published before, so no retained topic
// goes backwards.
func TestJournalCorruption(t *testing.T) {
	files, moves, info, last := writeGameJournal(t, 1)
	const seg = "journal-00000002.log"
	orig := files[seg]
	if orig == nil {
		t.Fatalf("no %s in %v", seg, slices.Collect(mapKeys(files)))
	}
	stride := max(*corruptStride, 1)
	t.Logf("game of %d plies; the game's segment is %d bytes; stride %d", len(moves), len(orig), stride)
	ops := []struct {
		name string
		do   func(b []byte, i int) []byte
	}{
		{"flip", func(b []byte, i int) []byte { b[i] ^= 0x01; return b }},
		{"zero512", func(b []byte, i int) []byte { clear(b[i:min(i+512, len(b))]); return b }},
		{"dup512", func(b []byte, i int) []byte {
			e := min(i+512, len(b))
			return slices.Concat(b[:e], b[i:e], b[e:])
		}},
		{"truncate", func(b []byte, i int) []byte { return b[:i] }},
	}
	dir := t.TempDir()
	var offsets []int
	for i := 0; i < len(orig); i += stride {
		offsets = append(offsets, i)
	}
	// Every offset of the last frames (the result, the last move) and of
	// the file's header.
	for i := max(len(orig)-600, 0); i < len(orig); i += min(stride, 3) {
		offsets = append(offsets, i)
	}
	for i := range 8 {
		offsets = append(offsets, i)
	}
	slices.Sort(offsets)
	offsets = slices.Compact(offsets)
	jc := journalCase{files: files, seg: seg, moves: moves, info: info, last: last}
	for _, op := range ops {
		if !slices.Contains(strings.Split(*corruptOps, ","), op.name) {
			continue
		}
		var st corruptionStats
		for _, i := range offsets {
			o := jc.check(t, dir, op.do(slices.Clone(orig), i), fmt.Sprintf("%s at %d", op.name, i))
			st.cases++
			if o.reported {
				st.damaged++
			}
			if o.lostMoves > 0 {
				st.movesLost++
			}
			if o.lostMoves > st.worstMoves {
				st.worstMoves, st.worstAt = o.lostMoves, i
			}
			if !o.ended {
				st.resultLost++
			}
			if o.clocksLost {
				st.clocksLost++
			}
			if o.tagsLost {
				st.tagsLost++
			}
		}
		t.Logf("%-8s %5d cases: %5d reported; moves lost in %d (worst %d of %d, at byte %d); result lost in %d; clock times lost in %d; tags lost in %d",
			op.name, st.cases, st.damaged, st.movesLost, st.worstMoves, len(moves), st.worstAt, st.resultLost, st.clocksLost, st.tagsLost)
	}
}

// journalCase is a journal of a whole game and what it holds.
type journalCase struct {
	files map[string][]byte
	seg   string // the game's segment, the one damaged
	moves []publish.Move
	info  publish.GameInfo
	last  uint64
}

type outcome struct {
	lostMoves            int
	ended, reported      bool
	clocksLost, tagsLost bool
}

// check opens the journal with seg replaced by b and checks what comes
// back: it opens; the moves are the game's or a prefix of them; whatever
// differs from the game is reported; the new session's seqs lie above
// every seq published before.
func (jc journalCase) check(t testing.TB, dir string, b []byte, what string) outcome {
	t.Helper()
	os.RemoveAll(dir)
	os.MkdirAll(dir, 0o755)
	for name, content := range jc.files {
		if name == jc.seg {
			content = b
		}
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := publish.Open(publish.Config{Board: "b1", JournalDir: dir, NoSync: true})
	if err != nil {
		t.Fatalf("%s: Open: %v", what, err)
	}
	r := p.Current()
	h := p.Health()
	next := p.JournalLastSeq()
	p.Close()
	if next <= jc.last {
		t.Fatalf("%s: the new session's records start at or below seq %d, which was published before", what, jc.last)
	}
	for k, m := range r.Moves {
		if k >= len(jc.moves) || m.UCI != jc.moves[k].UCI || m.Ply != k+1 {
			t.Fatalf("%s: recovered ply %d is %s, not the game's", what, k+1, m.UCI)
		}
	}
	o := outcome{lostMoves: len(jc.moves) - len(r.Moves), ended: r.Ended, tagsLost: r.Info != jc.info}
	for i, m := range r.Moves {
		if m.Clocks == nil || *m.Clocks != *jc.moves[i].Clocks {
			o.clocksLost = true
		}
	}
	o.reported = !h.OK && slices.ContainsFunc(r.Alerts, func(a publish.Alert) bool { return a.Kind == publish.AlertJournalDamaged })
	if (o.lostMoves > 0 || o.clocksLost || !o.ended || o.tagsLost) && !o.reported {
		t.Fatalf("%s: the game came back with %d of %d moves, clocks lost %v, ended %v, tags lost %v, and nothing reported (health %+v)",
			what, len(r.Moves), len(jc.moves), o.clocksLost, r.Ended, o.tagsLost, h)
	}
	return o
}

// FuzzJournalDamage damages the journal of a whole game where the fuzzer
// says: op 0 flips bits of a byte, 1 zeroes a run of bytes, 2 copies a
// run over another place, 3 cuts the file; the checks are
// TestJournalCorruption's.
func FuzzJournalDamage(f *testing.F) {
	f.Add(uint8(0), uint32(30000), uint32(0), uint16(1), uint8(1))
	f.Add(uint8(1), uint32(100), uint32(0), uint16(512), uint8(0))
	f.Add(uint8(2), uint32(5000), uint32(40000), uint16(700), uint8(0))
	f.Add(uint8(3), uint32(58000), uint32(0), uint16(0), uint8(0))
	var jc journalCase
	var orig []byte
	f.Fuzz(func(t *testing.T, op uint8, off, src uint32, n uint16, x uint8) {
		if orig == nil {
			files, moves, info, last := writeGameJournal(t, 1)
			jc = journalCase{files: files, seg: "journal-00000002.log", moves: moves, info: info, last: last}
			orig = files[jc.seg]
		}
		b := slices.Clone(orig)
		i := int(off % uint32(len(b)))
		e := min(i+int(n), len(b))
		switch op % 4 {
		case 0:
			b[i] ^= max(x, 1)
		case 1:
			clear(b[i:e])
		case 2:
			j := int(src % uint32(len(b)))
			copy(b[i:e], b[j:])
		case 3:
			b = b[:i]
		}
		jc.check(t, t.TempDir(), b, fmt.Sprintf("op %d at %d (n %d, src %d, x %d)", op%4, i, n, src, x))
	})
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// One flipped byte in the middle of the journal: every move and its clock
// times come back,
// the damage is reported once (a restart does not raise a second alert),
// and the status topic's detail names it while the alert is active.
func TestJournalFlipMidGameKeepsEveryMove(t *testing.T) {
	files, moves, _, _ := writeGameJournal(t, 1)
	const seg = "journal-00000002.log"
	b := slices.Clone(files[seg])
	b[len(b)/2] ^= 0x01
	dir := t.TempDir()
	for name, content := range files {
		if name == seg {
			content = b
		}
		os.WriteFile(filepath.Join(dir, name), content, 0o644)
	}
	for restart := range 2 {
		p, err := publish.Open(publish.Config{Board: "b1", JournalDir: dir, NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		r := p.Current()
		if len(r.Moves) != len(moves) || !r.Ended {
			t.Fatalf("restart %d: %d of %d moves, ended %v; want the whole game", restart, len(r.Moves), len(moves), r.Ended)
		}
		for i, m := range r.Moves {
			if m.Clocks == nil || *m.Clocks != *moves[i].Clocks {
				t.Fatalf("restart %d: ply %d clocks %v, want %v", restart, m.Ply, m.Clocks, *moves[i].Clocks)
			}
		}
		n := 0
		for _, a := range r.Alerts {
			if a.Kind == publish.AlertJournalDamaged {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("restart %d: %d journal-damaged alerts active, want 1", restart, n)
		}
		if h := p.Health(); h.OK || h.Problem == "" {
			t.Fatalf("restart %d: health %+v, want not ok with the damage named", restart, h)
		}
		p.Close()
	}
}

// The damage alert is about the board's journal, not the game: a new game
// (a simulated board's next, the arbiter's new_game) keeps it active, and
// /healthz keeps saying so, until it is acknowledged, across a restart.
func TestJournalDamageOutlivesTheGame(t *testing.T) {
	files, _, _, _ := writeGameJournal(t, 1)
	const seg = "journal-00000002.log"
	b := slices.Clone(files[seg])
	b[len(b)/2] ^= 0x01
	dir := t.TempDir()
	for name, content := range files {
		if name == seg {
			content = b
		}
		os.WriteFile(filepath.Join(dir, name), content, 0o644)
	}
	damaged := func(p *publish.Publisher) int {
		n := 0
		for _, a := range p.Current().Alerts {
			if a.Kind == publish.AlertJournalDamaged {
				n++
			}
		}
		return n
	}
	p, err := publish.Open(publish.Config{Board: "b1", JournalDir: dir, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.StartGame(publish.GameInfo{White: "C", Black: "D"}); err != nil {
		t.Fatal(err)
	}
	if n, h := damaged(p), p.Health(); n != 1 || h.OK || !h.Damaged {
		t.Fatalf("after a new game: %d damage alerts, health %+v; want the alert and not ok", n, h)
	}
	p.Close()
	// A restart reads only the new game's segments: the alert was
	// carried into them.
	p, err = publish.Open(publish.Config{Board: "b1", JournalDir: dir, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if n, h := damaged(p), p.Health(); n != 1 || h.OK || !h.Damaged || !strings.Contains(h.Problem, "damaged") {
		t.Fatalf("after the new game and a restart: %d damage alerts, health %+v", n, h)
	}
}
