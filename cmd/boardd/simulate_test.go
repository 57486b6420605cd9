package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/sensors/sim"
	"github.com/boardd/boardd/trace"
)

func runCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runMain(context.Background(), &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: noEnv}, args)
	return out.String(), errb.String(), code
}

const corpus960 = "../../testdata/games/chess960_otb_mainz2009_and_cutechess.pgn"

func TestSimulateOneGame(t *testing.T) {
	out, errs, code := runCmd(t, "simulate", "--pgn", corpus960, "--game", "3", "--sensor", "piece", "--seed", "4", "--irregular")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	r, err := trace.NewReader(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header()
	if h.Sensor != trace.PieceSensor || h.Setup != trace.Setup960 {
		t.Errorf("header %+v, want piece sensors and a Chess960 set-up", h)
	}
	n := 0
	for {
		_, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n < 100 {
		t.Errorf("only %d events", n)
	}
	if !strings.Contains(out, "# simulated by boardd simulate --pgn chess960_otb_mainz2009_and_cutechess.pgn --game 3 --sensor piece --seed 4 --irregular") {
		t.Errorf("no provenance comment:\n%.400s", out)
	}
	again, _, _ := runCmd(t, "simulate", "--pgn", corpus960, "--game", "3", "--sensor", "piece", "--seed", "4", "--irregular")
	if again != out {
		t.Error("the same command wrote a different trace")
	}
}

func TestSimulateAllGames(t *testing.T) {
	dir := t.TempDir()
	_, errs, code := runCmd(t, "simulate", "--pgn", corpus960, "--out", dir, "--irregular")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.trace"))
	if len(files) != 24 {
		t.Fatalf("%d traces written, want 24: %s", len(files), errs)
	}
	// Each file is what --game N writes.
	one, _, _ := runCmd(t, "simulate", "--pgn", corpus960, "--game", "7", "--irregular")
	seven, err := os.ReadFile(filepath.Join(dir, "chess960_otb_mainz2009_and_cutechess-00007.trace"))
	if err != nil || string(seven) != one {
		t.Errorf("game 7 in the directory differs from --game 7 (%v)", err)
	}
	injs, err := sim.ReadInjections(bytes.NewReader(seven))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("game 7: %d injections", len(injs))
	if !strings.Contains(errs, "wrote 24 traces") {
		t.Errorf("summary: %q", errs)
	}
}

func TestSimulateUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"simulate"},
		{"simulate", "--pgn", corpus960, "--sensor", "sonar"},
		{"simulate", "--pgn", corpus960, "--game", "2", "--out", t.TempDir()},
		{"simulate", "--pgn", corpus960, "--clock", "sometimes"},
		{"simulate", "--pgn", corpus960, "extra"},
		{"simulate", "--pgn", corpus960, "--fast-swap", "1.5"},
		{"simulate", "--pgn", corpus960, "--fast-swap", "-0.1"},
	} {
		if _, errs, code := runCmd(t, args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, errs)
		}
	}
	if _, errs, code := runCmd(t, "simulate", "--pgn", corpus960, "--game", "99"); code != 1 || !strings.Contains(errs, "has 24 games, no game 99") {
		t.Errorf("game 99: exit %d, %q", code, errs)
	}
	if _, errs, code := runCmd(t, "simulate", "--pgn", "no/such.pgn"); code != 1 || !strings.Contains(errs, "no/such.pgn") {
		t.Errorf("missing file: exit %d, %q", code, errs)
	}
	bad := filepath.Join(t.TempDir(), "bad.pgn")
	os.WriteFile(bad, []byte("[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n"), 0o600)
	if _, errs, code := runCmd(t, "simulate", "--pgn", bad); code != 1 || !strings.Contains(errs, "game 1") {
		t.Errorf("illegal move: exit %d, %q", code, errs)
	}
}

