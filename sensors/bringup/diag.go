package bringup

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/trace"
)

// Diag is the diag command: the board's sensors shown live, or probed once.
func Diag(ctx context.Context, env *cli.Env, args []string) error {
	fs := flag.NewFlagSet("diag", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	sf := addSourceFlags(fs)
	nframes := fs.Int("frames", 0, "stop after this many frames (0: until interrupted or the trace ends)")
	every := fs.Duration("stats", time.Second, "print the scan statistics this often (hardware only; 0: never)")
	doProbe := fs.Bool("probe", false, "check the board once and exit: every chip answers and keeps its configuration, sentinels, diodes, raw inputs, scan rate")
	scans := fs.Int("scans", 100, "with --probe, the scans to make")
	record := fs.String("record", "", "with --probe, write every I2C and SPI transaction to this file (JSON) to replay in tests")
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, `usage: boardd diag --config FILE [--frames N] [--stats D]
       boardd diag --config FILE --probe [--scans N] [--record FILE]
       boardd diag --source trace:FILE [--fast] ...
       boardd diag --source model:DESIGN[,dead=UNIT][,stuck=low|high] [--probe]

Shows what the board's sensors report: every frame as an 8x8 picture
(x occupied, W/B by colour, piece letters; the squares that changed in
brackets), sensor faults as they come and clear, and every --stats the
scan rate, the time one scan takes, bus errors, and the units failing.
Use it to check a board's wiring after boardd calibrate.

With --probe it scans the board --scans times back to back and says
whether every chip, row or chain answered every time and kept its
configuration, what the inputs read (there should be no piece on the
board, or only those you put), and the scan rate; exit status 1 when
something is wrong. A model source rehearses it all on chip models of a
design's reference board, with a chip that does not answer or a stuck
data line if asked (docs/hardware.md, bring-up).

`)
		fs.PrintDefaults()
	}
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 || *nframes < 0 || *every < 0 || *scans < 1 || (*record != "" && !*doProbe) {
		fs.Usage()
		return cli.ExitError{Code: 2}
	}
	if *doProbe {
		t, err := openTarget(sf, true)
		if err != nil {
			return reportOpenError(env, "diag", err)
		}
		defer t.close()
		return probe(env.Stdout, t, *scans, *record)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	src, _, closeSrc, err := openSource(env, sf, log)
	if err != nil {
		return reportOpenError(env, "diag", err)
	}
	defer closeSrc()
	err = diag(ctx, env.Stdout, src, *nframes, *every)
	return traceError(sf, err)
}

// lockedWriter serialises the frame printer and the statistics ticker.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, format, args...)
}

// statser is a source that counts its scans (a ScanSource).
type statser interface{ Stats() sensors.Stats }

// diag prints src's frames and faults, and its statistics every interval.
func diag(ctx context.Context, w io.Writer, src sensors.FrameSource, nframes int, every time.Duration) error {
	out := &lockedWriter{w: w}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	// Stop the statistics ticker, then wait for it (defers run last
	// first).
	defer wg.Wait()
	defer cancel()
	if st, ok := src.(statser); ok && every > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					out.printf("%s\n", statsLine(st.Stats()))
				}
			}
		}()
	}
	var ev sensors.Event
	var first time.Time
	seen := 0
	for nframes == 0 || seen < nframes {
		err := src.Next(ctx, &ev)
		switch {
		case errors.Is(err, io.EOF), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			finalStats(out, src)
			return nil
		case err != nil:
			return err
		}
		if first.IsZero() {
			first = ev.T
		}
		at := ev.T.Sub(first).Seconds()
		switch ev.Kind {
		case sensors.FrameEvent:
			seen++
			f := &ev.Frame
			what := "changed " + f.Changed.List()
			switch {
			case f.Changed == 0:
				what = "unchanged"
			case f.Seq == 1:
				what = "first frame"
			}
			mark := f.Changed
			if f.Seq == 1 {
				mark = 0
			}
			out.printf("frame %d  +%.3fs  %d pieces  %s\n%s", f.Seq, at, f.Occ.Count(), what, sensors.Picture(f, mark))
		case sensors.FaultEvent:
			out.printf("+%.3fs  %s\n", at, ev.Fault.String())
		case sensors.InputEvent:
			out.printf("+%.3fs  %s\n", at, inputLine(&ev.Input))
		}
	}
	finalStats(out, src)
	return nil
}

// finalStats prints a scanning source's statistics once more at the end.
func finalStats(out *lockedWriter, src sensors.FrameSource) {
	if st, ok := src.(statser); ok {
		out.printf("%s\n", statsLine(st.Stats()))
	}
}

// statsLine renders the counters of a scanning source.
func statsLine(s sensors.Stats) string {
	failing := "none"
	if len(s.Failing) > 0 {
		failing = strings.Join(s.Failing, ", ")
	}
	stuck := "none"
	if s.Stuck != 0 {
		stuck = sensors.SquareSet(s.Stuck)
	}
	return fmt.Sprintf("scans %d (%.1f/s), last scan %v, bus errors %d, faults %d, failing: %s, stuck: %s",
		s.Scans, s.ScanRate, s.ScanTime.Round(time.Microsecond), s.BusErrors, s.Faults, failing, stuck)
}

func inputLine(ev *trace.Event) string {
	switch ev.Kind {
	case trace.Press:
		return "clock pressed by " + ev.Side.String()
	case trace.Promote:
		return "promotion choice " + ev.Promo.String()
	}
	return ev.Kind.String()
}
