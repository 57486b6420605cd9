package trace

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
)

const sample = `boardtrace 1
sensor occupancy
setup standard
edition 2018
game rapid
clock 15m+10s
# a comment line
0 frame 0xffff00000000ffff
1200 off e2   # trailing comment

1460 on e4
1900 clock w
2000 promote n
`

func readAll(t *testing.T, text string) (Header, []Event, error) {
	t.Helper()
	r, err := NewReader(strings.NewReader(text))
	if err != nil {
		return Header{}, nil, err
	}
	var evs []Event
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return r.Header(), evs, nil
		}
		if err != nil {
			return r.Header(), evs, err
		}
		evs = append(evs, ev)
	}
}

func TestReadSample(t *testing.T) {
	h, evs, err := readAll(t, sample)
	if err != nil {
		t.Fatal(err)
	}
	if h.Sensor != Occupancy || h.Setup != SetupStandard || h.Edition != "2018" || h.Game != "rapid" || h.Clock != "15m+10s" {
		t.Errorf("header = %+v", h)
	}
	if len(evs) != 5 {
		t.Fatalf("got %d events, want 5", len(evs))
	}
	e4, _ := chess.ParseSquare("e4")
	e2, _ := chess.ParseSquare("e2")
	checks := []struct {
		ok   bool
		what string
	}{
		{evs[0].Kind == Frame && evs[0].Occ == 0xffff00000000ffff && evs[0].T == 0 && evs[0].Line == 8, "frame"},
		{evs[1].Kind == Off && evs[1].Square == e2 && evs[1].T == 1200 && evs[1].Line == 9, "off e2"},
		{evs[2].Kind == On && evs[2].Square == e4 && evs[2].T == 1460, "on e4"},
		{evs[3].Kind == Press && evs[3].Side == chess.White && evs[3].T == 1900, "clock w"},
		{evs[4].Kind == Promote && evs[4].Promo == chess.Knight, "promote n"},
	}
	for i, c := range checks {
		if !c.ok {
			t.Errorf("event %d (%s) = %+v", i, c.what, evs[i])
		}
	}
}

func TestColourAndPieceTraces(t *testing.T) {
	_, evs, err := readAll(t, "boardtrace 1\nsensor colour\n0 frame 0xffff00000000ffff 0xffff\n5 on e4 w\n6 on d5 b\n")
	if err != nil {
		t.Fatal(err)
	}
	if evs[0].White != 0xffff || !evs[0].HasColour || evs[1].Piece.Color() != chess.White || evs[2].Piece.Color() != chess.Black || !evs[2].HasColour {
		t.Errorf("colour events = %+v", evs)
	}
	_, evs, err = readAll(t, "boardtrace 1\nsensor piece\nsetup 960 518\n0 frame rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n5 on e4 P\n")
	if err != nil {
		t.Fatal(err)
	}
	if evs[0].Occ != 0xffff00000000ffff || evs[0].White != 0xffff || evs[0].Placement[chess.E1] != chess.WhiteKing || evs[1].Piece != chess.WhitePawn {
		t.Errorf("piece events = %+v", evs[:2])
	}
}

