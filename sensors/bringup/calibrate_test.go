package bringup

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/sensorstest"
	"github.com/boardd/boardd/trace"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// calibrationRig is a 74HC165 board whose chain is wired in an irregular
// order, and a hand that puts one piece on a1, b1, ... h8 in turn, a
// second apart, from two seconds on.
func calibrationRig(t *testing.T) (*sensors.Config, sensors.Scanner, *sensorstest.Clock, []chess.Square) {
	t.Helper()
	cfg, sc, clk, model := calibrationRigModel(t)
	return cfg, sc, clk, model.Hidden
}

// rigModel is the rig's chain model and its hidden wiring.
type rigModel struct {
	*sensorstest.HC165Model
	Hidden []chess.Square
}

func calibrationRigModel(t *testing.T) (*sensors.Config, sensors.Scanner, *sensorstest.Clock, rigModel) {
	t.Helper()
	return calibrationRigFrom(t, 0, 2000)
}

// calibrationRigFrom is the rig whose hand puts a piece on squares first,
// first+1, ... from board time at (ms) on, one a second.
func calibrationRigFrom(t *testing.T, first int, at int64) (*sensors.Config, sensors.Scanner, *sensorstest.Clock, rigModel) {
	t.Helper()
	clk := sensorstest.NewClock()
	board := sensorstest.NewBoard(clk)
	hidden := make([]chess.Square, 64)
	in := make([][8]chess.Square, 8)
	for i := range hidden {
		hidden[i] = chess.Square((i*29 + 7) % 64)
		in[i/8][i%8] = hidden[i]
	}
	model := sensorstest.NewHC165Model(board, in)
	model.SER = gpio.High
	c, err := model.Connect(physic.MegaHertz, spi.Mode0, 8)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := sensors.NewHC165Chain(c, model.Latch(), 8, sensors.HC165Options{Sentinel: sensors.SentinelHigh})
	if err != nil {
		t.Fatal(err)
	}
	var evs []trace.Event
	for k := first; k < 64; k++ {
		evs = append(evs, trace.Event{T: at + int64(1000*(k-first)), Kind: trace.Frame, Occ: chess.Square(k).Bitboard()})
	}
	board.Play(&sensorstest.Events{List: evs}, sensorstest.PlayOptions{})
	cfg, _ := sensors.DefaultConfig("hc165")
	cfg.HC165.Squares, cfg.HC165.Count = nil, 8
	return cfg, sc, clk, rigModel{model, hidden}
}

