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
)

// runSensorCmd runs a bring-up command in-process as boardd would with stdin and returns its output
// and exit status.
func runSensorCmd(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	if args[0] == "help" {
		args = []string{args[1], "--help"} // as boardd's "help CMD" does
	}
	cmds := map[string]func(context.Context, *cli.Env, []string) error{"record": Record, "diag": Diag, "calibrate": Calibrate}
	run, ok := cmds[args[0]]
	if !ok {
		t.Fatalf("no command %q", args[0])
	}
	code = cli.ExitCode(env, args[0], run(context.Background(), env, args[1:]))
	return out.String(), errb.String(), code
}

// gameTrace writes the first plies of a real game as a colour trace.
func gameTrace(t *testing.T, plies int) (string, []trace.Event) {
	t.Helper()
	f, err := os.Open("../../testdata/games/gnuchess_book_otb_masters_dev.pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	start, moves, err := sensorstest.FirstGame(f)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := sensorstest.GameEvents(start, moves[:plies], trace.Colour, 1500, 150)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := trace.NewWriter(&b)
	w.WriteHeader(trace.Header{Sensor: trace.Colour, Clock: "5m+3s"})
	for i := range evs {
		w.WriteEvent(&evs[i])
	}
	w.Flush()
	path := filepath.Join(t.TempDir(), "game.trace")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, evs
}

func hasHardware() bool {
	_, err := os.Stat("/dev/gpiochip0")
	return err == nil
}

func TestSensorCommandsWithoutHardware(t *testing.T) {
	if hasHardware() {
		t.Skip("this machine has GPIO")
	}
	cfg := filepath.Join(t.TempDir(), "board.json")
	os.WriteFile(cfg, []byte(`{"design": "hc165", "hc165": {"spi": "/dev/spidev0.0", "latch_pin": "GPIO25", "squares": [
		["a1","b1","c1","d1","e1","f1","g1","h1"], ["a2","b2","c2","d2","e2","f2","g2","h2"],
		["a3","b3","c3","d3","e3","f3","g3","h3"], ["a4","b4","c4","d4","e4","f4","g4","h4"],
		["a5","b5","c5","d5","e5","f5","g5","h5"], ["a6","b6","c6","d6","e6","f6","g6","h6"],
		["a7","b7","c7","d7","e7","f7","g7","h7"], ["a8","b8","c8","d8","e8","f8","g8","h8"]]}}`), 0o644)
	for _, args := range [][]string{
		{"record", "--config", cfg},
		{"diag", "--config", cfg},
		{"calibrate", "--config", cfg},
		{"calibrate", "--design", "mcp23017"},
	} {
		_, stderr, code := runSensorCmd(t, "", args...)
		if code != 1 || !strings.Contains(stderr, "no sensor hardware found") || !strings.Contains(stderr, "host drivers skipped:") || !strings.Contains(stderr, "no GPIO") {
			t.Errorf("%v: exit %d, stderr:\n%s", args, code, stderr)
		}
	}
}

func TestRecordReplaysATrace(t *testing.T) {
	path, evs := gameTrace(t, 20)
	out := filepath.Join(t.TempDir(), "out.trace")
	_, stderr, code := runSensorCmd(t, "", "record", "--source", "trace:"+path, "--fast", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	in, _ := os.ReadFile(path)
	got, _ := os.ReadFile(out)
	// The header is kept, and every event comes back at its time.
	if !bytes.Equal(in, got) {
		t.Errorf("recorded trace differs from the replayed one:\n%s\nwant:\n%s", got, in)
	}
	if !strings.Contains(stderr, "events written to") || len(evs) < 40 {
		t.Errorf("stderr %q, %d events", stderr, len(evs))
	}
	// --frames writes frame lines only (and the clock presses).
	stdout, _, code := runSensorCmd(t, "", "record", "--source", "trace:"+path, "--fast", "--frames", "--setup", "960 518")
	if code != 0 || !strings.Contains(stdout, "setup 960 518\n") || strings.Contains(stdout, " on ") || !strings.Contains(stdout, " clock w\n") {
		t.Errorf("--frames output:\n%s", stdout)
	}
}

func TestRecordAndDiagErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.trace")
	os.WriteFile(bad, []byte("boardtrace 1\nsensor occupancy\n0 frame 0xffff00000000ffff\n10 off e9\n"), 0o644)
	for _, cmd := range []string{"record", "diag"} {
		_, stderr, code := runSensorCmd(t, "", cmd, "--source", "trace:"+bad, "--fast")
		if code != 1 || !strings.Contains(stderr, bad+":4: off: \"e9\" is not a square") {
			t.Errorf("%s: exit %d, stderr %q", cmd, code, stderr)
		}
		_, stderr, code = runSensorCmd(t, "", cmd, "--source", "wifi")
		if code != 1 || !strings.Contains(stderr, `--source "wifi"`) {
			t.Errorf("%s --source wifi: exit %d, %q", cmd, code, stderr)
		}
		_, stderr, code = runSensorCmd(t, "", cmd)
		if code != 1 || !strings.Contains(stderr, "--config FILE is needed") {
			t.Errorf("%s without --config: exit %d, %q", cmd, code, stderr)
		}
		_, _, code = runSensorCmd(t, "", cmd, "extra")
		if code != 2 {
			t.Errorf("%s extra: exit %d, want 2", cmd, code)
		}
		_, stderr, code = runSensorCmd(t, "", "help", cmd)
		if code != 0 || !strings.Contains(stderr, "usage: boardd "+cmd) {
			t.Errorf("help %s: exit %d", cmd, code)
		}
	}
	_, stderr, code := runSensorCmd(t, "", "record", "--source", "trace:"+bad, "--setup", "961 3")
	if code != 2 || !strings.Contains(stderr, `--setup "961 3"`) {
		t.Errorf("bad --setup: exit %d, %q", code, stderr)
	}
	cfg := filepath.Join(t.TempDir(), "board.json")
	os.WriteFile(cfg, []byte("{\n  \"design\": \"mcp23017\",\n  \"mcp23017\": {\"bus\": \"1\", \"chips\": [{\"addr\": \"0x20\", \"a\": [\"a1\", \"a1\"]}]}\n}\n"), 0o644)
	_, stderr, code = runSensorCmd(t, "", "diag", "--config", cfg)
	if code != 1 || !strings.Contains(stderr, cfg+": mcp23017.chips[0].a[1]: a1 is also at mcp23017.chips[0].a[0]") {
		t.Errorf("bad config: exit %d, %q", code, stderr)
	}
}

func TestDiagShowsFrames(t *testing.T) {
	path, _ := gameTrace(t, 4)
	stdout, stderr, code := runSensorCmd(t, "", "diag", "--source", "trace:"+path, "--fast")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"frame 1  +0.000s  32 pieces  first frame\n8  B  B  B  B  B  B  B  B \n",
		"frame 2  +1.500s  31 pieces  changed d2\n",
		"2  W  W  W [.] W  W  W  W \n",
		"+1.800s  clock pressed by white\n",
		"frame 3  +1.650s  32 pieces  changed d4\n",
		"4  .  .  . [W] .  .  .  . \n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("diag output lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _, _ = runSensorCmd(t, "", "diag", "--source", "trace:"+path, "--fast", "--frames", "2")
	if strings.Count(stdout, "frame ") != 2 {
		t.Errorf("--frames 2 printed:\n%s", stdout)
	}
}

func TestDiagStatsLine(t *testing.T) {
	got := statsLine(sensors.Stats{Scans: 1234, ScanRate: 99.94, ScanTime: 812345 * time.Nanosecond, BusErrors: 3, Faults: 2,
		Failing: []string{"mcp23017 0x21"}, Stuck: chess.Bitboard(1) << 35})
	want := "scans 1234 (99.9/s), last scan 812µs, bus errors 3, faults 2, failing: mcp23017 0x21, stuck: d5"
	if got != want {
		t.Errorf("%q\nwant %q", got, want)
	}
}
