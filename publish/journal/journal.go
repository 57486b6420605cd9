// Package journal is a board's append-only, fsynced record of everything
// it publishes: the source of truth from which a game is resumed after a
// power loss and from which every MQTT message is re-derived.
//
// The journal is a directory of segment files (journal-00000001.log, ...),
// each a file header followed by framed records:
//
//	magic   2 bytes  0xB0 0xDD
//	length  4 bytes  little-endian, of the body (1 .. MaxRecord)
//	crc     4 bytes  CRC-32C (Castagnoli) of the length bytes and the body
//	body    kind (2 bytes LE) session (4 LE) seq (8 LE) unix-nanos (8 LE) data
//
// Every record carries the board's session (a boot counter: Open starts a
// new one and writes a boot record, so it is persisted by the journal
// itself) and seq (one counter over all records, never reset, not even
// across segments). Append returns only after the record and, for a new
// segment, the directory are fsynced, so a record that was acknowledged
// survives a power loss.
//
// A power loss can leave a torn record at the end of the last segment: a
// short frame, or a frame whose CRC does not match (blocks that reached the
// disk zero-filled or stale). Open detects it and truncates the segment
// before it, so it is never misread. Damage anywhere else (a bad sector in
// the middle, a stale or misplaced block) is not silently cut: the readers
// skip to the next valid frame, put the valid frames in seq order, keep
// one copy of each seq, and count what they skipped and which seqs are
// missing (Damage), so no intact record is lost and every lost one is
// known.
package journal

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Kind says what a record holds. Kinds below 16 are the journal's own; a
// caller uses 16 and up.
type Kind uint16

// The journal's own kinds.
const (
	// KindBoot starts every session: Open writes one, so the boot counter
	// is persisted with the records.
	KindBoot Kind = 1
	// KindSegment is the first record of every segment file.
	KindSegment Kind = 2
	// FirstUserKind is the first kind a caller may use.
	FirstUserKind Kind = 16
)

// MaxRecord is the largest body a record may have (the data plus 22 bytes
// of header fields). A length above it in a frame means damage.
const MaxRecord = 1 << 20

const (
	frameHeader = 10 // magic, length, crc
	bodyHeader  = 22 // kind, session, seq, time
	magic0      = 0xB0
	magic1      = 0xDD
)

// fileMagic starts every segment file.
var fileMagic = []byte("BDJRNL1\n")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Record is one journal entry.
type Record struct {
	Seq     uint64
	Session uint32
	Time    time.Time
	Kind    Kind
	Data    []byte
}

// Recovery says what Open found and repaired.
type Recovery struct {
	// TornBytes is how many bytes of a torn last record were cut off the
	// last segment (0 if it ended cleanly).
	TornBytes int64
	// Segment is the file that was truncated, if any.
	Segment string
	// Removed lists segment files that held no complete record: a
	// segment torn while it was being created is deleted; a bigger one is
	// renamed to <name>.damaged-<unix time> and kept for inspection.
	Removed []string
	// Skipped is how many seqs the new session skipped to stay above
	// Options.SeqFloor: records used once and no longer in the journal.
	Skipped uint64
}

// Options tune a journal. The zero value is the production setting.
type Options struct {
	// NoSync skips fsync. Only for tests and benchmarks that measure
	// something else; a journal opened this way is not crash-safe.
	NoSync bool
	// Now replaces time.Now (tests).
	Now func() time.Time
	// SeqFloor is a seq known to have been used already, though the
	// journal may no longer hold it (a damaged end that Open cut off
	// had been published): the new session's records are numbered
	// above it, so no seq is ever given to two different records.
	SeqFloor uint64
	// WrapFile, if set, wraps every segment file the journal appends
	// to (tests inject write errors with it).
	WrapFile func(File) File
}

// File is what the journal appends a segment through: an *os.File
// unless Options.WrapFile says otherwise.
type File interface {
	io.Writer
	Sync() error
	Truncate(size int64) error
	Close() error
}

// Journal is an open journal directory. Its methods are safe for
// concurrent use.
type Journal struct {
	dir  string
	opts Options

	mu       sync.Mutex
	f        File  // the last segment, open for appending
	size     int64 // bytes in f
	segs     []segment
	session  uint32
	lastSeq  uint64
	closed   bool
	frameBuf []byte
	lock     *os.File
	broken   error // set when a failed append could not be undone
}

