package clockbridge

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/rules"
	"github.com/boardd/boardd/trace"
)

// TraceEvent converts a press to the trace's "clock w|b" event, timed in
// milliseconds since epoch (the instant the trace's 0 stands for). ok is
// false for other kinds and for presses before epoch.
func TraceEvent(e Event, epoch time.Time) (ev trace.Event, ok bool) {
	if e.Kind != PressEvent || e.At.Before(epoch) {
		return trace.Event{}, false
	}
	return trace.Event{T: e.At.Sub(epoch).Milliseconds(), Kind: trace.Press, Side: e.Side}, true
}

// replayEpoch is an arbitrary fixed instant trace times are counted from.
var replayEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Replay runs the clock Model over a trace: the same clock as SoftClock,
// driven by the trace's times instead of a timer, so a replayed game gets
// exactly the times the live clock would have shown. White's clock starts
// at the trace's first timed event; each "clock w|b" line is a press.
type Replay struct {
	m       *Model
	started bool
	lastT   int64
}

// NewReplay returns a Replay for tc.
func NewReplay(tc rules.TimeControl, opt Options) (*Replay, error) {
	m, err := NewModel(tc, opt)
	if err != nil {
		return nil, err
	}
	return &Replay{m: m}, nil
}

// NewReplayFromHeader returns a Replay for a trace header's "clock" line,
// or nil (and no error) when the trace declares no time control.
func NewReplayFromHeader(h trace.Header, opt Options) (*Replay, error) {
	if h.Clock == "" {
		return nil, nil
	}
	tc, err := rules.ParseTimeControl(h.Clock)
	if err != nil {
		return nil, fmt.Errorf("trace header clock: %w", err)
	}
	return NewReplay(tc, opt)
}

// At returns the instant of trace time ms.
func (r *Replay) At(ms int64) time.Time { return replayEpoch.Add(time.Duration(ms) * time.Millisecond) }

// Feed applies one trace event and returns the clock events it caused:
// flags that fell before it, and for a press its PressEvent (or a
// StateEvent when the press changed nothing, e.g. the player whose clock
// was not running).
func (r *Replay) Feed(ev trace.Event) ([]Event, error) {
	if ev.T < r.lastT {
		return nil, fmt.Errorf("line %d: time %d ms before the previous %d ms", ev.Line, ev.T, r.lastT)
	}
	r.lastT = ev.T
	at := r.At(ev.T)
	if !r.started {
		r.started = true
		if err := r.m.Start(at); err != nil {
			return nil, err
		}
	}
	var out []Event
	if ev.Kind != trace.Press {
		f, ok, err := r.m.Advance(at)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", ev.Line, err)
		}
		if ok {
			out = append(out, r.flagEvent(f))
		}
		return out, nil
	}
	res, flags, err := r.m.Press(ev.Side, at)
	if err != nil {
		return nil, fmt.Errorf("line %d: %w", ev.Line, err)
	}
	for _, f := range flags {
		out = append(out, r.flagEvent(f))
	}
	switch res.Outcome {
	case PressMove:
		out = append(out, Event{Kind: PressEvent, At: at, Side: ev.Side, Move: res.Move, State: r.m.Snapshot(at)})
	default:
		out = append(out, Event{Kind: StateEvent, At: at, Side: ev.Side, State: r.m.Snapshot(at),
			Msg: fmt.Sprintf("line %d: press by %v ignored: %s", ev.Line, ev.Side, res.Reason)})
	}
	return out, nil
}

// Finish reports a flag that fell after the last event, by trace time ms.
func (r *Replay) Finish(ms int64) ([]Event, error) {
	if !r.started || ms < r.lastT {
		return nil, nil
	}
	f, ok, err := r.m.Advance(r.At(ms))
	if err != nil || !ok {
		return nil, err
	}
	return []Event{r.flagEvent(f)}, nil
}

func (r *Replay) flagEvent(f Flag) Event {
	return Event{Kind: FlagEvent, At: f.At, Side: f.Side, Move: f.Move, State: r.m.Snapshot(f.At),
		Msg: fmt.Sprintf("%v's flag fell during move %d", f.Side, f.Move)}
}

// Model returns the replay's clock (for snapshots at the end).
func (r *Replay) Model() *Model { return r.m }

// PlyClocks lays press events out by ply for a PGN writer: element i is
// the [%clk] of the game's ply i+1 (chess.Game.Clocks), counting from a
// game whose first move is by first; plies without a press get
// chess.NoClock. The k-th press of a side is taken as that side's k-th
// move, which holds when presses and moves correspond one to one.
func PlyClocks(events []Event, first chess.Color) []time.Duration {
	var out []time.Duration
	for _, e := range events {
		if e.Kind != PressEvent || e.Move < 1 {
			continue
		}
		ply := 2 * (e.Move - 1)
		if e.Side != first {
			ply++
		}
		for len(out) <= ply {
			out = append(out, chess.NoClock)
		}
		out[ply] = e.Clk()
	}
	return out
}
