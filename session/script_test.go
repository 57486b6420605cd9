package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/trace"
)

// script writes a piece-board trace the way hands make moves: the piece
// lifted, the victim taken off, the piece set down, the clock pressed.
type script struct {
	t      testing.TB
	b      strings.Builder
	pos    chess.Position
	now    int64
	sensor string
}

func newScript(t testing.TB, header, fen string) *script {
	t.Helper()
	return newScriptOn(t, "piece", header, fen)
}

// newScriptOn writes for a board of the given sensor kind (occupancy,
// colour, piece); "on SQ X" events lose what the sensor cannot tell.
func newScriptOn(t testing.TB, sensor, header, fen string) *script {
	t.Helper()
	pos := chess.NewPosition()
	if fen != "" {
		var err error
		if pos, err = chess.ParseFEN(fen); err != nil {
			t.Fatal(err)
		}
		header += "\nsetup fen " + fen
	}
	s := &script{t: t, pos: *pos, sensor: sensor}
	frame := placement(pos)
	switch sensor {
	case "occupancy":
		frame = fmt.Sprintf("%#x", uint64(pos.Occupied()))
	case "colour":
		frame = fmt.Sprintf("%#x %#x", uint64(pos.Occupied()), uint64(pos.ByColor(chess.White)))
	}
	fmt.Fprintf(&s.b, "boardtrace 1\nsensor %s\n%s\n0 frame %s\n", sensor, strings.TrimSpace(header), frame)
	return s
}

func placement(p *chess.Position) string { return strings.Fields(p.FEN())[0] }

func (s *script) ev(dt int64, format string, args ...any) {
	s.now += dt
	line := fmt.Sprintf(format, args...)
	if f := strings.Fields(line); len(f) == 3 && f[0] == "on" {
		switch s.sensor {
		case "occupancy":
			line = "on " + f[1]
		case "colour":
			line = "on " + f[1] + " b"
			if strings.ToUpper(f[2]) == f[2] {
				line = "on " + f[1] + " w"
			}
		}
	}
	fmt.Fprintf(&s.b, "%d %s\n", s.now, line)
}

// move makes a legal move in SAN after think ms, and presses the clock
// when press is set.
func (s *script) move(san string, think int64, press bool) *script {
	s.t.Helper()
	m, err := s.pos.ParseSAN(san)
	if err != nil {
		s.t.Fatalf("%s: %v", san, err)
	}
	side := s.pos.SideToMove()
	pc := s.pos.PieceAt(m.From())
	from, to := m.From(), m.To()
	switch {
	case m.IsCastling():
		rook := s.pos.PieceAt(m.To())
		s.ev(think, "off %s", from)
		s.ev(150, "off %s", to)
		s.ev(250, "on %s %c", m.CastlingKingTo(), pc.FENLetter())
		s.ev(200, "on %s %c", m.CastlingRookTo(), rook.FENLetter())
	default:
		victim := chess.NoSquare
		if s.pos.PieceAt(to) != chess.NoPiece {
			victim = to
		}
		if m.IsEnPassant() {
			victim = chess.Square(int(to) - 8 + 16*int(side))
		}
		if victim != chess.NoSquare {
			s.ev(think, "off %s", victim)
			think = 200
		}
		s.ev(think, "off %s", from)
		if m.IsPromotion() {
			pc = chess.NewPiece(side, m.Promotion())
		}
		s.ev(300, "on %s %c", to, pc.FENLetter())
	}
	s.pos.MakeMove(m)
	if press {
		s.ev(300, "clock %s", map[chess.Color]string{chess.White: "w", chess.Black: "b"}[side])
	}
	return s
}

// moves plays each SAN move with a press, think ms apart.
func (s *script) moves(think int64, sans ...string) *script {
	for _, m := range sans {
		s.move(m, think, true)
	}
	return s
}

// raw writes events ("off e8", "on e8 k", "clock w") 100 ms apart.
func (s *script) raw(lines ...string) *script {
	for _, l := range lines {
		s.ev(100, "%s", l)
	}
	return s
}

func (s *script) wait(ms int64) *script { s.now += ms; return s }

