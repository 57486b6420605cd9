package broker

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/boardd/boardd/internal/cli"
)

// PasswdCmd is the passwd command: it writes a password_file line at
// today's cost, which both the embedded broker and mosquitto read;
// mosquitto_passwd's own lines have 101 iterations.
func PasswdCmd(_ context.Context, env *cli.Env, args []string) error {
	fs := flag.NewFlagSet("passwd", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	generate := fs.Bool("generate", false, "make a password of 128 random bits and print it to stderr instead of reading one")
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, `usage: boardd passwd [--generate] USER

Reads USER's password from the first line of standard input (or makes one
with --generate) and prints "USER:HASH" for a mosquitto password_file:
PBKDF2-SHA512 at 210,000 iterations, which mosquitto and boardd's embedded
broker both read.

    boardd passwd arbiter >> /etc/mosquitto/boardd/passwd

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
	user := fs.Arg(0)
	if user == "" || strings.ContainsAny(user, ":\n\r") {
		return fmt.Errorf("user %q: want a name without ':' or line breaks", user)
	}
	var password string
	if *generate {
		s, err := NewSecret()
		if err != nil {
			return err
		}
		password = s
		fmt.Fprintf(env.Stderr, "password for %s: %s\n", user, password)
	} else {
		if env.Stdin == nil {
			return errors.New("no standard input to read the password from")
		}
		line, err := bufio.NewReader(env.Stdin).ReadString('\n')
		password = strings.TrimRight(line, "\r\n")
		if password == "" {
			if err != nil {
				return fmt.Errorf("reading the password from standard input: %w", err)
			}
			return errors.New("empty password on standard input")
		}
	}
	pw := Passwords{}
	if err := pw.Set(user, password); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%s:%s\n", user, pw[user])
	return nil
}