type segment struct {
	index    int
	name     string
	firstSeq uint64 // seq of the segment record; 0 if unknown (damaged start)
}

// ErrClosed is returned by operations on a closed journal.
var ErrClosed = errors.New("journal: closed")

// ErrTooBig is returned for a record above MaxRecord.
var ErrTooBig = errors.New("journal: record too big")

// Open opens (creating if needed) the journal in dir, repairs a torn tail,
// starts a new session and writes its boot record.
func Open(dir string, opts Options) (*Journal, *Recovery, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, nil, err
	}
	j, rec, err := open(dir, opts)
	if err != nil {
		if lock != nil {
			lock.Close()
		}
		return nil, nil, err
	}
	j.lock = lock
	return j, rec, nil
}

func open(dir string, opts Options) (*Journal, *Recovery, error) {
	j := &Journal{dir: dir, opts: opts}
	rec := &Recovery{}
	segs, err := listSegments(dir)
	if err != nil {
		return nil, nil, err
	}
	// Drop trailing segments without a single complete record (a crash
	// between creating a segment and syncing its first record), then
	// repair the tail of the last real one.
	for len(segs) > 0 {
		last := segs[len(segs)-1]
		path := filepath.Join(dir, last.name)
		st, err := scanTail(path)
		if err != nil {
			return nil, nil, err
		}
		if st.records == 0 {
			// A segment torn while it was created holds at most its header
			// and part of its first record: nothing was ever acknowledged
			// from it. Anything bigger is kept aside, not deleted.
			if st.size <= int64(len(fileMagic)+frameHeader+bodyHeader) {
				err = os.Remove(path)
			} else {
				err = os.Rename(path, fmt.Sprintf("%s.damaged-%d", path, opts.Now().Unix()))
			}
			if err != nil {
				return nil, nil, fmt.Errorf("journal: setting aside a segment without records: %w", err)
			}
			rec.Removed = append(rec.Removed, last.name)
			segs = segs[:len(segs)-1]
			continue
		}
		if st.validEnd < st.size {
			if err := truncate(path, st.validEnd, !opts.NoSync); err != nil {
				return nil, nil, err
			}
			rec.TornBytes = st.size - st.validEnd
			rec.Segment = last.name
		}
		j.session = st.lastSession
		j.lastSeq = st.lastSeq
		j.size = st.validEnd
		break
	}
	if len(rec.Removed) > 0 && !opts.NoSync {
		if err := syncDir(dir); err != nil {
			return nil, nil, err
		}
	}
	for i := range segs {
		segs[i].firstSeq = firstSeq(filepath.Join(dir, segs[i].name))
	}
	j.segs = segs
	if len(segs) == 0 {
		if err := j.newSegmentLocked(1); err != nil {
			return nil, nil, err
		}
	} else {
		last := segs[len(segs)-1]
		f, err := os.OpenFile(filepath.Join(dir, last.name), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return nil, nil, fmt.Errorf("journal: %w", err)
		}
		j.f = j.wrap(f)
	}
	j.session++
	// The boot record says which seq the session found newest, so that
	// a skip up to SeqFloor is not read as lost records later.
	found := j.lastSeq
	if opts.SeqFloor > j.lastSeq {
		rec.Skipped = opts.SeqFloor - j.lastSeq
		j.lastSeq = opts.SeqFloor
	}
	if _, err := j.appendLocked(KindBoot, binary.LittleEndian.AppendUint64(nil, found), opts.Now()); err != nil {
		j.f.Close()
		return nil, nil, err
	}
	return j, rec, nil
}

// Dir is the journal's directory.
func (j *Journal) Dir() string { return j.dir }

// Session is the current boot counter.
func (j *Journal) Session() uint32 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.session
}

// LastSeq is the seq of the newest record.
func (j *Journal) LastSeq() uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.lastSeq
}

// Append writes a record of the given kind and returns it after it is
// durable. kind must be FirstUserKind or above.
func (j *Journal) Append(kind Kind, data []byte) (Record, error) {
	return j.AppendAt(kind, data, j.opts.Now())
}

