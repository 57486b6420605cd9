package publish_test

// The load benchmark: N simulated boards replay real games at blitz speed
// into one mosquitto while subscribers measure the delivery lag of move
// events. It is not part of go test's normal run:
//
//	go test ./publish -run 'TestLoad$' -v -load.boards 2000 -load.duration 60s -timeout 20m
//	go test ./publish -run TestLoadEmbeddedRSS -v -load.rss
//
// A venue's boards are Pis of their own and its subscribers other machines,
// so the boards run in child processes of -load.perproc boards each and
// every subscriber in a process of its own (the test binary re-executed),
// not as goroutines of one process whose garbage collector and scheduler
// then serve 2,000 boards at once. -load.perproc 0 runs everything in the
// test process. See docs/mqtt.md for the figures.

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
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
	loadSubs     = flag.Int("load.subs", 20, "load benchmark: subscribers measuring the lag, each following an equal share of the boards")
	loadInflight = flag.Int("load.inflight", 1, "load benchmark: mosquitto max_inflight_messages")
	loadPerProc  = flag.Int("load.perproc", 100, "load benchmark: boards per child process (each subscriber gets a process of its own); 0 runs boards and subscribers in the test process")
	loadAutosave = flag.Int("load.autosave", 10, "load benchmark: mosquitto autosave_interval in seconds (deploy/mosquitto's setting)")
	loadRSS      = flag.Bool("load.rss", false, "measure the memory of one board with the embedded broker (child process)")
)

// loadDrain is how long the workers keep running after the measuring
// window, so that events journaled at its end are still counted when they
// arrive late (an event not delivered by then is reported as missing).
const loadDrain = 5 * time.Second

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

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p * float64(len(sorted)-1))
	return sorted[i]
}

func spread(d []time.Duration) string {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return fmt.Sprintf("p50 %v, p99 %v, max %v", percentile(d, 0.5).Round(10*time.Microsecond), percentile(d, 0.99).Round(10*time.Microsecond), percentile(d, 1).Round(10*time.Microsecond))
}

// loadSpec is one worker's share of the benchmark: boards [Lo, Hi) of N,
// or subscriber Sub of Subs.
type loadSpec struct {
	Kind      string // "boards" or "subs"
	URL       string
	Dir       string
	Lo, Hi, N int
	Sub, Subs int
	Move      time.Duration
	NoSync    bool
}

// A worker talks over a pipe (the child's stdin and stdout). The parent
// sends "mark" (reply: "mark" and counters) and "stop" (reply: "stats"
// lines, the worker's records, "end"). A worker says "ready <rss kB>"
// when set up and "connected" when all its boards or subscriptions are.

// boardRec is what a boards worker knows of one move (unix nanoseconds):
// when Publisher.Move was called and returned, when the outbox handed it to
// the connection, when the broker acknowledged it, and the journal ts.
type boardRec struct {
	call, journaled, published, acked, ts int64
}

// subRec is a subscriber's receipt of a move.
type subRec struct {
	ts, received int64
	dups         int
}

type moveKey struct {
	board, game string
	ply         int
}

// lineWriter serializes the worker's output lines.
type lineWriter struct {
	mu sync.Mutex
	w  *bufio.Writer
}

func (l *lineWriter) printf(format string, a ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, format+"\n", a...)
	l.w.Flush()
}

// loadMain is the child process of a load worker.
func loadMain() int {
	var spec loadSpec
	if err := json.Unmarshal([]byte(os.Getenv("BOARDD_LOAD_SPEC")), &spec); err != nil {
		fmt.Fprintln(os.Stderr, "load worker:", err)
		return 2
	}
	if err := runLoadWorker(spec, os.Stdin, os.Stdout, true); err != nil {
		fmt.Fprintln(os.Stderr, "load worker:", err)
		return 1
	}
	return 0
}

