package trace

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/boardd/boardd/chess"
)

// Writer writes a trace. Call WriteHeader once, then WriteEvent and
// Comment in any order, then Flush.
type Writer struct {
	w      *bufio.Writer
	sensor Sensor
	buf    []byte
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriter(w)} }

// WriteHeader writes the "boardtrace 1" line and the header lines.
func (w *Writer) WriteHeader(h Header) error {
	w.sensor = h.Sensor
	fmt.Fprintf(w.w, "boardtrace 1\nsensor %s\n", h.Sensor)
	switch h.Setup {
	case Setup960:
		fmt.Fprintf(w.w, "setup 960 %d\n", h.Number)
	case SetupFEN:
		fmt.Fprintf(w.w, "setup fen %s\n", h.FEN)
	default:
		fmt.Fprintf(w.w, "setup standard\n")
	}
	if h.Edition != "" {
		fmt.Fprintf(w.w, "edition %s\n", h.Edition)
	}
	if h.Game != "" {
		if h.Unsupervised {
			fmt.Fprintf(w.w, "game %s unsupervised\n", h.Game)
		} else {
			fmt.Fprintf(w.w, "game %s\n", h.Game)
		}
	}
	if h.Clock != "" {
		fmt.Fprintf(w.w, "clock %s\n", h.Clock)
	}
	return nil
}

// Comment writes a "# ..." line; newlines in text become separate comments.
func (w *Writer) Comment(text string) error {
	for _, l := range strings.Split(text, "\n") {
		if _, err := fmt.Fprintf(w.w, "# %s\n", l); err != nil {
			return err
		}
	}
	return nil
}

// WriteEvent writes one timed event.
func (w *Writer) WriteEvent(ev *Event) error {
	b := strconv.AppendInt(w.buf[:0], ev.T, 10)
	b = append(b, ' ')
	switch ev.Kind {
	case Frame:
		b = append(b, "frame "...)
		if w.sensor == PieceSensor {
			b = chess.AppendPlacement(b, &ev.Placement)
		} else {
			b = appendHex(b, uint64(ev.Occ))
			if w.sensor == Colour {
				b = append(b, ' ')
				b = appendHex(b, uint64(ev.White))
			}
		}
	case Off:
		b = append(b, "off "...)
		b = append(b, ev.Square.String()...)
	case On:
		b = append(b, "on "...)
		b = append(b, ev.Square.String()...)
		switch {
		case w.sensor == PieceSensor && ev.HasPieces:
			b = append(b, ' ', ev.Piece.FENLetter())
		case w.sensor == Colour && ev.HasColour:
			if ev.Piece.Color() == chess.White {
				b = append(b, " w"...)
			} else {
				b = append(b, " b"...)
			}
		}
	case Press:
		b = append(b, "clock "...)
		if ev.Side == chess.White {
			b = append(b, 'w')
		} else {
			b = append(b, 'b')
		}
	case Promote:
		b = append(b, "promote "...)
		b = append(b, ev.Promo.Letter()+'a'-'A')
	default:
		return fmt.Errorf("trace: cannot write event kind %v", ev.Kind)
	}
	b = append(b, '\n')
	w.buf = b
	_, err := w.w.Write(b)
	return err
}

// Flush writes any buffered data to the underlying writer.
func (w *Writer) Flush() error { return w.w.Flush() }

func appendHex(b []byte, v uint64) []byte {
	const digits = "0123456789abcdef"
	b = append(b, '0', 'x')
	for i := 60; i >= 0; i -= 4 {
		b = append(b, digits[v>>uint(i)&15])
	}
	return b
}
