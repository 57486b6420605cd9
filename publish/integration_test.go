package publish_test

// Tests against real brokers: Debian's mosquitto (started by the test on a
// free loopback port; skipped when it is not installed unless
// BOARDD_REQUIRE names it) and the embedded mochi broker. Boards that must
// die (kill -9) run in a child process: this test binary re-executed with
// BOARDD_PUBLISH_HELPER set.

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
	"github.com/boardd/boardd/publish/internal/mosqtest"
)

var outage = flag.Duration("outage", 3*time.Second, "how long the broker is stopped in the outage tests (docs/mqtt.md reports 30s; the default keeps go test fast)")

func TestMain(m *testing.M) {
	if mode := os.Getenv("BOARDD_PUBLISH_HELPER"); mode != "" {
		os.Exit(helperMain(mode))
	}
	os.Exit(m.Run())
}

// realBroker is a broker a test can stop and restart.
type realBroker interface {
	URL() string
	Stop()
	Restart()
	// KeepsSessions says whether sessions and queued messages survive a
	// restart (mosquitto with persistence: yes; the embedded broker,
	// in memory: no).
	KeepsSessions() bool
}

type mosq struct{ *mosqtest.Mosquitto }

func (mosq) KeepsSessions() bool { return true }

func startMosquitto(t *testing.T) realBroker {
	return mosq{mosqtest.Start(t, mosqtest.Options{AllowAnonymous: true})}
}

type embedded struct {
	t    *testing.T
	addr string
	mu   sync.Mutex
	e    *broker.Embedded
}

func (e *embedded) URL() string         { return "tcp://" + e.addr }
func (e *embedded) KeepsSessions() bool { return false }
func (e *embedded) Stop() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.e != nil {
		e.e.Close()
		e.e = nil
	}
}
func (e *embedded) Restart() {
	e.t.Helper()
	acl, _ := broker.ParseACL(strings.NewReader("topic readwrite #\n"))
	var b *broker.Embedded
	var err error
	for i := 0; i < 50; i++ { // the port may linger briefly after Close
		b, err = broker.Start(broker.Config{Listeners: []broker.Listener{{Kind: "tcp", Addr: e.addr}}, ACL: acl, AllowAnonymous: true})
		if err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		e.t.Fatal(err)
	}
	e.mu.Lock()
	e.e = b
	e.mu.Unlock()
}

func startEmbedded(t *testing.T) realBroker {
	e := &embedded{t: t, addr: fmt.Sprintf("127.0.0.1:%d", mosqtest.FreePort(t))}
	e.Restart()
	t.Cleanup(e.Stop)
	return e
}

var brokers = []struct {
	name  string
	start func(*testing.T) realBroker
}{
	{"mosquitto", startMosquitto},
	{"embedded", startEmbedded},
}

// liveSubscriber keeps a persistent subscription to board b1's topics,
// reconnecting whenever it loses the broker.
func liveSubscriber(t *testing.T, url, id string) *view {
	v := newView()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); <-done })
	ready := make(chan struct{})
	go func() {
		defer close(done)
		d := publish.PahoDialer{URL: url, KeepAlive: 2 * time.Second}
		first := true
		for ctx.Err() == nil {
			c, err := d.Dial(ctx, publish.DialOptions{ClientID: id, OnMessage: v.add})
			if err == nil {
				err = c.Subscribe(ctx, publish.TopicPrefix+"b1/#", 1)
				if err == nil {
					if first {
						close(ready)
						first = false
					}
					select {
					case <-ctx.Done():
					case <-c.Lost():
					}
				}
				c.Close()
			}
			select {
			case <-ctx.Done():
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("subscriber could not connect")
	}
	return v
}

func openBoard(t *testing.T, url, dir string, h publish.Handler) *publish.Publisher {
	t.Helper()
	p, err := publish.Open(publish.Config{
		Board: "b1", JournalDir: dir, Handler: h,
		Dialer:     publish.PahoDialer{URL: url, KeepAlive: 2 * time.Second},
		BackoffMin: 100 * time.Millisecond, BackoffMax: time.Second,
		Status: publish.Status{Firmware: "test"},
		Logger: testLogger(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func testLogger(t testing.TB) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})).With("test", t.Name())
	}
	return slog.New(slog.DiscardHandler)
}