func TestErrorsNameTheLine(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"", "1: empty trace"},
		{"boardtrace 2\n", "1: want \"boardtrace 1\""},
		{"boardtrace 1\nsensor sonar\n", "2: sensor \"sonar\""},
		{"boardtrace 1\nsensor occupancy\nfoo bar\n", "3: unknown header \"foo\""},
		{"boardtrace 1\n0 frame 0x0\n", "missing \"sensor"},
		{"boardtrace 1\nsensor occupancy\nsetup 960 960\n", "3: setup 960"},
		{"boardtrace 1\nsensor occupancy\nsetup fen 8/8 w - - 0 1\n", "3: setup fen"},
		{"boardtrace 1\nsensor occupancy\n10 off e2\n5 on e4\n", "4: time 5 is before"},
		{"boardtrace 1\nsensor occupancy\n10 off z9\n", "3: off: \"z9\" is not a square"},
		{"boardtrace 1\nsensor occupancy\n10 on e4 w\n", "3: on e4: \"w\" given"},
		{"boardtrace 1\nsensor colour\n10 frame 0xff\n", "3: frame: colour sensors need"},
		{"boardtrace 1\nsensor colour\n10 frame 0xff 0x100\n", "3: frame: white squares"},
		{"boardtrace 1\nsensor piece\n10 frame rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR\n", "3: frame: rank 6"},
		{"boardtrace 1\nsensor occupancy\n10 frame 0x1ffffffffffffffff\n", "3: frame:"},
		{"boardtrace 1\nsensor occupancy\n10 clock x\n", "3: clock \"x\""},
		{"boardtrace 1\nsensor occupancy\n10 jump e4\n", "3: unknown event \"jump\""},
		{"boardtrace 1\nsensor occupancy\n10\n", "3: time 10 without an event"},
		{"boardtrace 1\nsensor occupancy\nsensor colour\n", "3: header \"sensor\" given twice"},
		{"boardtrace 1\nsensor occupancy\nedition 2020\n", "3: edition: FIDE edition \"2020\""},
		{"boardtrace 1\nsensor occupancy\ngame bullet\n", "3: game \"bullet\""},
		{"boardtrace 1\nsensor occupancy\ngame Rapid\n", "3: game \"Rapid\""},
		{"boardtrace 1\nsensor occupancy\ngame standard unsupervised\n", "3: game \"standard unsupervised\": a standard game is always supervised"},
		{"boardtrace 1\nsensor occupancy\ngame blitz alone\n", "3: game \"blitz alone\""},
	} {
		_, _, err := readAll(t, c.text)
		if err == nil {
			t.Errorf("%q: no error, want %q", c.text, c.want)
			continue
		}
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%q: error %v is not a *ParseError", c.text, err)
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %q, want it to contain %q", c.text, err, c.want)
		}
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	for _, text := range []string{
		sample,
		"boardtrace 1\nsensor colour\nsetup 960 12\n0 frame 0xffff00000000ffff 0x000000000000ffff\n5 on e4 w\n6 off e4\n",
		"boardtrace 1\nsensor piece\nsetup fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\n0 frame 4k3/8/8/8/8/8/4P3/4K3\n5 on e4 P\n7 clock b\n",
		"boardtrace 1\nsensor piece\nedition 2018\ngame rapid unsupervised\nclock 15m+10s\n0 frame 4k3/8/8/8/8/8/4P3/4K3\n",
	} {
		h, evs, err := readAll(t, text)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		w := NewWriter(&buf)
		w.WriteHeader(h)
		for i := range evs {
			if err := w.WriteEvent(&evs[i]); err != nil {
				t.Fatal(err)
			}
		}
		w.Flush()
		h2, evs2, err := readAll(t, buf.String())
		if err != nil {
			t.Fatalf("re-reading %q: %v", buf.String(), err)
		}
		if h2 != h || len(evs2) != len(evs) {
			t.Fatalf("round trip changed header or count:\n%s", buf.String())
		}
		for i := range evs {
			a, b := evs[i], evs2[i]
			a.Line, b.Line = 0, 0
			if a != b {
				t.Errorf("event %d: %+v became %+v", i, a, b)
			}
		}
	}
}

func FuzzReader(f *testing.F) {
	f.Add(sample)
	f.Add("boardtrace 1\nsensor piece\n0 frame rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n5 on e4 P\n")
	f.Add("boardtrace 1\nsensor colour\n0 frame 0xffff00000000ffff 0xffff\n5 on e4 w\n")
	f.Fuzz(func(t *testing.T, text string) {
		r, err := NewReader(strings.NewReader(text))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		w := NewWriter(&buf)
		w.WriteHeader(r.Header())
		var evs []Event
		for {
			ev, err := r.Next()
			if err != nil {
				break
			}
			evs = append(evs, ev)
			if err := w.WriteEvent(&ev); err != nil {
				t.Fatalf("writing %+v: %v", ev, err)
			}
		}
		w.Flush()
		// What was read must be written so that it reads back the same.
		_, evs2, err := readAll(t, buf.String())
		if err != nil {
			t.Fatalf("re-reading our own output %q: %v", buf.String(), err)
		}
		if len(evs2) != len(evs) {
			t.Fatalf("re-read %d events, wrote %d", len(evs2), len(evs))
		}
	})
}

func BenchmarkReader(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("boardtrace 1\nsensor occupancy\n")
	for i := 0; i < 1000; i++ {
		sb.WriteString("1200 off e2\n1460 on e4\n1900 clock w\n")
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, _ := NewReader(strings.NewReader(text))
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}
	b.ReportMetric(float64(3000*b.N)/b.Elapsed().Seconds(), "events/s")
}

// A clock header whose time control does not parse is refused with its
// line, not later by whoever starts a clock from it.
func TestClockHeaderChecked(t *testing.T) {
	for _, val := range []string{"90x", "0m", "-5m", "90m+", "40/"} {
		_, _, err := readAll(t, "boardtrace 1\nsensor occupancy\n\nclock "+val+"\n0 frame 0xffff00000000ffff\n")
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 4 || !strings.Contains(pe.Msg, "clock \""+val+"\"") {
			t.Errorf("clock %s: error %v, want line 4 naming the value", val, err)
		}
	}
	if _, _, err := readAll(t, "boardtrace 1\nsensor occupancy\nclock 40/120m,60m,15m+30s\n"); err != nil {
		t.Errorf("a good time control: %v", err)
	}
}
