package sensors_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/sensorstest"
	"github.com/boardd/boardd/trace"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"
)

// mcpLayout places squares on the readable pins (not GPx7) of chips
// 0x20.. in order: the pins of each chip for the model, the input->square
// list for the wiring, and the chips for the scanner.
func mcpLayout(nchips int, order []chess.Square) ([]uint16, [][16]chess.Square, []chess.Square, []sensors.MCP23017Chip) {
	addrs := make([]uint16, nchips)
	pins := make([][16]chess.Square, nchips)
	wiring := make([]chess.Square, 16*nchips)
	chips := make([]sensors.MCP23017Chip, nchips)
	for i := range wiring {
		wiring[i] = chess.NoSquare
	}
	k := 0
	for c := 0; c < nchips; c++ {
		addrs[c] = 0x20 + uint16(c)
		chips[c] = sensors.MCP23017Chip{Addr: addrs[c]}
		for p := 0; p < 16; p++ {
			pins[c][p] = chess.NoSquare
			if p == 7 || p == 15 || k >= len(order) {
				continue
			}
			pins[c][p] = order[k]
			wiring[c*16+p] = order[k]
			chips[c].Inputs |= 1 << uint(p)
			k++
		}
	}
	return addrs, pins, wiring, chips
}

func allSquares() []chess.Square {
	sq := make([]chess.Square, 64)
	for i := range sq {
		sq[i] = chess.Square(i)
	}
	return sq
}

// shuffled is a fixed irregular order of the 64 squares, as a DIY board
// might be wired.
func shuffled() []chess.Square {
	sq := allSquares()
	for i := range sq {
		j := (i*37 + 11) % 64
		sq[i], sq[j] = sq[j], sq[i]
	}
	return sq
}