// A replayed game arrives complete and in order, and a subscriber that
// comes late finds the right retained state, PGN and active alerts.
func TestRealBrokerGameAndLateSubscriber(t *testing.T) {
	for _, bk := range brokers {
		t.Run(bk.name, func(t *testing.T) {
			br := bk.start(t)
			g := loadGames(t, 5)[4]
			moves := gameMoves(g)
			v := liveSubscriber(t, br.URL(), "sub-live")
			h := &fakeHandler{}
			p := openBoard(t, br.URL(), t.TempDir(), h)
			h.p = p
			defer p.Close()
			stop := run(t, p)
			defer stop()
			p.StartGame(infoOf(g))
			var alerts []publish.Alert
			for i, m := range moves {
				if _, err := p.Move(m); err != nil {
					t.Fatal(err)
				}
				if i == 10 || i == 20 {
					a, err := p.Alert(publish.Alert{Kind: "misplaced-pieces", Ply: i + 1, Squares: []string{"e4"}, Text: "a piece stands on e4 that should not", Article: "7.4", Edition: "2023"})
					if err != nil {
						t.Fatal(err)
					}
					alerts = append(alerts, a)
				}
			}
			p.End(publish.Result{Result: g.Result, Termination: "resignation"})
			// The arbiter acknowledges the first alert.
			tablet, err := publish.PahoDialer{URL: br.URL()}.Dial(context.Background(), publish.DialOptions{ClientID: "tablet"})
			if err != nil {
				t.Fatal(err)
			}
			defer tablet.Close()
			cmd := fmt.Sprintf(`{"id":"ack-1","expires":%q,"alert":%q,"decision":"dismissed"}`, time.Now().Add(time.Minute).UTC().Format(time.RFC3339), alerts[0].ID)
			<-tablet.Publish(publish.Message{Topic: publish.Topic("b1", "cmd/ack_alert"), Payload: []byte(cmd), QoS: 1}).Done()
			waitFor(t, 10*time.Second, "all moves", func() bool { return len(v.finalMoves()) == len(moves) })
			v.checkComplete(t, moves)
			waitFor(t, 5*time.Second, "the ack reply", func() bool { r, ok := v.reply("ack-1"); return ok && r.OK })
			waitFor(t, 5*time.Second, "outbox drained", func() bool { return p.Pending() == 0 })

			late := newView()
			lc, err := publish.PahoDialer{URL: br.URL()}.Dial(context.Background(), publish.DialOptions{ClientID: "late", OnMessage: late.add})
			if err != nil {
				t.Fatal(err)
			}
			defer lc.Close()
			lc.Subscribe(context.Background(), publish.TopicPrefix+"b1/#", 1)
			var st publish.StatePayload
			var pg publish.PGNPayload
			var al publish.AlertsPayload
			var status publish.StatusPayload
			waitFor(t, 5*time.Second, "retained topics at the late subscriber", func() bool {
				// (The retained topics follow the events: Pending counts only
				// the events, so wait for the final versions.)
				return late.retainedJSON("state", &st) && late.retainedJSON("pgn", &pg) && late.retainedJSON("alerts/active", &al) && late.retainedJSON("status", &status) &&
					len(al.Alerts) == 1 && st.Result == g.Result && strings.Contains(pg.PGN, "[Result \""+g.Result+"\"]")
			})
			if st.Ply != len(moves) || st.FEN != g.End().FEN() || st.Result != g.Result || len(st.Moves) != len(moves) || st.Alerts != 1 {
				t.Fatalf("late state: ply %d fen %s result %s moves %d alerts %d", st.Ply, st.FEN, st.Result, len(st.Moves), st.Alerts)
			}
			if al.Alerts[0].ID != alerts[1].ID {
				t.Fatalf("active alert %s, want %s", al.Alerts[0].ID, alerts[1].ID)
			}
			back, err := chess.ReadAllPGN(strings.NewReader(pg.PGN))
			if err != nil || len(back) != 1 || len(back[0].Moves) != len(g.Moves) || back[0].Result != g.Result {
				t.Fatalf("late PGN does not hold the game: %v", err)
			}
			if !status.Online {
				t.Fatalf("late status: %+v", status)
			}
		})
	}
}