func runLoadWorker(spec loadSpec, in io.Reader, out io.Writer, own bool) error {
	lw := &lineWriter{w: bufio.NewWriterSize(out, 1<<16)}
	if spec.Kind == "subs" {
		return subsWorker(spec, in, lw, own)
	}
	return boardsWorker(spec, in, lw, own)
}

// countingDialer counts what boards publish and notes when each move is
// handed to the connection and acknowledged.
type countingDialer struct {
	publish.Dialer
	qos0, qos1, dials *atomic.Int64
	note              func(m publish.Message) func()
}

func (d countingDialer) Dial(ctx context.Context, o publish.DialOptions) (publish.Conn, error) {
	d.dials.Add(1)
	c, err := d.Dialer.Dial(ctx, o)
	if err != nil {
		return nil, err
	}
	return countingConn{c, d}, nil
}

type countingConn struct {
	publish.Conn
	d countingDialer
}

func (c countingConn) Publish(m publish.Message) publish.Ack {
	if m.QoS == 0 {
		c.d.qos0.Add(1)
	} else {
		c.d.qos1.Add(1)
	}
	var acked func()
	if strings.HasSuffix(m.Topic, "/"+publish.LeafMove) {
		acked = c.d.note(m)
	}
	a := c.Conn.Publish(m)
	if acked != nil {
		go func() {
			<-a.Done()
			if a.Err() == nil {
				acked()
			}
		}()
	}
	return a
}

// workerStats are a worker's runtime figures between two marks.
type workerStats struct {
	mu    sync.Mutex
	marks [][]metrics.Sample
}

var workerMetrics = []string{"/sched/latencies:seconds", "/gc/pauses:seconds", "/gc/cycles/total:gc-cycles"}

func (s *workerStats) mark() {
	ss := make([]metrics.Sample, len(workerMetrics))
	for i, n := range workerMetrics {
		ss[i].Name = n
	}
	metrics.Read(ss)
	s.mu.Lock()
	s.marks = append(s.marks, ss)
	s.mu.Unlock()
}

// report prints the histogram counts between the first two marks, which
// the parent merges over the workers.
func (s *workerStats) report(lw *lineWriter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.marks) < 2 {
		return
	}
	a, b := s.marks[0], s.marks[1]
	for i := 0; i < 2; i++ {
		ha, hb := a[i].Value.Float64Histogram(), b[i].Value.Float64Histogram()
		var sb strings.Builder
		for k := range hb.Counts {
			fmt.Fprintf(&sb, " %d", hb.Counts[k]-ha.Counts[k])
		}
		lw.printf("hist %d%s", i, sb.String())
	}
	lw.printf("gc %d", b[2].Value.Uint64()-a[2].Value.Uint64())
}

// serveMarks answers the parent's "mark" lines (the worker's runtime
// figures, then report's line) until any other line or the end of input.
func serveMarks(in io.Reader, stats *workerStats, report func()) {
	sc := bufio.NewScanner(in)
	for sc.Scan() && strings.TrimSpace(sc.Text()) == "mark" {
		stats.mark()
		report()
	}
}

