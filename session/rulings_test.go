package session

import (
	"errors"
	"strings"
	"testing"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/rules"
	"github.com/boardd/boardd/trace"
)

// Scenarios written from the Laws' texts; each names its article.

// 2023 5.1.1 "The game is won by the player who has checkmated his
// opponent's king. This immediately ends the game." and 6.2.1: a move that
// ends the game needs no clock press. The players then tip the king and
// start putting the pieces back: nothing of that is an irregularity.
func TestCheckmateWithoutPressEndsTheGame(t *testing.T) {
	for _, ed := range []string{"1997", "2018", "2023"} {
		s := newScript(t, "edition "+ed+"\nclock 15m+10s", "").
			moves(2000, "f3", "e5", "g4").
			move("Qh4#", 2000, false).
			wait(3000).raw("off e1", "on e1 K", "off h4", "off g4", "off f3", "off e5")
		outs := s.run(0)
		if got := summary(outs); got != "f3 e5 g4 Qh4# alert:checkmate=0-1 end:0-1 checkmate" {
			t.Errorf("%s: %s\n%s", ed, got, dump(outs))
		}
	}
}

// The press after the mate is no second move, and the mate stays final.
func TestCheckmateThenPressIsOneMove(t *testing.T) {
	outs := newScript(t, "clock 15m+10s", "").moves(2000, "f3", "e5", "g4", "Qh4#").wait(2000).run(0)
	if got := summary(outs); got != "f3 e5 g4 Qh4# alert:checkmate=0-1 end:0-1 checkmate" {
		t.Errorf("%s\n%s", got, dump(outs))
	}
}

// 6.9 "if a player does not complete the prescribed number of moves in
// the allotted time, the game is lost by that player" - called by the
// arbiter (2023 6.8) when it happens, not at the player's next press.
func TestFlagWithoutPressIsCalledWhenItFalls(t *testing.T) {
	s := newScript(t, "edition 2023\nclock 3m", "").moves(1000, "e4", "e5")
	outs := s.run(200_000) // White never moves again
	if got := summary(outs); got != "e4 e5 alert:flag-fall=0-1 end:0-1 time forfeit" {
		t.Fatalf("%s\n%s", got, dump(outs))
	}
	f := find(outs, reconstruct.FlagFall)[0]
	// White's clock ran from 0 to 1.6 s (the first press) and from Black's
	// press at 3.2 s; 3 minutes are gone at 3m + 1.6 s.
	if f.T < 180_000 || f.T > 185_000 {
		t.Errorf("flag called at %d ms", f.T)
	}
}

