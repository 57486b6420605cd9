package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func mustOpen(t *testing.T, dir string) (*Journal, *Recovery) {
	t.Helper()
	j, rec, err := Open(dir, Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return j, rec
}

func userRecords(t *testing.T, j *Journal) []Record {
	t.Helper()
	var out []Record
	if err := j.Scan(0, func(r Record) error {
		if r.Kind >= FirstUserKind {
			out = append(out, r)
		}
		return nil
	}); err != nil {
		t.Fatalf("Scan: %v", err)
	}
	return out
}

func TestAppendReopenSessionAndSeq(t *testing.T) {
	dir := t.TempDir()
	j, _ := mustOpen(t, dir)
	if j.Session() != 1 {
		t.Fatalf("first session = %d, want 1", j.Session())
	}
	var seqs []uint64
	for i := 0; i < 5; i++ {
		r, err := j.Append(FirstUserKind, []byte(fmt.Sprintf(`{"i":%d}`, i)))
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, r.Seq)
	}
	for i := 1; i < len(seqs); i++ {
		if seqs[i] != seqs[i-1]+1 {
			t.Fatalf("seqs not consecutive: %v", seqs)
		}
	}
	last := j.LastSeq()
	j.Close()

	j, rec := mustOpen(t, dir)
	defer j.Close()
	if rec.TornBytes != 0 || len(rec.Removed) != 0 {
		t.Fatalf("clean reopen reported repairs: %+v", rec)
	}
	if j.Session() != 2 {
		t.Fatalf("session after reopen = %d, want 2", j.Session())
	}
	// The boot record of session 2 takes the next seq; nothing is reused.
	if j.LastSeq() != last+1 {
		t.Fatalf("LastSeq after reopen = %d, want %d", j.LastSeq(), last+1)
	}
	r, err := j.Append(FirstUserKind+1, []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Seq != last+2 || r.Session != 2 {
		t.Fatalf("append after reopen: seq %d session %d, want %d, 2", r.Seq, r.Session, last+2)
	}
	got := userRecords(t, j)
	if len(got) != 6 {
		t.Fatalf("read back %d user records, want 6", len(got))
	}
	for i := 0; i < 5; i++ {
		if string(got[i].Data) != fmt.Sprintf(`{"i":%d}`, i) || got[i].Session != 1 {
			t.Fatalf("record %d = %q session %d", i, got[i].Data, got[i].Session)
		}
	}
}

func TestAppendRejectsReservedKindAndHugeRecord(t *testing.T) {
	j, _ := mustOpen(t, t.TempDir())
	defer j.Close()
	if _, err := j.Append(KindBoot, nil); err == nil {
		t.Fatal("Append of a reserved kind succeeded")
	}
	if _, err := j.Append(FirstUserKind, make([]byte, MaxRecord)); err == nil {
		t.Fatal("Append of an oversized record succeeded")
	}
}

// writeGame writes n user records and returns the segment path and the
// file size before the last record.
func writeGame(t *testing.T, dir string, n int) (path string, beforeLast int64) {
	t.Helper()
	j, _ := mustOpen(t, dir)
	for i := 0; i < n; i++ {
		if i == n-1 {
			st, _ := os.Stat(filepath.Join(dir, "journal-00000001.log"))
			beforeLast = st.Size()
		}
		if _, err := j.Append(FirstUserKind, []byte(fmt.Sprintf(`{"move":%d,"pad":"abcdefghij"}`, i))); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	return filepath.Join(dir, "journal-00000001.log"), beforeLast
}

// A power loss can cut the last record anywhere. Every cut must be
// detected and truncated, the earlier records kept, and the cut record
// never returned.
func TestTornTailEveryCut(t *testing.T) {
	base := t.TempDir()
	path, before := writeGame(t, base, 4)
	full, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for cut := before; cut < int64(len(full)); cut++ {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "journal-00000001.log"), full[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		j, rec := mustOpen(t, dir)
		if cut > before && rec.TornBytes != cut-before {
			t.Fatalf("cut at %d: TornBytes = %d, want %d", cut, rec.TornBytes, cut-before)
		}
		got := userRecords(t, j)
		if len(got) != 3 {
			t.Fatalf("cut at %d: %d user records, want 3", cut, len(got))
		}
		// The next append continues right after the last good record.
		r, err := j.Append(FirstUserKind, []byte("after"))
		if err != nil {
			t.Fatal(err)
		}
		got = userRecords(t, j)
		if len(got) != 4 || string(got[3].Data) != "after" || got[3].Seq != r.Seq {
			t.Fatalf("cut at %d: append after repair not read back: %+v", cut, got[len(got)-1])
		}
		j.Close()
	}
}

// Blocks that reach the disk zero-filled or with stale bytes (the file
// grew but the data did not land) must not be read as records.
func TestTornTailGarbage(t *testing.T) {
	for name, tail := range map[string][]byte{
		"zeros":             make([]byte, 4096),
		"ones":              bytes.Repeat([]byte{0xff}, 100),
		"magic only":        {magic0, magic1, 0, 0},
		"magic zero length": {magic0, magic1, 0, 0, 0, 0, 0, 0, 0, 0},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path, _ := writeGame(t, dir, 3)
			f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			f.Write(tail)
			f.Close()
			j, rec := mustOpen(t, dir)
			defer j.Close()
			if rec.TornBytes != int64(len(tail)) {
				t.Fatalf("TornBytes = %d, want %d", rec.TornBytes, len(tail))
			}
			if n := len(userRecords(t, j)); n != 3 {
				t.Fatalf("%d user records, want 3", n)
			}
		})
	}
}

