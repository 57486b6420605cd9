package sensors

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// EventReader yields trace events in time order, io.EOF after the last:
// a *trace.Reader, or a generator such as the simulated board.
type EventReader interface {
	Next() (trace.Event, error)
}

// ReplayOptions configure a Replayer.
type ReplayOptions struct {
	// Clock paces the replay (default: the wall clock).
	Clock Clock
	// Pace waits until each event is due; otherwise events come as fast
	// as they are asked for, stamped with their trace times all the same.
	Pace bool
	// Speed divides the trace's times (2: twice as fast). Default 1.
	Speed float64
	// Inputs delivers the trace's clock presses and promotion choices as
	// InputEvents, in order with the frames; otherwise they are skipped.
	Inputs bool
	// Start is the time of the trace's millisecond 0 (default: the
	// clock's time at the first Next).
	Start time.Time
	// Header, when given, sets the board before the first event to the
	// declared start position (for traces that do not begin with a frame).
	Header *trace.Header
}

// Replayer is the FrameSource of a trace: each frame, on and off event
// (those sharing a millisecond merged) becomes a frame, so a recorded or
// simulated game drives the same consumers as a live board.
type Replayer struct {
	r       EventReader
	o       ReplayOptions
	sensor  trace.Sensor
	started bool
	start   time.Time
	pend    trace.Event
	hasPend bool
	err     error
	closed  bool
	frame   Frame // the current board; Seq counts frames delivered
}

// NewReplayer returns a FrameSource replaying r, a trace of the given
// sensor kind (a *trace.Reader's Header().Sensor).
func NewReplayer(r EventReader, sensor trace.Sensor, o ReplayOptions) (*Replayer, error) {
	if o.Clock == nil {
		o.Clock = NewRealClock()
	}
	if o.Speed == 0 {
		o.Speed = 1
	}
	if o.Speed < 0 {
		return nil, fmt.Errorf("replay: speed %v, want a positive factor", o.Speed)
	}
	p := &Replayer{r: r, o: o, sensor: sensor}
	p.frame.Sensor = sensor
	if o.Header != nil {
		pos, err := o.Header.StartPosition()
		if err != nil {
			return nil, fmt.Errorf("replay: start position: %w", err)
		}
		for sq := chess.Square(0); sq < 64; sq++ {
			pc := pos.PieceAt(sq)
			if pc == chess.NoPiece {
				continue
			}
			p.frame.Occ |= sq.Bitboard()
			if pc.Color() == chess.White {
				p.frame.White |= sq.Bitboard()
			}
			if sensor == trace.PieceSensor {
				p.frame.Placement[sq] = pc
			}
		}
		if sensor == trace.Occupancy {
			p.frame.White = 0
		}
	}
	return p, nil
}

// Sensor implements FrameSource.
func (p *Replayer) Sensor() trace.Sensor { return p.sensor }

// Close implements FrameSource.
func (p *Replayer) Close() error {
	p.closed = true
	return nil
}

func (p *Replayer) read() (trace.Event, error) {
	if p.hasPend {
		p.hasPend = false
		return p.pend, nil
	}
	if p.err != nil {
		return trace.Event{}, p.err
	}
	ev, err := p.r.Next()
	if err != nil {
		if !errors.Is(err, io.EOF) {
			err = fmt.Errorf("replay: %w", err)
		}
		p.err = err
	}
	return ev, err
}

func (p *Replayer) at(ms int64) time.Time {
	return p.start.Add(time.Duration(float64(ms) * float64(time.Millisecond) / p.o.Speed))
}

func isSensorEvent(k trace.Kind) bool { return k == trace.Frame || k == trace.On || k == trace.Off }

// Next implements FrameSource.
func (p *Replayer) Next(ctx context.Context, ev *Event) error {
	for {
		if p.closed {
			return ErrClosed
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		te, err := p.read()
		if err != nil {
			return err
		}
		if !p.started {
			p.started = true
			p.start = p.o.Start
			if p.start.IsZero() {
				p.start = p.o.Clock.Now()
			}
		}
		t := p.at(te.T)
		if p.o.Pace {
			if d := t.Sub(p.o.Clock.Now()); d > 0 {
				if err := p.o.Clock.Sleep(ctx, d); err != nil {
					p.pend, p.hasPend = te, true
					return err
				}
			}
		}
		if !isSensorEvent(te.Kind) {
			if !p.o.Inputs {
				continue
			}
			ev.Kind, ev.T = InputEvent, t
			ev.Input = te
			return nil
		}
		before := p.frame
		p.apply(&te)
		// Merge the sensor events of the same millisecond: one scan's
		// changes, as the recorder writes them.
		for {
			nx, err := p.read()
			if err != nil {
				break
			}
			if nx.T != te.T || !isSensorEvent(nx.Kind) {
				p.pend, p.hasPend = nx, true
				break
			}
			p.apply(&nx)
		}
		changed := (p.frame.Occ ^ before.Occ) | (p.frame.White ^ before.White)
		if p.sensor == trace.PieceSensor {
			for sq := range p.frame.Placement {
				if p.frame.Placement[sq] != before.Placement[sq] {
					changed |= chess.Square(sq).Bitboard()
				}
			}
		}
		if p.frame.Seq == 0 {
			changed = ^chess.Bitboard(0)
		}
		if changed == 0 {
			continue
		}
		p.frame.Seq++
		p.frame.T = t
		p.frame.Changed = changed
		ev.Kind, ev.T = FrameEvent, t
		ev.Frame = p.frame
		return nil
	}
}

// apply changes the board by one sensor event.
func (p *Replayer) apply(te *trace.Event) {
	f := &p.frame
	switch te.Kind {
	case trace.Frame:
		f.Occ, f.White = te.Occ, te.White
		if p.sensor == trace.PieceSensor {
			f.Placement = te.Placement
		}
	case trace.Off:
		b := te.Square.Bitboard()
		f.Occ &^= b
		f.White &^= b
		f.Placement[te.Square] = chess.NoPiece
	case trace.On:
		b := te.Square.Bitboard()
		f.Occ |= b
		f.White &^= b
		if te.HasColour && te.Piece.Color() == chess.White {
			f.White |= b
		}
		if p.sensor == trace.PieceSensor {
			f.Placement[te.Square] = te.Piece
		}
	}
	if p.sensor == trace.Occupancy {
		f.White = 0
	}
}
