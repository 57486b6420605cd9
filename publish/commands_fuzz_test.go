package publish

import (
	"strings"
	"testing"
	"time"
)

// FuzzParseCommand: any payload on any verb gets either a command ready
// for the handler or an error that says what is wrong; nothing panics.
func FuzzParseCommand(f *testing.F) {
	exp := `"expires":"2030-01-01T00:00:00Z"`
	for _, s := range []struct{ verb, payload string }{
		{VerbNewGame, `{"id":"1",` + exp + `,"white":"A","black":"B","time_control":"90m+30s","chess960":518}`},
		{VerbNewGame, `{"id":"1",` + exp + `,"fen":"8/8/8/8/8/8/8/K6k w - - 0 1"}`},
		{VerbSetPosition, `{"id":"2",` + exp + `,"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}`},
		{VerbSetTimeControl, `{"id":"3",` + exp + `,"time_control":"40/7200:3600"}`},
		{VerbAckAlert, `{"id":"4",` + exp + `,"alert":"a1-5","decision":"upheld"}`},
		{VerbPromote, `{"id":"5",` + exp + `,"piece":"n","ply":31}`},
		{"bogus", `{}`},
		{VerbPromote, `[1,2]`},
		{VerbNewGame, `{"id":"1","expires":"2030-01-01T00:00:00Z"} {"x":1}`},
	} {
		f.Add(s.verb, []byte(s.payload))
	}
	p, err := Open(Config{Board: "fz", JournalDir: f.TempDir(), Now: func() time.Time { return time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC) }})
	if err != nil {
		f.Fatal(err)
	}
	defer p.Close()
	p.alerts = []Alert{{ID: "a1-5", Kind: "illegal-move", Text: "x"}}
	f.Fuzz(func(t *testing.T, verb string, payload []byte) {
		c, err := p.parseCommand(verb, payload, len(payload), p.cfg.Now())
		if err != nil {
			if strings.TrimSpace(err.Error()) == "" {
				t.Fatal("an empty error")
			}
			return
		}
		if c.call == nil || c.rec.ID == "" || c.rec.Verb != verb {
			t.Fatalf("accepted command without a handler call, id or verb: %+v", c.rec)
		}
	})
}
