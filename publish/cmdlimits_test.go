package publish_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
	"github.com/boardd/boardd/publish/publishtest"
)

// dirSize is the bytes of the files under dir.
func dirSize(t testing.TB, dir string) int64 {
	t.Helper()
	var n int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return nil
	})
	return n
}

// limitedBoard runs a board on the fake broker with the given command
// limits and a tablet that sends it commands.
func limitedBoard(t *testing.T, cfg publish.Config) (*publish.Publisher, *view, func(verb, payload string), *fakeHandler) {
	t.Helper()
	b := publishtest.New()
	v := subscribe(t, b, "sub")
	h := &fakeHandler{}
	cfg.Board, cfg.Dialer, cfg.Handler = "b1", b, h
	cfg.BackoffMin, cfg.BackoffMax = 5*time.Millisecond, 50*time.Millisecond
	p, err := publish.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.p = p
	t.Cleanup(func() { p.Close() })
	t.Cleanup(run(t, p))
	tablet, err := b.Dial(context.Background(), publish.DialOptions{ClientID: "tablet"})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 2*time.Second, "board online", p.Connected)
	send := func(verb, payload string) {
		tablet.Publish(publish.Message{Topic: publish.Topic("b1", "cmd/"+verb), Payload: []byte(payload), QoS: 1})
	}
	return p, v, send, h
}

// Commands beyond the rate are dropped as they arrive: no reply, nothing
// journaled.
func TestCommandFloodDroppedBeforeJournal(t *testing.T) {
	dir := t.TempDir()
	p, v, send, _ := limitedBoard(t, publish.Config{JournalDir: dir, CommandBurst: 10, CommandRate: 0.001})
	future := time.Now().Add(time.Minute).UTC().Format(time.RFC3339)
	before := dirSize(t, dir)
	for i := range 100 {
		send("ack_alert", fmt.Sprintf(`{"id":"f%d","expires":%q,"alert":"none","decision":"upheld"}`, i, future))
	}
	waitFor(t, 3*time.Second, "ten replies", func() bool { _, ok := v.reply("f9"); return ok })
	waitFor(t, 3*time.Second, "90 drops", func() bool { return p.CommandsDropped() == 90 })
	time.Sleep(50 * time.Millisecond)
	v.mu.Lock()
	n := len(v.replies)
	v.mu.Unlock()
	if n != 10 {
		t.Fatalf("%d replies to a flood of 100 commands with a burst of 10", n)
	}
	if grew := dirSize(t, dir) - before; grew > 10*1024 {
		t.Fatalf("the journal grew by %d bytes for 10 refused commands", grew)
	}
}

// A refused command's payload is not journaled: only its reply.
func TestRefusedCommandPayloadNotJournaled(t *testing.T) {
	dir := t.TempDir()
	_, v, send, _ := limitedBoard(t, publish.Config{JournalDir: dir})
	future := time.Now().Add(time.Minute).UTC().Format(time.RFC3339)
	note := strings.Repeat("n", 3500)
	before := dirSize(t, dir)
	for i := range 5 {
		send("ack_alert", fmt.Sprintf(`{"id":"r%d","expires":%q,"alert":"none","decision":"upheld","note":%q}`, i, future, note))
	}
	waitFor(t, 3*time.Second, "replies", func() bool { _, ok := v.reply("r4"); return ok })
	if r, _ := v.reply("r4"); r.OK || !strings.Contains(r.Error, "not active") {
		t.Fatalf("reply %+v", r)
	}
	if grew := dirSize(t, dir) - before; grew > 3500 {
		t.Fatalf("the journal grew by %d bytes for 5 refused commands of 3.5 KB: their payloads were kept", grew)
	}
	// An oversized one is refused by its size.
	send("ack_alert", `{"id":"big","note":"`+strings.Repeat("n", publish.MaxCommandSize)+`"}`)
	waitFor(t, 3*time.Second, "the refusal of an oversized command", func() bool {
		r, ok := v.reply("")
		return ok && strings.Contains(r.Error, "exceeds")
	})
}

// The remembered command ids are bounded: while the store is full of ids
// whose commands have not expired, new commands are refused (applying one
// could not be made safe against its re-send); once they expire, the ids
// are forgotten and commands are taken again.
func TestCommandIDsBounded(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	_, v, send, h := limitedBoard(t, publish.Config{JournalDir: t.TempDir(), MaxCommandIDs: 3, Now: clock})
	exp := now.Add(time.Minute).Format(time.RFC3339)
	for i := range 3 {
		send("set_time_control", fmt.Sprintf(`{"id":"k%d","expires":%q,"time_control":"5m+3s"}`, i, exp))
	}
	send("set_time_control", fmt.Sprintf(`{"id":"k3","expires":%q,"time_control":"5m+3s"}`, exp))
	waitFor(t, 3*time.Second, "reply k3", func() bool { _, ok := v.reply("k3"); return ok })
	if r, _ := v.reply("k3"); r.OK || !strings.Contains(r.Error, "remembers 3") {
		t.Fatalf("a fourth command with a store of 3: reply %+v", r)
	}
	// A re-send of a remembered one is still answered as a duplicate.
	send("set_time_control", fmt.Sprintf(`{"id":"k0","expires":%q,"time_control":"5m+3s"}`, exp))
	time.Sleep(50 * time.Millisecond)
	if h.count() != 3 {
		t.Fatalf("handler calls %v, want the first three once each", h.calls)
	}
	mu.Lock()
	now = now.Add(61 * time.Second)
	exp = now.Add(time.Minute).Format(time.RFC3339)
	mu.Unlock()
	send("set_time_control", fmt.Sprintf(`{"id":"k4","expires":%q,"time_control":"5m+3s"}`, exp))
	waitFor(t, 3*time.Second, "reply k4", func() bool { _, ok := v.reply("k4"); return ok })
	if r, _ := v.reply("k4"); !r.OK {
		t.Fatalf("a command after the others expired: reply %+v", r)
	}
}

