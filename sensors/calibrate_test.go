package sensors_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/sensorstest"
	"github.com/boardd/boardd/trace"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// prompter records what is said and types the given lines.
type prompter struct {
	said  []string
	lines chan string
}

func newPrompter(lines ...string) *prompter {
	p := &prompter{lines: make(chan string, len(lines))}
	for _, l := range lines {
		p.lines <- l
	}
	close(p.lines)
	return p
}

func (p *prompter) Say(format string, args ...any) {
	p.said = append(p.said, fmt.Sprintf(format, args...))
}
func (p *prompter) Lines() <-chan string { return p.lines }

// hand moves one piece from square to square: on order[k] from
// start+k*step until start+(k+1)*step, with extra always occupied.
func hand(board *sensorstest.Board, start time.Time, step time.Duration, order []chess.Square, extra chess.Bitboard, white bool) {
	var evs []trace.Event
	for k, s := range order {
		t := int64(time.Duration(k) * step / time.Millisecond)
		ev := trace.Event{T: t, Kind: trace.Frame, Occ: s.Bitboard() | extra}
		if white {
			ev.White = s.Bitboard()
		}
		evs = append(evs, ev)
		evs = append(evs, trace.Event{T: t + int64(step/time.Millisecond) - 300, Kind: trace.Frame, Occ: extra})
	}
	board.Play(&sensorstest.Events{List: evs}, sensorstest.PlayOptions{Start: start})
}

func TestCalibrateLearnsIrregularWiring(t *testing.T) {
	hidden := shuffled()
	clk := sensorstest.NewClock()
	board := sensorstest.NewBoard(clk)
	addrs, pins, wiring, _ := mcpLayout(5, hidden)
	model := sensorstest.NewMCP23017Model(board, addrs, pins)
	model.Erratum = true
	// Not yet calibrated: the bank reads every pin but GPx7.
	cfg, _ := sensors.DefaultConfig("mcp23017")
	for i := range cfg.MCP23017.Chips {
		cfg.MCP23017.Chips[i].A, cfg.MCP23017.Chips[i].B = nil, nil
	}
	hw := &sensorstest.Hardware{Buses: map[string]i2cBus{"/dev/i2c-1": model}, Pins: pinMap{"GPIO17": model.IntLine()}}
	sc, _, err := cfg.NewScanner(hw, clk)
	if err != nil {
		t.Fatal(err)
	}
	order := allSquares()
	hand(board, clk.Now().Add(2*time.Second), time.Second, order, 0, false)
	p := newPrompter("")
	res, err := sensors.Calibrate(context.Background(), sc, p, sensors.CalibrateOptions{Clock: clk, InputName: cfg.InputName})
	if err != nil {
		t.Fatalf("%v\n%s", err, strings.Join(p.said, "\n"))
	}
	for i, want := range wiring {
		if got := res.Wiring.Square(i); got != want {
			t.Fatalf("input %d (%s) learned as %v, wired to %v", i, cfg.InputName(i), got, want)
		}
	}
	if res.Skipped != 0 || !res.Stuck.IsZero() {
		t.Errorf("skipped %v stuck %v", res.Skipped, res.Stuck.List())
	}
	if !strings.Contains(strings.Join(p.said, "\n"), "Put a piece on a1.") || !strings.Contains(strings.Join(p.said, "\n"), "h8 is 0x2") {
		t.Errorf("prompts:\n%s", strings.Join(p.said, "\n"))
	}
	// The learned configuration is complete and runs the board.
	if err := cfg.ApplyCalibration(res); err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	b, _ := cfg.Marshal()
	cfg2, err := sensors.ParseConfig(b)
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	w2, _ := cfg2.Wiring()
	for i, want := range wiring {
		if w2.Square(i) != want {
			t.Fatalf("written config maps input %d to %v, want %v", i, w2.Square(i), want)
		}
	}
}

func TestCalibrateStuckSkipAndAbort(t *testing.T) {
	clk := sensorstest.NewClock()
	board := sensorstest.NewBoard(clk)
	addrs, pins, _, chips := mcpLayout(5, allSquares())
	model := sensorstest.NewMCP23017Model(board, addrs, pins)
	bank, _ := sensors.NewMCP23017Bank(model, nil, chips, sensors.MCP23017Options{Clock: clk})
	// h8's switch is welded shut: it reads a piece on the empty board.
	h8 := sq("h8").Bitboard()
	board.Set(h8, 0)
	hand(board, clk.Now().Add(time.Second), time.Second, []chess.Square{sq("b1"), sq("c1")}, h8, false)
	p := newPrompter("", "s") // Enter, then skip the first square asked
	res, err := sensors.Calibrate(context.Background(), bank, p, sensors.CalibrateOptions{Clock: clk, Squares: []chess.Square{sq("a1"), sq("b1"), sq("c1")}})
	if err != nil {
		t.Fatal(err)
	}
	said := strings.Join(p.said, "\n")
	if got := res.Stuck.List(); len(got) != 1 || !strings.Contains(said, "read a piece (a stuck switch") {
		t.Errorf("stuck %v; said:\n%s", got, said)
	}
	if res.Skipped != sq("a1").Bitboard() || res.Wiring.Input(sq("b1")) != 1 || res.Wiring.Input(sq("c1")) != 2 || res.Wiring.Input(sq("a1")) != -1 {
		t.Errorf("skipped %v, b1 on %d, c1 on %d", res.Skipped, res.Wiring.Input(sq("b1")), res.Wiring.Input(sq("c1")))
	}
	// q aborts.
	_, err = sensors.Calibrate(context.Background(), bank, newPrompter("", "q"), sensors.CalibrateOptions{Clock: clk})
	if !errors.Is(err, sensors.ErrCalibrationAborted) {
		t.Errorf("q gave %v", err)
	}
}

