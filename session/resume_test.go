package session

import (
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/reconstruct"
)

// After a restart the game resumes from the journal while the players
// put the pieces back: pieces out of place (7.4.1), one alert however many
// frames the rebuilding takes, never a wrong set-up that annuls the game
// (7.2.1), and the board is back when it shows the position.
func TestResumedGameWhileTheBoardIsRebuilt(t *testing.T) {
	fen := "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
	for _, resumed := range []bool{true, false} {
		s := newScript(t, "edition 2023", fen)
		// The board comes up with three pieces still off, which are put
		// back one by one.
		text := s.b.String()
		i := strings.Index(text, "0 frame ")
		s.b.Reset()
		s.b.WriteString(text[:i] + "0 frame r1bqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKB2\n")
		s.wait(6000).raw("on c6 n").wait(3000).raw("on f3 N").wait(3000).raw("on h1 R").wait(3000)
		s.pos = mustFEN(t, fen)
		s.moves(1500, "Bb5", "a6")
		tr := s.b.String()
		cfg, _ := ConfigFromHeader(mustHeader(t, "edition 2023\nsetup fen "+fen))
		if resumed {
			std := mustFEN(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
			cfg.SetUp = &std
		}
		outs := runConfig(t, cfg, tr)
		mis, ws := find(outs, reconstruct.MisplacedPieces), find(outs, reconstruct.WrongSetup)
		if resumed && (len(ws) != 0 || len(mis) == 0) || !resumed && len(ws) == 0 {
			t.Errorf("resumed %v: %d misplaced, %d wrong set-up\n%s", resumed, len(mis), len(ws), dump(outs))
		}
		restored := false
		for _, o := range outs {
			restored = restored || o.Kind == reconstruct.Note && o.Note == reconstruct.NoteRestored
		}
		if !restored {
			t.Errorf("resumed %v: the board shows the position again, but no note says so", resumed)
		}
		if !strings.HasSuffix(summary(outs), "Bb5 a6") {
			t.Errorf("resumed %v: the game does not go on: %s", resumed, summary(outs))
		}
	}
}

// After a restart the players may set up a new game instead of the one
// resumed: the board showing the set-up starts it.
func TestResumedGameReplacedByANewOne(t *testing.T) {
	fen := "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
	s := newScript(t, "edition 2023", "")
	s.moves(1500, "d4", "d5")
	cfg, _ := ConfigFromHeader(mustHeader(t, "edition 2023\nsetup fen "+fen))
	std := mustFEN(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	cfg.SetUp = &std
	outs := runConfig(t, cfg, s.b.String())
	if got := summary(outs); !strings.HasSuffix(got, "d4 d5") || len(find(outs, reconstruct.WrongSetup)) != 0 {
		t.Errorf("%s\n%s", got, dump(outs))
	}
	newGame := false
	for _, o := range outs {
		newGame = newGame || o.Kind == reconstruct.NewGame
	}
	if !newGame {
		t.Errorf("no new game: %s", dump(outs))
	}
}

// A resumed game's clocks go on from the journal's reading (Remaining),
// not from the time control's start; a new game after it starts afresh.
func TestResumedGameKeepsItsClocks(t *testing.T) {
	fen := "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
	s := newScript(t, "edition 2023\nclock 15m+10s", fen).moves(2000, "Bb5")
	cfg, err := ConfigFromHeader(mustHeader(t, "edition 2023\nclock 15m+10s\nsetup fen "+fen))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Remaining = [2]time.Duration{3 * time.Minute, 4 * time.Minute}
	outs := runConfig(t, cfg, s.b.String())
	var press *Output
	for i := range outs {
		if outs[i].Kind == ClockChange && outs[i].ClockEvent == "press" {
			press = &outs[i]
			break
		}
	}
	if press == nil {
		t.Fatalf("no press\n%s", dump(outs))
	}
	w, b := press.Clock.Remaining[chess.White], press.Clock.Remaining[chess.Black]
	// White thought about 2.3 s and got the 10 s increment.
	if w < 3*time.Minute || w > 3*time.Minute+10*time.Second || b != 4*time.Minute {
		t.Errorf("after Bb5: white %v, black %v; want about 3:07 and 4:00", w, b)
	}
	cfg.Remaining = [2]time.Duration{}
	outs = runConfig(t, cfg, s.b.String())
	for i := range outs {
		if outs[i].Kind == ClockChange && outs[i].ClockEvent == "press" {
			if b := outs[i].Clock.Remaining[chess.Black]; b != 15*time.Minute+10*time.Second {
				t.Errorf("without Remaining black has %v, want 15:10", b)
			}
			break
		}
	}
}
