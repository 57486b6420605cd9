package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	_, skipped, err := j.ReadSegment(0)
	if err != nil || skipped == 0 {
		t.Fatalf("ReadSegment skipped %d, err %v; want the damaged bytes counted", skipped, err)
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
		var prev uint64
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
			if r.Seq <= prev {
				t.Fatalf("seq %d after %d", r.Seq, prev)
			}
			prev = r.Seq
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
