package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/publish/broker"
)

// boardd passwd prints a line the embedded broker reads back and checks,
// hashed at today's cost.
func TestPasswd(t *testing.T) {
	var out, errb bytes.Buffer
	env := &cli.Env{Stdin: strings.NewReader("long secret 1\n"), Stdout: &out, Stderr: &errb, Getenv: noEnv}
	if code := runMain(context.Background(), env, []string{"passwd", "arbiter"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	pw, err := broker.ParsePasswords(strings.NewReader(out.String()))
	if err != nil {
		t.Fatalf("the line %q does not read: %v", out.String(), err)
	}
	if !strings.HasPrefix(pw["arbiter"], "$7$210000$") || !pw.Check("arbiter", "long secret 1") || pw.Check("arbiter", "long secret") {
		t.Fatalf("line %q", out.String())
	}
	out.Reset()
	errb.Reset()
	env.Stdin = strings.NewReader("")
	if code := runMain(context.Background(), env, []string{"passwd", "--generate", "director"}); code != 0 {
		t.Fatalf("--generate: exit %d: %s", code, errb.String())
	}
	secret := strings.TrimPrefix(strings.TrimSpace(errb.String()), "password for director: ")
	if b, err := hex.DecodeString(secret); err != nil || len(b) < 16 {
		t.Fatalf("generated password %q: want 128 bits", errb.String())
	}
	pw, _ = broker.ParsePasswords(strings.NewReader(out.String()))
	if !pw.Check("director", secret) {
		t.Fatal("the generated password does not check")
	}
	for _, c := range []struct {
		stdin string
		args  []string
	}{{"", []string{"passwd", "x"}}, {"pw\n", []string{"passwd", "a:b"}}, {"pw\n", []string{"passwd"}}} {
		env := &cli.Env{Stdin: strings.NewReader(c.stdin), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: noEnv}
		if code := runMain(context.Background(), env, c.args); code == 0 {
			t.Errorf("%v with stdin %q: exit 0", c.args, c.stdin)
		}
	}
}