func boardsWorker(spec loadSpec, in io.Reader, lw *lineWriter, own bool) error {
	games := loadGames(nopTB{}, 300)
	runtime.GC()
	lw.printf("ready %d", procStatus("self", "VmRSS"))

	var mu sync.Mutex
	recs := map[moveKey]*boardRec{}
	rec := func(k moveKey) *boardRec {
		r := recs[k]
		if r == nil {
			r = &boardRec{}
			recs[k] = r
		}
		return r
	}
	var qos0, qos1, dials atomic.Int64
	note := func(m publish.Message) func() {
		var mp publish.MovePayload
		if json.Unmarshal(m.Payload, &mp) != nil {
			return nil
		}
		ts, _ := time.Parse(time.RFC3339Nano, mp.TS)
		k := moveKey{mp.Board, mp.Game, mp.Ply}
		now := time.Now().UnixNano()
		mu.Lock()
		if r := rec(k); r.published == 0 {
			r.published, r.ts = now, ts.UnixNano()
		}
		mu.Unlock()
		return func() {
			now := time.Now().UnixNano()
			mu.Lock()
			if r := rec(k); r.acked == 0 {
				r.acked = now
			}
			mu.Unlock()
		}
	}
	dialer := countingDialer{publish.PahoDialer{URL: spec.URL, KeepAlive: 30 * time.Second}, &qos0, &qos1, &dials, note}

	n := spec.Hi - spec.Lo
	pubs := make([]*publish.Publisher, n)
	for i := range pubs {
		b := spec.Lo + i
		p, err := publish.Open(publish.Config{
			Board: fmt.Sprintf("load-%04d", b), JournalDir: fmt.Sprintf("%s/%d", spec.Dir, b), Dialer: dialer,
			NoSync: spec.NoSync, BackoffMin: 500 * time.Millisecond, BackoffMax: 10 * time.Second,
		})
		if err != nil {
			for _, q := range pubs[:i] {
				q.Close()
			}
			return err
		}
		pubs[i] = p
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var connected, moveErrs atomic.Int64
	for i, p := range pubs {
		wg.Add(2)
		go func() { defer wg.Done(); p.Run(ctx) }()
		go func() {
			defer wg.Done()
			playBoard(ctx, p, spec.Lo+i, spec.N, games, spec.Move, &connected, func(call, done time.Time, m publish.Move, err error) {
				if err != nil {
					moveErrs.Add(1)
					return
				}
				mu.Lock()
				r := rec(moveKey{p.Board(), m.Game, m.Ply})
				r.call, r.journaled = call.UnixNano(), done.UnixNano()
				mu.Unlock()
			})
		}()
	}
	go func() {
		for connected.Load() < int64(n) && ctx.Err() == nil {
			time.Sleep(50 * time.Millisecond)
		}
		lw.printf("connected")
	}()
	var stats workerStats
	serveMarks(in, &stats, func() {
		pending := 0
		for _, p := range pubs {
			pending += p.Pending()
		}
		lw.printf("mark %d %d %d %d %d", qos0.Load(), qos1.Load(), moveErrs.Load(), pending, dials.Load())
	})
	cancel()
	wg.Wait()
	for _, p := range pubs {
		p.Close()
	}
	stats.report(lw)
	mu.Lock()
	lw.mu.Lock()
	for k, r := range recs {
		fmt.Fprintf(lw.w, "b %s %s %d %d %d %d %d %d\n", k.board, k.game, k.ply, r.call, r.journaled, r.published, r.acked, r.ts)
	}
	lw.mu.Unlock()
	mu.Unlock()
	lw.printf("end")
	return nil
}

// playBoard is one board: it switches on within 5 s (as a venue's do) and
// replays games, a ply every 0.2-1.8 × mean, a clock press journaled per
// ply and a clock tick every second.
func playBoard(ctx context.Context, p *publish.Publisher, i, n int, games []*chess.Game, mean time.Duration, connected *atomic.Int64, moved func(call, done time.Time, m publish.Move, err error)) {
	select {
	case <-ctx.Done():
		return
	case <-time.After(time.Duration(rand.Int64N(int64(5 * time.Second)))):
	}
	counted := false
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	next := time.NewTimer(time.Hour)
	defer next.Stop()
	for gi := i; ctx.Err() == nil; gi += n {
		g := games[gi%len(games)]
		moves := gameMoves(g)
		p.StartGame(infoOf(g))
		white, black := int64(180000), int64(180000)
		p.Clock(publish.ClockState{Clocks: publish.Clocks{WhiteMS: white, BlackMS: black}, Running: "white", Event: "start"})
		next.Reset(time.Duration(rand.Float64() * float64(mean)))
		for k := 0; k < len(moves) && ctx.Err() == nil; {
			select {
			case <-ctx.Done():
			case <-tick.C:
				if !counted && p.Connected() {
					connected.Add(1)
					counted = true
				}
				p.Clock(publish.ClockState{Clocks: publish.Clocks{WhiteMS: white, BlackMS: black}, Running: [2]string{"white", "black"}[k%2], Event: "tick"})
			case <-next.C:
				call := time.Now()
				m, err := p.Move(moves[k])
				moved(call, time.Now(), m, err)
				white, black = moves[k].Clocks.WhiteMS, moves[k].Clocks.BlackMS
				p.Clock(publish.ClockState{Clocks: publish.Clocks{WhiteMS: white, BlackMS: black}, Running: [2]string{"black", "white"}[k%2], Event: "press"})
				k++
				next.Reset(time.Duration((0.2 + 1.6*rand.Float64()) * float64(mean)))
			}
		}
	}
}

func subsWorker(spec loadSpec, in io.Reader, lw *lineWriter, own bool) error {
	if own {
		runtime.GC()
	}
	lw.printf("ready %d", procStatus("self", "VmRSS"))
	var mu sync.Mutex
	recs := map[moveKey]*subRec{}
	var received atomic.Int64
	onMove := func(topic string, payload []byte) {
		now := time.Now().UnixNano()
		var m publish.MovePayload
		if json.Unmarshal(payload, &m) != nil {
			return
		}
		ts, err := time.Parse(time.RFC3339Nano, m.TS)
		if err != nil {
			return
		}
		received.Add(1)
		k := moveKey{m.Board, m.Game, m.Ply}
		mu.Lock()
		if r := recs[k]; r != nil {
			r.dups++
		} else {
			recs[k] = &subRec{ts: ts.UnixNano(), received: now}
		}
		mu.Unlock()
	}
	ctx := context.Background()
	conn, err := publish.PahoDialer{URL: spec.URL, KeepAlive: 30 * time.Second}.Dial(ctx, publish.DialOptions{ClientID: fmt.Sprintf("load-subscriber-%d", spec.Sub), OnMessage: onMove})
	if err != nil {
		return err
	}
	if spec.Subs == 1 {
		err = conn.Subscribe(ctx, publish.TopicPrefix+"+/"+publish.LeafMove, 1)
	} else {
		for i := spec.Sub; i < spec.N && err == nil; i += spec.Subs {
			err = conn.Subscribe(ctx, publish.Topic(fmt.Sprintf("load-%04d", i), publish.LeafMove), 1)
		}
	}
	if err != nil {
		conn.Close()
		return err
	}
	lw.printf("connected")
	var stats workerStats
	serveMarks(in, &stats, func() { lw.printf("mark %d", received.Load()) })
	conn.Close()
	stats.report(lw)
	mu.Lock()
	lw.mu.Lock()
	for k, r := range recs {
		fmt.Fprintf(lw.w, "s %s %s %d %d %d %d\n", k.board, k.game, k.ply, r.ts, r.received, r.dups)
	}
	lw.mu.Unlock()
	mu.Unlock()
	lw.printf("end")
	return nil
}

// loadWorker is the parent's handle on a worker.
type loadWorker struct {
	spec  loadSpec
	pid   int // 0: in the test process
	in    io.WriteCloser
	lines chan string
	recs  []string
	hists map[int][]uint64
	gc    uint64
	base  int64 // RSS when ready (kB)
	done  chan error
}

func startLoadWorker(t *testing.T, spec loadSpec, inProc bool) *loadWorker {
	t.Helper()
	w := &loadWorker{spec: spec, lines: make(chan string, 64), hists: map[int][]uint64{}, done: make(chan error, 1)}
	var out io.Reader
	if inProc {
		ir, iw := io.Pipe()
		or, ow := io.Pipe()
		w.in, out = iw, or
		go func() {
			err := runLoadWorker(spec, ir, ow, false)
			ow.CloseWithError(err)
		}()
	} else {
		b, _ := json.Marshal(spec)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "BOARDD_PUBLISH_HELPER=load", "BOARDD_LOAD_SPEC="+string(b))
		cmd.Stderr = os.Stderr
		var err error
		if w.in, err = cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		o, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		w.pid, out = cmd.Process.Pid, o
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			l := sc.Text()
			switch {
			case strings.HasPrefix(l, "b ") || strings.HasPrefix(l, "s "):
				w.recs = append(w.recs, l)
			case strings.HasPrefix(l, "hist "):
				f := strings.Fields(l)
				i, _ := strconv.Atoi(f[1])
				for _, s := range f[2:] {
					v, _ := strconv.ParseUint(s, 10, 64)
					w.hists[i] = append(w.hists[i], v)
				}
			case strings.HasPrefix(l, "gc "):
				w.gc, _ = strconv.ParseUint(l[3:], 10, 64)
			default:
				w.lines <- l
			}
		}
		err := sc.Err()
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		w.done <- err
		close(w.lines)
	}()
	return w
}

