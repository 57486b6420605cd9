package publish

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strconv"
	"strings"
)

// markFile is the outbox's position, kept next to the journal in
// outbox.mark: the newest seq up to which the broker has acknowledged
// every event (a restart re-sends only what follows), and the newest seq
// ever handed to the broker (a restart numbers its records above it, even
// if damage cost the journal its last records, so a topic's seq never goes
// backwards).
//
// It is rewritten in place after every acknowledgement, which costs one
// small write and no fsync: a kill -9 keeps what the kernel has, and a
// power loss that loses the last writes only makes the board re-send,
// which subscribers drop. The file holds two 32-byte slots written in
// turn, each with a CRC, so a torn write leaves the other one readable.
type markFile struct {
	f                *os.File
	n                uint32 // writes so far; the slot written is n%2
	acked, published uint64
	buf              [markSlot]byte
}

const (
	markSlot  = 32
	markMagic = "BDMK"
)

var markCRC = crc32.MakeTable(crc32.Castagnoli)

// openMark opens (creating if needed) the mark file and reads it. A file
// that cannot be read only means re-sending more; legacy is the older
// text file (outbox.acked), read once when the mark file is new.
func openMark(path, legacy string) (*markFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("outbox mark: %w", err)
	}
	m := &markFile{f: f}
	var b [2 * markSlot]byte
	n, err := f.ReadAt(b[:], 0)
	if err != nil && !errors.Is(err, io.EOF) {
		f.Close()
		return nil, fmt.Errorf("outbox mark %s: %w", path, err)
	}
	found := false
	for i := 0; i+markSlot <= n; i += markSlot {
		s := b[i : i+markSlot]
		if !bytes.Equal(s[:4], []byte(markMagic)) || crc32.Checksum(s[:24], markCRC) != binary.LittleEndian.Uint32(s[24:28]) {
			continue
		}
		c := binary.LittleEndian.Uint32(s[4:8])
		if !found || c > m.n {
			m.n = c
			m.acked = binary.LittleEndian.Uint64(s[8:16])
			m.published = binary.LittleEndian.Uint64(s[16:24])
			found = true
		}
	}
	if found {
		m.n++
	} else if lb, err := os.ReadFile(legacy); err == nil {
		if v, err := strconv.ParseUint(strings.TrimSpace(string(lb)), 10, 64); err == nil {
			m.acked, m.published = v, v
		}
	}
	return m, nil
}

// save writes acked and published if either changed.
func (m *markFile) save(acked, published uint64) error {
	if acked == m.acked && published == m.published && m.n > 0 {
		return nil
	}
	s := m.buf[:]
	copy(s, markMagic)
	binary.LittleEndian.PutUint32(s[4:8], m.n)
	binary.LittleEndian.PutUint64(s[8:16], acked)
	binary.LittleEndian.PutUint64(s[16:24], published)
	binary.LittleEndian.PutUint32(s[24:28], crc32.Checksum(s[:24], markCRC))
	if _, err := m.f.WriteAt(s, int64(m.n%2)*markSlot); err != nil {
		return fmt.Errorf("outbox mark: %w", err)
	}
	m.n++
	m.acked, m.published = acked, published
	return nil
}

func (m *markFile) close() error { return m.f.Close() }
