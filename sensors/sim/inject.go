package sim

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/rules"
)

// Injected irregularity kinds; they are the alert kinds (rules.Kinds) that
// the reconstruction is expected to raise.
const (
	KindIllegalMove      = rules.KindIllegalMove
	KindClockWithoutMove = rules.KindClockWithoutMove
	KindUnreplacedPromo  = rules.KindPromotionUnreplaced
	KindMisplaced        = rules.KindMisplacedPieces
	KindRookFirst        = rules.KindCastlingRookFirst
	KindMoveChanged      = rules.KindMoveChanged
)

// Injection is one irregularity the simulator put into a trace. In a trace
// it is a comment line written just before its first event:
//
//	# inject kind=illegal-move ply=12 side=w squares=e2,e5 t=734120
//
// Ply is the half-move during whose turn it happened, numbered as in the
// game score (White's first move is ply 1, Black's 2; a game from a FEN
// counts from its move number); Side the player who made it; Squares the
// squares involved (kind-specific, see docs/simulation.md); T the time of
// its first event in ms.
type Injection struct {
	Kind    string
	Ply     int
	Side    chess.Color
	Squares []chess.Square
	T       int64
}

// String formats the injection as the text of its comment (without "# ").
func (in Injection) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "inject kind=%s ply=%d side=%c", in.Kind, in.Ply, "wb"[in.Side])
	if len(in.Squares) > 0 {
		b.WriteString(" squares=")
		for i, s := range in.Squares {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(s.String())
		}
	}
	fmt.Fprintf(&b, " t=%d", in.T)
	return b.String()
}

// ParseInjection reads an injection comment. ok is false when the line is
// not an injection comment at all; err reports a malformed one.
func ParseInjection(line string) (in Injection, ok bool, err error) {
	s := strings.TrimSpace(line)
	s, isComment := strings.CutPrefix(s, "#")
	if !isComment {
		return in, false, nil
	}
	s, isInject := strings.CutPrefix(strings.TrimSpace(s), "inject ")
	if !isInject {
		return in, false, nil
	}
	in.Ply = -1
	for _, f := range strings.Fields(s) {
		k, v, found := strings.Cut(f, "=")
		if !found {
			return in, true, fmt.Errorf("inject: %q is not key=value", f)
		}
		switch k {
		case "kind":
			in.Kind = v
		case "ply":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return in, true, fmt.Errorf("inject: ply %q is not a move number", v)
			}
			in.Ply = n
		case "side":
			switch v {
			case "w":
				in.Side = chess.White
			case "b":
				in.Side = chess.Black
			default:
				return in, true, fmt.Errorf("inject: side %q, want w or b", v)
			}
		case "squares":
			for _, name := range strings.Split(v, ",") {
				sq, good := chess.ParseSquare(name)
				if !good {
					return in, true, fmt.Errorf("inject: %q is not a square", name)
				}
				in.Squares = append(in.Squares, sq)
			}
		case "t":
			t, err := strconv.ParseInt(v, 10, 64)
			if err != nil || t < 0 {
				return in, true, fmt.Errorf("inject: t %q is not a time in ms", v)
			}
			in.T = t
		default:
			// Unknown keys are allowed so the format can grow.
		}
	}
	if in.Kind == "" || in.Ply < 1 {
		return in, true, fmt.Errorf("inject: needs kind= and ply=")
	}
	return in, true, nil
}

// ReadInjections returns the injection comments of a trace text, naming
// the line of a malformed one.
func ReadInjections(r io.Reader) ([]Injection, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 64*1024)
	var out []Injection
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		i := strings.IndexByte(line, '#')
		if i < 0 {
			continue
		}
		in, ok, err := ParseInjection(line[i:])
		if err != nil {
			return out, fmt.Errorf("%d: %w", n, err)
		}
		if ok {
			out = append(out, in)
		}
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("reading injections: %w", err)
	}
	return out, nil
}
