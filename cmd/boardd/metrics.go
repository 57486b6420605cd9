package main

import (
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// metrics are the daemon's counters and gauges, served in the Prometheus
// text format at /metrics. Hand-written: a few dozen lines do not justify a
// client library on a Pi.
type metrics struct {
	mu       sync.Mutex
	counters map[string]*atomic.Int64
	gauges   map[string]func() float64
	help     map[string]string
}

func newMetrics() *metrics {
	return &metrics{counters: map[string]*atomic.Int64{}, gauges: map[string]func() float64{}, help: map[string]string{}}
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
	sort.Strings(names)
	for _, n := range names {
		if c, ok := m.counters[n]; ok {
			fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s counter\n%s %d\n", n, m.help[n], n, n, c.Load())
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
