// Package replay is boardd's replay command: a boardtrace run through a
// game session as the board runs it, written as PGN or as the session's
// outputs in JSON lines.
package replay

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/session"
	"github.com/boardd/boardd/trace"
)

// Cmd is the replay command.
func Cmd(ctx context.Context, env *cli.Env, args []string) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	events := fs.Bool("events", false, "print one JSON object per line (moves, corrections, alerts, notes, game end) instead of PGN")
	provisional := fs.Bool("provisional", false, "with --events, also print provisional moves (shown before the clock press)")
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, `usage: boardd replay [--events] [--provisional] FILE

Reconstructs the game(s) of a boardtrace file (docs/trace.md; "-" reads
standard input) and prints them as PGN, with clock comments ([%%clk]) when the trace
declares a time control. With --events it prints what the board reported
as it happened instead, one JSON object per line:

  {"type":"move","ply":1,"san":"e4","uci":"e2e4","fen":"...","t_ms":1460}
  {"type":"retract","ply":1,...}   {"type":"amend","ply":9,...}
  {"type":"alert","kind":"illegal-move","ply":7,...}   {"type":"note",...}
  {"type":"end","result":"1-0","reason":"checkmate"}

A malformed trace is reported as FILE:LINE: what is wrong, with exit status 1.

`)
		fs.PrintDefaults()
	}
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return cli.ExitError{Code: 2}
	}
	name := fs.Arg(0)
	var in io.Reader = env.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	out := bufio.NewWriter(env.Stdout)
	err := replay(ctx, in, out, *events, *provisional)
	if ferr := out.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("writing output: %w", ferr)
	}
	var pe *trace.ParseError
	if errors.As(err, &pe) {
		fmt.Fprintf(env.Stderr, "%s:%d: %s\n", name, pe.Line, pe.Msg)
		return cli.ExitError{Code: 1}
	}
	return err
}

// replay runs the trace through a game session, as the board runs it, and
// writes PGN or JSON lines to out.
func replay(ctx context.Context, in io.Reader, out io.Writer, events, provisional bool) error {
	tr, err := trace.NewReader(in)
	if err != nil {
		return err
	}
	cfg, err := session.ConfigFromHeader(tr.Header())
	if err != nil {
		return err
	}
	// PGN is written from the moves alone: no notation per output.
	cfg.MovesOnly = !events
	s, err := session.New(cfg)
	if err != nil {
		return err
	}
	start := s.Start()
	rec := reconstruct.NewRecord(&start)
	var outs []session.Output
	var line []byte
	emit := func() error {
		for i := range outs {
			o := &outs[i]
			if o.Kind != session.ClockChange {
				if err := rec.Apply(&o.Output); err != nil {
					return fmt.Errorf("inconsistent output (a bug): %w", err)
				}
			}
			if events && (!o.Provisional || provisional) {
				line = append(session.AppendJSON(line[:0], o), '\n')
				if _, err := out.Write(line); err != nil {
					return err
				}
			}
		}
		return nil
	}
	var last int64
	for n := 0; ; n++ {
		if n&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		ev, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		last = ev.T
		outs = s.Feed(&ev, outs[:0])
		if err := emit(); err != nil {
			return err
		}
	}
	outs = s.End(last, outs[:0])
	if err := emit(); err != nil {
		return err
	}
	if events {
		return nil
	}
	for _, g := range rec.Games() {
		if len(g.Moves) == 0 && g.Result == "*" && len(rec.Games()) > 1 {
			continue
		}
		if err := g.WritePGN(out); err != nil {
			return err
		}
	}
	return nil
}
