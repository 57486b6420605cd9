package daemon

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardd/boardd/publish"
)

// metrics are the daemon's counters and gauges, served in the Prometheus
// text format at /metrics. Hand-written: a few dozen lines do not justify a
// client library on a Pi.
type metrics struct {
	mu       sync.Mutex
	counters map[string]*atomic.Int64
	gauges   map[string]func() float64
	counterF map[string]func() float64 // counters kept elsewhere, read at every scrape
	help     map[string]string
}

func newMetrics() *metrics {
	return &metrics{counters: map[string]*atomic.Int64{}, gauges: map[string]func() float64{}, counterF: map[string]func() float64{}, help: map[string]string{}}
}

// counterFunc registers a counter kept elsewhere, read at every scrape.
func (m *metrics) counterFunc(name, help string, f func() float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.counterF[name] = f
	m.help[name] = help
}

// counter returns the named counter, creating it with its help text.
func (m *metrics) counter(name, help string) *atomic.Int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.counters[name]
	if !ok {
		c = new(atomic.Int64)
		m.counters[name] = c
		m.help[name] = help
	}
	return c
}

// gauge registers a function read at every scrape.
func (m *metrics) gauge(name, help string, f func() float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gauges[name] = f
	m.help[name] = help
}

func (m *metrics) write(w io.Writer) {
	m.mu.Lock()
	defer m.mu.Unlock()
	names := make([]string, 0, len(m.counters)+len(m.gauges))
	for n := range m.counters {
		names = append(names, n)
	}
	for n := range m.gauges {
		names = append(names, n)
	}
	for n := range m.counterF {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if c, ok := m.counters[n]; ok {
			fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s counter\n%s %d\n", n, m.help[n], n, n, c.Load())
		} else if f, ok := m.counterF[n]; ok {
			fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s counter\n%s %g\n", n, m.help[n], n, n, f())
		} else {
			fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s gauge\n%s %g\n", n, m.help[n], n, n, m.gauges[n]())
		}
	}
}

func (m *metrics) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	m.write(w)
}

// rate measures events per second over a sliding window, for the scan rate.
type rate struct {
	mu     sync.Mutex
	window time.Duration
	times  []time.Time
}

func (r *rate) add(t time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.times = append(r.times, t)
	cut := 0
	for cut < len(r.times) && t.Sub(r.times[cut]) > r.window {
		cut++
	}
	if cut > 0 {
		r.times = append(r.times[:0], r.times[cut:]...)
	}
}

func (r *rate) perSecond(now time.Time) float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, t := range r.times {
		if now.Sub(t) <= r.window {
			n++
		}
	}
	return float64(n) / r.window.Seconds()
}

// registerJournalMetrics exports the journal's condition: whether it is
// healthy, why not (it cannot be written; it was found damaged), what is
// held in memory meanwhile, and the failed writes.
func registerJournalMetrics(m *metrics, health func() publish.Health) {
	b := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	m.gauge("boardd_journal_ok", "1 while the journal is writable and no damage found in it is unacknowledged.", func() float64 { return b(health().OK) })
	m.gauge("boardd_journal_write_failing", "1 while the journal cannot be written (events are held in memory).", func() float64 { return b(health().WriteFailing) })
	m.gauge("boardd_journal_damaged", "1 while the alert about records the journal lost is not acknowledged.", func() float64 { return b(health().Damaged) })
	m.gauge("boardd_journal_held_events", "Events held in memory because the journal cannot be written.", func() float64 { return float64(health().Held) })
	m.gauge("boardd_journal_held_bytes", "Bytes of events held in memory because the journal cannot be written.", func() float64 { return float64(health().HeldBytes) })
	m.counterFunc("boardd_journal_write_errors_total", "Failed journal writes, retries included.", func() float64 { return float64(health().WriteErrors) })
}

// healthSource is what /healthz reports of the publisher.
type healthSource interface {
	Connected() bool
	Pending() int
	Health() publish.Health
}

// writeHealth answers /healthz: 200 and "ok":true while the sensors are
// fresh and the journal is healthy, 503 otherwise, with the journal's
// problem spelt out.
func writeHealth(w http.ResponseWriter, fresh bool, pub healthSource) {
	jh := pub.Health()
	ok := fresh && jh.OK
	w.Header().Set("Content-Type", "application/json")
	if !ok {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	_ = json.NewEncoder(w).Encode(struct {
		OK              bool           `json:"ok"`
		SensorsFresh    bool           `json:"sensors_fresh"`
		BrokerConnected bool           `json:"broker_connected"`
		Pending         int            `json:"pending"`
		Journal         publish.Health `json:"journal"`
	}{ok, fresh, pub.Connected(), pub.Pending(), jh})
}
