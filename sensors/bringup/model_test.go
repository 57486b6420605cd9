package bringup

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/sensorstest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

func TestDiagProbeOnModels(t *testing.T) {
	for _, c := range []struct {
		source string
		code   int
		want   []string
	}{
		{"model:mcp23017", 0, []string{"probe of the mcp23017 board: 100 scans", "  mcp23017 0x24            ok\n", "inputs reading a piece: 0\n", "probe: OK\n"}},
		{"model:mcp23017,dead=0x21", 1, []string{"  mcp23017 0x20            ok\n", "  mcp23017 0x21            NO ANSWER: mcp23017 0x21: writing IOCON: i2c: no acknowledge from 0x21\n",
			"problem: mcp23017 0x21 failed in every scan: "}},
		{"model:hc165", 0, []string{"  74hc165 chain            ok\n", "probe: OK\n"}},
		{"model:hc165,stuck=low", 1, []string{"NO ANSWER: sentinel byte 0x00, want 0xff", "problem: 74hc165 chain failed in every scan"}},
		{"model:matrix", 0, []string{"  matrix row 7             ok\n", "scans/s back to back", "probe: OK\n"}},
		{"model:matrix,dead=row3", 1, []string{"  matrix row 2             ok\n", "  matrix row 3             NO ANSWER: ", "problem: matrix row 3 failed in every scan"}},
		{"model:analog", 0, []string{"  mcp3008 ch3 (mux 3)      ok\n", "probe: OK\n"}},
		{"model:analog-ads1115,dead=adc", 1, []string{"ads1115 0x48 ch0 (mux 0) NO ANSWER: ", "problem: ads1115 0x48 ch3 (mux 3) failed in every scan"}},
	} {
		stdout, stderr, code := runSensorCmd(t, "", "diag", "--probe", "--source", c.source)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", c.source, code, c.code, stdout, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%s: output lacks %q:\n%s", c.source, w, stdout)
			}
		}
	}
	for _, args := range [][]string{
		{"diag", "--probe", "--source", "model:sonar"},
		{"diag", "--probe", "--source", "model:hc165,dead=0x21"},
		{"diag", "--probe", "--source", "model:mcp23017,stuck=low"},
		{"diag", "--probe", "--source", "model:hc165,melted"},
	} {
		if _, stderr, code := runSensorCmd(t, "", args...); code != 1 || !strings.Contains(stderr, "model:") {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
	}
	if _, _, code := runSensorCmd(t, "", "diag", "--record", "x.json", "--source", "model:hc165"); code != 2 {
		t.Errorf("--record without --probe: exit %d, want 2", code)
	}
}

