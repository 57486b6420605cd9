package sensors_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/ads1115"
	"github.com/boardd/boardd/sensors/mcp3008"
	"github.com/boardd/boardd/sensors/sensorstest"
	"github.com/boardd/boardd/trace"
	"periph.io/x/conn/v3/analog"
	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"
	"periph.io/x/devices/v3/ads1x15"
)

func selectPins(log *[]string) []gpio.PinOut {
	var ps []gpio.PinOut
	for _, n := range []string{"S0", "S1", "S2", "S3"} {
		ps = append(ps, logPin{&gpiotest.Pin{N: n}, log})
	}
	return ps
}

func TestMCP3008WireLevel(t *testing.T) {
	// One multiplexer on MCP3008 channel 2, VREF 3.3 V; the sixteen
	// sensors read 512 (1.65 V) but channel 5 reads 400 (white) and 12
	// 620 (black). Conversions come in Gray-code channel order.
	const order = "0 1 3 2 6 7 5 4 12 13 15 14 10 11 9 8"
	var ops []conntest.IO
	for _, ch := range strings.Fields(order) {
		code := 512
		switch ch {
		case "5":
			code = 400
		case "12":
			code = 620
		}
		ops = append(ops, conntest.IO{W: []byte{0x01, 0xa0, 0x00}, R: []byte{0xff, byte(code >> 8), byte(code)}})
	}
	port := &spitest.Playback{Playback: conntest.Playback{DontPanic: true, Ops: ops}}
	c, _ := port.Connect(physic.MegaHertz, spi.Mode0, 8)
	adc, err := mcp3008.New(c, 3300*physic.MilliVolt)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := adc.Pin(2)
	var log []string
	base := make([]sensors.HallInput, 16)
	for i := range base {
		base[i].Baseline = 1650 * physic.MilliVolt
	}
	a, err := sensors.NewAnalog(selectPins(&log), []analog.PinADC{p}, base, sensors.AnalogOptions{Clock: sensorstest.NewClock()})
	if err != nil {
		t.Fatal(err)
	}
	var s sensors.Scan
	a.Scan(&s)
	if err := port.Close(); err != nil {
		t.Error(err)
	}
	if got := s.Occ.List(); !equalInts(got, []int{5, 12}) {
		t.Errorf("occupied %v, want [5 12]", got)
	}
	if got := s.White.List(); !equalInts(got, []int{5}) {
		t.Errorf("white %v, want [5]", got)
	}
	if s.Valid.Count() != 16 || s.Failed != 0 {
		t.Errorf("valid %d failed %b", s.Valid.Count(), s.Failed)
	}
	// All four lines set once, then one line per step.
	want := "S0.Out(Low) S1.Out(Low) S2.Out(Low) S3.Out(Low) S0.Out(High) S1.Out(High) S0.Out(Low) S2.Out(High) S0.Out(High) S1.Out(Low) S0.Out(Low) S3.Out(High) S0.Out(High) S1.Out(High) S0.Out(Low) S2.Out(Low) S0.Out(High) S1.Out(Low) S0.Out(Low)"
	if got := strings.Join(log, " "); got != want {
		t.Errorf("select lines:\n%s\nwant\n%s", got, want)
	}
	if v := a.Voltages()[5]; v != 3300*physic.MilliVolt*400/1024 {
		t.Errorf("voltage of channel 5: %v", v)
	}
}

func TestADS1115WireLevel(t *testing.T) {
	// periph's ads1x15 driver: one config write (single shot, AIN2, 4.096
	// V full scale, 860 samples/s, comparator off) and one 2-byte read of
	// the conversion register per sensor.
	var ops []i2ctest.IO
	for k := 0; k < 16; k++ {
		code := uint16(13200) // 1.65 V at 4.096 V full scale
		if k^k>>1 == 9 {
			code = 11000 // white
		}
		ops = append(ops,
			i2ctest.IO{Addr: 0x49, W: []byte{0x01, 0xe3, 0xe3}},
			i2ctest.IO{Addr: 0x49, W: []byte{0x00}, R: []byte{byte(code >> 8), byte(code)}})
	}
	bus := &i2ctest.Playback{Ops: ops, DontPanic: true}
	dev, err := ads1x15.NewADS1115(bus, &ads1x15.Opts{I2cAddress: 0x49})
	if err != nil {
		t.Fatal(err)
	}
	p, err := dev.PinForChannel(ads1x15.Channel2, 4096*physic.MilliVolt, 860*physic.Hertz, ads1x15.SaveEnergy)
	if err != nil {
		t.Fatal(err)
	}
	var log []string
	base := make([]sensors.HallInput, 16)
	for i := range base {
		base[i].Baseline = 1650 * physic.MilliVolt
	}
	a, _ := sensors.NewAnalog(selectPins(&log), []analog.PinADC{p}, base, sensors.AnalogOptions{Clock: sensorstest.NewClock()})
	var s sensors.Scan
	a.Scan(&s)
	if err := bus.Close(); err != nil {
		t.Error(err)
	}
	if got := s.Occ.List(); !equalInts(got, []int{9}) || !s.White.Has(9) {
		t.Errorf("occupied %v white %v, want a white piece on 9", got, s.White.List())
	}
}

