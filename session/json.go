package session

import (
	"strconv"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/reconstruct"
)

// AppendJSON appends o as one JSON object, as `boardd replay --events`
// prints it: reconstruct.AppendJSON's fields, and for an alert or an end
// with a verdict its edition, profile, action and result
// ("action":"loss","result":"0-1"; "on_claim":true when the arbiter acts
// only on a claim; "undetermined":true when the arbiter decides); a clock
// output is {"type":"clock","event":"press","side":"white","white_ms":...,
// "black_ms":...,"running":"black","t_ms":...}.
func AppendJSON(b []byte, o *Output) []byte {
	if o.Kind == ClockChange {
		b = append(b, `{"type":"clock","event":`...)
		b = strconv.AppendQuote(b, o.ClockEvent)
		b = append(b, `,"side":`...)
		b = strconv.AppendQuote(b, o.Side.String())
		b = append(b, `,"white_ms":`...)
		b = strconv.AppendInt(b, o.Clock.Remaining[chess.White].Milliseconds(), 10)
		b = append(b, `,"black_ms":`...)
		b = strconv.AppendInt(b, o.Clock.Remaining[chess.Black].Milliseconds(), 10)
		if side, ok := o.Clock.Running.Side(); ok && !o.Clock.Paused {
			b = append(b, `,"running":`...)
			b = strconv.AppendQuote(b, side.String())
		}
		if o.Text != "" {
			b = append(b, `,"text":`...)
			b = strconv.AppendQuote(b, o.Text)
		}
		b = append(b, `,"t_ms":`...)
		b = strconv.AppendInt(b, o.T, 10)
		return append(b, '}')
	}
	b = reconstruct.AppendJSON(b, &o.Output)
	v := o.Verdict
	if v == nil || (o.Kind != reconstruct.Alert && o.Kind != reconstruct.End) {
		return b
	}
	b = b[:len(b)-1] // reopen the object
	b = append(b, `,"edition":"`...)
	b = append(b, v.Edition.String()...)
	b = append(b, `","profile":`...)
	b = strconv.AppendQuote(b, v.Profile)
	b = append(b, `,"action":`...)
	b = strconv.AppendQuote(b, v.Action.String())
	if v.Result != "" && o.Kind == reconstruct.Alert {
		b = append(b, `,"result":`...)
		b = strconv.AppendQuote(b, v.Result)
	}
	if v.OnClaim {
		b = append(b, `,"on_claim":true`...)
	}
	if v.Undetermined {
		b = append(b, `,"undetermined":true`...)
	}
	return append(b, '}')
}
