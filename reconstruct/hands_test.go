package reconstruct

import (
	"fmt"
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// hands writes a trace the way a hand plays on a board with the given
// sensor: it keeps the physical board, so that colour and piece sensors
// report what is really placed.
type hands struct {
	t      *testing.T
	sensor trace.Sensor
	now    int64
	board  [64]chess.Piece
	hand   []chess.Piece
	evs    []trace.Event
}

func newHands(t *testing.T, s trace.Sensor, start *chess.Position) *hands {
	h := &hands{t: t, sensor: s}
	ev := trace.Event{Kind: trace.Frame}
	for sq := chess.Square(0); sq < 64; sq++ {
		pc := start.PieceAt(sq)
		h.board[sq] = pc
		if pc == chess.NoPiece {
			continue
		}
		ev.Occ |= sq.Bitboard()
		if s != trace.Occupancy && pc.Color() == chess.White {
			ev.White |= sq.Bitboard()
		}
		if s == trace.PieceSensor {
			ev.Placement[sq] = pc
		}
	}
	ev.HasColour, ev.HasPieces = s != trace.Occupancy, s == trace.PieceSensor
	h.evs = append(h.evs, ev)
	h.now = 1000
	return h
}

func sq(t *testing.T, name string) chess.Square {
	s, ok := chess.ParseSquare(name)
	if !ok {
		t.Fatalf("bad square %q", name)
	}
	return s
}

func (h *hands) wait(ms int64) *hands { h.now += ms; return h }

// lift takes the piece on each square into the hand.
func (h *hands) lift(names ...string) *hands {
	for _, n := range names {
		s := sq(h.t, n)
		if h.board[s] == chess.NoPiece {
			h.t.Fatalf("lift %s: empty", n)
		}
		h.hand = append(h.hand, h.board[s])
		h.board[s] = chess.NoPiece
		h.evs = append(h.evs, trace.Event{T: h.now, Kind: trace.Off, Square: s})
		h.now += 150
	}
	return h
}

// place puts the piece lifted last on the square.
func (h *hands) place(name string) *hands {
	if len(h.hand) == 0 {
		h.t.Fatalf("place %s: empty hand", name)
	}
	pc := h.hand[len(h.hand)-1]
	h.hand = h.hand[:len(h.hand)-1]
	return h.put(name, pc)
}

// placeFirst puts the piece lifted first on the square.
func (h *hands) placeFirst(name string) *hands {
	pc := h.hand[0]
	h.hand = h.hand[1:]
	return h.put(name, pc)
}

// put places a piece from the box (a promotion piece).
func (h *hands) put(name string, pc chess.Piece) *hands {
	s := sq(h.t, name)
	if h.board[s] != chess.NoPiece {
		h.t.Fatalf("place %s: occupied", name)
	}
	h.board[s] = pc
	h.evs = append(h.evs, h.onEvent(s, pc))
	h.now += 150
	return h
}

// at records a change as a sensor reported it, at ms: a trace's events
// copied as they were (pc, the piece set down, for on events).
func (h *hands) at(ms int64, kind trace.Kind, name string, pc chess.Piece) *hands {
	h.now = ms
	ev := trace.Event{T: ms, Kind: kind, Square: sq(h.t, name)}
	if kind == trace.On {
		ev = h.onEvent(ev.Square, pc)
	}
	h.evs = append(h.evs, ev)
	return h
}

// expect runs the hands' events from start without a clock and fails the
// test unless the moves published are wantSAN and the alerts wantAlerts
// (every output logged when not).
func (h *hands) expect(start *chess.Position, wantSAN, wantAlerts string) {
	h.t.Helper()
	r, outs := h.run(Config{Start: start})
	if got := sanList(r); got != wantSAN {
		h.t.Errorf("%v: moves %q, want %q", h.sensor, got, wantSAN)
	}
	if got := alertList(outs); got != wantAlerts {
		h.t.Errorf("%v: alerts %q, want %q", h.sensor, got, wantAlerts)
	}
	if h.t.Failed() {
		for _, o := range outs {
			h.t.Logf("%s", AppendJSON(nil, &o))
		}
	}
}

// publishedBy checks that ply (san) is published no later than by ms,
// when the next act (what) came.
func (h *hands) publishedBy(start *chess.Position, ply int, by int64, san, what string) {
	h.t.Helper()
	_, outs := h.run(Config{Start: start})
	for _, o := range outs {
		if o.Kind == Move && o.Ply == ply && o.T > by {
			h.t.Errorf("%s published at %d ms, after %s (%d ms)", san, o.T, what, by)
		}
	}
}

// gameBy feeds the events up to by ms and returns the moves published
// then.
func (h *hands) gameBy(start *chess.Position, by int64) string {
	h.t.Helper()
	r, err := New(Config{Start: start, Sensor: h.sensor})
	if err != nil {
		h.t.Fatal(err)
	}
	var out []Output
	for i := range h.evs {
		if h.evs[i].T > by {
			break
		}
		out = r.Feed(&h.evs[i], out[:0])
	}
	return sanList(r)
}

func (h *hands) onEvent(s chess.Square, pc chess.Piece) trace.Event {
	ev := trace.Event{T: h.now, Kind: trace.On, Square: s}
	switch h.sensor {
	case trace.Colour:
		ev.Piece, ev.HasColour = chess.NewPiece(pc.Color(), chess.NoPieceType), true
	case trace.PieceSensor:
		ev.Piece, ev.HasColour, ev.HasPieces = pc, true, true
	}
	return ev
}

// swap replaces the piece on a square with the one lifted last faster than
// a scan: occupancy sees nothing, colour and piece sensors see the change.
func (h *hands) swap(name string) *hands {
	s := sq(h.t, name)
	pc := h.hand[len(h.hand)-1]
	h.hand = h.hand[:len(h.hand)-1]
	old := h.board[s]
	h.board[s] = pc
	if h.sensor != trace.Occupancy && (h.sensor == trace.PieceSensor && old != pc || old.Color() != pc.Color()) {
		h.evs = append(h.evs, trace.Event{T: h.now, Kind: trace.Off, Square: s}, h.onEvent(s, pc))
	}
	h.now += 150
	return h
}

// slide moves a piece along squares without lifting it: each square in
// between reads occupied for a moment.
func (h *hands) slide(names ...string) *hands {
	from := sq(h.t, names[0])
	pc := h.board[from]
	h.board[from] = chess.NoPiece
	h.evs = append(h.evs, trace.Event{T: h.now, Kind: trace.Off, Square: from})
	h.now += 60
	for i, n := range names[1:] {
		s := sq(h.t, n)
		h.evs = append(h.evs, h.onEvent(s, pc))
		h.now += 60
		if i == len(names)-2 {
			h.board[s] = pc
			break
		}
		h.evs = append(h.evs, trace.Event{T: h.now, Kind: trace.Off, Square: s})
		h.now += 60
	}
	h.now += 100
	return h
}

// frame is a full snapshot of the physical board now.
func (h *hands) frame() trace.Event {
	s := h.sensor
	fr := trace.Event{T: h.now, Kind: trace.Frame, HasColour: s != trace.Occupancy, HasPieces: s == trace.PieceSensor}
	for x := chess.Square(0); x < 64; x++ {
		if pc := h.board[x]; pc != chess.NoPiece {
			fr.Occ |= x.Bitboard()
			if pc.Color() == chess.White && s != trace.Occupancy {
				fr.White |= x.Bitboard()
			}
			if s == trace.PieceSensor {
				fr.Placement[x] = pc
			}
		}
	}
	h.now += 100
	return fr
}

func (h *hands) move(from, to string) *hands { return h.lift(from).place(to) }

// unseen makes the moves (from, to pairs) while the board's events are
// lost, as across a restart: one full frame shows where they ended.
func (h *hands) unseen(squares ...string) *hands {
	n := len(h.evs)
	for i := 0; i+1 < len(squares); i += 2 {
		h.move(squares[i], squares[i+1])
	}
	h.evs = append(h.evs[:n], h.frame())
	return h
}

func (h *hands) press(c chess.Color) *hands {
	h.now += 400
	h.evs = append(h.evs, trace.Event{T: h.now, Kind: trace.Press, Side: c})
	h.now += 600
	return h
}

// pressAt presses c's clock at ms.
func (h *hands) pressAt(ms int64, c chess.Color) *hands {
	h.now = ms
	h.evs = append(h.evs, trace.Event{T: ms, Kind: trace.Press, Side: c})
	return h
}

// movedAt lifts from at lift, sets pc on to at land and presses at press.
func (h *hands) movedAt(lift int64, from string, land int64, to string, pc chess.Piece, press int64) *hands {
	return h.at(lift, trace.Off, from, chess.NoPiece).at(land, trace.On, to, pc).pressAt(press, pc.Color())
}

func (h *hands) promote(pt chess.PieceType) *hands {
	h.evs = append(h.evs, trace.Event{T: h.now, Kind: trace.Promote, Promo: pt})
	h.now += 200
	return h
}

// run feeds the trace to a Reconstructor and returns it with its outputs.
func (h *hands) run(cfg Config) (*Reconstructor, []Output) {
	h.t.Helper()
	cfg.Sensor = h.sensor
	r, err := New(cfg)
	if err != nil {
		h.t.Fatal(err)
	}
	var all, out []Output
	for i := range h.evs {
		out = r.Feed(&h.evs[i], out[:0])
		all = append(all, out...)
	}
	out = r.End(h.now+10000, out[:0])
	all = append(all, out...)
	return r, all
}

// published feeds the trace to a Reconstructor and returns the moves it
// published before the end and after it (End, 10 s after the last event).
func (h *hands) published(cfg Config) (beforeEnd, atEnd string) {
	h.t.Helper()
	cfg.Sensor = h.sensor
	r, err := New(cfg)
	if err != nil {
		h.t.Fatal(err)
	}
	var out []Output
	for i := range h.evs {
		out = r.Feed(&h.evs[i], out[:0])
	}
	beforeEnd = sanList(r)
	r.End(h.now+10000, out[:0])
	return beforeEnd, sanList(r)
}

func sanList(r *Reconstructor) string {
	p := r.StartPosition()
	var s []string
	for _, m := range r.Moves() {
		s = append(s, p.SAN(m))
		p.MakeMove(m)
	}
	return strings.Join(s, " ")
}

func alertList(outs []Output) string {
	var s []string
	for _, o := range outs {
		if o.Kind == Alert {
			s = append(s, fmt.Sprintf("%s@%d", o.Alert, o.Ply))
		}
	}
	return strings.Join(s, " ")
}

// notesOf is the notes of kind k among outs.
func notesOf(outs []Output, k NoteKind) []Output {
	var notes []Output
	for _, o := range outs {
		if o.Kind == Note && o.Note == k {
			notes = append(notes, o)
		}
	}
	return notes
}

func countKind(outs []Output, k Kind, provisional bool) int {
	n := 0
	for _, o := range outs {
		if o.Kind == k && o.Provisional == provisional {
			n++
		}
	}
	return n
}

func mustFEN(t *testing.T, fen string) *chess.Position {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var allSensors = []trace.Sensor{trace.Occupancy, trace.Colour, trace.PieceSensor}

// check runs a scenario for each sensor kind, with and without a clock
// (the scenario presses; without a clock the presses are left out), and
// compares the game and the alerts.
func check(t *testing.T, name string, start *chess.Position, sensors []trace.Sensor, clocks []bool,
	play func(h *hands, clock bool), wantSAN, wantAlerts string) {
	t.Helper()
	for _, s := range sensors {
		for _, clock := range clocks {
			t.Run(fmt.Sprintf("%s/%s/clock=%v", name, s, clock), func(t *testing.T) {
				h := newHands(t, s, start)
				play(h, clock)
				if !clock {
					kept := h.evs[:0]
					for _, ev := range h.evs {
						if ev.Kind != trace.Press {
							kept = append(kept, ev)
						}
					}
					h.evs = kept
				}
				r, outs := h.run(Config{Start: start, Clock: clock})
				if got := sanList(r); got != wantSAN {
					t.Errorf("moves %q, want %q", got, wantSAN)
					for _, o := range outs {
						t.Logf("%s", AppendJSON(nil, &o))
					}
				}
				if got := alertList(outs); got != wantAlerts {
					t.Errorf("alerts %q, want %q", got, wantAlerts)
					for _, o := range outs {
						t.Logf("%s", AppendJSON(nil, &o))
					}
				}
			})
		}
	}
}
