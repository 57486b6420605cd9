package reconstruct_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/trace"
)

// FuzzReplay feeds arbitrary traces to the reconstruction: it must not
// panic, and its outputs must always fit together (Record accepts them).
func FuzzReplay(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.trace")
	for _, name := range seeds {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("boardtrace 1\nsensor occupancy\n0 frame 0xffff00000000ffff\n100 off e2\n300 on e4\n900 clock w\n"))
	f.Add([]byte("boardtrace 1\nsensor colour\nclock 5m+3s\n0 frame 0xffff00000000ffff 0xffff\n100 off e2\n300 on e4 w\n900 clock w\n1000 clock b\n"))
	f.Add([]byte("boardtrace 1\nsensor piece\nsetup 960 0\n0 frame bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR\n50 off g1\n60 off h1\n70 on h1 K\n80 on g1 R\n5000 promote n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := trace.NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		cfg, err := reconstruct.ConfigFromHeader(tr.Header())
		if err != nil {
			return
		}
		r, err := reconstruct.New(cfg)
		if err != nil {
			return
		}
		start := r.StartPosition()
		rec := reconstruct.NewRecord(&start)
		var out []reconstruct.Output
		var last int64
		check := func() {
			for i := range out {
				if err := rec.Apply(&out[i]); err != nil {
					t.Fatalf("outputs do not fit together: %v (%s)", err, reconstruct.AppendJSON(nil, &out[i]))
				}
			}
		}
		for n := 0; n < 5000; n++ {
			ev, err := tr.Next()
			if err == io.EOF || err != nil {
				break
			}
			last = ev.T
			out = r.Feed(&ev, out[:0])
			check()
		}
		out = r.End(last, out[:0])
		check()
	})
}