// The last record complete on disk but with a bit flipped (a stale block)
// is cut like a torn one: its CRC does not match.
func TestTornTailBitFlipInLastRecord(t *testing.T) {
	dir := t.TempDir()
	path, before := writeGame(t, dir, 3)
	b, _ := os.ReadFile(path)
	b[before+frameHeader+bodyHeader+2] ^= 0x10
	os.WriteFile(path, b, 0o644)
	j, rec := mustOpen(t, dir)
	defer j.Close()
	if rec.TornBytes != int64(len(b))-before {
		t.Fatalf("TornBytes = %d, want %d", rec.TornBytes, int64(len(b))-before)
	}
	got := userRecords(t, j)
	if len(got) != 2 {
		t.Fatalf("%d user records, want 2", len(got))
	}
}

// Damage in the middle is skipped, not used to cut off later records.
func TestMidFileDamageKeepsLaterRecords(t *testing.T) {
	dir := t.TempDir()
	path, _ := writeGame(t, dir, 6)
	b, _ := os.ReadFile(path)
	// Damage the third user record's body.
	d := NewDecoder(b[len(fileMagic):])
	users := 0
	for {
		off := d.Offset()
		r, err := d.Next()
		if err != nil {
			t.Fatal("third user record not found")
		}
		if r.Kind >= FirstUserKind {
			users++
			if users == 3 {
				b[len(fileMagic)+off+frameHeader+bodyHeader] ^= 0xff
				break
			}
		}
	}
	os.WriteFile(path, b, 0o644)
	j, rec := mustOpen(t, dir)
	defer j.Close()
	if rec.TornBytes != 0 {
		t.Fatalf("mid-file damage treated as a torn tail (%d bytes cut)", rec.TornBytes)
	}
	got := userRecords(t, j)
	if len(got) != 5 {
		t.Fatalf("%d user records, want 5 (one damaged skipped)", len(got))
	}
	if string(got[2].Data) != `{"move":3,"pad":"abcdefghij"}` {
		t.Fatalf("record after damage = %q", got[2].Data)
	}
	_, dmg, err := j.ReadSegment(0)
	if err != nil || dmg.Bytes == 0 || dmg.Missing != 1 {
		t.Fatalf("ReadSegment damage %+v, err %v; want the damaged bytes and the one lost record counted", dmg, err)
	}
}