// heapPeak samples the heap until stop is closed and returns the largest
// values seen of its objects (live and not yet swept garbage) and of its
// live bytes as of the last collection.
func heapPeak(stop <-chan struct{}) <-chan [2]uint64 {
	out := make(chan [2]uint64, 1)
	go func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
		var peak [2]uint64
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			peak[0] = max(peak[0], s[0].Value.Uint64())
			peak[1] = max(peak[1], s[1].Value.Uint64())
			select {
			case <-stop:
				out <- peak
				return
			case <-t.C:
			}
		}
	}()
	return out
}

// The flood of issue reports: an arbiter sends 5,000 ack_alert commands of
// 15 KB (and, since those stop at the size cap, of 4 KB, just under it)
// over the embedded broker to a board in the same process. peak-heap-MB is
// the largest heap of board, broker and client together during the flood
// (garbage not yet collected included), peak-live-MB the largest heap that
// a collection found in use, journal-MB what the journal grew. "unlimited" lifts the broker's and the
// board's rate limits and size cap as a peer: the same flood without them.
func BenchmarkCommandFlood(b *testing.B) {
	for _, size := range []int{15 << 10, 4<<10 - 200} {
		for _, limited := range []bool{true, false} {
			name := fmt.Sprintf("%dB/limited", size)
			if !limited {
				name = fmt.Sprintf("%dB/unlimited", size)
			}
			b.Run(name, func(b *testing.B) {
				for range b.N {
					peak, grew := commandFlood(b, size, limited)
					b.ReportMetric(float64(peak[0])/(1<<20), "peak-heap-MB")
					b.ReportMetric(float64(peak[1])/(1<<20), "peak-live-MB")
					b.ReportMetric(float64(grew)/(1<<20), "journal-MB")
				}
			})
		}
	}
}

func commandFlood(b *testing.B, size int, limited bool) (peak [2]uint64, journalGrowth int64) {
	b.Helper()
	pw := broker.Passwords{}
	boardPW, err := pw.SetGenerated("b1")
	if err != nil {
		b.Fatal(err)
	}
	pw["arbiter"] = broker.HashPasswordCost("arb", []byte("salt-arbiter"), 101)
	lim := broker.Limits{}
	bcfg := publish.Config{}
	if !limited {
		lim = broker.Limits{CommandRate: 1e9, CommandBurst: 1e9, CommandSize: 1 << 20}
		bcfg.CommandRate, bcfg.CommandBurst = 1e9, 1e9
	}
	e, err := broker.Start(broker.Config{Listeners: []broker.Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}}, Passwords: pw, AllowAnonymous: true, Limits: lim})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	dir := b.TempDir()
	h := &fakeHandler{}
	bcfg.Board, bcfg.JournalDir, bcfg.Handler, bcfg.NoSync = "b1", dir, h, true
	bcfg.Dialer = publish.PahoDialer{URL: e.URL(), Username: "b1", Password: boardPW}
	p, err := publish.Open(bcfg)
	if err != nil {
		b.Fatal(err)
	}
	h.p = p
	defer p.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	waitFor(b, 5*time.Second, "board online", p.Connected)
	a, err := p.Alert(publish.Alert{Kind: "illegal-move", Ply: 3, Side: "white", Text: "x"})
	if err != nil {
		b.Fatal(err)
	}
	var replies atomic.Int64
	arb, err := publish.PahoDialer{URL: e.URL(), Username: "arbiter", Password: "arb"}.Dial(ctx, publish.DialOptions{ClientID: "console", OnMessage: func(string, []byte) { replies.Add(1) }})
	if err != nil {
		b.Fatal(err)
	}
	defer arb.Close()
	if err := arb.Subscribe(ctx, publish.Topic("b1", "reply"), 1); err != nil {
		b.Fatal(err)
	}
	expires := time.Now().Add(10 * time.Minute).UTC().Format(time.RFC3339)
	pad := strings.Repeat("n", size)
	runtime.GC()
	before := dirSize(b, dir)
	stop := make(chan struct{})
	peakc := heapPeak(stop)
	b.ResetTimer()
	const flood = 5000
	// One buffer for every payload: the client's garbage is not the
	// board's memory.
	buf := make([]byte, 0, size)
	for i := range flood {
		buf = fmt.Appendf(buf[:0], `{"id":"flood-%d","expires":%q,"by":"arbiter","alert":%q,"decision":"upheld","note":"`, i, expires, a.ID)
		buf = append(append(buf, pad[:size-len(buf)-2]...), `"}`...)
		<-arb.Publish(publish.Message{Topic: publish.Topic("b1", "cmd/ack_alert"), Payload: buf, QoS: 1}).Done()
	}
	// Let the board work through what got through.
	last := int64(-1)
	for replies.Load() != last {
		last = replies.Load()
		time.Sleep(200 * time.Millisecond)
	}
	b.StopTimer()
	close(stop)
	return <-peakc, dirSize(b, dir) - before
}
