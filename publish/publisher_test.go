package publish_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/publishtest"
)

// run starts p.Run and returns a stop function that waits for it.
func run(t testing.TB, p *publish.Publisher) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	return func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Run did not return")
		}
	}
}

func openFake(t testing.TB, b *publishtest.Broker, dir string, h publish.Handler) *publish.Publisher {
	t.Helper()
	p, err := publish.Open(publish.Config{
		Board: "b1", JournalDir: dir, Dialer: b, Handler: h,
		BackoffMin: 5 * time.Millisecond, BackoffMax: 50 * time.Millisecond,
		Status: publish.Status{Firmware: "test"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// running is a publisher on a fake broker with its loop running, and a
// subscriber "sub" that sees what it publishes; both stop with the test.
func running(t *testing.T) (*view, *publish.Publisher) {
	t.Helper()
	b := publishtest.New()
	v := subscribe(t, b, "sub")
	p := openFake(t, b, t.TempDir(), nil)
	t.Cleanup(func() { p.Close() })
	t.Cleanup(run(t, p))
	return v, p
}

// subscribe connects a persistent subscriber to the board's topics; it
// reconnects after the broker comes back.
func subscribe(t testing.TB, b *publishtest.Broker, id string) *view {
	t.Helper()
	v := newView()
	c, err := b.Dial(context.Background(), publish.DialOptions{ClientID: id, OnMessage: v.add})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Subscribe(context.Background(), publish.TopicPrefix+"b1/#", 1); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-c.Lost():
			}
			for {
				nc, err := b.Dial(context.Background(), publish.DialOptions{ClientID: id, OnMessage: v.add})
				if err == nil {
					c = nc
					break
				}
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		}
	}()
	return v
}

func TestGameArrivesCompleteAndInOrder(t *testing.T) {
	g := loadGames(t, 1)[0]
	v, p := running(t)

	if _, err := p.StartGame(infoOf(g)); err != nil {
		t.Fatal(err)
	}
	moves := gameMoves(g)
	for _, m := range moves {
		if _, err := p.Move(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.End(publish.Result{Result: g.Result, Termination: "resignation"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "all moves at the subscriber", func() bool { return len(v.finalMoves()) == len(moves) })
	v.checkComplete(t, moves)

	var st publish.StatePayload
	waitFor(t, 5*time.Second, "the final state", func() bool { return v.retainedJSON("state", &st) && st.Result == g.Result })
	if st.Ply != len(moves) || st.FEN != g.End().FEN() || st.White != g.Tag("White") {
		t.Fatalf("state: ply %d fen %s white %q", st.Ply, st.FEN, st.White)
	}
	// The retained pgn goes out after the state: wait for the final one.
	var pg publish.PGNPayload
	waitFor(t, 5*time.Second, "the final pgn", func() bool {
		return v.retainedJSON("pgn", &pg) && strings.Contains(pg.PGN, "[Result \""+g.Result+"\"]")
	})
	back, err := chess.ReadAllPGN(strings.NewReader(pg.PGN))
	if err != nil || len(back) != 1 {
		t.Fatalf("published PGN does not read back: %v\n%s", err, pg.PGN)
	}
	if len(back[0].Moves) != len(g.Moves) || back[0].Result != g.Result {
		t.Fatalf("PGN has %d moves result %s, want %d %s", len(back[0].Moves), back[0].Result, len(g.Moves), g.Result)
	}
	for i := range g.Moves {
		if back[0].Moves[i] != g.Moves[i] {
			t.Fatalf("PGN move %d differs", i)
		}
		if i < len(g.Clocks) && g.Clocks[i] >= 0 && back[0].Clocks[i] != g.Clocks[i] {
			t.Fatalf("PGN clock %d = %v, want %v", i, back[0].Clocks[i], g.Clocks[i])
		}
	}
	for _, tag := range []string{"White", "Black", "Round"} {
		if back[0].Tag(tag) != g.Tag(tag) {
			t.Fatalf("PGN tag %s = %q, want %q", tag, back[0].Tag(tag), g.Tag(tag))
		}
	}
}

// The broker goes away mid-game (and the connection drops again with a
// message lost on the wire); the moves made meanwhile are journaled and
// re-sent, so a persistent subscriber ends with every move once, in order.
func TestOutageLosesNoMove(t *testing.T) {
	g := loadGames(t, 2)[1]
	b := publishtest.New()
	v := subscribe(t, b, "sub")
	p := openFake(t, b, t.TempDir(), nil)
	defer p.Close()
	stop := run(t, p)
	defer stop()
	p.StartGame(infoOf(g))
	moves := gameMoves(g)
	third := len(moves) / 3
	for i, m := range moves {
		switch i {
		case third:
			b.Down()
		case 2 * third:
			b.Up()
			// The connection dies again soon, losing a message in flight.
			b.FailAfter(5)
		}
		if _, err := p.Move(m); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	// The subscriber reconnects too (its queued messages were kept).
	v2 := v
	waitFor(t, 10*time.Second, "all moves after the outage", func() bool { return len(v2.finalMoves()) >= len(moves) })
	v.checkComplete(t, moves)
	v.mu.Lock()
	t.Logf("%d messages at the subscriber, %d dropped as duplicates", v.raw, v.dups)
	v.mu.Unlock()
}

// A restart (the process killed without a clean shutdown) resumes the
// game from the journal and re-sends what the broker had not acknowledged.
func TestRestartResumesFromJournal(t *testing.T) {
	g := loadGames(t, 3)[2]
	moves := gameMoves(g)
	dir := t.TempDir()
	b := publishtest.New()
	v := subscribe(t, b, "sub")

	p := openFake(t, b, dir, nil)
	stop := run(t, p)
	info, _ := p.StartGame(infoOf(g))
	half := len(moves) / 2
	b.Down() // the last moves before the crash never reach the broker
	for _, m := range moves[:half] {
		if _, err := p.Move(m); err != nil {
			t.Fatal(err)
		}
	}
	stop()
	p.Crash()
	b.Up()

	p2 := openFake(t, b, dir, nil)
	defer p2.Close()
	r := p2.Current()
	if r.Info.ID != info.ID || len(r.Moves) != half {
		t.Fatalf("resumed game %q with %d moves, want %q with %d", r.Info.ID, len(r.Moves), info.ID, half)
	}
	if r.FEN != g.Position(half).FEN() {
		t.Fatalf("resumed position %s, want %s", r.FEN, g.Position(half).FEN())
	}
	stop2 := run(t, p2)
	defer stop2()
	for _, m := range moves[half:] {
		if _, err := p2.Move(m); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, 5*time.Second, "all moves after the restart", func() bool { return len(v.finalMoves()) == len(moves) })
	v.checkComplete(t, moves)
	if p2.Session() != p.Session()+1 {
		t.Fatalf("session after restart = %d, want %d", p2.Session(), p.Session()+1)
	}
}

func TestMoveChecks(t *testing.T) {
	p, err := publish.Open(publish.Config{Board: "b1", JournalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Move(publish.Move{Ply: 1, UCI: "e2e4", Final: true}); err == nil {
		t.Fatal("a move without a game was accepted")
	}
	p.StartGame(publish.GameInfo{White: "A", Black: "B"})
	for _, tc := range []struct {
		m    publish.Move
		want string
	}{
		{publish.Move{Ply: 1, UCI: "e2e5", Final: true}, "e2e5"},
		{publish.Move{Ply: 2, UCI: "e2e4", Final: true}, "next move is ply 1"},
		{publish.Move{Ply: 1, UCI: "e2e4", SAN: "d4", Final: true}, "SAN"},
		{publish.Move{Ply: 1, UCI: "e2e4", FEN: chess.StartFEN, Final: true}, "FEN after"},
		{publish.Move{Ply: 1, UCI: "zz", Final: true}, "UCI"},
	} {
		_, err := p.Move(tc.m)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Move(%+v) = %v, want an error containing %q", tc.m, err, tc.want)
		}
	}
	m, err := p.Move(publish.Move{Ply: 1, UCI: "e2e4", SAN: "e4", Final: true})
	if err != nil || m.SAN != "e4" || m.Side != "white" || !strings.HasPrefix(m.FEN, "rnbqkbnr/pppppppp/8/8/4P3") {
		t.Fatalf("Move e2e4 = %+v, %v", m, err)
	}
	if n := len(p.Current().Moves); n != 1 {
		t.Fatalf("refused moves were kept: %d moves", n)
	}
	if strings.Contains(p.PGN(), "e5") {
		t.Fatal("a refused move reached the PGN")
	}
}

// A provisional move is in the state but never in the PGN; a correction
// replaces a move, drops the later ones and re-sends the whole game.
func TestProvisionalAndCorrection(t *testing.T) {
	v, p := running(t)
	p.StartGame(publish.GameInfo{White: "A", Black: "B", Round: "1"})
	for i, u := range []string{"e2e4", "e7e5", "g1f3", "b8c6"} {
		if _, err := p.Move(publish.Move{Ply: i + 1, UCI: u, Final: true}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Move(publish.Move{Ply: 5, UCI: "f1c4"}); err != nil {
		t.Fatal(err)
	}
	var st publish.StatePayload
	waitFor(t, 2*time.Second, "provisional in state", func() bool {
		return v.retainedJSON("state", &st) && st.Provisional != nil && st.Provisional.UCI == "f1c4"
	})
	if strings.Contains(p.PGN(), "Bc4") {
		t.Fatal("a provisional move is in the PGN")
	}
	// The knight went to f3 by mistake: it was Nc3 (arbiter reinstates).
	c, err := p.Correct(publish.Correction{Ply: 3, New: &publish.Move{Ply: 3, UCI: "b1c3", Final: true}, Why: "arbiter: Nf3 misread"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Old == nil || c.Old.SAN != "Nf3" || c.Dropped != 1 {
		t.Fatalf("correction = %+v", c)
	}
	var pg publish.PGNPayload
	waitFor(t, 2*time.Second, "corrected PGN", func() bool {
		return v.retainedJSON("pgn", &pg) && strings.Contains(pg.PGN, "2. Nc3")
	})
	if strings.Contains(pg.PGN, "Nf3") || strings.Contains(pg.PGN, "Nc6") {
		t.Fatalf("corrected PGN still has dropped moves:\n%s", pg.PGN)
	}
	if _, err := p.Correct(publish.Correction{Ply: 9, Why: "x"}); err == nil {
		t.Fatal("a correction of a ply that does not exist was accepted")
	}
	if _, err := p.Correct(publish.Correction{Ply: 3, New: &publish.Move{Ply: 3, UCI: "e1e8", Final: true}, Why: "x"}); err == nil {
		t.Fatal("a correction to an illegal move was accepted")
	}
	waitFor(t, 2*time.Second, "correction event", func() bool {
		v.mu.Lock()
		defer v.mu.Unlock()
		return len(v.corr) == 1
	})
}

// fakeHandler records commands and can refuse them.
type fakeHandler struct {
	mu    sync.Mutex
	calls []string
	p     *publish.Publisher
	err   error
}

func (h *fakeHandler) record(s string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, s)
	return h.err
}
func (h *fakeHandler) NewGame(_ context.Context, c publish.NewGameCmd) error {
	if err := h.record("new_game " + c.Info.White); err != nil {
		return err
	}
	_, err := h.p.StartGame(c.Info)
	return err
}
func (h *fakeHandler) SetPosition(_ context.Context, c publish.SetPositionCmd) error {
	return h.record("set_position " + c.FEN)
}
func (h *fakeHandler) SetTimeControl(_ context.Context, c publish.SetTimeControlCmd) error {
	return h.record("set_time_control " + c.TimeControl.String())
}
func (h *fakeHandler) CorrectMove(_ context.Context, c publish.CorrectMoveCmd) error {
	return h.record(fmt.Sprintf("correct_move %d %s", c.Ply, c.UCI))
}
func (h *fakeHandler) SetResult(_ context.Context, c publish.SetResultCmd) error {
	return h.record("set_result " + c.Result + " " + c.Reason)
}
func (h *fakeHandler) AckAlert(_ context.Context, c publish.AckAlertCmd) error {
	return h.record("ack_alert " + c.Alert.ID + " " + c.Decision)
}
func (h *fakeHandler) Promote(_ context.Context, c publish.PromoteCmd) error {
	return h.record(fmt.Sprintf("promote %s", c.Piece))
}

func (h *fakeHandler) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.calls)
}

// commandBoard runs board b1 with a fake handler, a subscriber and a
// tablet connection to send it commands, once it is online; all stop
// with the test.
func commandBoard(t *testing.T) (p *publish.Publisher, h *fakeHandler, v *view, tablet publish.Conn) {
	t.Helper()
	b := publishtest.New()
	v = subscribe(t, b, "sub")
	h = &fakeHandler{}
	p = openFake(t, b, t.TempDir(), h)
	h.p = p
	t.Cleanup(func() { p.Close() })
	t.Cleanup(run(t, p))
	tablet, err := b.Dial(context.Background(), publish.DialOptions{ClientID: "tablet"})
	if err != nil {
		t.Fatal(err)
	}
	var online publish.StatusPayload
	waitFor(t, 2*time.Second, "board online", func() bool { return v.retainedJSON("status", &online) && online.Online })
	return p, h, v, tablet
}

func TestCommands(t *testing.T) {
	p, h, v, tablet := commandBoard(t)
	future := time.Now().Add(time.Minute).UTC().Format(time.RFC3339)
	past := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	send := func(verb, payload string) {
		tablet.Publish(publish.Message{Topic: publish.Topic("b1", "cmd/"+verb), Payload: []byte(payload), QoS: 1})
	}
	expect := func(id string, ok bool, errPart string) publish.ReplyPayload {
		t.Helper()
		var r publish.ReplyPayload
		waitFor(t, 3*time.Second, "reply to "+id, func() bool { var found bool; r, found = v.reply(id); return found })
		if r.OK != ok || !strings.Contains(r.Error, errPart) {
			t.Fatalf("reply to %s = ok %v error %q; want ok %v error containing %q", id, r.OK, r.Error, ok, errPart)
		}
		return r
	}

	send("new_game", `{"id":"c1","expires":"`+future+`","white":"Carlsen","black":"Nepo","round":"3","time_control":"90m+30s"}`)
	expect("c1", true, "")
	if r := p.Current(); r.Info.White != "Carlsen" || r.Info.TimeControl != "90m+30s" {
		t.Fatalf("game after new_game: %+v", r.Info)
	}
	// The same id again is not applied twice.
	send("new_game", `{"id":"c1","expires":"`+future+`","white":"Other"}`)
	time.Sleep(50 * time.Millisecond)
	if p.Current().Info.White != "Carlsen" || h.count() != 1 {
		t.Fatalf("a duplicate command was applied: %v", h.calls)
	}

	cases := []struct{ verb, payload, errPart string }{
		{"new_game", `{"id":"e1","expires":"` + past + `"}`, "expired at"},
		{"new_game", `{"id":"e2"}`, "expires: missing"},
		{"new_game", `{"id":"e3","expires":"tomorrow"}`, "not an RFC 3339 time"},
		{"new_game", `{"id":"e4","expires":"` + future + `","whte":"x"}`, `unknown field "whte"`},
		{"new_game", `{"id":"e5","expires":"` + future + `","chess960":960}`, "want 0 to 959"},
		{"new_game", `{"id":"e6","expires":"` + future + `","chess960":5,"fen":"8/8/8/8/8/8/8/8 w - - 0 1"}`, "both given"},
		{"new_game", `{"id":"e7","expires":"` + future + `","time_control":"90 minutes"}`, "time control"},
		{"set_position", `{"id":"e8","expires":"` + future + `","fen":"8/8/8/8/8/8/8/8 w - - 0 1"}`, "fen:"},
		{"set_position", `{"id":"e9","expires":"` + future + `"}`, "fen: missing"},
		{"set_time_control", `{"id":"e10","expires":"` + future + `","time_control":""}`, "time_control: missing"},
		{"ack_alert", `{"id":"e11","expires":"` + future + `","alert":"nope","decision":"upheld"}`, `alert "nope" is not active`},
		{"ack_alert", `{"id":"e12","expires":"` + future + `","alert":"x","decision":"maybe"}`, `decision "maybe"`},
		{"promote", `{"id":"e13","expires":"` + future + `","piece":"k"}`, `piece "k"`},
		{"promote", `{"id":"e14","expires":"` + future + `","piece":5}`, `field "piece"`},
		{"resign", `{"id":"e15","expires":"` + future + `"}`, "unknown command"},
		{"promote", `{"expires":"` + future + `"}`, "id: missing"},
		{"promote", `{"id":"e16","expires":"` + time.Now().Add(72*time.Hour).UTC().Format(time.RFC3339) + `","piece":"q"}`, "ahead"},
	}
	for _, c := range cases {
		send(c.verb, c.payload)
	}
	for i, c := range cases {
		id := fmt.Sprintf("e%d", i+1)
		if i == 15 {
			id = ""
		} else if i == 16 {
			id = "e16"
		}
		expect(id, false, c.errPart)
	}
	if h.count() != 1 {
		t.Fatalf("refused commands reached the handler: %v", h.calls)
	}

	a, err := p.Alert(publish.Alert{Kind: "illegal-move", Ply: 3, Side: "white", Squares: []string{"e2", "e5"}, Article: "7.5.1", Edition: "2023", Penalty: "2 minutes to the opponent", Text: "e2-e5 is not a legal move"})
	if err != nil {
		t.Fatal(err)
	}
	var al publish.AlertsPayload
	waitFor(t, 2*time.Second, "active alert", func() bool { return v.retainedJSON("alerts/active", &al) && len(al.Alerts) == 1 })
	send("ack_alert", `{"id":"c2","expires":"`+future+`","alert":"`+a.ID+`","decision":"upheld","by":"arbiter-a"}`)
	expect("c2", true, "")
	waitFor(t, 2*time.Second, "alert acknowledged", func() bool { return v.retainedJSON("alerts/active", &al) && len(al.Alerts) == 0 })

	send("set_time_control", `{"id":"c3","expires":"`+future+`","time_control":"40/90m+30s,30m+30s"}`)
	expect("c3", true, "")
	send("promote", `{"id":"c4","expires":"`+future+`","piece":"N"}`)
	expect("c4", true, "")
	h.mu.Lock()
	h.err = errors.New("no promotion pending")
	h.mu.Unlock()
	send("promote", `{"id":"c5","expires":"`+future+`","piece":"q"}`)
	expect("c5", false, "promote: no promotion pending")
	h.mu.Lock()
	h.err = nil
	h.mu.Unlock()
	send("set_result", `{"id":"r1","expires":"`+future+`","result":"2-0","reason":"resignation"}`)
	expect("r1", false, `result "2-0"`)
	send("set_result", `{"id":"r2","expires":"`+future+`","result":"1-0"}`)
	expect("r2", false, "reason: missing")
	send("set_result", `{"id":"c6","expires":"`+future+`","result":"1/2-1/2","reason":"agreement"}`)
	expect("c6", true, "")
	send("correct_move", `{"id":"m1","expires":"`+future+`","ply":0,"uci":"e2e4"}`)
	expect("m1", false, "ply 0")
	send("correct_move", `{"id":"m2","expires":"`+future+`","ply":3,"uci":"e2"}`)
	expect("m2", false, `uci "e2"`)
	send("correct_move", `{"id":"c7","expires":"`+future+`","ply":3,"uci":"g1f3"}`)
	expect("c7", true, "")
	h.mu.Lock()
	got := strings.Join(h.calls, "|")
	h.mu.Unlock()
	want := "new_game Carlsen|ack_alert " + a.ID + " upheld|set_time_control 40/90m+30s,30m+30s|promote knight|promote queen|set_result 1/2-1/2 agreement|correct_move 3 g1f3"
	if got != want {
		t.Fatalf("handler calls:\n got %s\nwant %s", got, want)
	}

	// set_tags: the Publisher's own; a field left out stays.
	send("set_tags", `{"id":"t1","expires":"`+future+`"}`)
	expect("t1", false, "no tag given")
	send("set_tags", `{"id":"t2","expires":"`+future+`","white_elo":-5}`)
	expect("t2", false, "elo")
	send("set_tags", `{"id":"t3","expires":"`+future+`","white":"Carlsen, Magnus","white_title":"GM","white_elo":2830}`)
	expect("t3", true, "")
	if r := p.Current(); r.Info.White != "Carlsen, Magnus" || r.Info.Black != "Nepo" || r.Info.WhiteElo != 2830 || r.Info.Round != "3" {
		t.Fatalf("after set_tags: %+v", r.Info)
	}
	if pg := p.PGN(); !strings.Contains(pg, `[White "Carlsen, Magnus"]`) || !strings.Contains(pg, `[WhiteElo "2830"]`) {
		t.Errorf("PGN after set_tags:\n%s", pg)
	}
	if h.count() != 7 {
		t.Errorf("set_tags reached the handler: %v", h.calls)
	}
}

// The will says lost when the board vanishes; the next connection's
// status replaces it; a subscriber applying the dedupe rule follows both.
func TestWillAndStatus(t *testing.T) {
	b := publishtest.New()
	obs := b.Observe(publish.Topic("b1", "status"))
	p := openFake(t, b, t.TempDir(), nil)
	defer p.Close()
	stop := run(t, p)
	// states returns the status sequence a deduping subscriber accepts.
	states := func() []string {
		var dd publish.Deduper
		var out []string
		for _, m := range obs.Messages() {
			if _, ok, _ := dd.Accept(m.Topic, m.Payload); ok {
				var st publish.StatusPayload
				json.Unmarshal(m.Payload, &st)
				out = append(out, st.State)
			}
		}
		return out
	}
	waitFor(t, 2*time.Second, "online", func() bool { return strings.Join(states(), ",") == "ready" })
	b.Kill("boardd-b1")
	waitFor(t, 2*time.Second, "will, then online again", func() bool { return strings.Join(states(), ",") == "ready,lost,ready" })
	stop()
	waitFor(t, 2*time.Second, "offline", func() bool { return strings.Join(states(), ",") == "ready,lost,ready,offline" })
	m, _ := b.Retained(publish.Topic("b1", "status"))
	var last publish.StatusPayload
	json.Unmarshal(m.Payload, &last)
	if last.Online || last.State != "offline" {
		t.Fatalf("retained status after a clean stop: %+v", last)
	}
}

func TestBoardIDAndTopics(t *testing.T) {
	for _, id := range []string{"b1", "board-17", strings.Repeat("a", 32)} {
		if err := publish.ValidBoardID(id); err != nil {
			t.Errorf("ValidBoardID(%q) = %v", id, err)
		}
	}
	for _, id := range []string{"", "B1", "a/b", "a+b", "#", strings.Repeat("a", 33), "bo ard"} {
		if err := publish.ValidBoardID(id); err == nil {
			t.Errorf("ValidBoardID(%q) accepted", id)
		}
	}
	for _, c := range []struct {
		f, t string
		want bool
	}{
		{"a/#", "a", true}, {"a/#", "a/b/c", true}, {"a/+", "a/b", true}, {"a/+", "a/b/c", false},
		{"+/b", "a/b", true}, {"#", "$SYS/x", false}, {"a/b", "a/b", true}, {"a/b", "a/c", false},
		{"chess/v1/board/+/state", "chess/v1/board/b1/state", true}, {"a/+/c", "a//c", true},
	} {
		if got := publish.MatchTopic(c.f, c.t); got != c.want {
			t.Errorf("MatchTopic(%q, %q) = %v", c.f, c.t, got)
		}
	}
}

// A crash between starting a new journal segment and writing the new
// game's record leaves the previous game current.
func TestCrashAfterRotation(t *testing.T) {
	dir := t.TempDir()
	p, err := publish.Open(publish.Config{Board: "b1", JournalDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	info, _ := p.StartGame(publish.GameInfo{White: "A", Black: "B"})
	p.Move(publish.Move{Ply: 1, UCI: "d2d4", Final: true})
	if err := p.RotateJournal(); err != nil {
		t.Fatal(err)
	}
	p.Crash()
	p2, err := publish.Open(publish.Config{Board: "b1", JournalDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	if r := p2.Current(); r.Info.ID != info.ID || len(r.Moves) != 1 {
		t.Fatalf("after the crash: game %q with %d moves, want %q with 1", r.Info.ID, len(r.Moves), info.ID)
	}
}

// The game session's reasons for the end of a game give the PGN its
// Termination tag.
func TestTerminationOfSessionReasons(t *testing.T) {
	for reason, want := range map[string]string{
		"time forfeit":                  "time forfeit",
		"dead position":                 "normal",
		"illegal move":                  "rules infraction",
		"forfeit: White did not appear": "rules infraction",
		"resignation":                   "normal",
	} {
		b := publishtest.New()
		p := openFake(t, b, t.TempDir(), nil)
		if _, err := p.StartGame(publish.GameInfo{White: "A", Black: "B"}); err != nil {
			t.Fatal(err)
		}
		if err := p.End(publish.Result{Result: "1-0", Termination: reason}); err != nil {
			t.Fatal(err)
		}
		if pg := p.PGN(); !strings.Contains(pg, `[Termination "`+want+`"]`) {
			t.Errorf("%s: %s", reason, pg)
		}
		p.Close()
	}
}

// SetInfo changes the tags of the game in progress (a new time control,
// corrected names): state and PGN show them, they survive a restart, the
// moves stay; bad tags are refused and change nothing.
func TestSetInfo(t *testing.T) {
	dir := t.TempDir()
	p, err := publish.Open(publish.Config{Board: "b1", JournalDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	info, err := p.StartGame(publish.GameInfo{White: "Alice", Black: "Bob", TimeControl: "90m+30s"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Move(publish.Move{Ply: 1, UCI: "e2e4", Final: true}); err != nil {
		t.Fatal(err)
	}
	changed := p.Current().Info
	changed.White, changed.TimeControl = "Alicia", "5m+3s"
	if err := p.SetInfo(changed); err != nil {
		t.Fatal(err)
	}
	bad := changed
	bad.TimeControl = "90x"
	if err := p.SetInfo(bad); err == nil {
		t.Error("a bad time control was accepted")
	}
	check := func(p *publish.Publisher, when string) {
		r := p.Current()
		if r.Info.ID != info.ID || r.Info.White != "Alicia" || r.Info.Black != "Bob" || r.Info.TimeControl != "5m+3s" || len(r.Moves) != 1 {
			t.Errorf("%s: %+v with %d moves", when, r.Info, len(r.Moves))
		}
		pg := p.PGN()
		for _, want := range []string{`[White "Alicia"]`, `[TimeControl "300+3"]`, "1. e4"} {
			if !strings.Contains(pg, want) {
				t.Errorf("%s: PGN lacks %s:\n%s", when, want, pg)
			}
		}
	}
	check(p, "at once")
	p.Crash()
	p2, err := publish.Open(publish.Config{Board: "b1", JournalDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	check(p2, "after a restart")
}

// The clock in state is the last clock event; the 1 Hz ticks go to the
// clock topic only (docs/mqtt.md).
func TestStateClockIsTheLastEvent(t *testing.T) {
	v, p := running(t)
	p.StartGame(publish.GameInfo{White: "A", Black: "B"})
	if err := p.Clock(publish.ClockState{Clocks: publish.Clocks{WhiteMS: 60000, BlackMS: 60000}, Running: "black", Event: "press"}); err != nil {
		t.Fatal(err)
	}
	if err := p.Clock(publish.ClockState{Clocks: publish.Clocks{WhiteMS: 60000, BlackMS: 59000}, Running: "black", Event: "tick"}); err != nil {
		t.Fatal(err)
	}
	var ck publish.ClockPayload
	waitFor(t, 2*time.Second, "the tick on the clock topic", func() bool {
		return v.retainedJSON("clock", &ck) && ck.Event == "tick"
	})
	// A move makes state new: its clock is still the press.
	if _, err := p.Move(publish.Move{Ply: 1, UCI: "e2e4", Final: true}); err != nil {
		t.Fatal(err)
	}
	var st publish.StatePayload
	waitFor(t, 2*time.Second, "state with the move", func() bool {
		return v.retainedJSON("state", &st) && len(st.Moves) == 1
	})
	if st.Clock == nil || st.Clock.Event != "press" || st.Clock.BlackMS != 60000 {
		t.Errorf("state's clock %+v, want the press", st.Clock)
	}
}
