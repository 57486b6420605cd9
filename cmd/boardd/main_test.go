package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/boardd/boardd/internal/cli"
)

// An unknown command is an error (exit status 2) with the usage on
// stderr, whether run or asked about with help; help on a known command
// prints its flags and exits 0.
func TestUnknownCommand(t *testing.T) {
	for _, args := range [][]string{{"bogus"}, {"help", "bogus"}} {
		var out, errb bytes.Buffer
		code := runMain(context.Background(), &cli.Env{Stdout: &out, Stderr: &errb, Getenv: noEnv}, args)
		if code != 2 || !strings.Contains(errb.String(), `unknown command "bogus"`) || out.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %q", args, code, errb.String(), out.String())
		}
	}
	var out, errb bytes.Buffer
	if code := runMain(context.Background(), &cli.Env{Stdout: &out, Stderr: &errb, Getenv: noEnv}, []string{"help", "perft"}); code != 0 {
		t.Errorf("help perft: exit %d\n%s", code, errb.String())
	}
}