// AppendAt is Append with the record's time given: a record held in
// memory while the journal could not be written keeps the time it was
// made.
func (j *Journal) AppendAt(kind Kind, data []byte, t time.Time) (Record, error) {
	if kind < FirstUserKind {
		return Record{}, fmt.Errorf("journal: kind %d is reserved", kind)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.appendLocked(kind, data, t)
}

// Rotate closes the current segment and starts a new one, so that the
// records that follow (a new game) can be read back without the older
// ones. Segments are never deleted by the journal itself; see Prune.
func (j *Journal) Rotate() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return ErrClosed
	}
	next := 1
	if n := len(j.segs); n > 0 {
		next = j.segs[n-1].index + 1
	}
	old := j.f
	if err := j.newSegmentLocked(next); err != nil {
		return err
	}
	if old != nil {
		old.Close()
	}
	return nil
}

// Prune deletes the oldest segments so that at most keep remain (the
// current one always stays).
func (j *Journal) Prune(keep int) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if keep < 1 {
		keep = 1
	}
	for len(j.segs) > keep {
		if err := os.Remove(filepath.Join(j.dir, j.segs[0].name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("journal: prune: %w", err)
		}
		j.segs = j.segs[1:]
	}
	return nil
}

// Close closes the journal.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return nil
	}
	j.closed = true
	var err error
	if j.f != nil {
		err = j.f.Close()
	}
	if j.lock != nil {
		j.lock.Close()
	}
	return err
}

func (j *Journal) wrap(f *os.File) File {
	if j.opts.WrapFile != nil {
		return j.opts.WrapFile(f)
	}
	return f
}

// newSegmentLocked starts segment index. On failure the journal is as
// before (the half-made file is removed), so the caller may try again.
func (j *Journal) newSegmentLocked(index int) error {
	name := fmt.Sprintf("journal-%08d.log", index)
	path := filepath.Join(j.dir, name)
	of, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("journal: new segment: %w", err)
	}
	f := j.wrap(of)
	oldF, oldSize, oldSegs := j.f, j.size, j.segs
	undo := func(err error) error {
		f.Close()
		os.Remove(path)
		j.f, j.size, j.segs = oldF, oldSize, oldSegs
		return err
	}
	if _, err := f.Write(fileMagic); err != nil {
		return undo(fmt.Errorf("journal: new segment %s: %w", name, err))
	}
	j.f = f
	j.size = int64(len(fileMagic))
	j.segs = append(j.segs[:len(j.segs):len(j.segs)], segment{index: index, name: name, firstSeq: j.lastSeq + 1})
	if _, err := j.appendLocked(KindSegment, nil, j.opts.Now()); err != nil {
		return undo(err)
	}
	if !j.opts.NoSync {
		if err := syncDir(j.dir); err != nil {
			return err
		}
	}
	return nil
}

func (j *Journal) appendLocked(kind Kind, data []byte, t time.Time) (Record, error) {
	if j.closed {
		return Record{}, ErrClosed
	}
	if len(data)+bodyHeader > MaxRecord {
		return Record{}, fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooBig, len(data), MaxRecord-bodyHeader)
	}
	r := Record{Seq: j.lastSeq + 1, Session: j.session, Time: t, Kind: kind, Data: data}
	if j.broken != nil {
		return Record{}, j.broken
	}
	j.frameBuf = AppendFrame(j.frameBuf[:0], r)
	n, err := j.f.Write(j.frameBuf)
	if err == nil && !j.opts.NoSync {
		err = j.f.Sync()
	}
	if err != nil {
		// The record is not durable, so it must not be there either: the
		// next record takes its seq, and a second record with one seq
		// would be read as damage. Cut it off; if even that fails, stop
		// appending rather than risk it. The cut need not be synced now:
		// the next append's fsync makes it durable, and until then a
		// crash leaves the part-written frame at the end, a torn tail.
		if n > 0 {
			if terr := j.f.Truncate(j.size); terr != nil {
				j.broken = fmt.Errorf("journal: unusable after an I/O error at seq %d (restart to repair): %w", r.Seq, err)
			}
		}
		return Record{}, fmt.Errorf("journal: append seq %d: %w", r.Seq, err)
	}
	j.size += int64(n)
	j.lastSeq = r.Seq
	// The caller may reuse data; the record it gets back must not alias it.
	r.Data = bytes.Clone(data)
	return r, nil
}