func TestMCP23017GoldenTranscript(t *testing.T) {
	cfg := func(addr uint16) []i2ctest.IO {
		return []i2ctest.IO{
			{Addr: addr, W: []byte{0x05, 0x44}},       // IOCON at its BANK=1 address: back to BANK=0
			{Addr: addr, W: []byte{0x0a, 0x44}},       // IOCON: MIRROR | ODR
			{Addr: addr, W: []byte{0x00, 0x7f, 0x7f}}, // IODIRA/B: inputs, GPx7 outputs
			{Addr: addr, W: []byte{0x02, 0x7f, 0x7f}}, // IPOLA/B: inverted
			{Addr: addr, W: []byte{0x0c, 0x7f, 0x7f}}, // GPPUA/B: pull-ups
			{Addr: addr, W: []byte{0x08, 0x00, 0x00}}, // INTCONA/B: on change
			{Addr: addr, W: []byte{0x04, 0x7f, 0x7f}}, // GPINTENA/B
			// GPPUA/B (the configuration still there), INTF, INTCAP,
			// GPIOA+GPIOB.
			{Addr: addr, W: []byte{0x0c}, R: []byte{0x7f, 0x7f, 0, 0, 0, 0, 0, 0}},
		}
	}
	read := func(addr uint16, a, b byte) i2ctest.IO {
		return i2ctest.IO{Addr: addr, W: []byte{0x0c}, R: []byte{0x7f, 0x7f, 0, 0, 0, 0, a, b}}
	}
	ops := append(cfg(0x20), cfg(0x21)...)
	ops[7] = read(0x20, 0x05, 0x40) // chip 0: GPA0, GPA2, GPB6
	ops[15] = read(0x21, 0x7f, 0x00)
	ops = append(ops, read(0x20, 0x04, 0x00), read(0x21, 0x00, 0x01))
	bus := &i2ctest.Playback{Ops: ops, DontPanic: true}
	intPin := &gpiotest.Pin{N: "GPIO17", EdgesChan: make(chan gpio.Level, 1)}
	clk := sensorstest.NewClock()
	bank, err := sensors.NewMCP23017Bank(bus, intPin, []sensors.MCP23017Chip{
		{Addr: 0x20, Inputs: 0x7f7f}, {Addr: 0x21, Inputs: 0x7f7f},
	}, sensors.MCP23017Options{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	if intPin.P != gpio.PullUp {
		t.Errorf("INT pin pull = %v, want PullUp", intPin.P)
	}
	var s sensors.Scan
	if err := bank.Scan(&s); err != nil {
		t.Fatal(err)
	}
	if bus.Count != 16 {
		t.Errorf("first scan used %d transactions, want 8 per chip", bus.Count)
	}
	want := []int{0, 2, 14, 16, 17, 18, 19, 20, 21, 22}
	if got := s.Occ.List(); !equalInts(got, want) {
		t.Errorf("inputs %v, want %v", got, want)
	}
	if s.Failed != 0 || s.BusErrors != 0 {
		t.Errorf("failed %b, bus errors %d", s.Failed, s.BusErrors)
	}
	if s.Valid.Count() != 28 {
		t.Errorf("%d valid inputs, want 28", s.Valid.Count())
	}
	if err := bank.Scan(&s); err != nil {
		t.Fatal(err)
	}
	if got := s.Occ.List(); !equalInts(got, []int{2, 24}) {
		t.Errorf("second scan inputs %v, want [2 24]", got)
	}
	if err := bus.Close(); err != nil {
		t.Errorf("playback not consumed: %v", err)
	}

	// The interrupt line: an edge wakes the bank; a line still low after
	// the read means another change, so no wait at all.
	intPin.EdgesChan <- gpio.Low
	if !bank.WaitChange(time.Second) {
		t.Error("WaitChange missed the falling edge")
	}
	if !bank.WaitChange(time.Millisecond) {
		t.Error("WaitChange ignored a line held low")
	}
	intPin.Out(gpio.High)
	if bank.WaitChange(time.Millisecond) {
		t.Error("WaitChange reported a change on an idle line")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// flakyBus fails chosen transactions (counted from 0) without passing
// them on.
type flakyBus struct {
	i2c.Bus
	n    int
	fail map[int]bool
}

func (f *flakyBus) Tx(addr uint16, w, r []byte) error {
	n := f.n
	f.n++
	if f.fail[n] {
		return errors.New("i2c: remote I/O error")
	}
	return f.Bus.Tx(addr, w, r)
}

func (f *flakyBus) SetSpeed(physic.Frequency) error { return nil }

func TestMCP23017RetryOnce(t *testing.T) {
	read := i2ctest.IO{Addr: 0x20, W: []byte{0x0c}, R: []byte{0x7f, 0x7f, 0, 0, 0, 0, 0x01, 0x00}}
	ops := []i2ctest.IO{
		{Addr: 0x20, W: []byte{0x05, 0x44}},
		{Addr: 0x20, W: []byte{0x0a, 0x44}},
		{Addr: 0x20, W: []byte{0x00, 0x7f, 0x7f}},
		{Addr: 0x20, W: []byte{0x02, 0x7f, 0x7f}},
		{Addr: 0x20, W: []byte{0x0c, 0x7f, 0x7f}},
		{Addr: 0x20, W: []byte{0x08, 0x00, 0x00}},
		{Addr: 0x20, W: []byte{0x04, 0x7f, 0x7f}},
		read, // scan 1: tx 7
		read, // scan 2: tx 8 fails, retry tx 9 succeeds
	}
	pb := &i2ctest.Playback{Ops: ops, DontPanic: true}
	bus := &flakyBus{Bus: pb, fail: map[int]bool{8: true, 10: true, 11: true}}
	bank, err := sensors.NewMCP23017Bank(bus, nil, []sensors.MCP23017Chip{{Addr: 0x20, Inputs: 0x7f7f}}, sensors.MCP23017Options{CheckEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	var s sensors.Scan
	bank.Scan(&s)
	bank.Scan(&s)
	if s.Failed != 0 || s.BusErrors != 1 || !s.Occ.Has(0) {
		t.Errorf("after one failed read: failed %b, bus errors %d, occ %v; want the retry to succeed", s.Failed, s.BusErrors, s.Occ.List())
	}
	// Scan 3: tx 10 and its retry 11 fail: the chip is at fault, its
	// inputs invalid, and it will be configured again.
	bank.Scan(&s)
	if s.Failed != 1 || s.BusErrors != 2 || !s.Valid.IsZero() || s.Errs[0] == nil {
		t.Errorf("after two failed reads: failed %b, bus errors %d, valid %v, err %v", s.Failed, s.BusErrors, s.Valid.List(), s.Errs[0])
	}
	if err := pb.Close(); err != nil {
		t.Error(err)
	}
}

// mcpBoard builds a 5-chip bank model wired as order, driven by a clock.
func mcpBoard(t *testing.T, order []chess.Square) (*sensorstest.Clock, *sensorstest.Board, *sensorstest.MCP23017Model, *sensors.MCP23017Bank, *sensors.Wiring) {
	t.Helper()
	clk := sensorstest.NewClock()
	board := sensorstest.NewBoard(clk)
	addrs, pins, wiring, chips := mcpLayout(5, order)
	model := sensorstest.NewMCP23017Model(board, addrs, pins)
	model.Erratum = true
	bank, err := sensors.NewMCP23017Bank(model, model.IntLine(), chips, sensors.MCP23017Options{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	return clk, board, model, bank, mustWiring(t, wiring)
}

func TestMCP23017GameThroughRegisterModel(t *testing.T) {
	clk, board, model, bank, w := mcpBoard(t, shuffled())
	src, err := sensors.NewScanSource(bank, w, sensors.SourceOptions{Clock: clk, Debounce: 3})
	if err != nil {
		t.Fatal(err)
	}
	evs := gameEvents(t, trace.Occupancy, 0)
	start := clk.Now()
	if _, err := board.Play(&sensorstest.Events{List: evs}, sensorstest.PlayOptions{Bounce: 4 * time.Millisecond, Toggles: 3}); err != nil {
		t.Fatal(err)
	}
	end := start.Add(time.Duration(evs[len(evs)-1].T+2000) * time.Millisecond)
	got := collect(t, src, clk, end)
	if f := faults(got); len(f) != 0 {
		t.Fatalf("faults on a healthy bank: %v", f[0].String())
	}
	// A change is seen at the interrupt (or the 100 ms poll), then needs
	// the bounce and three stable scans 10 ms apart.
	checkFrames(t, frames(got), states(evs, false), start, 60*time.Millisecond)

	// Idle, the bank is read on the 100 ms safety net only: 5 reads per
	// 100 ms, not 5 per 10 ms.
	before := 0
	for _, n := range model.Ops {
		before += n
	}
	collect(t, src, clk, end.Add(10*time.Second))
	after := 0
	for _, n := range model.Ops {
		after += n
	}
	// 10 s of idling: 100 scans of 5 chips, plus 10 IOCON checks each.
	if d := after - before; d < 500 || d > 600 {
		t.Errorf("%d transactions in 10 idle seconds, want 500-600 (polling every 100 ms)", d)
	}
	if model.IntLine().Edges == 0 {
		t.Error("the interrupt line never fell")
	}
}

func TestMCP23017LostInterruptsFallBackToPolling(t *testing.T) {
	clk, board, model, bank, w := mcpBoard(t, allSquares())
	model.IntLine().Deaf = true
	src, err := sensors.NewScanSource(bank, w, sensors.SourceOptions{Clock: clk, Debounce: 3})
	if err != nil {
		t.Fatal(err)
	}
	evs := gameEvents(t, trace.Occupancy, 12)
	start := clk.Now()
	board.Play(&sensorstest.Events{List: evs}, sensorstest.PlayOptions{})
	got := collect(t, src, clk, start.Add(time.Duration(evs[len(evs)-1].T+1000)*time.Millisecond))
	// Every change still arrives, within the 100 ms poll plus debounce.
	checkFrames(t, frames(got), states(evs, false), start, 140*time.Millisecond)
}

func TestMCP23017FaultsAreEvents(t *testing.T) {
	clk, board, model, bank, w := mcpBoard(t, allSquares())
	src, err := sensors.NewScanSource(bank, w, sensors.SourceOptions{Clock: clk, Debounce: 2})
	if err != nil {
		t.Fatal(err)
	}
	board.Set(standard, 0)
	start := clk.Now()
	got := collect(t, src, clk, start.Add(500*time.Millisecond))
	if fs := frames(got); len(fs) != 1 || fs[0].Occ != standard {
		t.Fatalf("start: %d frames (%v)", len(fs), fs)
	}

	// Chip 0x21 (squares 14..27: g2-d4) stops answering; g2-g4 is played
	// meanwhile: g2 is on the dead chip, g4 on 0x22.
	model.Unplug(0x21, true)
	clk.Advance(50 * time.Millisecond)
	moved := standard&^sq("g2").Bitboard() | sq("g4").Bitboard()
	board.Set(moved, 0)
	got = collect(t, src, clk, clk.Now().Add(time.Second))
	fl := faults(got)
	if len(fl) != 1 || fl[0].Kind != sensors.FaultBus || fl[0].Chip != "mcp23017 0x21" || fl[0].Cleared {
		t.Fatalf("faults %v, want one bus fault of mcp23017 0x21", fl)
	}
	if want := chess.Bitboard(0x3fff) << 14; fl[0].Squares != want {
		t.Errorf("fault squares %s, want %s", sensors.SquareSet(fl[0].Squares), sensors.SquareSet(want))
	}
	if !errors.Is(fl[0].Err, sensorstest.ErrNoAck) {
		t.Errorf("fault error %v, want the bus's", fl[0].Err)
	}
	if s := fl[0].String(); s != "sensor-fault bus: mcp23017 0x21 (g2-d4): i2c: no acknowledge from 0x21" {
		t.Errorf("fault line %q", s)
	}
	// g4 arrives; g2, unreadable, keeps its last state.
	fs := frames(got)
	if len(fs) != 1 || fs[0].Occ != standard|sq("g4").Bitboard() {
		t.Fatalf("frames while 0x21 is dead: %v", fs)
	}
	if st := src.Stats(); len(st.Failing) != 1 || st.Failing[0] != "mcp23017 0x21" || st.BusErrors == 0 {
		t.Errorf("stats %+v", st)
	}

	// It answers again: the fault clears, the chip is configured again and
	// g2's lift shows.
	model.Unplug(0x21, false)
	got = collect(t, src, clk, clk.Now().Add(time.Second))
	fl = faults(got)
	if len(fl) != 1 || fl[0].Kind != sensors.FaultBus || !fl[0].Cleared {
		t.Fatalf("faults after replug %v, want the bus fault cleared", fl)
	}
	if fs := frames(got); len(fs) != 1 || fs[0].Occ != moved || fs[0].Changed != sq("g2").Bitboard() {
		t.Fatalf("frames after replug %v", fs)
	}
	if model.Reg(0x21, 0x0a) != 0x44 {
		t.Error("chip 0x21 not configured again")
	}

	// A brown-out resets chip 0x20 to power-on registers (pull-ups off,
	// polarity not inverted). The next scan's read sees the pull-ups gone,
	// configures it again and reads it again: a reset fault, and never a
	// frame of the squares it would have misread.
	model.Reset(0x20)
	at := clk.Now()
	got = collect(t, src, clk, clk.Now().Add(1500*time.Millisecond))
	fl = faults(got)
	if len(fl) != 1 || fl[0].Kind != sensors.FaultReset || fl[0].Chip != "mcp23017 0x20" {
		t.Fatalf("faults after a reset %v, want a reset fault of 0x20", fl)
	}
	if d := fl[0].T.Sub(at); d > sensors.DefaultPollInterval+sensors.DefaultScanInterval {
		t.Errorf("the reset was noticed after %v, want the next scan", d)
	}
	if model.Reg(0x20, 0x0a) != 0x44 {
		t.Error("chip 0x20 not configured again after its reset")
	}
	if fs := frames(got); len(fs) != 0 {
		t.Errorf("frames after the reset, the board unchanged: %v", fs)
	}
}

func TestMCP23017LeftInBank1IsRecovered(t *testing.T) {
	// Other software left chip 0x22 in BANK=1 (IOCON.BANK set: another
	// register map, IOCON at 0x05). The bank brings it back to BANK=0 and
	// reads it right from the first scan.
	clk, board, model, bank, w := mcpBoard(t, allSquares())
	if err := model.Tx(0x22, []byte{0x0a, 0x80}, nil); err != nil {
		t.Fatal(err)
	}
	src, _ := sensors.NewScanSource(bank, w, sensors.SourceOptions{Clock: clk, Debounce: 2})
	board.Set(standard, 0)
	got := collect(t, src, clk, clk.Now().Add(500*time.Millisecond))
	if fs := frames(got); len(fs) != 1 || fs[0].Occ != standard {
		t.Fatalf("frames %v, want the start position", fs)
	}
	if fl := faults(got); len(fl) != 0 {
		t.Errorf("faults %v", fl)
	}
	if v := model.Reg(0x22, 0x0a); v != 0x44 {
		t.Errorf("IOCON %#x, want 0x44 (BANK=0)", v)
	}
}

func TestMCP23017Erratum(t *testing.T) {
	// The configuration refuses a square on GPA7 ...
	c := &sensors.Config{Design: "mcp23017", MCP23017: &sensors.MCP23017Config{Bus: "1", Chips: []sensors.MCP23017ChipConfig{
		{Addr: 0x20, A: []string{"a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"}},
	}}}
	err := c.ValidateHardware()
	if err == nil || !strings.Contains(err.Error(), "mcp23017.chips[0].a[7]") || !strings.Contains(err.Error(), "GPA7") {
		t.Fatalf("error %v, want one naming mcp23017.chips[0].a[7] and GPA7", err)
	}
	// ... because on current silicon that square would read occupied for
	// ever: the model with the erratum, read as an input anyway.
	clk := sensorstest.NewClock()
	board := sensorstest.NewBoard(clk)
	var pins [16]chess.Square
	for p := range pins {
		pins[p] = chess.Square(p)
	}
	model := sensorstest.NewMCP23017Model(board, []uint16{0x20}, [][16]chess.Square{pins})
	model.Erratum = true
	bank, _ := sensors.NewMCP23017Bank(model, nil, []sensors.MCP23017Chip{{Addr: 0x20, Inputs: 0xffff}}, sensors.MCP23017Options{Clock: clk})
	var s sensors.Scan
	bank.Scan(&s)
	if got := s.Occ.List(); !equalInts(got, []int{7, 15}) {
		t.Errorf("empty board reads inputs %v, want the GPx7 pins stuck at [7 15]", got)
	}
}