func TestRotateScanAcrossSegments(t *testing.T) {
	dir := t.TempDir()
	j, _ := mustOpen(t, dir)
	var want []uint64
	for g := 0; g < 3; g++ {
		if g > 0 {
			if err := j.Rotate(); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < 4; i++ {
			r, err := j.Append(FirstUserKind, []byte{byte(g), byte(i)})
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, r.Seq)
		}
	}
	if j.Segments() != 3 {
		t.Fatalf("Segments = %d, want 3", j.Segments())
	}
	j.Close()
	j, _ = mustOpen(t, dir)
	defer j.Close()
	// Scan from the middle of the second game.
	from := want[6]
	var got []uint64
	j.Scan(from, func(r Record) error {
		if r.Kind >= FirstUserKind {
			got = append(got, r.Seq)
		}
		return nil
	})
	if fmt.Sprint(got) != fmt.Sprint(want[6:]) {
		t.Fatalf("Scan(%d) = %v, want %v", from, got, want[6:])
	}
	recs, _, err := j.ReadSegment(j.Segments() - 1)
	if err != nil {
		t.Fatal(err)
	}
	if recs[0].Kind != KindSegment {
		t.Fatalf("segment starts with kind %d", recs[0].Kind)
	}
	users := 0
	for _, r := range recs {
		if r.Kind >= FirstUserKind {
			users++
			if r.Data[0] != 2 {
				t.Fatalf("last segment holds a record of game %d", r.Data[0])
			}
		}
	}
	if users != 4 {
		t.Fatalf("last segment has %d user records, want 4", users)
	}
	// seq keeps rising across segments and sessions.
	stop := errors.New("stop")
	var prev uint64
	err = j.Scan(0, func(r Record) error {
		if r.Seq <= prev {
			return stop
		}
		prev = r.Seq
		return nil
	})
	if err != nil {
		t.Fatalf("seq not increasing across segments (at %d)", prev)
	}
	if err := j.Prune(1); err != nil || j.Segments() != 1 {
		t.Fatalf("Prune: %v, %d segments left", err, j.Segments())
	}
}

// A crash between creating a segment file and syncing its first record
// leaves a header-only file; Open must drop it and continue the counters
// from the previous segment.
func TestTornNewSegment(t *testing.T) {
	dir := t.TempDir()
	j, _ := mustOpen(t, dir)
	j.Append(FirstUserKind, []byte("a"))
	last := j.LastSeq()
	j.Close()
	for name, content := range map[string][]byte{
		"empty":        nil,
		"half header":  fileMagic[:3],
		"header":       fileMagic,
		"header+frame": append(append([]byte{}, fileMagic...), magic0, magic1, 22, 0),
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, "journal-00000002.log")
			os.WriteFile(p, content, 0o644)
			j, rec := mustOpen(t, dir)
			if len(rec.Removed) != 1 {
				t.Fatalf("Removed = %v", rec.Removed)
			}
			if j.LastSeq() <= last {
				t.Fatalf("seq went back: %d <= %d", j.LastSeq(), last)
			}
			last = j.LastSeq()
			j.Close()
		})
	}
}

func TestNotASegment(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "journal-00000001.log"), []byte("hello, this is not a journal at all"), 0o644)
	if _, _, err := Open(dir, Options{}); err == nil {
		t.Fatal("Open accepted a file that is not a journal segment")
	}
}

