// Package perft is boardd's perft command: the leaf nodes of the legal
// move tree counted, to check the move generator against published counts
// and to time it.
package perft

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/internal/cli"
)

// Cmd is the perft command.
func Cmd(_ context.Context, env *cli.Env, args []string) error {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	divide := fs.Bool("divide", false, "print the count below each legal move first (UCI notation)")
	played := fs.Bool("played", false, "make every move, the last ply too (slower; no bulk counting)")
	c960 := fs.Bool("960", false, "treat the position as Chess960 (castling written king-to-rook)")
	stats := fs.Bool("stats", false, "print time and nodes per second to stderr")
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, `usage: boardd perft [--divide] [--played] [--960] [--stats] FEN DEPTH

Counts the leaf nodes of the legal move tree of DEPTH plies from FEN and
prints the count on the last line. The FEN may be "startpos".

By default the last ply is bulk-counted: the legal moves of each position
one ply above the leaves are counted (by set arithmetic on bitboards)
without being made. --played makes and unmakes every move instead. Both
count the same nodes. Single-threaded.

`)
		fs.PrintDefaults()
	}
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return cli.ExitError{Code: 2}
	}
	fen := fs.Arg(0)
	if fen == "startpos" {
		fen = chess.StartFEN
	}
	depth, err := strconv.Atoi(fs.Arg(1))
	if err != nil || depth < 0 || depth > 20 {
		return fmt.Errorf("depth %q: want a number from 0 to 20", fs.Arg(1))
	}
	pos, err := chess.ParseFEN(strings.TrimSpace(fen))
	if err != nil {
		return err
	}
	if *c960 {
		pos.SetChess960(true)
	}
	count := chess.Perft
	if *played {
		count = chess.PerftPlayed
	}
	start := time.Now()
	var total uint64
	if *divide && depth > 0 {
		moves, counts := chess.PerftDivide(pos, depth)
		if *played {
			for i, m := range moves {
				u := pos.MakeMove(m)
				counts[i] = count(pos, depth-1)
				pos.UnmakeMove(m, u)
			}
		}
		for i, m := range moves {
			fmt.Fprintf(env.Stdout, "%s: %d\n", pos.UCI(m), counts[i])
			total += counts[i]
		}
		fmt.Fprintln(env.Stdout)
	} else {
		total = count(pos, depth)
	}
	if *stats {
		el := time.Since(start)
		fmt.Fprintf(env.Stderr, "time %v, %.1f Mnps\n", el, float64(total)/el.Seconds()/1e6)
	}
	fmt.Fprintf(env.Stdout, "nodes %d\n", total)
	return nil
}
