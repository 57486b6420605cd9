package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/rules"
)

// Reader reads a trace: NewReader consumes the header, Next returns the
// timed events one at a time.
type Reader struct {
	sc      *bufio.Scanner
	line    int
	header  Header
	pending []byte // first timed line, read while looking for the header's end
	lastT   int64
	err     error
}

// maxLine bounds a trace line; the longest legal line (a piece frame) is
// well under 200 bytes.
const maxLine = 4096

// NewReader reads the header of a trace from r.
func NewReader(r io.Reader) (*Reader, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	tr := &Reader{sc: sc}
	if err := tr.readHeader(); err != nil {
		return nil, err
	}
	return tr, nil
}

// Header is the trace's header.
func (r *Reader) Header() Header { return r.header }

func (r *Reader) errf(format string, args ...any) error {
	return &ParseError{Line: r.line, Msg: fmt.Sprintf(format, args...)}
}

// nextLine returns the next line with comments and surrounding space
// removed, skipping blank lines; nil at the end.
func (r *Reader) nextLine() ([]byte, error) {
	for r.sc.Scan() {
		r.line++
		b := r.sc.Bytes()
		if i := bytes.IndexByte(b, '#'); i >= 0 {
			b = b[:i]
		}
		b = bytes.TrimSpace(b)
		if len(b) > 0 {
			return b, nil
		}
	}
	if err := r.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &ParseError{Line: r.line + 1, Msg: fmt.Sprintf("line longer than %d bytes", maxLine)}
		}
		return nil, fmt.Errorf("reading trace: %w", err)
	}
	return nil, nil
}

func (r *Reader) readHeader() error {
	first, err := r.nextLine()
	if err != nil {
		return err
	}
	if first == nil {
		return &ParseError{Line: r.line + 1, Msg: "empty trace: want \"boardtrace 1\" on the first line"}
	}
	if string(first) != "boardtrace 1" {
		return r.errf("want \"boardtrace 1\", got %q", first)
	}
	seen := map[string]bool{}
	for {
		b, err := r.nextLine()
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		if b[0] >= '0' && b[0] <= '9' {
			r.pending = append([]byte(nil), b...)
			break
		}
		key, val, _ := strings.Cut(string(b), " ")
		val = strings.TrimSpace(val)
		if seen[key] {
			return r.errf("header %q given twice", key)
		}
		seen[key] = true
		switch key {
		case "sensor":
			s, err := ParseSensor(val)
			if err != nil {
				return r.errf("%v", err)
			}
			r.header.Sensor = s
		case "setup":
			if err := r.parseSetup(val); err != nil {
				return err
			}
		case "edition":
			if _, err := rules.ParseEdition(val); err != nil {
				return r.errf("edition: %v", err)
			}
			r.header.Edition = val
		case "game":
			gt, sup, _ := strings.Cut(val, " ")
			if _, err := rules.ParseGameType(gt); err != nil || gt != strings.ToLower(gt) {
				return r.errf("game %q: want standard, rapid or blitz, optionally followed by \"unsupervised\"", val)
			}
			switch strings.TrimSpace(sup) {
			case "":
			case "unsupervised":
				if gt == "standard" {
					return r.errf("game %q: a standard game is always supervised", val)
				}
				r.header.Unsupervised = true
			default:
				return r.errf("game %q: want standard, rapid or blitz, optionally followed by \"unsupervised\"", val)
			}
			r.header.Game = gt
		case "clock":
			if val == "" {
				return r.errf("clock: missing time control (e.g. 90m+30s)")
			}
			// Checked here, where the line is known, rather than by
			// whoever starts the clock from it.
			tc, err := rules.ParseTimeControl(val)
			if err == nil && !tc.Timed() {
				err = errors.New("no time to keep")
			}
			if err != nil {
				return r.errf("clock %q: %v", val, err)
			}
			r.header.Clock = val
		default:
			return r.errf("unknown header %q", key)
		}
	}
	if !seen["sensor"] {
		return &ParseError{Line: r.line, Msg: "missing \"sensor occupancy|colour|piece\" header"}
	}
	return nil
}

func (r *Reader) parseSetup(val string) error {
	kind, rest, _ := strings.Cut(val, " ")
	rest = strings.TrimSpace(rest)
	switch kind {
	case "standard":
		if rest != "" {
			return r.errf("setup standard takes nothing more, got %q", rest)
		}
		r.header.Setup = SetupStandard
	case "960":
		n, err := strconv.Atoi(rest)
		if err != nil || n < 0 || n > 959 {
			return r.errf("setup 960 %q: want a start position number 0-959", rest)
		}
		r.header.Setup, r.header.Number = Setup960, n
	case "fen":
		if _, err := chess.ParseFEN(rest); err != nil {
			return r.errf("setup fen: %v", err)
		}
		r.header.Setup, r.header.FEN = SetupFEN, rest
	default:
		return r.errf("setup %q: want standard, 960 <n> or fen <FEN>", val)
	}
	return nil
}

