package publish_test

// The load benchmark: N simulated boards replay real games at blitz speed
// into one mosquitto while a subscriber measures the delivery lag of move
// events. It is not part of go test's normal run:
//
//	go test ./publish -run TestLoad -v -load.boards 2000 -load.duration 60s
//	go test ./publish -run TestLoadEmbeddedRSS -v -load.rss
//
// See docs/mqtt.md for the figures.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
	"github.com/boardd/boardd/publish/internal/mosqtest"
)

var (
	loadBoards   = flag.Int("load.boards", 0, "load benchmark: number of simulated boards (0 skips it)")
	loadDuration = flag.Duration("load.duration", 60*time.Second, "load benchmark: measuring time after every board is connected")
	loadMove     = flag.Duration("load.move", 5*time.Second, "load benchmark: mean time between two plies on a board (blitz: about 5 s)")
	loadNoSync   = flag.Bool("load.nosync", false, "load benchmark: journals without fsync (all boards share this machine's disk, which a Pi does not)")
	loadBroker   = flag.String("load.broker", "", "load benchmark: URL of an external broker instead of a private mosquitto")
	loadSubs     = flag.Int("load.subs", 1, "load benchmark: subscribers measuring the lag, each following an equal share of the boards")
	loadInflight = flag.Int("load.inflight", 1, "load benchmark: mosquitto max_inflight_messages")
	loadRSS      = flag.Bool("load.rss", false, "measure the memory of one board with the embedded broker (child process)")
)

// countingDialer counts what boards publish.
type countingDialer struct {
	publish.Dialer
	qos0, qos1, dials *atomic.Int64
}

func (d countingDialer) Dial(ctx context.Context, o publish.DialOptions) (publish.Conn, error) {
	d.dials.Add(1)
	c, err := d.Dialer.Dial(ctx, o)
	if err != nil {
		return nil, err
	}
	return countingConn{c, d.qos0, d.qos1}, nil
}

type countingConn struct {
	publish.Conn
	qos0, qos1 *atomic.Int64
}

func (c countingConn) Publish(m publish.Message) publish.Ack {
	if m.QoS == 0 {
		c.qos0.Add(1)
	} else {
		c.qos1.Add(1)
	}
	return c.Conn.Publish(m)
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procStatus reads a field (kB) of /proc/<pid>/status.
func procStatus(pid, field string) int64 {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			n, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			return n
		}
	}
	return 0
}

// procCPU is a process's user+system CPU time from /proc/<pid>/stat.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * (time.Second / 100) // USER_HZ is 100 on Linux
}

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p * float64(len(sorted)-1))
	return sorted[i]
}

