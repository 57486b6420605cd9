package sensors

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// RecordMode says how a Recorder writes frames.
type RecordMode uint8

// Record modes.
const (
	// RecordDeltas writes the first frame as a "frame" line and then each
	// change as "off"/"on" lines (lifts before placements).
	RecordDeltas RecordMode = iota
	// RecordFrames writes every frame as a "frame" line.
	RecordFrames
)

// Recorder writes a FrameSource's events as a trace (docs/trace.md):
// frames as frame lines or on/off deltas, input events as they are,
// sensor faults as comments. Times are milliseconds since the first frame.
type Recorder struct {
	w       *trace.Writer
	sensor  trace.Sensor
	mode    RecordMode
	started bool
	t0      time.Time
	last    int64
	prev    Frame
	hasPrev bool
	ev      trace.Event
}

// NewRecorder writes h (whose Sensor must be the source's) and returns a
// recorder writing to w.
func NewRecorder(w *trace.Writer, h trace.Header, mode RecordMode) (*Recorder, error) {
	if mode > RecordFrames {
		return nil, fmt.Errorf("record: bad mode %d", mode)
	}
	if err := w.WriteHeader(h); err != nil {
		return nil, fmt.Errorf("record: writing header: %w", err)
	}
	return &Recorder{w: w, sensor: h.Sensor, mode: mode}, nil
}

// ms returns the trace time of an event: milliseconds since the first
// event, never decreasing.
func (r *Recorder) ms(e *Event) int64 {
	t := e.T
	if t.IsZero() {
		switch e.Kind {
		case FrameEvent:
			t = e.Frame.T
		case FaultEvent:
			t = e.Fault.T
		}
	}
	if !r.started {
		r.started = true
		r.t0 = t
		return 0
	}
	ms := t.Sub(r.t0).Milliseconds()
	if ms < r.last {
		ms = r.last
	}
	r.last = ms
	return ms
}

// Record writes one event.
func (r *Recorder) Record(e *Event) error {
	switch e.Kind {
	case FrameEvent:
		return r.frame(&e.Frame, r.ms(e))
	case FaultEvent:
		return r.w.Comment(fmt.Sprintf("%d %s", r.ms(e), e.Fault.String()))
	case InputEvent:
		r.ev = e.Input
		r.ev.T = r.ms(e)
		if err := r.w.WriteEvent(&r.ev); err != nil {
			return fmt.Errorf("record: %w", err)
		}
		return nil
	}
	return fmt.Errorf("record: unknown event kind %v", e.Kind)
}

func (r *Recorder) frame(f *Frame, ms int64) error {
	first := !r.hasPrev
	r.hasPrev = true
	defer func() { r.prev = *f }()
	if r.mode == RecordFrames || first {
		if !first && f.Occ == r.prev.Occ && f.White == r.prev.White && f.Placement == r.prev.Placement {
			return nil // a heartbeat
		}
		r.ev = trace.Event{T: ms, Kind: trace.Frame, Occ: f.Occ, White: f.White, Placement: f.Placement}
		return r.write()
	}
	// Lifts first: a square whose colour or piece changed is an off then
	// an on, as a hand makes it.
	var off, on chess.Bitboard
	for b := f.Occ | r.prev.Occ; b != 0; b &= b - 1 {
		sq := b.First()
		was, is := r.prev.Occ.Has(sq), f.Occ.Has(sq)
		switch {
		case was && !is:
			off |= sq.Bitboard()
		case !was && is:
			on |= sq.Bitboard()
		case was && is && (r.prev.White.Has(sq) != f.White.Has(sq) || r.prev.Placement[sq] != f.Placement[sq]):
			off |= sq.Bitboard()
			on |= sq.Bitboard()
		}
	}
	for b := off; b != 0; b &= b - 1 {
		r.ev = trace.Event{T: ms, Kind: trace.Off, Square: b.First()}
		if err := r.write(); err != nil {
			return err
		}
	}
	for b := on; b != 0; b &= b - 1 {
		sq := b.First()
		r.ev = trace.Event{T: ms, Kind: trace.On, Square: sq}
		switch r.sensor {
		case trace.Colour:
			r.ev.HasColour = true
			r.ev.Piece = chess.NewPiece(chess.Black, chess.NoPieceType)
			if f.White.Has(sq) {
				r.ev.Piece = chess.NewPiece(chess.White, chess.NoPieceType)
			}
		case trace.PieceSensor:
			if pc := f.Placement[sq]; pc != chess.NoPiece {
				r.ev.Piece, r.ev.HasColour, r.ev.HasPieces = pc, true, true
			}
		}
		if err := r.write(); err != nil {
			return err
		}
	}
	return nil
}

func (r *Recorder) write() error {
	if err := r.w.WriteEvent(&r.ev); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}

// Flush writes buffered lines out.
func (r *Recorder) Flush() error { return r.w.Flush() }