// run plays the trace through a session and returns its outputs, the
// last one at board time end (the trace's last event when 0).
func (s *script) run(end int64) []Output {
	s.t.Helper()
	outs, start := s.play(end, false)
	// A caller that settles after every step (the daemon) sees the same
	// outputs in the same order.
	if settled, _ := s.play(end, true); dump(settled) != dump(outs) {
		s.t.Fatalf("settling after each step changes the outputs:\n%s\nwithout:\n%s", dump(settled), dump(outs))
	}
	// Every output must fit the game record, as a consumer keeps it.
	rec := reconstruct.NewRecord(&start)
	for i := range outs {
		if outs[i].Kind != ClockChange {
			if err := rec.Apply(&outs[i].Output); err != nil {
				s.t.Fatalf("output %d does not fit the record: %v\n%s", i, err, dump(outs))
			}
		}
	}
	return outs
}

func dump(outs []Output) string {
	var b strings.Builder
	for i := range outs {
		b.Write(AppendJSON(nil, &outs[i]))
		b.WriteByte('\n')
	}
	return b.String()
}

// summary lists the outputs that matter to an arbiter: final moves (SAN),
// alerts (kind and result), ends (result and reason); clocks and notes
// are left out.
func summary(outs []Output) string {
	var parts []string
	for i := range outs {
		o := &outs[i]
		switch o.Kind {
		case reconstruct.Move:
			if !o.Provisional {
				parts = append(parts, o.SAN)
			}
		case reconstruct.Alert:
			a := "alert:" + string(o.Alert)
			if o.Verdict != nil && o.Verdict.Result != "" {
				a += "=" + o.Verdict.Result
			}
			parts = append(parts, a)
		case reconstruct.End:
			parts = append(parts, "end:"+o.Result+" "+o.Reason)
		case reconstruct.Retract, reconstruct.Amend:
			if !o.Provisional {
				parts = append(parts, o.Kind.String())
			}
		}
	}
	return strings.Join(parts, " ")
}

func find(outs []Output, kind reconstruct.AlertKind) []*Output {
	var r []*Output
	for i := range outs {
		if outs[i].Kind == reconstruct.Alert && outs[i].Alert == kind {
			r = append(r, &outs[i])
		}
	}
	return r
}

func mustHeader(t *testing.T, header string) trace.Header {
	t.Helper()
	tr, err := trace.NewReader(strings.NewReader("boardtrace 1\nsensor piece\n" + header + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return tr.Header()
}

func mustEvent(t *testing.T, line string) trace.Event {
	t.Helper()
	tr, err := trace.NewReader(strings.NewReader("boardtrace 1\nsensor piece\n" + line + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := tr.Next()
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func mustFEN(t *testing.T, fen string) chess.Position {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return *p
}

// play runs the trace through a new session and returns its outputs and
// start position; settle: call Settle after every step, as the daemon does.
func (s *script) play(end int64, settle bool) ([]Output, chess.Position) {
	s.t.Helper()
	tr, err := trace.NewReader(strings.NewReader(s.b.String()))
	if err != nil {
		s.t.Fatalf("%v\n%s", err, s.b.String())
	}
	cfg, err := ConfigFromHeader(tr.Header())
	if err != nil {
		s.t.Fatal(err)
	}
	sess, err := New(cfg)
	if err != nil {
		s.t.Fatal(err)
	}
	var outs []Output
	step := func(o []Output) []Output {
		if settle {
			o = sess.Settle(o)
		}
		return o
	}
	last := int64(0)
	for {
		ev, err := tr.Next()
		if err != nil {
			break
		}
		last = ev.T
		outs = step(sess.Feed(&ev, outs))
	}
	if end > last {
		outs = step(sess.Advance(end, outs))
		last = end
	}
	return sess.End(last, outs), sess.Start()
}

// runConfig plays trace text through a session of cfg (the header's
// configuration is ignored).
func runConfig(t *testing.T, cfg Config, text string) []Output {
	t.Helper()
	tr, err := trace.NewReader(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	sess, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var outs []Output
	last := int64(0)
	for {
		ev, err := tr.Next()
		if err != nil {
			break
		}
		last = ev.T
		outs = sess.Feed(&ev, outs)
	}
	return sess.End(last, outs)
}