// hallBoard is 4 muxes of 16 Hall sensors (square i on mux i/16, channel
// i%16, or as order says) behind an MCP3008, calibrated on the empty
// board.
func hallBoard(t *testing.T, order []chess.Square, noise physic.ElectricPotential) (*sensorstest.Clock, *sensorstest.Board, *sensorstest.HallModel, *sensors.Analog, *sensors.Wiring) {
	t.Helper()
	clk := sensorstest.NewClock()
	board := sensorstest.NewBoard(clk)
	sqs := make([][16]chess.Square, 4)
	for i, s := range order {
		sqs[i/16][i%16] = s
	}
	hall := sensorstest.NewHallModel(board, sqs)
	hall.Noise = noise
	port := hall.MCP3008(3300 * physic.MilliVolt)
	c, err := port.Connect(physic.MegaHertz, spi.Mode0, 8)
	if err != nil {
		t.Fatal(err)
	}
	adc, _ := mcp3008.New(c, 3300*physic.MilliVolt)
	var pins []analog.PinADC
	for m := 0; m < 4; m++ {
		p, _ := adc.Pin(m)
		pins = append(pins, p)
	}
	a, err := sensors.NewAnalog(hall.Select(), pins, nil, sensors.AnalogOptions{Clock: clk, Samples: 2})
	if err != nil {
		t.Fatal(err)
	}
	base, err := a.MeasureBaselines(10)
	if err != nil {
		t.Fatal(err)
	}
	cal := make([]sensors.HallInput, len(base))
	for i, b := range base {
		cal[i].Baseline = b
	}
	if err := a.SetCalibration(cal); err != nil {
		t.Fatal(err)
	}
	return clk, board, hall, a, mustWiring(t, order)
}

