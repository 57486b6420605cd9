package reconstruct_test

import (
	"os"
	"path/filepath"
	"testing"

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
	replayFastest(b, ts, false)
}
