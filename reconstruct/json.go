package reconstruct

import (
	"strconv"
)

// AppendJSON appends o as one JSON object (no newline), in the form
// `boardd replay --events` prints (docs/trace.md):
//
//	{"type":"move","ply":1,"san":"e4","uci":"e2e4","fen":"...","t_ms":1460}
//	{"type":"retract","ply":1,"san":"e4","uci":"e2e4","t_ms":...}
//	{"type":"amend","ply":9,"old_san":"Rf1","san":"O-O",...}
//	{"type":"alert","kind":"illegal-move","ply":7,"side":"white","squares":["b1","b3"],...}
//	{"type":"note","kind":"hesitation",...}
//	{"type":"game","fen":"..."}   {"type":"end","result":"1-0","reason":"checkmate"}
//
// Empty optional fields are left out.
func AppendJSON(b []byte, o *Output) []byte {
	b = append(b, `{"type":`...)
	b = appendQuoted(b, o.Kind.String())
	switch o.Kind {
	case Alert:
		b = appendStr(b, "kind", string(o.Alert))
	case Note:
		b = appendStr(b, "kind", string(o.Note))
	}
	b = append(b, `,"ply":`...)
	b = strconv.AppendInt(b, int64(o.Ply), 10)
	switch o.Kind {
	case Move, Amend:
		if o.Kind == Amend {
			b = appendStr(b, "old_san", o.OldSAN)
			b = appendStr(b, "old_uci", o.OldUCI)
		}
		b = appendStr(b, "san", o.SAN)
		b = appendStr(b, "uci", o.UCI)
		b = appendStr(b, "fen", o.FEN)
		if o.Provisional {
			b = append(b, `,"provisional":true`...)
		}
		if o.Uncertain {
			b = append(b, `,"uncertain":true`...)
		}
		if o.ClockMs >= 0 && o.Kind == Move && !o.Provisional {
			b = append(b, `,"clock_ms":`...)
			b = strconv.AppendInt(b, o.ClockMs, 10)
		}
	case Retract:
		b = appendStr(b, "san", o.OldSAN)
		b = appendStr(b, "uci", o.OldUCI)
		if o.Provisional {
			b = append(b, `,"provisional":true`...)
		}
	case Alert, Note:
		b = appendStr(b, "side", o.Side.String())
		if o.Squares != 0 {
			b = append(b, `,"squares":[`...)
			first := true
			for s := o.Squares; s != 0; s &= s - 1 {
				if !first {
					b = append(b, ',')
				}
				first = false
				b = appendQuoted(b, s.First().String())
			}
			b = append(b, ']')
		}
		if o.From.Valid() && o.To.Valid() {
			b = appendStr(b, "from", o.From.String())
			b = appendStr(b, "to", o.To.String())
		}
		b = appendStr(b, "expected", o.Expected)
		b = appendStr(b, "seen", o.Seen)
		b = appendStr(b, "article", o.Article)
		b = appendStr(b, "penalty", o.Penalty)
	case NewGame:
		b = appendStr(b, "fen", o.FEN)
	case End:
		b = appendStr(b, "result", o.Result)
		b = appendStr(b, "reason", o.Reason)
	}
	b = appendStr(b, "text", o.Text)
	b = append(b, `,"t_ms":`...)
	b = strconv.AppendInt(b, o.T, 10)
	return append(b, '}')
}

func appendStr(b []byte, key, val string) []byte {
	if val == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendQuoted(b, val)
}

// appendQuoted writes s as a JSON string.
func appendQuoted(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// Irregular reports whether k is an irregularity (as opposed to a game
// state such as checkmate or a claimable draw).
func (k AlertKind) Irregular() bool {
	switch k {
	case IllegalMove, ClockWithoutMove, PromotionUnreplaced, CastlingRookFirst, MoveChanged,
		MisplacedPieces, WrongSetup, BoardRotated:
		return true
	}
	return false
}