// AppendFrame appends r's frame to b.
func AppendFrame(b []byte, r Record) []byte {
	n := bodyHeader + len(r.Data)
	b = append(b, magic0, magic1)
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	crcAt := len(b)
	b = append(b, 0, 0, 0, 0)
	bodyAt := len(b)
	b = binary.LittleEndian.AppendUint16(b, uint16(r.Kind))
	b = binary.LittleEndian.AppendUint32(b, r.Session)
	b = binary.LittleEndian.AppendUint64(b, r.Seq)
	b = binary.LittleEndian.AppendUint64(b, uint64(r.Time.UnixNano()))
	b = append(b, r.Data...)
	crc := crc32.Update(0, castagnoli, b[bodyAt-8:bodyAt-4]) // the length bytes
	crc = crc32.Update(crc, castagnoli, b[bodyAt:])
	binary.LittleEndian.PutUint32(b[crcAt:], crc)
	return b
}

// Frame decoding errors. ErrShort means the buffer ends inside the frame
// (at the end of a file: a torn tail); the others mean the bytes are not a
// frame.
var (
	ErrShort    = errors.New("journal: frame cut short")
	ErrBadMagic = errors.New("journal: no frame magic")
	ErrLength   = errors.New("journal: frame length out of range")
	ErrChecksum = errors.New("journal: frame checksum mismatch")
)

// DecodeFrame decodes the frame at the start of b and returns the record
// (its Data aliases b) and the frame's size.
func DecodeFrame(b []byte) (Record, int, error) {
	if len(b) < frameHeader {
		if len(b) >= 2 && (b[0] != magic0 || b[1] != magic1) {
			return Record{}, 0, ErrBadMagic
		}
		return Record{}, 0, ErrShort
	}
	if b[0] != magic0 || b[1] != magic1 {
		return Record{}, 0, ErrBadMagic
	}
	n := binary.LittleEndian.Uint32(b[2:6])
	if n < bodyHeader || n > MaxRecord {
		return Record{}, 0, ErrLength
	}
	if uint64(len(b)) < frameHeader+uint64(n) {
		return Record{}, 0, ErrShort
	}
	body := b[frameHeader : frameHeader+n]
	crc := crc32.Update(0, castagnoli, b[2:6])
	crc = crc32.Update(crc, castagnoli, body)
	if crc != binary.LittleEndian.Uint32(b[6:10]) {
		return Record{}, 0, ErrChecksum
	}
	r := Record{
		Kind:    Kind(binary.LittleEndian.Uint16(body[0:2])),
		Session: binary.LittleEndian.Uint32(body[2:6]),
		Seq:     binary.LittleEndian.Uint64(body[6:14]),
		Time:    time.Unix(0, int64(binary.LittleEndian.Uint64(body[14:22]))),
		Data:    body[bodyHeader:],
	}
	if r.Kind == 0 || r.Seq == 0 {
		return Record{}, 0, ErrLength
	}
	return r, frameHeader + int(n), nil
}

// Decoder reads the frames of one segment's bytes (after the file
// header) in file order, skipping damage: at a spot that is not a valid
// frame it looks for the next one. It returns every valid frame, in
// whatever seq order the file holds them (a stale or duplicated block can
// repeat or reorder records); ReadSegment puts them in seq order.
type Decoder struct {
	b       []byte
	off     int
	Skipped int // bytes skipped over as damage (not counting a torn tail)
	Torn    int // bytes at the end that are an incomplete or damaged last frame
}

// NewDecoder returns a decoder of b, the bytes after a segment's header.
func NewDecoder(b []byte) *Decoder { return &Decoder{b: b} }

// Offset is where the next frame starts.
func (d *Decoder) Offset() int { return d.off }

