// Package cli holds what boardd's subcommands share: the process's
// streams and environment, flag parsing and the exit statuses a
// subcommand may choose.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Env carries what a subcommand may touch of the process, so tests can
// run subcommands in-process with their own streams.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
}

// ExitError asks main to exit with a specific status without printing
// anything more (the subcommand has already said what went wrong).
type ExitError struct{ Code int }

func (e ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// ErrHelp is returned by a subcommand that printed its --help.
var ErrHelp = errors.New("help requested")

// ParseFlags parses a subcommand's flags: ErrHelp after -h (the usage is
// printed), exit status 2 after a bad flag (the flag package said why).
func ParseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ErrHelp
		}
		return ExitError{Code: 2}
	}
	return nil
}

// ExitCode is the process's exit status after subcommand name returned
// err; other errors than ErrHelp and ExitError are printed first.
func ExitCode(env *Env, name string, err error) int {
	if err == nil {
		return 0
	}
	var ee ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	if errors.Is(err, ErrHelp) {
		return 0
	}
	fmt.Fprintf(env.Stderr, "boardd %s: %v\n", name, err)
	return 1
}
