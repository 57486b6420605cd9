package cli

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"testing"
)

// A command's error decides the exit status: help is a success, an
// ExitError's code is kept, and anything else is printed and exits 1.
func TestExitCode(t *testing.T) {
	for _, c := range []struct {
		err     error
		code    int
		printed string
	}{
		{nil, 0, ""},
		{ErrHelp, 0, ""},
		{ExitError{Code: 78}, 78, ""},
		{errors.New("no such file"), 1, "boardd replay: no such file\n"},
	} {
		var stderr bytes.Buffer
		if got := ExitCode(&Env{Stderr: &stderr}, "replay", c.err); got != c.code || stderr.String() != c.printed {
			t.Errorf("%v: exit %d, printed %q; want %d, %q", c.err, got, stderr.String(), c.code, c.printed)
		}
	}
}

func TestParseFlags(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Bool("fast", false, "")
	if err := ParseFlags(fs, []string{"--fast"}); err != nil {
		t.Errorf("good flag: %v", err)
	}
	if err := ParseFlags(fs, []string{"-h"}); !errors.Is(err, ErrHelp) {
		t.Errorf("-h: %v, want ErrHelp", err)
	}
	var ee ExitError
	if err := ParseFlags(fs, []string{"--slow"}); !errors.As(err, &ee) || ee.Code != 2 {
		t.Errorf("bad flag: %v, want exit status 2", err)
	}
}