// 6.9 "... However, the game is drawn if the position is such that the
// opponent cannot checkmate the player's king by any possible series of
// legal moves": White's flag falls against a bare king.
func TestFlagAgainstBareKingIsDrawn(t *testing.T) {
	outs := newScript(t, "edition 2018\nclock 3m", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").run(200_000)
	if got := summary(outs); got != "alert:flag-fall=1/2-1/2 end:1/2-1/2 time forfeit" {
		t.Errorf("%s\n%s", got, dump(outs))
	}
}

// 1997 blitz C4: "two knights and king against lone king is
// insufficient": a draw on the flag, though a helpmate exists; the 2023
// blitz rules have no such clause (6.9 asks only for a legal series).
func TestFlagAgainstTwoKnightsByEdition(t *testing.T) {
	fen := "4k3/8/8/8/8/8/8/1N2K1N1 b - - 0 1" // Black to move, White has K+NN
	for _, ed := range []string{"1997", "2023"} {
		outs := newScript(t, "edition "+ed+"\ngame blitz\nclock 3m", fen).run(200_000)
		fl := find(outs, reconstruct.FlagFall)
		if len(fl) != 1 || fl[0].Verdict == nil {
			t.Fatalf("%s: %s", ed, dump(outs))
		}
		res := map[string]string{"1997": "1/2-1/2", "2023": "1-0"}[ed]
		if fl[0].Verdict.Result != res {
			t.Errorf("%s: flag verdict %q, want %q: %s", ed, fl[0].Verdict.Result, res, fl[0].Text)
		}
		if ed == "1997" && (strings.Contains(fl[0].Text, "loses") || !strings.Contains(fl[0].Text, "(C4)")) {
			t.Errorf("1997: the text contradicts the draw: %s", fl[0].Text)
		}
	}
}

// 1997 B8 (rapid): "If both flags have fallen ... the game is drawn":
// where only a claim makes a flag count (B6), the first flag is an alert
// for a claim and the second gives one verdict, the draw.
func TestBothFlags1997RapidIsOneDraw(t *testing.T) {
	// Black's flag falls (nobody claims), Black moves on; then White's.
	s := newScript(t, "edition 1997\ngame rapid\nclock 15m", "").moves(1000, "e4").wait(901_000).moves(1000, "e5")
	outs := s.run(3_000_000)
	if got := summary(outs); got != "e4 alert:flag-fall=1-0 e5 alert:both-flags=1/2-1/2 end:1/2-1/2 both flags fallen" {
		t.Errorf("%s\n%s", got, dump(outs))
	}
	if v := find(outs, reconstruct.FlagFall)[0].Verdict; !v.OnClaim {
		t.Errorf("1997 rapid flag should count on a claim only (B6): %+v", v)
	}
}

// 6.9 "... except where one of the Articles 5.1.1, 5.1.2, 5.2.1, 5.2.2,
// 5.2.3 applies": a flag after the game ended in a dead position is no
// flag at all.
func TestNoFlagAfterDeadPosition(t *testing.T) {
	s := newScript(t, "edition 2023\nclock 3m", "4k3/8/8/8/8/8/3r4/3BK3 w - - 0 1").moves(1000, "Kxd2")
	outs := s.run(400_000)
	if got := summary(outs); got != "Kxd2 alert:dead-position=1/2-1/2 end:1/2-1/2 dead position" {
		t.Errorf("%s\n%s", got, dump(outs))
	}
}

// Fivefold repetition and 75 moves end the game without a claim in 2018
// and 2023 (9.6.1, 9.6.2); the 1997 Laws know only the claims of 9.2 and
// 9.3.
func TestFivefoldByEdition(t *testing.T) {
	shuffle := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	for ed, want := range map[string]bool{"1997": false, "2018": true, "2023": true} {
		s := newScript(t, "edition "+ed, "")
		for i := 0; i < 4; i++ {
			s.moves(800, shuffle...)
		}
		outs := s.run(0)
		ends := 0
		for _, o := range outs {
			if o.Kind == reconstruct.End && o.Reason == "fivefold repetition" {
				ends++
			}
		}
		if (ends == 1) != want {
			t.Errorf("%s: fivefold end %d times, want %v\n%s", ed, ends, want, summary(outs))
		}
		if len(find(outs, reconstruct.ThreefoldClaimable)) == 0 {
			t.Errorf("%s: no threefold claim announced", ed)
		}
	}
}

// 9.2.1.1: the player may claim a draw by writing on the scoresheet the
// move that will make the position appear for the third time. The alert
// comes when that move exists, before it is made.
func TestThreefoldClaimByWritingTheMove(t *testing.T) {
	s := newScript(t, "edition 2023", "").moves(800, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
	outs := s.run(0)
	var texts []string
	for _, a := range find(outs, reconstruct.ThreefoldClaimable) {
		texts = append(texts, a.Text)
	}
	// After 4.Ng1 Black to move: ...Ng8 repeats the start position a third time.
	if len(texts) == 0 || !strings.Contains(texts[0], "by writing Ng8") || find(outs, reconstruct.ThreefoldClaimable)[0].Ply != 7 {
		t.Errorf("claims %q\n%s", texts, dump(outs))
	}
}

// 1997 Article 10 (quickplay finish), 10.3: after an illegal move the
// opponent gets two more minutes for the first and second, the third
// loses. It applies in the last period of a control without increment.
func TestQuickplayFinish1997(t *testing.T) {
	s := newScript(t, "edition 1997\nclock 90m", "").moves(1000, "e4", "e5")
	for i := 0; i < 3; i++ {
		s.wait(1000).raw("off b1").wait(300).raw("on b3 N").wait(300).raw("clock w")
		s.wait(3000).raw("off b3").wait(300).raw("on b1 N").wait(2000)
		s.raw("clock b") // the arbiter gives White's clock back
	}
	outs := s.run(0)
	il := find(outs, reconstruct.IllegalMove)
	if len(il) != 3 {
		t.Fatalf("%d illegal-move alerts\n%s", len(il), dump(outs))
	}
	for i, a := range il[:2] {
		if a.Verdict == nil || a.Verdict.Time.Minutes() != 2 || !strings.Contains(a.Article, "10.3") {
			t.Errorf("illegal move %d: %+v %s", i+1, a.Verdict, a.Article)
		}
	}
	if !strings.Contains(summary(outs), "end:0-1 illegal move") {
		t.Errorf("the third illegal move must lose (10.3): %s", summary(outs))
	}
	// The two minutes show in the clock times.
	pens := 0
	for _, o := range outs {
		if o.Kind == ClockChange && o.ClockEvent == "penalty" {
			pens++
		}
	}
	if pens != 2 {
		t.Errorf("%d penalties on the clock, want 2\n%s", pens, dump(outs))
	}
}

// 7.5.5: the second completed illegal move loses, "however, the game is
// drawn if the position is such that the opponent cannot checkmate".
func TestSecondIllegalMoveAgainstBareKingIsDrawn(t *testing.T) {
	s := newScript(t, "edition 2023\nclock 90m+30s", "4k3/8/8/8/8/8/8/4K2Q w - - 0 1")
	for i := 0; i < 2; i++ {
		s.wait(1000).raw("off e1").wait(300).raw("on e3 K").wait(300).raw("clock w")
		s.wait(3000).raw("off e3").wait(300).raw("on e1 K").wait(2000).raw("clock b")
	}
	outs := s.run(0)
	if got := summary(outs); !strings.HasSuffix(got, "alert:illegal-move=1/2-1/2 end:1/2-1/2 illegal move") {
		t.Errorf("%s\n%s", got, dump(outs))
	}
	// The verdict says what happens: the game is drawn, not "loss" with
	// a drawn result.
	var v *rules.Verdict
	for i := range outs {
		if outs[i].Kind == reconstruct.Alert && outs[i].Verdict != nil {
			v = outs[i].Verdict
		}
	}
	if v == nil || v.Action != rules.GameDrawn {
		t.Errorf("the drawn second illegal move's verdict: %+v", v)
	}
}

// 2018 A.4 / 2023 A.5: rapid without adequate supervision has its own
// articles: a win on time is claimed with the clock stopped (2018 A.4.3),
// though the arbiter also calls a flag he observes (A.4.5).
func TestUnsupervisedRapidIsSelectable(t *testing.T) {
	for _, c := range []struct{ game, article, profile string }{
		{"rapid unsupervised", "A.4.3", "2018 rapid (unsupervised)"},
		{"rapid", "6.9", "2018 rapid (supervised)"},
	} {
		outs := newScript(t, "edition 2018\ngame "+c.game+"\nclock 15m", "").moves(1000, "e4").run(1_000_000)
		fl := find(outs, reconstruct.FlagFall)
		if len(fl) != 1 || fl[0].Verdict.Profile != c.profile || !strings.HasPrefix(fl[0].Article, c.article) ||
			!strings.Contains(summary(outs), "end:1-0 time forfeit") {
			t.Errorf("%s: %s\n%s", c.game, summary(outs), dump(outs))
		}
	}
}

// The arbiter's result: resignation, agreement, forfeits.
func TestSetResult(t *testing.T) {
	cfg, _ := ConfigFromHeader(mustHeader(t, "edition 2023"))
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetResult(10, "2-0", "resignation", false, nil); err == nil || !strings.Contains(err.Error(), "2-0") {
		t.Errorf("bad result: %v", err)
	}
	if _, err := s.SetResult(10, "1-0", " ", false, nil); err == nil {
		t.Error("a result needs a reason")
	}
	out, err := s.SetResult(10, "-/+", "White did not appear", false, nil)
	if err != nil || len(out) != 1 || out[0].Result != "0-1" || !strings.HasPrefix(out[0].Reason, "forfeit") {
		t.Fatalf("%v %+v", err, out)
	}
	if _, err := s.SetResult(20, "1/2-1/2", "agreement", false, nil); !errors.Is(err, ErrGameOver) {
		t.Errorf("second result: %v", err)
	}
	if r, _ := s.Result(); r != "0-1" {
		t.Errorf("a refused result changed the game: %s", r)
	}
	if out, err := s.SetResult(20, "1/2-1/2", "arbiter's decision", true, nil); err != nil || out[0].Result != "1/2-1/2" {
		t.Errorf("replace: %v %+v", err, out)
	}
}

// 2018 6.6: on a live board the clock starts when Black presses it, not
// when boardd starts: a board left standing before the round loses no
// time, and no flag falls.
func TestLiveClockStartsWithBlacksPress(t *testing.T) {
	for _, live := range []bool{true, false} {
		cfg, _ := ConfigFromHeader(mustHeader(t, "clock 5m"))
		cfg.ClockStartsWithPress = live
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		frame := mustEvent(t, "0 frame rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
		outs := s.Feed(&frame, nil)
		outs = s.Advance(3_600_000, outs) // an hour before the round
		flags := len(find(outs, reconstruct.FlagFall))
		if live != (flags == 0) {
			t.Fatalf("live %v: %d flags before the start: %s", live, flags, dump(outs))
		}
		if !live {
			continue
		}
		press := mustEvent(t, "3600000 clock b")
		s.Feed(&press, nil)
		snap, ok := s.Clock(3_600_000 + 60_000)
		if !ok || snap.Remaining[0].Minutes() != 4 || snap.Remaining[1].Minutes() != 5 {
			t.Errorf("a minute after Black's press: %v", snap.Remaining)
		}
	}
}

// 2018 6.2.1 and 6.9 "except where 5.1.1 ... applies": a mate that nobody
// presses after, followed by nothing on the board until the mating
// player's time has run out, is still the mate: the still board is judged
// before the flag.
func TestMateThenSilenceIsNotAFlag(t *testing.T) {
	for _, c := range []struct{ header, fen, move, want string }{
		{"edition 2018\nclock 3m", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 40", "Ra8#", "Ra8# alert:checkmate=1-0 end:1-0 checkmate"},
		{"edition 1997\ngame blitz\nclock 3m", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 40", "Ra8#", "Ra8# alert:checkmate=1-0 end:1-0 checkmate"},
		{"edition 2018\nclock 3m", "8/8/8/8/8/5k2/4q3/7K b - - 0 60", "Qf2", "Qf2 alert:stalemate=1/2-1/2 end:1/2-1/2 stalemate"},
	} {
		s := newScript(t, c.header, c.fen).move(c.move, 170_000, false)
		outs := s.run(s.now + 600_000)
		if got := summary(outs); got != c.want {
			t.Errorf("%s: %s\n%s", c.header, got, dump(outs))
		}
		if len(find(outs, reconstruct.FlagFall)) != 0 {
			t.Errorf("%s: a flag after the end", c.header)
		}
	}
}

// 6.9: "by any possible series of legal moves": the everyday flag
// endings where only a helpmate exists are losses, settled within the
// session's budget, not left to the arbiter.
func TestFlagAgainstHelpmateMaterial(t *testing.T) {
	for _, fen := range []string{
		"8/8/8/4k3/8/8/8/2NNK3 w - - 0 50",  // two knights against a king
		"8/8/3kn3/8/8/8/8/2B1K3 w - - 0 50", // bishop against knight
		"8/7p/8/4k3/8/8/8/2NNK3 w - - 0 50", // two knights against a pawn
	} {
		// Black's clock runs out after White's move.
		s := newScript(t, "edition 2018\ngame blitz\nclock 3m", fen)
		m := map[bool]string{true: "Kd2", false: "Kd1"}[strings.Contains(fen, "2NNK3")]
		outs := s.move(m, 1000, true).run(400_000)
		fl := find(outs, reconstruct.FlagFall)
		if len(fl) != 1 || fl[0].Verdict.Result != "1-0" || fl[0].Verdict.Undetermined {
			t.Errorf("%s: %s\n%s", fen, summary(outs), dump(outs))
		}
	}
}

// 7.5.2: a pawn left on the last rank at the press is a queen; the
// penalty does not say that the position is reinstated.
func TestPromotionUnreplacedText(t *testing.T) {
	p, _ := rules.Lookup(rules.Setting{Edition: rules.Edition2018, Type: rules.Standard})
	v := p.Verdict(rules.KindPromotionUnreplaced, chess.White, 0)
	if strings.Contains(v.Text, "reinstated") || !strings.Contains(v.Text, "replaced by a queen") {
		t.Error(v.Text)
	}
}

// 2018 7.5.1: an illegal first move is an illegal move, not a wrong
// set-up (7.2.1), also in a trace that starts without a frame.
func TestIllegalFirstMove(t *testing.T) {
	for _, frame := range []bool{true, false} {
		s := newScript(t, "edition 2018\nclock 90m+30s", "")
		s.wait(1000).raw("off g1").wait(300).raw("on e3 N").wait(300).raw("clock w")
		s.wait(4000).raw("off e3").wait(300).raw("on g1 N").wait(2000).raw("clock b").move("Nf3", 1500, true)
		text := s.b.String()
		if !frame {
			i := strings.Index(text, "0 frame")
			j := i + strings.Index(text[i:], "\n") + 1
			s.b.Reset()
			s.b.WriteString(text[:i] + text[j:])
		}
		outs := s.run(0)
		if len(find(outs, reconstruct.IllegalMove)) != 1 || len(find(outs, reconstruct.WrongSetup)) != 0 || !strings.HasSuffix(summary(outs), "Nf3") {
			t.Errorf("frame %v: %s\n%s", frame, summary(outs), dump(outs))
		}
	}
}

// 2018 4.4.2: "If a player having the move touches his rook and then his
// king, he may not castle on that side on that move": the rook lifted
// well before the king, even if it comes down after it.
func TestCastlingRookTouchedFirst(t *testing.T) {
	for _, c := range []struct {
		gap  int64 // rook lifted this long before the king
		want int
	}{{900, 1}, {100, 0}} {
		s := newScript(t, "edition 2018\nclock 90m+30s", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
		s.wait(1000).raw("off h1").wait(c.gap).raw("off e1").wait(300).raw("on f1 R").wait(200).raw("on g1 K").wait(300).raw("clock w")
		outs := s.run(0)
		if got := len(find(outs, reconstruct.CastlingRookFirst)); got != c.want || !strings.HasPrefix(summary(outs), "O-O") {
			t.Errorf("rook %d ms before the king: %d alerts: %s", c.gap, got, summary(outs))
		}
	}
}

// 2018 A.4.2: in unsupervised rapid an illegal move nobody claims stands
// once the opponent has moved. The board cannot follow the game from an
// illegal position, but it must not turn the player's next, legal move
// into a second offence that loses the game.
func TestUnclaimedIllegalMoveIsNoSecondOffence(t *testing.T) {
	s := newScript(t, "edition 2018\ngame rapid unsupervised\nclock 15m+10s", "").moves(1500, "e4", "e5")
	s.wait(1500).raw("off g1").wait(300).raw("on a4 N").wait(300).raw("clock w")
	s.wait(1500).raw("off b8").wait(300).raw("on c6 n").wait(300).raw("clock b")
	s.wait(1500).raw("off a4").wait(300).raw("on c5 N").wait(300).raw("clock w")
	outs := s.run(0)
	if strings.Contains(summary(outs), "end:") {
		t.Errorf("the game was ended: %s\n%s", summary(outs), dump(outs))
	}
	il := find(outs, reconstruct.IllegalMove)
	if len(il) == 0 || il[0].Verdict.Action.String() != "add-time" {
		t.Errorf("the first illegal move: %s", summary(outs))
	}
}

// A move into a position that may be dead is out before the analysis
// runs (Settle): on a live board, ticking every 50 ms, the step that
// shows Kxd2 returns the move alone (still provisional: no press yet);
// Settle then finds the dead position, which makes the move final without
// a press (6.2.1), at the move's time.
func TestMoveBeforeDeadPositionAnalysis(t *testing.T) {
	s := newScript(t, "edition 2023\nclock 3m", "4k3/8/8/8/8/8/3r4/3BK3 w - - 0 1").moves(1000, "Kxd2")
	tr, err := trace.NewReader(strings.NewReader(s.b.String()))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ConfigFromHeader(tr.Header())
	if err != nil {
		t.Fatal(err)
	}
	sess, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var moveT, now int64 = -1, 0
	// Events, and between them the ticks a live board gives every 50 ms.
	var steps []func() []Output
	for {
		ev, err := tr.Next()
		if err != nil {
			break
		}
		for ; now+50 < ev.T; now += 50 {
			t := now + 50
			steps = append(steps, func() []Output { return sess.Advance(t, nil) })
		}
		now = ev.T
		steps = append(steps, func() []Output { return sess.Feed(&ev, nil) })
	}
	for _, step := range steps {
		outs := step()
		if len(find(outs, reconstruct.DeadPosition)) > 0 {
			t.Fatalf("the verdict came with the step, not after it:\n%s", dump(outs))
		}
		for _, o := range outs {
			if o.Kind == reconstruct.Move && o.SAN == "Kxd2" {
				moveT = o.T
				if !sess.Pending() {
					t.Fatalf("Kxd2 leaves no analysis pending:\n%s", dump(outs))
				}
			}
		}
		if moveT >= 0 && sess.Pending() {
			settled := sess.Settle(nil)
			if got := summary(settled); got != "Kxd2 alert:dead-position=1/2-1/2 end:1/2-1/2 dead position" || settled[0].Provisional {
				t.Fatalf("Settle: %s\n%s", got, dump(settled))
			}
			if settled[0].T != moveT {
				t.Errorf("verdict at %d, move at %d", settled[0].T, moveT)
			}
			if sess.Pending() || len(sess.Settle(nil)) != 0 {
				t.Error("a second Settle still had something to do")
			}
			return
		}
	}
	t.Fatal("no step published Kxd2 with the analysis pending")
}

// 5.2.2 and 6.2.1: a capture into a dead position ends the game at once,
// without a press; the flag that would fall a minute later is no flag
// (6.9). An occupancy board, nobody presses, the next event comes long
// after the flag.
func TestDeadPositionWithoutPressBeforeTheFlag(t *testing.T) {
	tr := "boardtrace 1\nsensor occupancy\nsetup fen 7k/8/8/8/8/8/3r4/2B1K3 w - - 0 40\nclock 1m+0s\n" +
		"1000 off d2\n1100 off e1\n1300 on d2\n90000 frame 0x8000000000000804\n"
	cfg, err := ConfigFromHeader(mustHeader(t, "clock 1m+0s\nsetup fen 7k/8/8/8/8/8/3r4/2B1K3 w - - 0 40"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Sensor = trace.Occupancy
	outs := runConfig(t, cfg, tr)
	if got := summary(outs); !strings.HasPrefix(got, "Kxd2 alert:dead-position=1/2-1/2 end:1/2-1/2 dead position") || len(find(outs, reconstruct.FlagFall)) > 0 {
		t.Errorf("%s\n%s", got, dump(outs))
	}
}

// A trace that ends right after the game-ending move (no press, no still
// moment) still has the move and the end.
func TestTraceEndingOnTheEndingMove(t *testing.T) {
	tr := "boardtrace 1\nsensor occupancy\nsetup fen 7k/8/8/8/8/8/3r4/2B1K3 w - - 0 40\n1000 off d2\n1100 off e1\n1300 on d2\n"
	cfg, err := ConfigFromHeader(mustHeader(t, "setup fen 7k/8/8/8/8/8/3r4/2B1K3 w - - 0 40"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Sensor = trace.Occupancy
	outs := runConfig(t, cfg, tr)
	if len(find(outs, reconstruct.DeadPosition)) != 1 || !strings.Contains(summary(outs), "Kxd2") {
		t.Errorf("%s\n%s", summary(outs), dump(outs))
	}
}

// A mate nobody presses after: the mating move's clock reading is the
// mover's time when it was made (6.2.1: no press is needed), and the
// clocks stop with the game; a later press counts for nothing.
func TestClocksStopWithTheGame(t *testing.T) {
	s := newScript(t, "edition 2018\ngame blitz\nclock 5m", "")
	s.moves(1000, "f3", "e5", "g4")
	s.move("Qh4#", 800, false)
	s.wait(1700).raw("clock b", "off e1")
	outs := s.run(60_000)
	var mate *Output
	for i := range outs {
		if outs[i].Kind == reconstruct.Move && outs[i].SAN == "Qh4#" && !outs[i].Provisional {
			mate = &outs[i]
		}
		if outs[i].Kind == ClockChange && outs[i].ClockEvent == "press" && outs[i].T > 5000 {
			t.Errorf("a press after the mate was applied: %+v", outs[i])
		}
	}
	if mate == nil {
		t.Fatalf("no Qh4#\n%s", dump(outs))
	}
	// Black's clock ran from White's last press to the queen set down.
	var blackBefore, whitePress int64 = -1, -1
	for _, o := range outs {
		if o.Kind == ClockChange && o.ClockEvent == "press" && o.Side == chess.Black {
			blackBefore = o.Clock.Remaining[chess.Black].Milliseconds()
		}
		if o.Kind == ClockChange && o.ClockEvent == "press" && o.Side == chess.White {
			whitePress = o.T
		}
	}
	if want := blackBefore - (mate.T - whitePress); mate.ClockMs != want {
		t.Errorf("Qh4# clock %d ms, want %d\n%s", mate.ClockMs, want, dump(outs))
	}
}

// 5.1.1: a mate counts if the mating move kept Article 3 and 4.2-4.7; a
// castling begun with the rook (4.4.2) did not, so the alert about how it
// was made is kept even though the mate ended the game: the arbiter
// decides.
func TestRookFirstCastlingThatMates(t *testing.T) {
	s := newScriptOn(t, "occupancy", "edition 2018\nclock 5m", "2rkr3/2p1p3/8/8/8/8/8/R3K3 w Q - 0 30")
	s.ev(1000, "off a1")
	s.ev(200, "on d1")
	s.ev(200, "off e1")
	s.ev(300, "on c1")
	s.ev(300, "clock w")
	outs := s.run(0)
	if len(find(outs, reconstruct.Checkmate)) != 1 || len(find(outs, reconstruct.CastlingRookFirst)) != 1 {
		t.Errorf("%s\n%s", summary(outs), dump(outs))
	}
}

// 2018 and 2023 7.5.1: "An illegal move is completed once the player has
// pressed his clock", and 7.5.5 penalises completed ones; 1997's ladders
// (10.3, C3) count moves completed by the clock too. A board without a
// clock completes none: its illegal moves are reinstated without penalty,
// and the second one does not end the game.
func TestIllegalMovesWithoutAClockAreNotCompleted(t *testing.T) {
	for _, ed := range []string{"1997", "2018", "2023"} {
		s := newScript(t, "edition "+ed, "4k3/8/8/8/8/8/8/4K2Q w - - 0 1")
		for i := 0; i < 2; i++ {
			s.wait(1000).raw("off e1").wait(300).raw("on e3 K").wait(6000)
			s.raw("off e3").wait(300).raw("on e1 K").wait(6000)
		}
		outs := s.run(0)
		il := find(outs, reconstruct.IllegalMove)
		if len(il) != 2 {
			t.Fatalf("%s: %d illegal-move alerts\n%s", ed, len(il), dump(outs))
		}
		for i, a := range il {
			v := a.Verdict
			if v == nil || v.Action != rules.Reinstate || v.Result != "" || v.CountsAsIllegal || v.Time != 0 || !strings.Contains(v.Text, "no clock") {
				t.Errorf("%s: illegal move %d: %+v", ed, i+1, v)
			}
		}
		if got := summary(outs); strings.Contains(got, "end:") {
			t.Errorf("%s: the game ended: %s\n%s", ed, got, dump(outs))
		}
	}
}

// 5.1.1 and 7.5.2 (1997: 3.4e): a pawn left on the last rank at the press
// is an irregular move even when the queen it counts as gives stalemate;
// the alert reaches the arbiter after the game's end, as a castling begun
// with the rook does.
func TestUnreplacedPromotionThatStalemates(t *testing.T) {
	for _, ed := range []string{"1997", "2023"} {
		s := newScriptOn(t, "piece", "edition "+ed+"\nclock 15m+10s", "8/6P1/7k/8/6P1/8/1K6/8 w - - 1 66")
		s.ev(1000, "off g7")
		s.ev(280, "on g8 P")
		s.ev(420, "clock w")
		outs := s.run(2000)
		if len(find(outs, reconstruct.Stalemate)) != 1 || len(find(outs, reconstruct.PromotionUnreplaced)) != 1 {
			t.Errorf("%s: %s\n%s", ed, summary(outs), dump(outs))
		}
	}
}