func TestAnalogColourGameThroughModels(t *testing.T) {
	clk, board, _, a, w := hallBoard(t, shuffled(), 8*physic.MilliVolt)
	src, err := sensors.NewScanSource(a, w, sensors.SourceOptions{Clock: clk, Debounce: 2, ScanInterval: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if src.Sensor() != trace.Colour {
		t.Fatalf("sensor %v", src.Sensor())
	}
	evs := gameEvents(t, trace.Colour, 80)
	start := clk.Now()
	board.Play(&sensorstest.Events{List: evs}, sensorstest.PlayOptions{})
	got := collect(t, src, clk, start.Add(time.Duration(evs[len(evs)-1].T+1000)*time.Millisecond))
	if f := faults(got); len(f) != 0 {
		t.Fatalf("faults: %v", f[0].String())
	}
	checkFrames(t, frames(got), states(evs, true), start, 30*time.Millisecond)
}

func TestAnalogHysteresis(t *testing.T) {
	clk, board, hall, a, w := hallBoard(t, allSquares(), 0)
	src, _ := sensors.NewScanSource(a, w, sensors.SourceOptions{Clock: clk, Debounce: 2})
	e4 := sq("e4")
	// A magnet that moves the reading only 45 mV: below the 60 mV "on"
	// threshold, the square stays empty.
	hall.Deflect[e4/16][e4%16] = 45 * physic.MilliVolt
	board.Set(e4.Bitboard(), 0)
	got := collect(t, src, clk, clk.Now().Add(200*time.Millisecond))
	if fs := frames(got); len(fs) != 1 || fs[0].Occ != 0 {
		t.Fatalf("a 45 mV deflection made %v", fs)
	}
	// 80 mV: a black piece (white lowers the reading).
	hall.Deflect[e4/16][e4%16] = 80 * physic.MilliVolt
	got = collect(t, src, clk, clk.Now().Add(200*time.Millisecond))
	if fs := frames(got); len(fs) != 1 || fs[0].Occ != e4.Bitboard() || fs[0].White != 0 {
		t.Fatalf("an 80 mV deflection made %v", fs)
	}
	// Back to 45 mV (the piece slid off-centre): above "off" (30 mV),
	// still occupied. No frame.
	hall.Deflect[e4/16][e4%16] = 45 * physic.MilliVolt
	got = collect(t, src, clk, clk.Now().Add(200*time.Millisecond))
	if fs := frames(got); len(fs) != 0 {
		t.Fatalf("hysteresis failed: %v", fs)
	}
	// 20 mV: empty.
	hall.Deflect[e4/16][e4%16] = 20 * physic.MilliVolt
	got = collect(t, src, clk, clk.Now().Add(200*time.Millisecond))
	if fs := frames(got); len(fs) != 1 || fs[0].Occ != 0 {
		t.Fatalf("a 20 mV deflection made %v", fs)
	}
}

func TestAnalogFaults(t *testing.T) {
	clk, board, hall, a, w := hallBoard(t, allSquares(), 0)
	src, _ := sensors.NewScanSource(a, w, sensors.SourceOptions{Clock: clk, Debounce: 2})
	board.Set(standard, standard&0xffff)
	got := collect(t, src, clk, clk.Now().Add(100*time.Millisecond))
	if fs := frames(got); len(fs) != 1 || fs[0].Occ != standard || fs[0].White != 0xffff {
		t.Fatalf("start: %v", fs)
	}
	// d7's sensor comes loose: its output reads 0 V.
	d7 := sq("d7")
	hall.Open[int(d7)] = true
	got = collect(t, src, clk, clk.Now().Add(100*time.Millisecond))
	fl := faults(got)
	if len(fl) != 1 || fl[0].Kind != sensors.FaultRange || fl[0].Squares != d7.Bitboard() {
		t.Fatalf("faults %v, want d7 out of range", fl)
	}
	if len(frames(got)) != 0 {
		t.Errorf("a loose sensor changed the board: %v", frames(got))
	}
	hall.Open[int(d7)] = false
	got = collect(t, src, clk, clk.Now().Add(100*time.Millisecond))
	if fl := faults(got); len(fl) != 1 || !fl[0].Cleared {
		t.Fatalf("faults %v, want d7 cleared", fl)
	}
}

func TestADS1115ThroughModel(t *testing.T) {
	// A short run through periph's driver (it sleeps one real conversion
	// time per sensor: about 80 ms a scan).
	clk := sensorstest.NewClock()
	board := sensorstest.NewBoard(clk)
	sqs := make([][16]chess.Square, 4)
	for i := range 64 {
		sqs[i/16][i%16] = chess.Square(i)
	}
	hall := sensorstest.NewHallModel(board, sqs)
	bus := hall.ADS1115(0x48)
	dev, _ := ads1x15.NewADS1115(bus, &ads1x15.Opts{I2cAddress: 0x48})
	var pins []analog.PinADC
	for m := 0; m < 4; m++ {
		p, err := dev.PinForChannel(ads1x15.Channel0+ads1x15.Channel(m), 4096*physic.MilliVolt, 860*physic.Hertz, ads1x15.SaveEnergy)
		if err != nil {
			t.Fatal(err)
		}
		pins = append(pins, p)
	}
	cal := make([]sensors.HallInput, 64)
	for i := range cal {
		cal[i].Baseline = hall.Baseline[i/16][i%16]
	}
	a, _ := sensors.NewAnalog(hall.Select(), pins, cal, sensors.AnalogOptions{Clock: clk})
	src, _ := sensors.NewScanSource(a, mustWiring(t, identity(64)), sensors.SourceOptions{Clock: clk, Debounce: 2})
	board.Set(standard, 0xffff)
	got := collect(t, src, clk, clk.Now().Add(20*time.Millisecond))
	if fs := frames(got); len(fs) != 1 || fs[0].Occ != standard || fs[0].White != 0xffff {
		t.Fatalf("frames %v", fs)
	}
	if bus.Conversions < 64*2 {
		t.Errorf("%d conversions", bus.Conversions)
	}
}

func TestADS1115BoardWaitsForEachConversion(t *testing.T) {
	// The model takes 1.16 ms per conversion (860 SPS) on the board's
	// clock and keeps the previous result until then: a reader that does
	// not wait for the conversion to be done reads the previous channel.
	cfg, _ := sensors.DefaultConfig("analog-ads1115")
	rig, err := sensorstest.NewRig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rig.ADS1115.ConvTime = time.Second / 860
	src, err := sensors.Open(cfg, rig.Hardware, sensors.SourceOptions{Clock: rig.Clock})
	if err != nil {
		t.Fatal(err)
	}
	white := chess.Bitboard(0xffff)
	rig.Board.Set(standard, white)
	got := collect(t, src, rig.Clock, rig.Clock.Now().Add(time.Second))
	fs := frames(got)
	if len(fs) != 1 || fs[0].Occ != standard || fs[0].White != white || len(faults(got)) != 0 {
		t.Fatalf("frames %v, faults %v", fs, faults(got))
	}
	// 64 conversions of 1.16-1.2 ms and 16 settles: 11-13 scans a second.
	if st := src.Stats(); st.ScanTime < 74*time.Millisecond || st.ScanTime > 80*time.Millisecond {
		t.Errorf("a scan took %v", st.ScanTime)
	}
	rig.ADS1115.Stuck = true
	got = collect(t, src, rig.Clock, rig.Clock.Now().Add(time.Second))
	if fl := faults(got); len(fl) == 0 || !errors.Is(fl[0].Err, ads1115.ErrNotReady) {
		t.Errorf("a conversion that never ends: faults %v", fl)
	}
}