func TestCalibrateCommandWritesTheLearnedWiring(t *testing.T) {
	cfg, sc, clk, hidden := calibrationRig(t)
	var out, errb bytes.Buffer
	env := &cli.Env{Stdin: strings.NewReader("\n"), Stdout: &out, Stderr: &errb}
	if err := calibrate(context.Background(), env, cfg, sc, sensors.CalibrateOptions{Clock: clk}, "-"); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	prompts := errb.String()
	for _, want := range []string{"Take every piece off the board, then press Enter.\n", "Put a piece on a1.\n", "a1 is chip 1 input F.\n", "Put a piece on h8.\n"} {
		if !strings.Contains(prompts, want) {
			t.Errorf("prompts lack %q:\n%s", want, prompts)
		}
	}
	got, err := sensors.ParseConfig(out.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	w, _ := got.Wiring()
	for i, want := range hidden {
		if w.Square(i) != want {
			t.Fatalf("input %d: %v, wired to %v", i, w.Square(i), want)
		}
	}
	if !strings.Contains(out.String(), `"sentinel": "high"`) {
		t.Errorf("the hardware settings were not kept:\n%s", out.String())
	}
}

func TestCalibrateCommandSkipAndAbort(t *testing.T) {
	// The hand never puts a piece on a1 and starts on b1 an hour on, so
	// that the typed "s" (read as it comes, while the board's time runs
	// as fast as it is scanned) skips a1 and nothing else.
	cfg, sc, clk, _ := calibrationRigFrom(t, 1, 3_600_000)
	var out, errb bytes.Buffer
	file := filepath.Join(t.TempDir(), "board.json")
	// Skip a1: the configuration is written but incomplete, exit 1.
	env := &cli.Env{Stdin: strings.NewReader("\ns\n"), Stdout: &out, Stderr: &errb}
	err := calibrate(context.Background(), env, cfg, sc, sensors.CalibrateOptions{Clock: clk, Quiet: -1, GiveUp: -1}, file)
	if code := cli.ExitCode(env, "calibrate", err); code != 1 || !strings.Contains(errb.String(), "a1 skipped.") || !strings.Contains(errb.String(), "incomplete: hc165.squares: squares a1 are not wired") {
		t.Errorf("exit %d, stderr:\n%s", code, errb.String())
	}
	if b, err := os.ReadFile(file); err != nil || !strings.Contains(string(b), `"-"`) {
		t.Errorf("partial configuration: %v\n%s", err, b)
	}
	// q: nothing written.
	cfg, sc, clk, _ = calibrationRig(t)
	out.Reset()
	errb.Reset()
	env = &cli.Env{Stdin: strings.NewReader("q\n"), Stdout: &out, Stderr: &errb}
	err = calibrate(context.Background(), env, cfg, sc, sensors.CalibrateOptions{Clock: clk}, "-")
	if code := cli.ExitCode(env, "calibrate", err); code != 1 || out.Len() != 0 || !strings.Contains(errb.String(), "aborted") {
		t.Errorf("q: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	// Usage errors.
	for _, args := range [][]string{{"calibrate"}, {"calibrate", "--design", "matrix", "--config", "x.json"}, {"calibrate", "--stable", "0", "--design", "hc165"}} {
		if _, _, code := runSensorCmd(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if _, stderr, code := runSensorCmd(t, "", "calibrate", "--design", "sonar"); code != 1 || !strings.Contains(stderr, `design "sonar"`) {
		t.Errorf("--design sonar: exit %d %q", code, stderr)
	}
}

func TestCalibrateCommandNamesAFailingChain(t *testing.T) {
	cfg, sc, clk, model := calibrationRigModel(t)
	// The chain's data line stuck low (a cable unplugged): the sentinel
	// reads 0x00 in every scan. calibrate gives up, naming the chain,
	// instead of waiting for pieces.
	low := gpio.Low
	model.StuckMISO = &low
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := clk.Now()
	clk.OnAdvance(func(now time.Time) {
		if now.Sub(start) > time.Minute {
			cancel()
		}
	})
	var out, errb bytes.Buffer
	env := &cli.Env{Stdin: strings.NewReader("\n"), Stdout: &out, Stderr: &errb}
	err := calibrate(ctx, env, cfg, sc, sensors.CalibrateOptions{Clock: clk}, "-")
	if code := cli.ExitCode(env, "calibrate", err); code != 1 || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out.String(), errb.String())
	}
	if want := "boardd calibrate: 74hc165 chain failed in every scan for 2s: sentinel byte 0x00, want 0xff"; !strings.Contains(errb.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, errb.String())
	}
	if strings.Contains(errb.String(), "Put a piece") {
		t.Errorf("prompted for pieces on a dead chain:\n%s", errb.String())
	}
}

func TestCalibrateCommandLearnsTheADS1115Model(t *testing.T) {
	// An ADS1115 board scans about 13 times a second: its empty-board
	// baselines and first stable reading take over two seconds of board
	// time. The simulated hand answers the prompts, so it does not put
	// its piece on a1 while the board is still being measured empty (a1
	// then read as stuck, every square learned one input off, and h8
	// waiting forever).
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	file := filepath.Join(t.TempDir(), "board.json")
	var out, errb bytes.Buffer
	env := &cli.Env{Stdin: strings.NewReader("\n"), Stdout: &out, Stderr: &errb}
	err := calibrateModel(ctx, env, "model:analog-ads1115", 10, file)
	if code := cli.ExitCode(env, "calibrate", err); code != 0 {
		t.Fatalf("exit %d (%v), stderr:\n%s", code, err, errb.String())
	}
	if s := errb.String(); !strings.Contains(s, "a1 is mux 0 ch 0, ") || !strings.Contains(s, "h8 is mux 3 ch 15, ") || strings.Contains(s, "left out") {
		t.Errorf("stderr:\n%s", s)
	}
	got, err := sensors.LoadConfigFile(file, false)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := sensors.DefaultConfig("analog-ads1115")
	gw, err := got.Wiring()
	if err != nil {
		t.Fatal(err)
	}
	rw, _ := ref.Wiring()
	for i := range ref.Inputs() {
		if gw.Square(i) != rw.Square(i) {
			t.Errorf("input %d (%s) learned as %v, want %v", i, ref.InputName(i), gw.Square(i), rw.Square(i))
		}
	}
}

func TestCalibrateCommandGivesUpOnABoardThatSeesNothing(t *testing.T) {
	// The chain's data line stuck high reads as an empty board: the
	// hand's pieces are never seen. calibrate says what could be wrong a
	// minute (of board time) after the prompt and gives up after three,
	// instead of waiting silently for ever.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	env := &cli.Env{Stdin: strings.NewReader("\n"), Stdout: &out, Stderr: &errb}
	err := calibrateModel(ctx, env, "model:hc165,stuck=high", 10, "-")
	if code := cli.ExitCode(env, "calibrate", err); code != 1 || out.Len() != 0 {
		t.Fatalf("exit %d (%v), stdout %q, stderr:\n%s", code, err, out.String(), errb.String())
	}
	for _, want := range []string{
		"No input has read a piece for 1m0s, waiting for one on a1. If a piece is on a1, the board sees none: a 74HC165 chain whose data line is stuck at the empty level",
		"boardd calibrate: no input read a piece in 3m0s after the prompt for a1",
		"Nothing written.",
	} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
}