// expect waits for a line starting with prefix.
func (w *loadWorker) expect(t *testing.T, prefix string, timeout time.Duration) string {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-w.lines:
			if !ok {
				t.Fatalf("load worker %s %d-%d/%d ended before %q", w.spec.Kind, w.spec.Lo, w.spec.Hi, w.spec.Sub, prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-deadline:
			t.Fatalf("load worker %s %d-%d/%d: no %q within %v", w.spec.Kind, w.spec.Lo, w.spec.Hi, w.spec.Sub, prefix, timeout)
		}
	}
}

func (w *loadWorker) mark(t *testing.T) []int64 {
	t.Helper()
	fmt.Fprintln(w.in, "mark")
	f := strings.Fields(w.expect(t, "mark", 30*time.Second))[1:]
	v := make([]int64, len(f))
	for i, s := range f {
		v[i], _ = strconv.ParseInt(s, 10, 64)
	}
	return v
}

func (w *loadWorker) cpu() time.Duration {
	if w.pid == 0 {
		return cpuTime()
	}
	return procCPU(w.pid)
}

func (w *loadWorker) rss() int64 {
	if w.pid == 0 {
		return procStatus("self", "VmRSS")
	}
	return procStatus(strconv.Itoa(w.pid), "VmRSS")
}