func TestLoad(t *testing.T) {
	n := *loadBoards
	if n <= 0 {
		t.Skip("load benchmark: pass -load.boards N")
	}
	url := *loadBroker
	mosqPid := 0
	if url == "" {
		m := mosqtest.Start(t, mosqtest.Options{AllowAnonymous: true, MaxInflight: *loadInflight})
		url, mosqPid = m.URL(), m.Pid()
	}
	games := loadGames(t, 300)
	var qos0, qos1, dials atomic.Int64
	dialer := countingDialer{publish.PahoDialer{URL: url, KeepAlive: 30 * time.Second}, &qos0, &qos1, &dials}

	// The subscribers: each follows the move events of a share of the
	// boards (one subscriber: a wildcard over all of them).
	var lagMu sync.Mutex
	var lags []time.Duration
	measuring := atomic.Bool{}
	var received atomic.Int64
	var journaled sync.Map // "board ply" -> when Publisher.Move returned
	var sendLags []time.Duration
	onMove := func(topic string, payload []byte) {
		now := time.Now()
		var m publish.MovePayload
		if json.Unmarshal(payload, &m) != nil {
			return
		}
		ts, err := time.Parse(time.RFC3339Nano, m.TS)
		if err != nil || !measuring.Load() {
			return
		}
		received.Add(1)
		lagMu.Lock()
		lags = append(lags, now.Sub(ts))
		if at, ok := journaled.Load(fmt.Sprint(m.Board, " ", m.Game, " ", m.Ply)); ok {
			sendLags = append(sendLags, now.Sub(at.(time.Time)))
		}
		lagMu.Unlock()
	}
	subs := max(*loadSubs, 1)
	for s := 0; s < subs; s++ {
		sub, err := publish.PahoDialer{URL: url, KeepAlive: 30 * time.Second}.Dial(context.Background(), publish.DialOptions{ClientID: fmt.Sprintf("load-subscriber-%d", s), OnMessage: onMove})
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		if subs == 1 {
			if err := sub.Subscribe(context.Background(), publish.TopicPrefix+"+/move", 1); err != nil {
				t.Fatal(err)
			}
			continue
		}
		for i := s; i < n; i += subs {
			if err := sub.Subscribe(context.Background(), publish.Topic(fmt.Sprintf("load-%04d", i), "move"), 1); err != nil {
				t.Fatal(err)
			}
		}
	}

	var callMu sync.Mutex
	var calls []time.Duration // Publisher.Move: check, journal, fsync
	runtimeBase := procStatus("self", "VmRSS")
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var connected atomic.Int64
	var moveErrs atomic.Int64
	base := t.TempDir()
	pubs := make([]*publish.Publisher, n)
	for i := 0; i < n; i++ {
		p, err := publish.Open(publish.Config{
			Board: fmt.Sprintf("load-%04d", i), JournalDir: fmt.Sprintf("%s/%d", base, i), Dialer: dialer,
			NoSync: *loadNoSync, BackoffMin: 500 * time.Millisecond, BackoffMax: 10 * time.Second,
		})
		if err != nil {
			t.Fatal(err)
		}
		pubs[i] = p
	}
	start := time.Now()
	for i, p := range pubs {
		wg.Add(2)
		go func() { defer wg.Done(); p.Run(ctx) }()
		go func() {
			defer wg.Done()
			// Boards switch on over 5 s, as a venue's do.
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Duration(rand.Int64N(int64(5 * time.Second)))):
			}
			counted := false
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for gi := i; ctx.Err() == nil; gi += n {
				g := games[gi%len(games)]
				moves := gameMoves(g)
				p.StartGame(infoOf(g))
				white, black := int64(180000), int64(180000)
				p.Clock(publish.ClockState{Clocks: publish.Clocks{WhiteMS: white, BlackMS: black}, Running: "white", Event: "start"})
				next := time.After(time.Duration(rand.Float64() * float64(*loadMove)))
				for k := 0; k < len(moves) && ctx.Err() == nil; {
					select {
					case <-ctx.Done():
					case <-tick.C:
						if !counted && p.Connected() {
							connected.Add(1)
							counted = true
						}
						p.Clock(publish.ClockState{Clocks: publish.Clocks{WhiteMS: white, BlackMS: black}, Running: [2]string{"white", "black"}[k%2], Event: "tick"})
					case <-next:
						callStart := time.Now()
						if m, err := p.Move(moves[k]); err != nil {
							moveErrs.Add(1)
						} else {
							journaled.Store(fmt.Sprint(p.Board(), " ", m.Game, " ", m.Ply), time.Now())
						}
						if measuring.Load() {
							callMu.Lock()
							calls = append(calls, time.Since(callStart))
							callMu.Unlock()
						}
						white, black = moves[k].Clocks.WhiteMS, moves[k].Clocks.BlackMS
						p.Clock(publish.ClockState{Clocks: publish.Clocks{WhiteMS: white, BlackMS: black}, Running: [2]string{"black", "white"}[k%2], Event: "press"})
						k++
						// Exponential-ish think times around the mean.
						next = time.After(time.Duration((0.2 + 1.6*rand.Float64()) * float64(*loadMove)))
					}
				}
			}
		}()
	}
	deadline := time.Now().Add(2*time.Minute + time.Duration(n)*10*time.Millisecond)
	for connected.Load() < int64(n) {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("only %d of %d boards connected", connected.Load(), n)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("%d boards connected in %v", n, time.Since(start).Round(time.Millisecond))
	time.Sleep(5 * time.Second) // warm up
	q0, q1 := qos0.Load(), qos1.Load()
	cpu0, mcpu0 := cpuTime(), procCPU(mosqPid)
	measuring.Store(true)
	t0 := time.Now()
	time.Sleep(*loadDuration)
	measuring.Store(false)
	el := time.Since(t0)
	cpu1, mcpu1 := cpuTime(), procCPU(mosqPid)
	q0, q1 = qos0.Load()-q0, qos1.Load()-q1
	rss := procStatus("self", "VmRSS")
	pending := 0
	for _, p := range pubs {
		pending += p.Pending()
	}
	cancel()
	wg.Wait()
	for _, p := range pubs {
		p.Close()
	}

	lagMu.Lock()
	sort.Slice(lags, func(i, j int) bool { return lags[i] < lags[j] })
	p50, p99, pmax := percentile(lags, 0.5), percentile(lags, 0.99), percentile(lags, 1)
	lagMu.Unlock()
	t.Logf("load: %d boards, %v measured, a ply every %v per board, fsync %v, %d subscriber(s), max_inflight_messages %d", n, el.Round(time.Second), *loadMove, !*loadNoSync, subs, *loadInflight)
	t.Logf("published: %.0f msg/s (QoS 1 %.0f/s, QoS 0 ticks %.0f/s); move events delivered: %.0f/s", float64(q0+q1)/el.Seconds(), float64(q1)/el.Seconds(), float64(q0)/el.Seconds(), float64(received.Load())/el.Seconds())
	t.Logf("move event lag (journaled -> subscriber): p50 %v, p99 %v, max %v over %d events", p50, p99, pmax, received.Load())
	callMu.Lock()
	sort.Slice(calls, func(i, j int) bool { return calls[i] < calls[j] })
	t.Logf("of which journaling (Publisher.Move, fsync included): p50 %v, p99 %v, max %v", percentile(calls, 0.5), percentile(calls, 0.99), percentile(calls, 1))
	lagMu.Lock()
	sort.Slice(sendLags, func(i, j int) bool { return sendLags[i] < sendLags[j] })
	t.Logf("from journaled to subscriber (outbox, broker, subscriber): p50 %v, p99 %v, max %v over %d events", percentile(sendLags, 0.5), percentile(sendLags, 0.99), percentile(sendLags, 1), len(sendLags))
	lagMu.Unlock()
	callMu.Unlock()
	cpuPct := 100 * (cpu1 - cpu0).Seconds() / el.Seconds()
	t.Logf("boards' process: CPU %.1f%% of a core in total, %.3f%% per board; RSS %d MB in total, %.0f kB per board above the %d MB base", cpuPct, cpuPct/float64(n), rss/1024, float64(rss-runtimeBase)/float64(n), runtimeBase/1024)
	if mosqPid != 0 {
		t.Logf("mosquitto: CPU %.1f%% of a core", 100*(mcpu1-mcpu0).Seconds()/el.Seconds())
	}
	t.Logf("unacknowledged at the end: %d; move errors: %d; connection attempts: %d for %d boards", pending, moveErrs.Load(), dials.Load(), n)
	if moveErrs.Load() > 0 {
		t.Errorf("%d moves were refused", moveErrs.Load())
	}
}