func TestFrameRoundTrip(t *testing.T) {
	r := Record{Seq: 42, Session: 7, Time: time.Unix(1700000000, 123456789), Kind: 20, Data: []byte(`{"san":"e4"}`)}
	b := AppendFrame(nil, r)
	got, n, err := DecodeFrame(b)
	if err != nil || n != len(b) {
		t.Fatalf("DecodeFrame: %v, n %d of %d", err, n, len(b))
	}
	if got.Seq != r.Seq || got.Session != r.Session || !got.Time.Equal(r.Time) || got.Kind != r.Kind || !bytes.Equal(got.Data, r.Data) {
		t.Fatalf("round trip: got %+v want %+v", got, r)
	}
	for i := 0; i < len(b); i++ {
		if _, _, err := DecodeFrame(b[:i]); err == nil {
			t.Fatalf("a frame cut to %d bytes decoded", i)
		}
	}
}

func FuzzDecoder(f *testing.F) {
	f.Add(AppendFrame(nil, Record{Seq: 1, Session: 1, Kind: 16, Data: []byte("x")}))
	two := AppendFrame(nil, Record{Seq: 1, Session: 1, Kind: 16, Data: []byte("a")})
	two = AppendFrame(two, Record{Seq: 2, Session: 1, Kind: 17, Data: []byte(`{"b":2}`)})
	f.Add(two)
	f.Add(append([]byte{0, 0, magic0}, two...))
	f.Add([]byte{magic0, magic1, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		d := NewDecoder(b)
		for {
			off := d.Offset()
			r, err := d.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			if d.Offset() <= off || d.Offset() > len(b) {
				t.Fatalf("offset went from %d to %d of %d", off, d.Offset(), len(b))
			}
			// A returned record is exactly the bytes it was decoded from.
			enc := AppendFrame(nil, r)
			end := d.Offset()
			if !bytes.Equal(enc, b[end-len(enc):end]) {
				t.Fatalf("record at %d does not re-encode to its bytes", end-len(enc))
			}
		}
		if d.Skipped+d.Torn > len(b) {
			t.Fatalf("skipped %d + torn %d > %d", d.Skipped, d.Torn, len(b))
		}
	})
}

func TestSecondOpenRefused(t *testing.T) {
	dir := t.TempDir()
	j, _ := mustOpen(t, dir)
	if _, _, err := Open(dir, Options{}); err == nil {
		t.Fatal("a second Open of the same journal succeeded")
	}
	j.Close()
	j2, _ := mustOpen(t, dir)
	j2.Close()
}

// frameSpans returns the byte span of every frame of a clean segment file.
func frameSpans(t *testing.T, b []byte) [][2]int {
	t.Helper()
	var spans [][2]int
	for off := len(fileMagic); off < len(b); {
		_, n, err := DecodeFrame(b[off:])
		if err != nil {
			t.Fatalf("clean segment has no frame at %d: %v", off, err)
		}
		spans = append(spans, [2]int{off, off + n})
		off += n
	}
	return spans
}