// The broker is stopped mid-game and restarted; moves go on meanwhile.
// After (session, seq) dedupe the subscriber has every move once, in
// order. With mosquitto (sessions persisted) the move events alone are
// complete; the embedded broker forgets subscriptions when it stops, so
// there the subscriber completes the events it missed from the retained
// state, as docs/mqtt.md tells subscribers to.
func TestRealBrokerOutage(t *testing.T) {
	for _, bk := range brokers {
		t.Run(bk.name, func(t *testing.T) {
			br := bk.start(t)
			g := loadGames(t, 7)[6]
			moves := gameMoves(g)
			v := liveSubscriber(t, br.URL(), "sub-outage")
			p := openBoard(t, br.URL(), t.TempDir(), nil)
			defer p.Close()
			stop := run(t, p)
			defer stop()
			p.StartGame(infoOf(g))
			third := len(moves) / 3
			pace := *outage / time.Duration(third)
			t.Logf("%d moves; broker down for %v from move %d; a move every %v meanwhile", len(moves), *outage, third, pace)
			var downAt time.Time
			for i, m := range moves {
				if i == third {
					br.Stop()
					downAt = time.Now()
				}
				if !downAt.IsZero() && time.Since(downAt) >= *outage {
					br.Restart()
					downAt = time.Time{}
				}
				if _, err := p.Move(m); err != nil {
					t.Fatal(err)
				}
				if i >= third && i < 2*third {
					time.Sleep(pace)
				}
			}
			if !downAt.IsZero() {
				time.Sleep(*outage - time.Since(downAt))
				br.Restart()
			}
			if br.KeepsSessions() {
				waitFor(t, 30*time.Second, "all moves after the outage", func() bool { return len(v.finalMoves()) >= len(moves) })
				v.checkComplete(t, moves)
				v.mu.Lock()
				t.Logf("subscriber: %d messages, %d duplicates dropped", v.raw, v.dups)
				v.mu.Unlock()
				return
			}
			var st publish.StatePayload
			waitFor(t, 30*time.Second, "the final state", func() bool { return v.retainedJSON("state", &st) && st.Ply == len(moves) })
			events := v.finalMoves()
			for i, m := range events {
				if i > 0 && m.Ply <= events[i-1].Ply {
					t.Fatalf("move events out of order: ply %d after %d", m.Ply, events[i-1].Ply)
				}
			}
			for i, u := range st.Moves {
				if u != moves[i].UCI {
					t.Fatalf("state move %d = %s, want %s", i+1, u, moves[i].UCI)
				}
			}
			t.Logf("embedded: %d of %d move events arrived; the state holds all %d moves", len(events), len(moves), len(st.Moves))
		})
	}
}

// helperMain runs a board in a child process. Modes: "idle" connects and
// waits; "game" plays game GAME from wherever the journal says the game
// stands, a move every PACE, then ends it and exits once the broker has
// everything.
func helperMain(mode string) int {
	switch mode {
	case "rss":
		return rssMain()
	case "load":
		return loadMain()
	}
	url, dir := os.Getenv("BOARDD_HELPER_URL"), os.Getenv("BOARDD_HELPER_DIR")
	p, err := publish.Open(publish.Config{
		Board: "b1", JournalDir: dir,
		Dialer:     publish.PahoDialer{URL: url, KeepAlive: 2 * time.Second},
		BackoffMin: 100 * time.Millisecond, BackoffMax: time.Second,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	defer func() { cancel(); <-done; p.Close() }()
	switch mode {
	case "idle":
		fmt.Println("ready")
		select {}
	case "game":
		n, _ := strconv.Atoi(os.Getenv("BOARDD_HELPER_GAME"))
		pace, _ := time.ParseDuration(os.Getenv("BOARDD_HELPER_PACE"))
		g := loadGames(nopTB{}, n+1)[n]
		moves := gameMoves(g)
		r := p.Current()
		if r.Info.ID == "" {
			if _, err := p.StartGame(infoOf(g)); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
		fmt.Printf("resumed at ply %d session %d\n", len(r.Moves), p.Session())
		for _, m := range moves[len(r.Moves):] {
			if _, err := p.Move(m); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			fmt.Printf("ply %d\n", m.Ply)
			time.Sleep(pace)
		}
		p.End(publish.Result{Result: g.Result})
		for p.Pending() > 0 {
			time.Sleep(10 * time.Millisecond)
		}
		fmt.Println("done")
		return 0
	}
	return 2
}

// nopTB lets the helper use loadGames outside a test.
type nopTB struct{ testing.TB }

func (nopTB) Helper()               {}
func (nopTB) Fatalf(string, ...any) { panic("cannot load games") }

type child struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	lines []string
	done  chan error
}

func startChild(t *testing.T, mode, url, dir string, env ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "BOARDD_PUBLISH_HELPER="+mode, "BOARDD_HELPER_URL="+url, "BOARDD_HELPER_DIR="+dir)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, done: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			c.mu.Lock()
			c.lines = append(c.lines, sc.Text())
			c.mu.Unlock()
		}
		c.done <- cmd.Wait()
	}()
	t.Cleanup(func() { cmd.Process.Kill() })
	return c
}

func (c *child) said(prefix string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(c.lines[i], prefix) {
			return c.lines[i], true
		}
	}
	return "", false
}

func (c *child) kill9(t *testing.T) {
	t.Helper()
	c.cmd.Process.Signal(syscall.SIGKILL)
	select {
	case <-c.done:
	case <-time.After(5 * time.Second):
		t.Fatal("child did not die")
	}
}