// TestLoadEmbeddedRSS runs one board with the embedded broker in a child
// process, plays a game through it and reports the child's peak RSS.
func TestLoadEmbeddedRSS(t *testing.T) {
	if !*loadRSS {
		t.Skip("pass -load.rss")
	}
	c := startChild(t, "rss", "", t.TempDir())
	select {
	case err := <-c.done:
		if err != nil {
			t.Fatalf("child: %v", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("child did not finish")
	}
	for _, l := range c.lines {
		t.Log(l)
	}
	line, ok := c.said("peak RSS")
	if !ok {
		t.Fatal("no figure from the child")
	}
	var kb int64
	fmt.Sscanf(line, "peak RSS %d kB", &kb)
	if kb > 20*1024 {
		t.Errorf("peak RSS %d kB, target < 20 MB", kb)
	}
}

// rssMain is the child of TestLoadEmbeddedRSS: embedded broker (TCP and
// WebSocket), a board playing three games with clock ticks, and a viewer.
func rssMain() int {
	// Only the games played, not the whole corpus the tests use.
	f, err := os.Open(broadcastPGN)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	pr := chess.NewPGNReader(f)
	var games []*chess.Game
	for len(games) < 3 {
		g, err := pr.Next()
		if err != nil {
			fmt.Println(err)
			return 1
		}
		games = append(games, g)
	}
	f.Close()
	runtime.GC()
	fmt.Printf("before the broker: RSS %d kB\n", procStatus("self", "VmRSS"))
	acl, _ := broker.ParseACL(strings.NewReader(broker.DefaultACL))
	pw := broker.Passwords{"b1": broker.HashPassword("pw", []byte("0123456789ab"))}
	e, err := broker.Start(broker.Config{
		Listeners:      []broker.Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}, {Kind: "ws", Addr: "127.0.0.1:0"}},
		ACL:            acl,
		Passwords:      pw,
		AllowAnonymous: true,
	})
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer e.Close()
	p, err := publish.Open(publish.Config{Board: "b1", JournalDir: os.Getenv("BOARDD_HELPER_DIR"), Dialer: publish.PahoDialer{URL: e.URL(), Username: "b1", Password: "pw"}})
	if err != nil {
		fmt.Println(err)
		return 1
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	var seen atomic.Int64
	viewer, err := publish.PahoDialer{URL: e.URL()}.Dial(ctx, publish.DialOptions{ClientID: "viewer", OnMessage: func(string, []byte) { seen.Add(1) }})
	if err != nil {
		fmt.Println(err)
		return 1
	}
	viewer.Subscribe(ctx, publish.TopicPrefix+"+/state", 0)
	viewer.Subscribe(ctx, publish.TopicPrefix+"+/move", 1)
	plies := 0
	for _, g := range games {
		p.StartGame(infoOf(g))
		for _, m := range gameMoves(g) {
			p.Move(m)
			p.Clock(publish.ClockState{Clocks: *m.Clocks, Running: "white", Event: "press"})
			p.Clock(publish.ClockState{Clocks: *m.Clocks, Running: "white", Event: "tick"})
			plies++
			time.Sleep(5 * time.Millisecond)
		}
		p.End(publish.Result{Result: g.Result})
	}
	for p.Pending() > 0 {
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Printf("played %d plies; the viewer received %d messages\n", plies, seen.Load())
	fmt.Printf("peak RSS %d kB (VmHWM), now %d kB\n", procStatus("self", "VmHWM"), procStatus("self", "VmRSS"))
	viewer.Close()
	cancel()
	<-done
	p.Close()
	return 0
}
