package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/publish"
)

// runBriefly runs the daemon in-process until check returns (given the
// MQTT URL and the log so far) and returns the whole log.
func runBriefly(t *testing.T, sets []string, check func(url string, log func() string)) string {
	t.Helper()
	dir := t.TempDir()
	mqttPort := freePort(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	var mu sync.Mutex
	log := func() string { mu.Lock(); defer mu.Unlock(); return stderr.String() }
	env := &cli.Env{Stdout: &bytes.Buffer{}, Stderr: &lockedBuffer{b: &stderr, mu: &mu}, Getenv: func(string) string { return "" }}
	args := []string{"run", "--set", "board.id=sec", "--set", "journal.dir=" + filepath.Join(dir, "journal"),
		"--set", "mqtt.listen=127.0.0.1:" + mqttPort, "--set", "mqtt.ws_listen=", "--set", "http.listen=", "--set", "simulation.speed=50"}
	for _, s := range sets {
		args = append(args, "--set", s)
	}
	done := make(chan int, 1)
	go func() { done <- runMain(ctx, env, args) }()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(log(), "boardd is running") {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon did not start:\n%s", log())
		}
		time.Sleep(20 * time.Millisecond)
	}
	check("tcp://127.0.0.1:"+mqttPort, log)
	cancel()
	<-done
	return log()
}

// The generated arbiter password carries 128 bits and works; a chosen one
// stays out of the log; a client using the board's client id without its
// account is refused and the board stays online.
func TestRunCredentials(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon")
	}
	runBriefly(t, nil, func(url string, log func() string) {
		m := regexp.MustCompile(`arbiter console login.* password=(\S+)`).FindStringSubmatch(log())
		if m == nil {
			t.Fatalf("no arbiter password in the log:\n%s", log())
		}
		if b, err := hex.DecodeString(m[1]); err != nil || len(b) < 16 {
			t.Fatalf("generated arbiter password %q: want at least 128 bits", m[1])
		}
		ctx := context.Background()
		arb, err := publish.PahoDialer{URL: url, Username: "arbiter", Password: m[1]}.Dial(ctx, publish.DialOptions{ClientID: "console"})
		if err != nil {
			t.Fatalf("the arbiter's login with the logged password: %v", err)
		}
		arb.Close()
		if c, err := (publish.PahoDialer{URL: url}).Dial(ctx, publish.DialOptions{ClientID: "boardd-sec"}); err == nil {
			c.Close()
			t.Fatal("an anonymous client connected with the board's client id")
		}
		time.Sleep(300 * time.Millisecond)
		if strings.Contains(log(), `"lost"`) || strings.Contains(log(), "broker connection failed") {
			t.Fatalf("the board lost its broker connection:\n%s", log())
		}
	})
	out := runBriefly(t, []string{"mqtt.arbiter_password=chosen-Secret-42"}, func(url string, _ func() string) {
		arb, err := publish.PahoDialer{URL: url, Username: "arbiter", Password: "chosen-Secret-42"}.Dial(context.Background(), publish.DialOptions{ClientID: "console"})
		if err != nil {
			t.Fatalf("the arbiter's login with the chosen password: %v", err)
		}
		arb.Close()
	})
	if strings.Contains(out, "chosen-Secret-42") {
		t.Fatal("a chosen arbiter password is in the log")
	}
}