// The last will fires when the board process is killed.
func TestRealBrokerWillOnKill(t *testing.T) {
	for _, bk := range brokers {
		t.Run(bk.name, func(t *testing.T) {
			br := bk.start(t)
			v := liveSubscriber(t, br.URL(), "sub-will")
			c := startChild(t, "idle", br.URL(), t.TempDir())
			var st publish.StatusPayload
			waitFor(t, 10*time.Second, "board online", func() bool { return v.retainedJSON("status", &st) && st.Online })
			killed := time.Now()
			c.kill9(t)
			waitFor(t, 10*time.Second, "the will", func() bool { return v.retainedJSON("status", &st) && !st.Online && st.State == "lost" })
			t.Logf("will seen %v after kill -9", time.Since(killed).Round(time.Millisecond))
		})
	}
}

// kill -9 mid-game: the restarted board resumes the same game from its
// journal and the subscriber ends with every move, in order.
func TestRealBrokerKill9Resume(t *testing.T) {
	for _, bk := range brokers {
		t.Run(bk.name, func(t *testing.T) {
			br := bk.start(t)
			const n = 8
			g := loadGames(t, n+1)[n]
			moves := gameMoves(g)
			v := liveSubscriber(t, br.URL(), "sub-kill")
			dir := t.TempDir()
			env := []string{"BOARDD_HELPER_GAME=" + strconv.Itoa(n), "BOARDD_HELPER_PACE=15ms"}
			c := startChild(t, "game", br.URL(), dir, env...)
			half := len(moves) / 2
			waitFor(t, 30*time.Second, "half the game played", func() bool { _, ok := c.said(fmt.Sprintf("ply %d", half)); return ok })
			c.kill9(t)
			last, _ := c.said("ply ")
			c2 := startChild(t, "game", br.URL(), dir, env...)
			waitFor(t, 60*time.Second, "the restarted board to finish", func() bool { _, ok := c2.said("done"); return ok })
			resumed, _ := c2.said("resumed at ply")
			t.Logf("killed after %q; restarted board: %q", last, resumed)
			var at int
			var session uint32
			fmt.Sscanf(resumed, "resumed at ply %d session %d", &at, &session)
			if at < half || session < 2 {
				t.Fatalf("restarted board %q: want it to resume at ply >= %d in a new session", resumed, half)
			}
			waitFor(t, 10*time.Second, "all moves", func() bool { return len(v.finalMoves()) == len(moves) })
			v.checkComplete(t, moves)
		})
	}
}

// Commands queued by the broker while the board was away are delivered
// when it returns; one that expired meanwhile is refused, one that did not
// is applied.
func TestRealBrokerExpiredCommand(t *testing.T) {
	for _, bk := range brokers {
		t.Run(bk.name, func(t *testing.T) {
			br := bk.start(t)
			v := liveSubscriber(t, br.URL(), "sub-cmd")
			dir := t.TempDir()
			h := &fakeHandler{}
			p := openBoard(t, br.URL(), dir, h)
			h.p = p
			stop := run(t, p)
			waitFor(t, 10*time.Second, "board online", func() bool { return p.Connected() })
			stop() // the board goes away; its session stays at the broker
			p.Close()

			tablet, err := publish.PahoDialer{URL: br.URL()}.Dial(context.Background(), publish.DialOptions{ClientID: "tablet"})
			if err != nil {
				t.Fatal(err)
			}
			defer tablet.Close()
			now := time.Now().UTC()
			for _, c := range []struct{ id, expires string }{
				{"soon", now.Add(500 * time.Millisecond).Format(time.RFC3339Nano)},
				{"later", now.Add(time.Minute).Format(time.RFC3339Nano)},
			} {
				cmd := fmt.Sprintf(`{"id":%q,"expires":%q,"white":"W","black":"B"}`, c.id, c.expires)
				if a := tablet.Publish(publish.Message{Topic: publish.Topic("b1", "cmd/new_game"), Payload: []byte(cmd), QoS: 1}); a != nil {
					<-a.Done()
					if a.Err() != nil {
						t.Fatal(a.Err())
					}
				}
			}
			time.Sleep(time.Second)
			h2 := &fakeHandler{}
			p2 := openBoard(t, br.URL(), dir, h2)
			h2.p = p2
			defer p2.Close()
			stop2 := run(t, p2)
			defer stop2()
			waitFor(t, 10*time.Second, "both replies", func() bool {
				_, a := v.reply("soon")
				_, b := v.reply("later")
				return a && b
			})
			soon, _ := v.reply("soon")
			later, _ := v.reply("later")
			if soon.OK || !strings.Contains(soon.Error, "expired at") {
				t.Fatalf("expired command: reply %+v", soon)
			}
			if !later.OK {
				t.Fatalf("unexpired command: reply %+v", later)
			}
			if h2.count() != 1 {
				t.Fatalf("handler calls %v, want only the unexpired new_game", h2.calls)
			}
		})
	}
}
