package reconstruct_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/trace"
)

// BenchmarkReplayDir is BenchmarkReplayFastest on the traces of the
// directory BOARDD_BENCH_TRACES (*.trace) instead of simulated ones: the
// same traces for two builds whose simulators differ (an older commit's
// test binary, run from this directory). Skipped when unset.
func BenchmarkReplayDir(b *testing.B) {
	dir := os.Getenv("BOARDD_BENCH_TRACES")
	if dir == "" {
		b.Skip("BOARDD_BENCH_TRACES names no directory of traces")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.trace"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no traces in %s: %v", dir, err)
	}
	var ts []simTrace
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		tr, err := trace.NewReader(f)
		if err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		st := simTrace{hdr: tr.Header()}
		for {
			ev, err := tr.Next()
			if err != nil {
				break
			}
			st.evs = append(st.evs, ev)
		}
		f.Close()
		if len(st.evs) > 0 {
			ts = append(ts, st)
		}
	}
	total := countEvents(ts)
	out := make([]reconstruct.Output, 0, 64)
	fastest := make([]time.Duration, len(ts))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, t := range ts {
			t0 := time.Now()
			cfg, err := reconstruct.ConfigFromHeader(t.hdr)
			if err != nil {
				b.Fatal(err)
			}
			r, err := reconstruct.New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			for k := range t.evs {
				out = r.Feed(&t.evs[k], out[:0])
			}
			out = r.End(t.evs[len(t.evs)-1].T, out[:0])
			if d := time.Since(t0); i == 0 || d < fastest[j] {
				fastest[j] = d
			}
		}
	}
	var sum time.Duration
	for _, d := range fastest {
		sum += d
	}
	b.ReportMetric(float64(sum)/1e6, "fastest-ms")
	b.ReportMetric(float64(total)/sum.Seconds(), "events/s")
}
