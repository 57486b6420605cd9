package sensors

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// Frame is what the board shows at one moment, after debouncing.
type Frame struct {
	// T is when the scan that produced the frame finished (for a replayed
	// trace: the trace's start plus the event's milliseconds).
	T time.Time
	// Seq counts the frames of one source from 1.
	Seq uint64
	// Sensor says which of the fields below carry information.
	Sensor trace.Sensor
	// Occ has a bit per occupied square (a1 = bit 0, h8 = bit 63).
	Occ chess.Bitboard
	// White has the squares occupied by a white piece (colour and piece
	// sensors only; always a subset of Occ).
	White chess.Bitboard
	// Placement is the piece on each square (piece sensors only).
	Placement [64]chess.Piece
	// Changed has the squares that differ from the previous frame: all 64
	// in a source's first frame, none in a heartbeat frame.
	Changed chess.Bitboard
}

// EventKind says what an Event carries.
type EventKind uint8

// The kinds of events a FrameSource delivers.
const (
	// FrameEvent: Event.Frame is a new frame.
	FrameEvent EventKind = iota + 1
	// FaultEvent: Event.Fault is a sensor fault that appeared or cleared.
	FaultEvent
	// InputEvent: Event.Input is a clock press or promotion choice read
	// from a replayed trace (only when the replayer is asked for them).
	InputEvent
)

func (k EventKind) String() string {
	switch k {
	case FrameEvent:
		return "frame"
	case FaultEvent:
		return "fault"
	case InputEvent:
		return "input"
	}
	return fmt.Sprintf("event(%d)", k)
}

// Event is one thing a FrameSource reports. Only the field named by Kind
// is meaningful; the others keep whatever they held before, so one Event
// can be reused for every call to Next without allocating.
type Event struct {
	Kind EventKind
	// T is when the event happened: the frame's or the fault's T, or for
	// an input the trace's start plus the input's milliseconds.
	T     time.Time
	Frame Frame
	Fault Fault
	// Input is the trace event as read: its T counts milliseconds from
	// the replayed trace's start.
	Input trace.Event
}

// FrameSource delivers frames and sensor faults: a hardware scanner, a
// replayed trace or a fake. Next blocks until the next event; it returns
// io.EOF when the source has ended (a replayed trace), ctx.Err() when ctx
// is cancelled, and ErrClosed after Close. A FrameSource is used by one
// goroutine at a time: cancel Next's context to stop it, then Close.
type FrameSource interface {
	Sensor() trace.Sensor
	Next(ctx context.Context, ev *Event) error
	Close() error
}

// ErrClosed is returned by Next after Close.
var ErrClosed = errors.New("sensors: frame source closed")

// FaultKind names a kind of sensor fault. The names (String) are stable:
// they appear in logs, traces and alerts.
type FaultKind uint8

// Fault kinds.
const (
	// FaultBus: a chip did not answer (a bus transaction failed, and its
	// retry too). Its squares keep their last state until it answers.
	FaultBus FaultKind = iota + 1
	// FaultReset: a chip lost its configuration (a brown-out or a reset)
	// and was configured again; frames just before may have been wrong.
	FaultReset
	// FaultChain: a 74HC165 chain returned the wrong sentinel byte, or
	// more occupied inputs than a chess set has pieces: it is broken,
	// unpowered or its data line is stuck.
	FaultChain
	// FaultStuck: a square's reading has not settled for the configured
	// time (a bit flipping, a half-closed reed, a loose wire); its last
	// settled state is kept.
	FaultStuck
	// FaultGhost: a diode matrix shows the pattern of a missing or shorted
	// diode: squares can read occupied when three corners of a rectangle
	// are.
	FaultGhost
	// FaultRange: an analog sensor reads at a supply rail (open, shorted or
	// unpowered).
	FaultRange
)

var faultNames = [...]string{"", "bus", "reset", "chain", "stuck", "ghost", "out-of-range"}

func (k FaultKind) String() string {
	if int(k) < len(faultNames) && k != 0 {
		return faultNames[k]
	}
	return fmt.Sprintf("fault(%d)", k)
}

// Fault is a sensor fault appearing, or clearing (Cleared). Faults are
// reported when they change, not on every scan.
type Fault struct {
	T       time.Time
	Kind    FaultKind
	Cleared bool
	// Chip names the part at fault ("mcp23017 0x21", "74hc165 chain",
	// "matrix row 3", "ads1115 0x48 ch2"); empty for a square fault.
	Chip string
	// Squares are the squares the fault affects.
	Squares chess.Bitboard
	// Err is the bus error, or a description of what was seen.
	Err error
}

// String renders a fault as one log line, e.g.
// "sensor-fault bus: mcp23017 0x21 (a3-h4): i2c: no ack".
func (f *Fault) String() string {
	var b strings.Builder
	if f.Cleared {
		b.WriteString("sensor-ok ")
	} else {
		b.WriteString("sensor-fault ")
	}
	b.WriteString(f.Kind.String())
	b.WriteString(":")
	if f.Chip != "" {
		b.WriteString(" ")
		b.WriteString(f.Chip)
	}
	if f.Squares != 0 {
		b.WriteString(" (")
		b.WriteString(SquareSet(f.Squares))
		b.WriteString(")")
	}
	if f.Err != nil && !f.Cleared {
		b.WriteString(": ")
		b.WriteString(f.Err.Error())
	}
	return b.String()
}

// SquareSet renders a set of squares compactly in a1..h8 order, runs of
// consecutive squares as ranges: "a3-h4 e6".
func SquareSet(b chess.Bitboard) string {
	if b == 0 {
		return "none"
	}
	var parts []string
	for b != 0 {
		lo := b.First()
		hi := lo
		for hi < 63 && b.Has(hi+1) {
			hi++
		}
		for s := lo; s <= hi; s++ {
			b &^= s.Bitboard()
		}
		switch {
		case hi == lo:
			parts = append(parts, lo.String())
		default:
			parts = append(parts, lo.String()+"-"+hi.String())
		}
	}
	return strings.Join(parts, " ")
}

// Picture draws a frame as an 8x8 board, rank 8 at the top: "." empty,
// "x" occupied (occupancy sensors), "W"/"B" (colour sensors) or the FEN
// letter (piece sensors). mark squares are bracketed (for example the
// squares that just changed, or squares at fault).
func Picture(f *Frame, mark chess.Bitboard) string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		fmt.Fprintf(&b, "%d ", r+1)
		for file := 0; file < 8; file++ {
			sq := chess.NewSquare(file, r)
			c := byte('.')
			if f.Occ.Has(sq) {
				switch f.Sensor {
				case trace.Colour:
					c = 'B'
					if f.White.Has(sq) {
						c = 'W'
					}
				case trace.PieceSensor:
					c = f.Placement[sq].FENLetter()
					if f.Placement[sq] == chess.NoPiece {
						c = 'x'
					}
				default:
					c = 'x'
				}
			}
			if mark.Has(sq) {
				fmt.Fprintf(&b, "[%c]", c)
			} else {
				fmt.Fprintf(&b, " %c ", c)
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString("   a  b  c  d  e  f  g  h\n")
	return b.String()
}