// Next returns the next valid frame's record, or io.EOF.
func (d *Decoder) Next() (Record, error) {
	for d.off < len(d.b) {
		r, n, err := DecodeFrame(d.b[d.off:])
		if err == nil {
			d.off += n
			return r, nil
		}
		// Not a frame here. If a valid frame follows somewhere, the bytes
		// up to it are damage; otherwise they are a torn tail.
		next := d.resync(d.off + 1)
		if next < 0 {
			d.Torn = len(d.b) - d.off
			d.off = len(d.b)
			return Record{}, io.EOF
		}
		d.Skipped += next - d.off
		d.off = next
	}
	return Record{}, io.EOF
}

// resync returns the offset of the next valid frame at or after from, or -1.
func (d *Decoder) resync(from int) int {
	for i := from; i+1 < len(d.b); i++ {
		j := bytes.IndexByte(d.b[i:], magic0)
		if j < 0 {
			return -1
		}
		i += j
		if i+1 < len(d.b) && d.b[i+1] == magic1 {
			if _, _, err := DecodeFrame(d.b[i:]); err == nil {
				return i
			}
		}
	}
	return -1
}

type tailState struct {
	size, validEnd int64
	records        int
	lastSeq        uint64
	lastSession    uint32
}

// scanTail reads a whole segment and says where its valid records end.
func scanTail(path string) (tailState, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return tailState{}, fmt.Errorf("journal: %w", err)
	}
	st := tailState{size: int64(len(b)), validEnd: int64(len(fileMagic))}
	if len(b) <= len(fileMagic) && bytes.HasPrefix(fileMagic, b) {
		st.validEnd = 0 // torn while the header was written
		return st, nil
	}
	if !goodHeader(b) {
		return tailState{}, fmt.Errorf("journal: %s is not a journal segment (bad file header)", path)
	}
	d := NewDecoder(b[len(fileMagic):])
	for {
		r, err := d.Next()
		if err != nil {
			break
		}
		st.records++
		// The newest record decides the counters, wherever a damaged
		// file holds it.
		if r.Seq > st.lastSeq {
			st.lastSeq, st.lastSession = r.Seq, r.Session
		}
		st.validEnd = int64(len(fileMagic) + d.Offset())
	}
	return st, nil
}

// Damage says what reading a segment found besides its records.
type Damage struct {
	// Bytes is how many bytes were not part of a valid frame: damage in
	// the middle and a torn or damaged end.
	Bytes int
	// Missing is how many records are known to be lost: gaps in the seq
	// numbers between the segment's first and last record (a session's
	// deliberate skip, see Options.SeqFloor, is not counted), plus the
	// segment's own first record if it is gone.
	Missing int
	// Duplicates is how many valid frames repeated a seq already read (a
	// stale or duplicated block); the first copy in the file is kept.
	Duplicates int
	// First and Last are the seqs of the first and last record read (0
	// when none was), for chaining across segments.
	First, Last uint64
}

// Any reports whether anything was damaged.
func (d Damage) Any() bool { return d.Bytes > 0 || d.Missing > 0 || d.Duplicates > 0 }

// readRecords decodes a segment's bytes (after the header) into its
// records in seq order, each seq once.
func readRecords(b []byte) ([]Record, Damage) {
	d := NewDecoder(b)
	var out []Record
	for {
		r, err := d.Next()
		if err != nil {
			break
		}
		out = append(out, r)
	}
	dmg := Damage{Bytes: d.Skipped + d.Torn}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Seq < out[b].Seq })
	keep := out[:0]
	for _, r := range out {
		if n := len(keep); n > 0 && keep[n-1].Seq == r.Seq {
			dmg.Duplicates++
			continue
		}
		keep = append(keep, r)
	}
	out = keep
	if len(out) == 0 {
		return nil, dmg
	}
	dmg.First, dmg.Last = out[0].Seq, out[len(out)-1].Seq
	if out[0].Kind != KindSegment {
		dmg.Missing++
	}
	for i := 1; i < len(out); i++ {
		prev, r := out[i-1].Seq, out[i]
		end := r.Seq - 1 // the last seq that should be between them
		if r.Kind == KindBoot && len(r.Data) == 8 {
			// Seqs after the newest record the session found at its
			// start were skipped on purpose.
			end = min(end, max(binary.LittleEndian.Uint64(r.Data), prev))
		}
		dmg.Missing += int(end - prev)
	}
	return out, dmg
}

