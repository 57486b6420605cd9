package clockbridge

import (
	"time"

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