func TestAccuracyCommand(t *testing.T) {
	out, errs, code := runCmd(t, "accuracy", "--games", "2", "--sensor", "colour", "--mode", "clean", corpus960)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "chess960_otb_mainz2009_and_cutechess") || !strings.Contains(out, "colour clean") || !strings.Contains(out, "TOTAL") {
		t.Errorf("table:\n%s", out)
	}
	if _, _, code := runCmd(t, "accuracy", "--mode", "dirty", corpus960); code != 2 {
		t.Errorf("--mode dirty: exit %d, want 2", code)
	}
	if _, _, code := runCmd(t, "accuracy", "--fast-swap", "2", corpus960); code != 2 {
		t.Errorf("--fast-swap 2: exit %d, want 2", code)
	}
	out, errs, code = runCmd(t, "accuracy", "--games", "1", "--sensor", "occupancy", "--mode", "clean", "--fast-swap", "0.5", corpus960)
	if code != 0 || !strings.Contains(out, "--fast-swap 0.5") {
		t.Errorf("--fast-swap 0.5: exit %d, %s\n%s", code, errs, out)
	}
}

// TestSimulateFastSwap: --fast-swap forces blind captures: the trace says
// how to make it again, and an occupancy board then sees some captures'
// squares never empty.
func TestSimulateFastSwap(t *testing.T) {
	args := []string{"simulate", "--pgn", corpus960, "--game", "3", "--sensor", "occupancy", "--annotate"}
	plain, errs, code := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	forced, errs, code := runCmd(t, append(args, "--fast-swap", "1")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(forced, "--seed 1 --fast-swap 1 (scan period") {
		t.Errorf("no --fast-swap in the provenance comment:\n%.300s", forced)
	}
	if strings.Contains(plain, "capture fast-swap") || !strings.Contains(forced, "capture fast-swap") ||
		strings.Contains(forced, "capture victim-first") || strings.Contains(forced, "capture mover-first") {
		t.Error("--fast-swap 1 should make every capture, and only then, a forced fast swap")
	}
}

// TestSimulateThinkScale: --think-scale plays the stress hands: the trace
// says how to make it again, the same command writes the same trace, and
// at x0.03 the game is over far sooner than with the default hands.
func TestSimulateThinkScale(t *testing.T) {
	args := []string{"simulate", "--pgn", corpus960, "--game", "3", "--sensor", "colour", "--clock", "never"}
	plain, errs, code := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	fast, errs, code := runCmd(t, append(args, "--think-scale", "0.03", "--knock", "0.05")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(fast, "--clock never --think-scale 0.03 --knock 0.05 (scan period") {
		t.Errorf("no --think-scale in the provenance comment:\n%.400s", fast)
	}
	if again, _, _ := runCmd(t, append(args, "--think-scale", "0.03", "--knock", "0.05")...); again != fast {
		t.Error("the same command wrote a different trace")
	}
	last := func(s string) int64 {
		r, err := trace.NewReader(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		var t0 int64
		for {
			ev, err := r.Next()
			if errors.Is(err, io.EOF) {
				return t0
			}
			if err != nil {
				t.Fatal(err)
			}
			t0 = ev.T
		}
	}
	if a, b := last(plain), last(fast); b*5 > a {
		t.Errorf("the game takes %d ms at x0.03, %d ms with the default hands", b, a)
	}
	for _, bad := range [][]string{{"--think-scale", "-1"}, {"--knock", "2", "--think-scale", "1"}} {
		if _, errs, code := runCmd(t, append(args, bad...)...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", bad, code, errs)
		}
	}
}

// TestAccuracyStress: --stress prints a line per cell and the worst.
func TestAccuracyStress(t *testing.T) {
	out, errs, code := runCmd(t, "accuracy", "--stress", "--games", "1", "--sensor", "piece", "--scales", "1,0.1",
		"--knocks", "2%", "--fast-swaps", "0", "--examples", "1", corpus960)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if n := strings.Count(out, " piece clean "); n != 2*2+1 {
		t.Errorf("%d lines for piece boards, want 4 cells and the worst:\n%s", n, out)
	}
	if !strings.Contains(out, "worst") || !strings.Contains(out, "stress grid: 4 cells") {
		t.Errorf("table:\n%s", out)
	}
	if _, _, code := runCmd(t, "accuracy", "--stress", "--scales", "fast", corpus960); code != 2 {
		t.Errorf("--scales fast: exit %d, want 2", code)
	}
}
