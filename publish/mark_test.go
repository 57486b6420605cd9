package publish

import (
	"os"
	"path/filepath"
	"testing"
)

// The mark survives a torn write of either slot (the other one is read),
// and a missing mark file falls back to the older text file.
func TestMarkSlots(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "outbox.mark")
	m, err := openMark(path, filepath.Join(dir, "outbox.acked"))
	if err != nil {
		t.Fatal(err)
	}
	for i := uint64(1); i <= 5; i++ {
		if err := m.save(i, i+10); err != nil {
			t.Fatal(err)
		}
	}
	m.close()
	b, _ := os.ReadFile(path)
	// The fifth write went to slot 0; tear it.
	torn := append([]byte(nil), b...)
	torn[9] ^= 0xff
	os.WriteFile(path, torn, 0o644)
	m, err = openMark(path, "")
	if err != nil {
		t.Fatal(err)
	}
	if m.acked != 4 || m.published != 14 {
		t.Fatalf("after a torn slot: acked %d published %d, want the previous write (4, 14)", m.acked, m.published)
	}
	m.save(6, 16) // must not overwrite the good slot
	m.close()
	m, _ = openMark(path, "")
	if m.acked != 6 || m.published != 16 {
		t.Fatalf("after the next write: acked %d published %d, want 6, 16", m.acked, m.published)
	}
	m.close()

	legacy := filepath.Join(dir, "outbox.acked")
	os.WriteFile(legacy, []byte("42\n"), 0o644)
	m, _ = openMark(filepath.Join(dir, "new.mark"), legacy)
	defer m.close()
	if m.acked != 42 {
		t.Fatalf("from the legacy file: acked %d, want 42", m.acked)
	}
}
