package reconstruct

import (
	"errors"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/boardd/boardd/trace"
)

func TestZZDebugTrace(t *testing.T) {
	path := os.Getenv("ZZ_TRACE")
	if path == "" {
		t.Skip()
	}
	f, _ := os.Open(path)
	tr, err := trace.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := ConfigFromHeader(tr.Header())
	r, _ := New(cfg)
	var out []Output
	for {
		ev, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if ev.T >= 110000 && ev.T <= 113000 {
			fmt.Printf("  feed %d %v %s lines=%d\n", ev.T, ev.Kind, ev.Square, len(r.lines))
			for _, L := range r.lines {
				fmt.Printf("     line cost %d last %v\n", L.cost, L.moves[len(L.moves)-1])
			}
		}
		out = r.Feed(&ev, out[:0])
		for _, o := range out {
			fmt.Printf("%s\n", AppendJSON(nil, &o))
		}
	}
}