// TestProbeTranscriptReplays records a probe's bus traffic and replays it
// with periph's i2ctest.Playback: what a real board's bring-up transcript
// is for.
func TestProbeTranscriptReplays(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bus.json")
	stdout, stderr, code := runSensorCmd(t, "", "diag", "--probe", "--scans", "5", "--source", "model:mcp23017", "--record", file)
	if code != 0 || !strings.Contains(stdout, "bus transcripts written to "+file) {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := sensorstest.ParseTranscript(b)
	if err != nil {
		t.Fatal(err)
	}
	// 5 chips: configured (7 writes) and read once per scan.
	ops := tr.I2C["/dev/i2c-1"]
	if len(ops) != 5*7+5*5 || ops[0].Addr != 0x20 || !bytes.Equal(ops[0].W, []byte{0x05, 0x44}) || !bytes.Equal(ops[1].W, []byte{0x0a, 0x44}) {
		t.Fatalf("%d transactions, first %+v", len(ops), ops[0])
	}
	cfg, _ := sensors.DefaultConfig("mcp23017")
	hw, done := tr.Hardware(map[string]gpio.PinIO{"GPIO17": &gpiotest.Pin{N: "GPIO17", L: gpio.High, EdgesChan: make(chan gpio.Level, 1)}})
	var out strings.Builder
	if err := probe(&out, &probeTarget{cfg: cfg, hw: hw}, 5, ""); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if err := done(); err != nil {
		t.Errorf("replay: %v", err)
	}
	if !strings.Contains(out.String(), "probe: OK") {
		t.Errorf("replayed probe:\n%s", out.String())
	}
}

func TestDiagOnAModel(t *testing.T) {
	stdout, stderr, code := runSensorCmd(t, "", "diag", "--stats", "0", "--source", "model:hc165")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	// The opening's 9 moves: a frame at the start and one per lift and
	// placement (castling lifts and places two pieces each).
	for _, want := range []string{"frame 1  +0.000s  32 pieces  first frame\n", "changed e4\n", "changed g1\n", "failing: none, stuck: none\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _, code = runSensorCmd(t, "", "diag", "--stats", "0", "--source", "model:mcp23017,dead=0x20")
	if code != 0 || !strings.Contains(stdout, "sensor-fault bus: mcp23017 0x20 (a1-f2)") || !strings.Contains(stdout, "failing: mcp23017 0x20") {
		t.Errorf("a dead chip: exit %d\n%s", code, stdout)
	}
}

func TestCalibrateOnAModel(t *testing.T) {
	for _, design := range []string{"hc165", "mcp23017", "matrix", "analog"} {
		stdout, stderr, code := runSensorCmd(t, "\n", "calibrate", "--source", "model:"+design)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", design, code, stderr)
		}
		got, err := sensors.ParseConfig([]byte(stdout))
		if err != nil {
			t.Fatalf("%s: %v\n%s", design, err, stdout)
		}
		ref, _ := sensors.DefaultConfig(design)
		gw, _ := got.Wiring()
		rw, _ := ref.Wiring()
		for i := 0; i < ref.Inputs(); i++ {
			if gw.Square(i) != rw.Square(i) {
				t.Fatalf("%s: input %s learned as %v, wired to %v", design, ref.InputName(i), gw.Square(i), rw.Square(i))
			}
		}
	}
	_, stderr, code := runSensorCmd(t, "\n", "calibrate", "--source", "model:mcp23017,dead=0x22")
	if code != 1 || !strings.Contains(stderr, "boardd calibrate: mcp23017 0x22 failed in every scan for 2s") {
		t.Errorf("a dead chip: exit %d\n%s", code, stderr)
	}
	// An analog board's dead ADC is named when the baselines are measured.
	_, stderr, code = runSensorCmd(t, "\n", "calibrate", "--source", "model:analog,dead=adc")
	if code != 1 || !strings.Contains(stderr, "boardd calibrate: mcp3008 ch0 (mux 0), mcp3008 ch1 (mux 1), mcp3008 ch2 (mux 2), mcp3008 ch3 (mux 3) failed in every scan; ") {
		t.Errorf("a dead ADC: exit %d\n%s", code, stderr)
	}
	if _, _, code := runSensorCmd(t, "", "calibrate", "--source", "model:hc165", "--design", "hc165"); code != 2 {
		t.Errorf("two sources: exit %d, want 2", code)
	}
}

func TestProbeTranscriptReplaysSPI(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bus.json")
	if stdout, stderr, code := runSensorCmd(t, "", "diag", "--probe", "--scans", "3", "--source", "model:hc165", "--record", file); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	b, _ := os.ReadFile(file)
	tr, err := sensorstest.ParseTranscript(b)
	if err != nil {
		t.Fatal(err)
	}
	// Three scans: 8 chips and the sentinel byte each, 0xff (all open,
	// SER high).
	ops := tr.SPI["/dev/spidev0.0"]
	if len(ops) != 3 || len(ops[0].R) != 9 || ops[0].R[8] != 0xff {
		t.Fatalf("transfers %+v", ops)
	}
	cfg, _ := sensors.DefaultConfig("hc165")
	hw, done := tr.Hardware(map[string]gpio.PinIO{"GPIO25": &gpiotest.Pin{N: "GPIO25"}})
	var out strings.Builder
	if err := probe(&out, &probeTarget{cfg: cfg, hw: hw}, 3, ""); err != nil || !strings.Contains(out.String(), "probe: OK") {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if err := done(); err != nil {
		t.Errorf("replay: %v", err)
	}
	// A fourth scan is not in the transcript: the replay says so.
	hw, _ = tr.Hardware(map[string]gpio.PinIO{"GPIO25": &gpiotest.Pin{N: "GPIO25"}})
	out.Reset()
	if err := probe(&out, &probeTarget{cfg: cfg, hw: hw}, 4, ""); err == nil || !strings.Contains(out.String(), "failed in 1 of 4 scans") {
		t.Errorf("a scan beyond the transcript: %v\n%s", err, out.String())
	}
}

// A fault spec with a typo is an error, never a healthy board.
func TestModelSpecErrors(t *testing.T) {
	for _, s := range []string{"model:mcp23017,dead=", "model:hc165,stuck=low,stuck=high", "model:hc165,stuck=sideways", "model:matrix,broken=1"} {
		if _, err := parseModelSpec(s); err == nil {
			t.Errorf("%s: accepted", s)
		}
	}
	if m, err := parseModelSpec("model:mcp23017,dead=0x21,stuck=low"); err != nil || m.dead != "0x21" || m.stuck != "low" {
		t.Errorf("%+v %v", m, err)
	}
}