// Next returns the next event, or io.EOF after the last one. After an
// error other than io.EOF the reader stays failed.
func (r *Reader) Next() (Event, error) {
	var ev Event
	if r.err != nil {
		return ev, r.err
	}
	b := r.pending
	r.pending = nil
	if b == nil {
		var err error
		if b, err = r.nextLine(); err != nil {
			r.err = err
			return ev, err
		}
		if b == nil {
			r.err = io.EOF
			return ev, io.EOF
		}
	}
	if err := r.parseEvent(b, &ev); err != nil {
		r.err = err
		return Event{}, err
	}
	return ev, nil
}

// field splits off the first space-separated field of b.
func field(b []byte) (f, rest []byte) {
	i := bytes.IndexByte(b, ' ')
	if i < 0 {
		return b, nil
	}
	f, rest = b[:i], b[i+1:]
	for len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
	}
	return f, rest
}

func (r *Reader) parseEvent(b []byte, ev *Event) error {
	ev.Line = r.line
	tf, rest := field(b)
	t, ok := parseMillis(tf)
	if !ok {
		return r.errf("%q is neither a header nor a time in milliseconds", tf)
	}
	if t < r.lastT {
		return r.errf("time %d is before the previous event's %d", t, r.lastT)
	}
	r.lastT = t
	ev.T = t
	name, rest := field(rest)
	switch string(name) {
	case "frame":
		return r.parseFrame(rest, ev)
	case "off", "on":
		sqf, attr := field(rest)
		sq, ok := chess.ParseSquare(string(sqf))
		if !ok {
			return r.errf("%s: %q is not a square", name, sqf)
		}
		ev.Square = sq
		if name[1] == 'f' {
			ev.Kind = Off
			if len(attr) > 0 {
				return r.errf("off %s: unexpected %q", sq, attr)
			}
			return nil
		}
		ev.Kind = On
		return r.parseOnAttr(attr, ev)
	case "clock":
		ev.Kind = Press
		switch string(rest) {
		case "w":
			ev.Side = chess.White
		case "b":
			ev.Side = chess.Black
		default:
			return r.errf("clock %q: want w or b", rest)
		}
		return nil
	case "promote":
		ev.Kind = Promote
		switch string(rest) {
		case "q":
			ev.Promo = chess.Queen
		case "r":
			ev.Promo = chess.Rook
		case "b":
			ev.Promo = chess.Bishop
		case "n":
			ev.Promo = chess.Knight
		default:
			return r.errf("promote %q: want q, r, b or n", rest)
		}
		return nil
	case "":
		return r.errf("time %d without an event", t)
	}
	return r.errf("unknown event %q (want frame, off, on, clock or promote)", name)
}

func (r *Reader) parseOnAttr(attr []byte, ev *Event) error {
	if len(attr) == 0 {
		return nil
	}
	switch r.header.Sensor {
	case Colour:
		switch string(attr) {
		case "w":
			ev.Piece = chess.NewPiece(chess.White, chess.NoPieceType)
		case "b":
			ev.Piece = chess.NewPiece(chess.Black, chess.NoPieceType)
		default:
			return r.errf("on %s: colour %q, want w or b", ev.Square, attr)
		}
		ev.HasColour = true
	case PieceSensor:
		pc, ok := chess.PieceFromFEN(attr[0])
		if len(attr) != 1 || !ok {
			return r.errf("on %s: piece %q, want a FEN letter (PNBRQK or pnbrqk)", ev.Square, attr)
		}
		ev.Piece = pc
		ev.HasColour, ev.HasPieces = true, true
	default:
		return r.errf("on %s: %q given, but occupancy sensors report no colour or piece", ev.Square, attr)
	}
	return nil
}

func (r *Reader) parseFrame(rest []byte, ev *Event) error {
	ev.Kind = Frame
	if r.header.Sensor == PieceSensor {
		if err := chess.ParsePlacement(string(rest), &ev.Placement); err != nil {
			return r.errf("frame: %v", err)
		}
		for sq, pc := range ev.Placement {
			if pc != chess.NoPiece {
				ev.Occ |= chess.Square(sq).Bitboard()
				if pc.Color() == chess.White {
					ev.White |= chess.Square(sq).Bitboard()
				}
			}
		}
		ev.HasColour, ev.HasPieces = true, true
		return nil
	}
	of, rest := field(rest)
	occ, ok := parseHex64(of)
	if !ok {
		return r.errf("frame: %q is not a 64-bit hex bitmap like 0xffff00000000ffff", of)
	}
	ev.Occ = chess.Bitboard(occ)
	if r.header.Sensor == Colour {
		wf, extra := field(rest)
		if len(wf) == 0 {
			return r.errf("frame: colour sensors need the white bitmap after the occupancy bitmap")
		}
		w, ok := parseHex64(wf)
		if !ok {
			return r.errf("frame: white bitmap %q is not a 64-bit hex bitmap", wf)
		}
		if chess.Bitboard(w)&^ev.Occ != 0 {
			return r.errf("frame: white squares %#x are not all occupied", w)
		}
		ev.White, ev.HasColour = chess.Bitboard(w), true
		rest = extra
	}
	if len(rest) > 0 {
		return r.errf("frame: unexpected %q", rest)
	}
	return nil
}

func parseMillis(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

func parseHex64(b []byte) (uint64, bool) {
	if len(b) > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X') {
		b = b[2:]
	}
	if len(b) == 0 || len(b) > 16 {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		n = n<<4 | uint64(d)
	}
	return n, true
}
