package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"github.com/boardd/boardd/chess/perft"
	"github.com/boardd/boardd/internal/accuracy"
	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/publish/broker"
	"github.com/boardd/boardd/publish/relay"
	"github.com/boardd/boardd/publish/round"
	"github.com/boardd/boardd/sensors/bringup"
	"github.com/boardd/boardd/sensors/sim"
	"github.com/boardd/boardd/session/replay"
)

// command is one boardd subcommand. run gets the arguments after the
// subcommand's name and the process's standard streams; it returns an
// error to print, or cli.ErrHelp/cli.ExitError to choose the exit status.
type command struct {
	summary string
	run     func(ctx context.Context, env *cli.Env, args []string) error
}

func commands() map[string]command {
	return map[string]command{
		"run":      {"run the board (the embedded defaults without a configuration file)", cmdRun},
		"accuracy": {"measure the move reconstruction on simulated games (exact games, false and missed alerts)", accuracy.Cmd},
		"simulate": {"play real games on a simulated sensor board and write their boardtraces", sim.Cmd},
		"replay":   {"reconstruct the games of a boardtrace file: PGN, or --events as JSON lines", replay.Cmd},
		"relay":    {"serve the venue's games as delayed live PGN per round; push to a broadcast", relay.Cmd},
		"passwd":   {"print a mosquitto password_file line for a user, hashed at today's cost", broker.PasswdCmd},
		"round":    {"set up a round: send each board its pairing from a FIDE TRF or CSV file", round.Cmd},
		"perft":    {"count leaf nodes of the legal move tree (move generator check and benchmark)", perft.Cmd},
		"version":  {"print the version", cmdVersion},

		// The sensor hardware.
		"record":    {"record the board's sensors (or a replayed trace) as a boardtrace", bringup.Record},
		"diag":      {"show the board's sensors live: 8x8 frames, scan rate, bus errors, faults", bringup.Diag},
		"calibrate": {"learn the sensor wiring map: put a piece on each square as prompted", bringup.Calibrate},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := runMain(ctx, &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}, os.Args[1:])
	stop()
	os.Exit(code)
}

func runMain(ctx context.Context, env *cli.Env, args []string) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			c, ok := cmds[args[1]]
			if !ok {
				fmt.Fprintf(env.Stderr, "boardd: unknown command %q\n\n", args[1])
				usage(env.Stderr, cmds)
				return 2
			}
			return cli.ExitCode(env, args[1], c.run(ctx, env, []string{"--help"}))
		}
		usage(env.Stdout, cmds)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "boardd: unknown command %q\n\n", args[0])
		usage(env.Stderr, cmds)
		return 2
	}
	return cli.ExitCode(env, args[0], c.run(ctx, env, args[1:]))
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: boardd <command> [flags] [args]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"boardd help <command>\" for a command's flags.")
}