func firstSeq(path string) uint64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	b := make([]byte, len(fileMagic)+frameHeader+bodyHeader+64)
	n, _ := io.ReadFull(f, b)
	if n < len(fileMagic) {
		return 0
	}
	r, _, err := DecodeFrame(b[len(fileMagic):n])
	if err != nil {
		return 0
	}
	return r.Seq
}

func truncate(path string, size int64, sync bool) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("journal: repairing torn tail: %w", err)
	}
	defer f.Close()
	if size == 0 {
		// Rewrite a torn file header so the segment is well-formed.
		if err := f.Truncate(0); err != nil {
			return fmt.Errorf("journal: repairing torn tail: %w", err)
		}
	} else if err := f.Truncate(size); err != nil {
		return fmt.Errorf("journal: repairing torn tail of %s: %w", path, err)
	}
	if sync {
		if err := f.Sync(); err != nil {
			return fmt.Errorf("journal: repairing torn tail of %s: %w", path, err)
		}
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("journal: sync dir: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("journal: sync dir %s: %w", dir, err)
	}
	return nil
}

func listSegments(dir string) ([]segment, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	var segs []segment
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, "journal-") || !strings.HasSuffix(name, ".log") {
			continue
		}
		idx, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, "journal-"), ".log"))
		if err != nil || idx < 1 {
			continue
		}
		segs = append(segs, segment{index: idx, name: name})
	}
	sort.Slice(segs, func(a, b int) bool { return segs[a].index < segs[b].index })
	return segs, nil
}

// Segments returns the number of segment files.
func (j *Journal) Segments() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.segs)
}

// ReadSegment returns the records of segment i (0 = oldest, Segments()-1 =
// the current one) in seq order, and what damage reading it found.
func (j *Journal) ReadSegment(i int) ([]Record, Damage, error) {
	j.mu.Lock()
	if i < 0 || i >= len(j.segs) {
		j.mu.Unlock()
		return nil, Damage{}, fmt.Errorf("journal: no segment %d (have %d)", i, len(j.segs))
	}
	path := filepath.Join(j.dir, j.segs[i].name)
	size := j.size
	current := i == len(j.segs)-1
	j.mu.Unlock()
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, Damage{}, fmt.Errorf("journal: %w", err)
	}
	if current && int64(len(b)) > size {
		b = b[:size] // a concurrent append in progress
	}
	if !goodHeader(b) {
		return nil, Damage{}, fmt.Errorf("journal: %s: bad file header", path)
	}
	recs, dmg := readRecords(b[len(fileMagic):])
	if !bytes.Equal(b[:len(fileMagic)], fileMagic) {
		dmg.Bytes += len(fileMagic)
	}
	return recs, dmg, nil
}

// goodHeader reports whether b can be read as a segment: its file header
// is intact, or damaged but followed by a valid frame (a file that is not
// a journal has none).
func goodHeader(b []byte) bool {
	if len(b) < len(fileMagic) {
		return false
	}
	if bytes.Equal(b[:len(fileMagic)], fileMagic) {
		return true
	}
	_, err := NewDecoder(b[len(fileMagic):]).Next()
	return err == nil
}

// SegmentName is the file name of segment i, for reports.
func (j *Journal) SegmentName(i int) string {
	j.mu.Lock()
	defer j.mu.Unlock()
	if i < 0 || i >= len(j.segs) {
		return ""
	}
	return j.segs[i].name
}

// Scan calls fn for every record with Seq >= from, oldest first, across
// segments. It stops at fn's first error and returns it.
func (j *Journal) Scan(from uint64, fn func(Record) error) error {
	j.mu.Lock()
	n := len(j.segs)
	start := 0
	for i := n - 1; i >= 0; i-- {
		if fs := j.segs[i].firstSeq; fs != 0 && fs <= from {
			start = i
			break
		}
	}
	j.mu.Unlock()
	for i := start; i < n; i++ {
		recs, _, err := j.ReadSegment(i)
		if err != nil {
			return err
		}
		for _, r := range recs {
			if r.Seq < from {
				continue
			}
			if err := fn(r); err != nil {
				return err
			}
		}
	}
	return nil
}