// A block of later records written over earlier ones (a stale or
// misdirected write) loses only the records it covers: the records after
// it, whose seqs are lower than the copied ones, are still read.
func TestDuplicatedBlockKeepsEveryIntactRecord(t *testing.T) {
	dir := t.TempDir()
	path, _ := writeGame(t, dir, 30)
	b, _ := os.ReadFile(path)
	spans := frameSpans(t, b)
	// Copy 200 bytes from the middle of frame 25 over the middle of frame 5.
	src, dst := spans[25][0]+7, spans[5][0]+13
	copy(b[dst:dst+200], b[src:src+200])
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	j, _ := mustOpen(t, dir)
	defer j.Close()
	recs, dmg, err := j.ReadSegment(0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[uint64]bool{}
	for i, r := range recs {
		got[r.Seq] = true
		if i > 0 && r.Seq <= recs[i-1].Seq {
			t.Fatalf("records not in seq order: %d after %d", r.Seq, recs[i-1].Seq)
		}
	}
	lost := 0
	for i, sp := range spans {
		seq := uint64(i + 1) // the segment record is seq 1, then boot, then the user records
		if sp[1] <= dst || sp[0] >= dst+200 {
			if !got[seq] {
				t.Errorf("intact record seq %d (frame %d) not read", seq, i)
			}
		} else {
			lost++
		}
	}
	if dmg.Missing != lost {
		t.Errorf("Damage.Missing = %d, want %d (the records the block covered)", dmg.Missing, lost)
	}
	if dmg.Duplicates == 0 || dmg.Bytes == 0 {
		t.Errorf("Damage %+v: want the duplicated frames and the damaged bytes counted", dmg)
	}
}

// A session that must stay above a seq it can no longer see skips to it,
// and the skip is not read as lost records afterwards.
func TestSeqFloorSkipIsNotDamage(t *testing.T) {
	dir := t.TempDir()
	j, _ := mustOpen(t, dir)
	j.Append(FirstUserKind, []byte("a"))
	last := j.LastSeq()
	j.Close()
	j, rec, err := Open(dir, Options{SeqFloor: last + 10})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Skipped != 10 || j.LastSeq() != last+11 {
		t.Fatalf("Skipped %d, boot seq %d; want 10 and %d", rec.Skipped, j.LastSeq(), last+11)
	}
	r, err := j.Append(FirstUserKind, []byte("b"))
	if err != nil || r.Seq != last+12 {
		t.Fatalf("next record seq %d, err %v; want %d", r.Seq, err, last+12)
	}
	j.Close()
	j, _ = mustOpen(t, dir)
	defer j.Close()
	_, dmg, err := j.ReadSegment(0)
	if err != nil || dmg.Any() {
		t.Fatalf("after a deliberate skip: damage %+v, err %v; want none", dmg, err)
	}
}

// failingFile fails every write and sync while fail is set, like a full
// disk, writing nothing or (with partial) half the bytes.
type failingFile struct {
	File
	fail    *bool
	partial bool
}

func (f failingFile) Write(b []byte) (int, error) {
	if *f.fail {
		if f.partial {
			n, _ := f.File.Write(b[:len(b)/2])
			return n, syscall.ENOSPC
		}
		return 0, syscall.ENOSPC
	}
	return f.File.Write(b)
}

func (f failingFile) Sync() error {
	if *f.fail {
		return syscall.ENOSPC
	}
	return f.File.Sync()
}

// A full disk fails appends and a rotation without leaving anything
// behind: once space returns the journal goes on with the next seq and
// reads back without damage.
func TestWriteErrorsLeaveTheJournalUsable(t *testing.T) {
	for _, partial := range []bool{false, true} {
		t.Run(fmt.Sprint("partial=", partial), func(t *testing.T) {
			dir := t.TempDir()
			fail := false
			opts := Options{WrapFile: func(f File) File { return failingFile{File: f, fail: &fail, partial: partial} }}
			j, _, err := Open(dir, opts)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := j.Append(FirstUserKind, []byte("a"))
			fail = true
			if _, err := j.Append(FirstUserKind, []byte("b")); !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("append on a full disk: %v, want ENOSPC", err)
			}
			if err := j.Rotate(); !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("rotate on a full disk: %v, want ENOSPC", err)
			}
			if j.Segments() != 1 {
				t.Fatalf("%d segments after a failed rotation, want 1", j.Segments())
			}
			fail = false
			b, err := j.Append(FirstUserKind, []byte("b"))
			if err != nil || b.Seq != a.Seq+1 {
				t.Fatalf("append after recovery: seq %d, err %v; want %d", b.Seq, err, a.Seq+1)
			}
			if err := j.Rotate(); err != nil {
				t.Fatalf("rotate after recovery: %v", err)
			}
			j.Close()
			j, _ = mustOpen(t, dir)
			defer j.Close()
			for i := 0; i < j.Segments(); i++ {
				if _, dmg, err := j.ReadSegment(i); err != nil || dmg.Any() {
					t.Fatalf("segment %d: damage %+v, err %v", i, dmg, err)
				}
			}
			if got := userRecords(t, j); len(got) != 2 || string(got[1].Data) != "b" {
				t.Fatalf("user records %v, want a and b", got)
			}
		})
	}
}