func TestCalibrateAnalogBoard(t *testing.T) {
	hidden := shuffled()
	clk := sensorstest.NewClock()
	board := sensorstest.NewBoard(clk)
	sqs := make([][16]chess.Square, 4)
	for i, s := range hidden {
		sqs[i/16][i%16] = s
	}
	hall := sensorstest.NewHallModel(board, sqs)
	hall.Noise = 5 * physic.MilliVolt
	hall.WhiteHigh = true // magnets mounted the other way round
	cfg, _ := sensors.DefaultConfig("analog")
	cfg.Analog.Squares = nil
	cfg.Analog.Muxes = 4
	port := hall.MCP3008(3300 * physic.MilliVolt)
	hw := &sensorstest.Hardware{Ports: map[string]spiPort{"/dev/spidev0.0": port}, Pins: pinMap{}}
	for i, p := range hall.SelectPins() {
		hw.Pins[cfg.Analog.Select[i]] = p
	}
	sc, _, err := cfg.NewScanner(hw, clk)
	if err != nil {
		t.Fatal(err)
	}
	hand(board, clk.Now().Add(2*time.Second), time.Second, allSquares(), 0, true)
	res, err := sensors.Calibrate(context.Background(), sc, newPrompter(""), sensors.CalibrateOptions{Clock: clk, InputName: cfg.InputName})
	if err != nil {
		t.Fatal(err)
	}
	if !res.WhiteHigh {
		t.Error("did not learn that white pieces raise the readings")
	}
	for i, want := range hidden {
		if res.Wiring.Square(i) != want {
			t.Fatalf("input %d learned as %v, want %v", i, res.Wiring.Square(i), want)
		}
		base, defl := hall.Baseline[i/16][i%16], hall.Deflect[i/16][i%16]
		if d := res.Baselines[i] - base; d > 3*physic.MilliVolt || d < -3*physic.MilliVolt {
			t.Errorf("input %d: baseline %v, model %v", i, res.Baselines[i], base)
		}
		if d := res.Thresholds[i] - defl/2; d > 10*physic.MilliVolt || d < -10*physic.MilliVolt {
			t.Errorf("input %d: threshold %v, half the deflection is %v", i, res.Thresholds[i], defl/2)
		}
	}
	if err := cfg.ApplyCalibration(res); err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	// The calibrated board plays a colour game: a fresh scanner from the
	// written configuration, through the same models.
	b, _ := cfg.Marshal()
	cfg2, err := sensors.ParseConfig(b)
	if err != nil {
		t.Fatal(err)
	}
	hw.Ports["/dev/spidev0.0"] = hall.MCP3008(3300 * physic.MilliVolt)
	src, err := sensors.Open(cfg2, hw, sensors.SourceOptions{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	board.Set(0, 0)
	evs := gameEvents(t, trace.Colour, 40)
	start := clk.Now().Add(time.Second)
	board.Play(&sensorstest.Events{List: evs}, sensorstest.PlayOptions{Start: start})
	got := collect(t, src, clk, start.Add(time.Duration(evs[len(evs)-1].T+1000)*time.Millisecond))
	if f := faults(got); len(f) != 0 {
		t.Fatalf("faults: %v", f[0].String())
	}
	fs := frames(got)
	if len(fs) == 0 || fs[0].Occ != 0 {
		t.Fatalf("frames %v", fs)
	}
	checkFrames(t, fs[1:], states(evs, true), start, 30*time.Millisecond)
}

type i2cBus = i2c.Bus
type spiPort = spi.Port
type pinMap = map[string]gpio.PinIO

func TestCalibrateNamesADeadChip(t *testing.T) {
	clk := sensorstest.NewClock()
	board := sensorstest.NewBoard(clk)
	addrs, pins, _, chips := mcpLayout(5, allSquares())
	model := sensorstest.NewMCP23017Model(board, addrs, pins)
	bank, _ := sensors.NewMCP23017Bank(model, nil, chips, sensors.MCP23017Options{Clock: clk})
	// Give up after a simulated minute rather than hang the test.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := clk.Now()
	clk.OnAdvance(func(now time.Time) {
		if now.Sub(start) > time.Minute {
			cancel()
		}
	})

	// A chip that misses a few scans is waited for.
	model.Fail(0x22, 20)
	hand(board, clk.Now().Add(time.Second), time.Second, []chess.Square{sq("a1")}, 0, false)
	res, err := sensors.Calibrate(ctx, bank, newPrompter(""), sensors.CalibrateOptions{Clock: clk, Squares: []chess.Square{sq("a1")}})
	if err != nil || res.Wiring.Input(sq("a1")) != 0 {
		t.Fatalf("a chip failing briefly: %v", err)
	}

	// A chip strapped to another address never answers: the calibration
	// ends within FailAfter of the first scan, naming it.
	model.Unplug(0x21, true)
	t0 := clk.Now()
	p := newPrompter("")
	_, err = sensors.Calibrate(ctx, bank, p, sensors.CalibrateOptions{Clock: clk})
	var ue *sensors.UnitError
	if !errors.As(err, &ue) {
		t.Fatalf("a dead chip: %v after %v, want a UnitError; said %q", err, clk.Now().Sub(t0), p.said)
	}
	if len(ue.Units) != 1 || ue.Units[0] != "mcp23017 0x21" || !strings.HasPrefix(err.Error(), "mcp23017 0x21 failed in every scan for 2s: ") {
		t.Errorf("error %q, units %v", err, ue.Units)
	}
	if d := clk.Now().Sub(t0); d > 3*time.Second {
		t.Errorf("gave up after %v", d)
	}
	if said := strings.Join(p.said, "\n"); strings.Contains(said, "Put a piece") {
		t.Errorf("prompted for a piece with a chip dead:\n%s", said)
	}
}

func TestCalibrateSaysWhatItWaitsFor(t *testing.T) {
	cfg, _ := sensors.DefaultConfig("hc165")
	rig, err := sensorstest.NewRig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sc, _, err := cfg.NewScanner(rig.Hardware, rig.Clock)
	if err != nil {
		t.Fatal(err)
	}
	clk := rig.Clock
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := clk.Now()
	clk.OnAdvance(func(now time.Time) {
		if now.Sub(start) > 10*time.Minute {
			cancel()
		}
	})
	put := func(s chess.Square) {
		rig.Board.Play(&sensorstest.Events{List: []trace.Event{{T: 1000, Kind: trace.Frame, Occ: s.Bitboard()}}}, sensorstest.PlayOptions{})
	}

	// The chain's data line stuck at the empty level: every scan reads an
	// empty board, the sentinel included. A minute after the prompt the
	// operator is told what could be wrong; three minutes after it, with
	// nothing learned, the calibration gives up.
	high := gpio.High
	rig.HC165.StuckMISO = &high
	p := newPrompter("")
	t0 := clk.Now()
	_, err = sensors.Calibrate(ctx, sc, p, sensors.CalibrateOptions{Clock: clk, Asked: put})
	var np *sensors.NoPieceError
	if !errors.As(err, &np) || np.Square != sq("a1") || np.For != 3*time.Minute {
		t.Fatalf("a stuck data line: %v after %v, want a NoPieceError for a1; said %q", err, clk.Now().Sub(t0), p.said)
	}
	if d := clk.Now().Sub(t0); d < 3*time.Minute || d > 3*time.Minute+time.Second {
		t.Errorf("gave up after %v", d)
	}
	said := strings.Join(p.said, "\n")
	if n := strings.Count(said, "No input has read a piece for 1m0s, waiting for one on a1."); n != 1 || !strings.Contains(said, "data line is stuck at the empty level") || !strings.Contains(said, "boardd diag --probe") {
		t.Errorf("said (%d hints):\n%s", n, said)
	}

	// A working board and a slow operator: reminded once, never given up
	// on once a piece has been seen.
	rig.HC165.StuckMISO = nil
	rig.Board.Set(0, 0)
	p = newPrompter("")
	slow := func(s chess.Square) {
		delay := int64(1000)
		if s == sq("b1") {
			delay = 4 * 60 * 1000
		}
		rig.Board.Play(&sensorstest.Events{List: []trace.Event{{T: delay, Kind: trace.Frame, Occ: s.Bitboard()}}}, sensorstest.PlayOptions{})
	}
	res, err := sensors.Calibrate(ctx, sc, p, sensors.CalibrateOptions{Clock: clk, Asked: slow, Squares: []chess.Square{sq("a1"), sq("b1")}})
	if err != nil || res.Wiring.Input(sq("b1")) != 1 {
		t.Fatalf("a slow operator: %v; said %q", err, p.said)
	}
	said = strings.Join(p.said, "\n")
	if n := strings.Count(said, "Still waiting for a new piece on b1 (1m0s)"); n != 1 || strings.Contains(said, "No input has read") {
		t.Errorf("said (%d reminders):\n%s", n, said)
	}
}
