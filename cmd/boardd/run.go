package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"

	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/daemon"
	"github.com/boardd/boardd/internal/cli"
)

// stringsFlag collects a repeatable string flag.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

const defaultConfigPath = "/etc/boardd/boardd.toml"

func cmdRun(ctx context.Context, env *cli.Env, args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	configPath := fs.String("config", "", "configuration file (TOML); default "+defaultConfigPath+" when it exists, else the built-in defaults")
	check := fs.Bool("check-config", false, "check the configuration and exit")
	printCfg := fs.Bool("print-config", false, "print the configuration run would use (the file, the environment, --set), every key, and exit")
	printDefaults := fs.Bool("print-defaults", false, "print a complete configuration file with every default and exit")
	var sets stringsFlag
	fs.Var(&sets, "set", "override a key: section.key=value (repeatable)")
	runFor := fs.Duration("for", 0, "stop after this long (0: until SIGTERM or SIGINT)")
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, `usage: boardd run [--config FILE] [--set section.key=value]... [--check-config] [--print-config] [--print-defaults]

Runs the board: reads the sensors and the clock, reconstructs the moves,
checks them against the FIDE Laws, journals everything and publishes it over
MQTT, and serves the demonstration page and the arbiter console.

Without a configuration file it runs the embedded defaults: a simulated board
replaying real games with human timing, an embedded MQTT broker and the web
pages on localhost. The first lines of the log say where to look.

SIGTERM or SIGINT stops it cleanly (the journal is flushed and the board's
status says offline); SIGHUP reloads the log level and the players' names.
Environment variables BOARDD_<SECTION>_<KEY> override the file; docs/config.md
lists every key.

`)
		fs.PrintDefaults()
	}
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return cli.ExitError{Code: 2}
	}
	if *printDefaults {
		fmt.Fprint(env.Stdout, config.DefaultText())
		return nil
	}
	path := *configPath
	if path == "" {
		path = env.Getenv("BOARDD_CONFIG")
	}
	if path == "" {
		if _, err := os.Stat(defaultConfigPath); err == nil {
			path = defaultConfigPath
		}
	}
	cfg, err := config.Load(path, env.Getenv, sets)
	if err != nil {
		// 78 (EX_CONFIG): the unit's RestartPreventExitStatus, so systemd
		// does not restart a board whose configuration is wrong.
		fmt.Fprintf(env.Stderr, "boardd run: %v\n", err)
		return cli.ExitError{Code: 78}
	}
	where := path
	if where == "" {
		where = "built-in defaults"
	}
	if *printCfg {
		fmt.Fprint(env.Stdout, config.Text(cfg, where))
		return nil
	}
	if *check {
		fmt.Fprintf(env.Stdout, "configuration OK (%s)\n", where)
		return nil
	}
	if *runFor > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *runFor)
		defer cancel()
	}
	level := new(slog.LevelVar)
	log := daemon.NewLogger(env.Stderr, cfg.Log, level)
	if env.Getenv("GOMEMLIMIT") == "" {
		// A soft limit: the collector works harder rather than let the heap
		// grow, which keeps a Pi Zero's board well inside its memory. The
		// heap of a running board is a few megabytes.
		debug.SetMemoryLimit(12 << 20)
	}
	err = daemon.Run(ctx, daemon.Options{Config: cfg, ConfigPath: path, Getenv: env.Getenv, Logger: log, Level: level, Version: version})
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}