// histSummary merges workers' histogram deltas of metric i.
func histSummary(ws []*loadWorker, i int) string {
	ss := []metrics.Sample{{Name: workerMetrics[i]}}
	metrics.Read(ss)
	buckets := ss[0].Value.Float64Histogram().Buckets
	var counts []uint64
	for _, w := range ws {
		for k, c := range w.hists[i] {
			if k >= len(counts) {
				counts = append(counts, make([]uint64, k+1-len(counts))...)
			}
			counts[k] += c
		}
	}
	var total uint64
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return "none"
	}
	q := func(p float64) time.Duration {
		var c uint64
		for k, n := range counts {
			c += n
			if float64(c) >= p*float64(total) {
				return time.Duration(buckets[k+1] * 1e9)
			}
		}
		return 0
	}
	mx := 0
	for k, n := range counts {
		if n > 0 {
			mx = k
		}
	}
	return fmt.Sprintf("%d samples, p50 < %v, p99 < %v, p99.9 < %v, max < %v", total, q(.5), q(.99), q(.999), time.Duration(buckets[mx+1]*1e9))
}

func TestLoad(t *testing.T) {
	n := *loadBoards
	if n <= 0 {
		t.Skip("load benchmark: pass -load.boards N")
	}
	url := *loadBroker
	mosqPid := 0
	if url == "" {
		m := mosqtest.Start(t, mosqtest.Options{AllowAnonymous: true, MaxInflight: *loadInflight, Autosave: *loadAutosave})
		url, mosqPid = m.URL(), m.Pid()
	}
	inProc := *loadPerProc <= 0
	per := *loadPerProc
	if inProc {
		per = n
	}
	subs := max(*loadSubs, 1)
	t.Logf("load average before: %s", loadAvg())

	// Subscribers first, so they see every board from its start.
	var subW, boardW []*loadWorker
	for s := 0; s < subs; s++ {
		subW = append(subW, startLoadWorker(t, loadSpec{Kind: "subs", URL: url, N: n, Sub: s, Subs: subs}, inProc))
	}
	for _, w := range subW {
		w.expect(t, "connected", time.Minute)
	}
	dir := t.TempDir()
	start := time.Now()
	for lo := 0; lo < n; lo += per {
		boardW = append(boardW, startLoadWorker(t, loadSpec{Kind: "boards", URL: url, Dir: dir, Lo: lo, Hi: min(lo+per, n), N: n, Move: *loadMove, NoSync: *loadNoSync}, inProc))
	}
	var base int64
	for _, w := range boardW {
		w.base, _ = strconv.ParseInt(strings.Fields(w.expect(t, "ready", time.Minute))[1], 10, 64)
		base += w.base
	}
	for _, w := range boardW {
		w.expect(t, "connected", 2*time.Minute+time.Duration(n)*10*time.Millisecond)
	}
	t.Logf("%d boards in %d process(es), %d subscriber(s), connected in %v", n, len(boardW), subs, time.Since(start).Round(time.Millisecond))
	time.Sleep(5 * time.Second) // warm up

	all := append(append([]*loadWorker(nil), boardW...), subW...)
	sumCPU := func(ws []*loadWorker) time.Duration {
		var d time.Duration
		for _, w := range ws {
			d += w.cpu()
		}
		return d
	}
	type counters struct{ q0, q1, moveErrs, pending, dials, received int64 }
	markAll := func() (c counters) {
		for _, w := range all {
			v := w.mark(t)
			if w.spec.Kind == "subs" {
				c.received += v[0]
			} else {
				c.q0, c.q1, c.moveErrs, c.pending, c.dials = c.q0+v[0], c.q1+v[1], c.moveErrs+v[2], c.pending+v[3], c.dials+v[4]
			}
		}
		return c
	}
	bcpu0, scpu0, mcpu0 := sumCPU(boardW), sumCPU(subW), procCPU(mosqPid)
	c0 := markAll()
	t0 := time.Now()
	var loads []string
	for el := time.Duration(0); el < *loadDuration; el += 10 * time.Second {
		time.Sleep(min(10*time.Second, *loadDuration-el))
		loads = append(loads, strings.Fields(loadAvg())[0])
	}
	c1 := markAll()
	t1 := time.Now()
	el := t1.Sub(t0)
	bcpu1, scpu1, mcpu1 := sumCPU(boardW), sumCPU(subW), procCPU(mosqPid)
	var rss int64
	for _, w := range boardW {
		rss += w.rss()
	}
	time.Sleep(loadDrain)
	for _, w := range all {
		fmt.Fprintln(w.in, "stop")
	}
	for _, w := range all {
		w.expect(t, "end", time.Minute)
		w.in.Close()
	}

	// Join what the boards and the subscribers saw, over the moves
	// journaled in the window.
	got := map[moveKey]subRec{}
	dups := 0
	for _, w := range subW {
		for _, l := range w.recs {
			var k moveKey
			var r subRec
			fmt.Sscanf(l, "s %s %s %d %d %d %d", &k.board, &k.game, &k.ply, &r.ts, &r.received, &r.dups)
			got[k] = r
			dups += r.dups
		}
	}
	var lag, journal, after, pick, ack, broker []time.Duration
	missing := 0
	for _, w := range boardW {
		for _, l := range w.recs {
			var k moveKey
			var r boardRec
			fmt.Sscanf(l, "b %s %s %d %d %d %d %d %d", &k.board, &k.game, &k.ply, &r.call, &r.journaled, &r.published, &r.acked, &r.ts)
			if r.journaled < t0.UnixNano() || r.journaled >= t1.UnixNano() {
				continue
			}
			journal = append(journal, time.Duration(r.journaled-r.call))
			s, ok := got[k]
			if !ok {
				missing++
				continue
			}
			lag = append(lag, time.Duration(s.received-s.ts))
			after = append(after, time.Duration(s.received-r.journaled))
			if r.published != 0 {
				pick = append(pick, time.Duration(r.published-r.journaled))
				broker = append(broker, time.Duration(s.received-r.published))
				if r.acked != 0 {
					ack = append(ack, time.Duration(r.acked-r.published))
				}
			}
		}
	}

	mode := fmt.Sprintf("%d board process(es) of up to %d boards, %d subscriber process(es)", len(boardW), per, subs)
	if inProc {
		mode = fmt.Sprintf("boards and %d subscriber(s) in the test process", subs)
	}
	t.Logf("load: %d boards, %v measured, a ply every %v per board, fsync %v; %s; mosquitto max_inflight_messages %d, autosave_interval %d s", n, el.Round(time.Second), *loadMove, !*loadNoSync, mode, *loadInflight, *loadAutosave)
	t.Logf("load average (1 min) every 10 s: %s; after: %s", strings.Join(loads, " "), loadAvg())
	q0, q1 := c1.q0-c0.q0, c1.q1-c0.q1
	t.Logf("published: %.0f msg/s (QoS 1 %.0f/s, QoS 0 ticks %.0f/s); move events journaled %.0f/s, delivered %.0f/s", float64(q0+q1)/el.Seconds(), float64(q1)/el.Seconds(), float64(q0)/el.Seconds(), float64(len(journal))/el.Seconds(), float64(len(lag))/el.Seconds())
	t.Logf("move event lag (journal ts -> subscriber): %s over %d events; %d journaled in the window not delivered within %v after it; %d duplicates", spread(lag), len(lag), missing, loadDrain, dups)
	t.Logf("  journaling (Publisher.Move: checks, write, fsync): %s", spread(journal))
	t.Logf("  Move returned -> subscriber: %s", spread(after))
	t.Logf("    Move returned -> handed to the connection (outbox): %s", spread(pick))
	t.Logf("    handed to the connection -> subscriber (client, broker, subscriber): %s", spread(broker))
	t.Logf("    handed to the connection -> PUBACK seen by the board: %s", spread(ack))
	bc := 100 * (bcpu1 - bcpu0).Seconds() / el.Seconds()
	t.Logf("boards' processes: CPU %.1f%% of a core in total, %.4f%% per board; RSS %d MB in total, %.0f kB per board above the %d MB of %d process(es) before their boards started", bc, bc/float64(n), rss/1024, float64(rss-base)/float64(n), base/1024, len(boardW))
	if !inProc {
		t.Logf("subscribers' processes: CPU %.1f%% of a core in total", 100*(scpu1-scpu0).Seconds()/el.Seconds())
	}
	if mosqPid != 0 {
		t.Logf("mosquitto: CPU %.1f%% of a core", 100*(mcpu1-mcpu0).Seconds()/el.Seconds())
	}
	var gcs uint64
	for _, w := range boardW {
		gcs += w.gc
	}
	hw := boardW
	if inProc {
		hw = boardW[:1] // one runtime: the subscribers' figures are the same
	}
	t.Logf("boards' Go runtimes: scheduling latency %s; GC pauses %s; %d GC cycles", histSummary(hw, 0), histSummary(hw, 1), gcs)
	if !inProc {
		t.Logf("subscribers' Go runtimes: scheduling latency %s", histSummary(subW, 0))
	}
	t.Logf("unacknowledged at the end: %d; move errors: %d; connection attempts: %d for %d boards", c1.pending, c1.moveErrs, c1.dials, n)
	if c1.moveErrs > 0 {
		t.Errorf("%d moves were refused", c1.moveErrs)
	}
	if missing > 0 {
		t.Errorf("%d move events journaled in the window did not reach their subscriber", missing)
	}
	if len(lag) == 0 {
		t.Error("no move event was measured")
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
	pw := broker.Passwords{"b1": broker.HashPasswordCost("pw", []byte("0123456789ab"), 101)}
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
