package sensors_test

import (
	"context"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/ads1115"
	"github.com/boardd/boardd/sensors/mcp3008"
	"github.com/boardd/boardd/sensors/sensorstest"
	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/analog"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/pin"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/ads1x15"
	"periph.io/x/devices/v3/mcp23xxx"
)

// The fakes below cost next to nothing, so the benchmarks measure the
// scanners' own CPU time per scan; the bus time on a Pi comes on top
// (docs/hardware.md).

type fastPin struct{ l gpio.Level }

func (p *fastPin) String() string                        { return "fast" }
func (p *fastPin) Halt() error                           { return nil }
func (p *fastPin) Name() string                          { return "fast" }
func (p *fastPin) Number() int                           { return 0 }
func (p *fastPin) Function() string                      { return "" }
func (p *fastPin) In(gpio.Pull, gpio.Edge) error         { return nil }
func (p *fastPin) Read() gpio.Level                      { return p.l }
func (p *fastPin) WaitForEdge(time.Duration) bool        { return false }
func (p *fastPin) Pull() gpio.Pull                       { return gpio.PullUp }
func (p *fastPin) DefaultPull() gpio.Pull                { return gpio.PullUp }
func (p *fastPin) Out(l gpio.Level) error                { p.l = l; return nil }
func (p *fastPin) PWM(gpio.Duty, physic.Frequency) error { return nil }
func (p *fastPin) Func() pin.Func                        { return gpio.IN }
func (p *fastPin) SupportedFuncs() []pin.Func            { return nil }
func (p *fastPin) SetFunc(pin.Func) error                { return nil }
func fastPins(n int) []gpio.PinIO {
	ps := make([]gpio.PinIO, n)
	for i := range ps {
		ps[i] = &fastPin{l: gpio.Level(i%3 != 0)}
	}
	return ps
}

type fastGroup struct{ v gpio.GPIOValue }

func (g *fastGroup) String() string                                { return "fast" }
func (g *fastGroup) Halt() error                                   { return nil }
func (g *fastGroup) Pins() []pin.Pin                               { return nil }
func (g *fastGroup) ByOffset(int) pin.Pin                          { return nil }
func (g *fastGroup) ByName(string) pin.Pin                         { return nil }
func (g *fastGroup) ByNumber(int) pin.Pin                          { return nil }
func (g *fastGroup) Out(v, m gpio.GPIOValue) error                 { g.v = v; return nil }
func (g *fastGroup) Read(m gpio.GPIOValue) (gpio.GPIOValue, error) { return 0x5a & m, nil }
func (g *fastGroup) WaitForEdge(time.Duration) (int, gpio.Edge, error) {
	return 0, gpio.NoEdge, gpio.ErrGroupFeatureNotImplemented
}

// fastBus answers every read with 0x5a bytes and counts transactions.
// fastBus answers I2C transactions: 0x5a bytes, and an MCP23017's
// pull-ups as they were written (so the bank's reset check passes).
type fastBus struct {
	n  int
	pu [8][2]byte
}

func (b *fastBus) String() string                  { return "fast" }
func (b *fastBus) SetSpeed(physic.Frequency) error { return nil }
func (b *fastBus) Tx(addr uint16, w, r []byte) error {
	b.n++
	if len(w) == 3 && w[0] == 0x0c {
		b.pu[addr&7] = [2]byte{w[1], w[2]}
	}
	for i := range r {
		r[i] = 0x5a
	}
	if len(r) == 8 && w[0] == 0x0c {
		r[0], r[1] = b.pu[addr&7][0], b.pu[addr&7][1]
	}
	return nil
}

// fastConn answers SPI transfers: 0x5a bytes, a 0x00 sentinel where the
// chain has one, mid-scale for MCP3008 conversions.
type fastConn struct{ sentinel int }

func (c *fastConn) String() string               { return "fast" }
func (c *fastConn) Duplex() conn.Duplex          { return conn.Full }
func (c *fastConn) TxPackets([]spi.Packet) error { return nil }
func (c *fastConn) Tx(w, r []byte) error {
	for i := range r {
		r[i] = 0x5a
	}
	if len(r) == 3 {
		r[1], r[2] = 2, 0
	} else if c.sentinel > 0 && len(r) == c.sentinel {
		r[len(r)-1] = 0
	}
	return nil
}

type fastADC struct{ fastPin }

func (a *fastADC) Range() (analog.Sample, analog.Sample) {
	return analog.Sample{}, analog.Sample{Raw: 1023, V: 3300 * physic.MilliVolt}
}
func (a *fastADC) Read() (analog.Sample, error) {
	return analog.Sample{Raw: 512, V: 1650 * physic.MilliVolt}, nil
}

func benchScan(b *testing.B, sc sensors.Scanner) {
	b.Helper()
	var s sensors.Scan
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := sc.Scan(&s); err != nil {
			b.Fatal(err)
		}
	}
}

// noDelay is a clock whose settling delays cost nothing, so that the
// benchmarks show CPU, not the 10-20 µs waits.
type noDelay struct{ *sensorstest.Clock }

func (*noDelay) Delay(time.Duration) {}

func BenchmarkScan(b *testing.B) {
	clk := &noDelay{sensorstest.NewClock()}
	b.Run("matrix-pins", func(b *testing.B) {
		m, _ := sensors.NewMatrix(fastPins(8), fastPins(8), sensors.MatrixOptions{Clock: clk, DiodeCheckEvery: -1})
		benchScan(b, m)
	})
	b.Run("matrix-pins-diodecheck", func(b *testing.B) {
		// A reverse-bias check every 100 scans, as by default.
		m, _ := sensors.NewMatrix(fastPins(8), fastPins(8), sensors.MatrixOptions{Clock: clk})
		benchScan(b, m)
	})
	b.Run("matrix-lines", func(b *testing.B) {
		m, _ := sensors.NewMatrixGroup(&fastGroup{}, &fastGroup{}, 8, 8, sensors.MatrixOptions{Clock: clk})
		benchScan(b, m)
	})
	b.Run("mcp23017x5", func(b *testing.B) {
		bus := &fastBus{}
		_, _, _, chips := mcpLayout(5, allSquares())
		bank, _ := sensors.NewMCP23017Bank(bus, nil, chips, sensors.MCP23017Options{CheckEvery: -1})
		benchScan(b, bank)
		b.ReportMetric(float64(bus.n)/float64(b.N), "tx/op")
	})
	b.Run("hc165x8", func(b *testing.B) {
		c := &fastConn{sentinel: 9}
		h, _ := sensors.NewHC165Chain(c, &fastPin{}, 8, sensors.HC165Options{Sentinel: sensors.SentinelLow})
		benchScan(b, h)
	})
	b.Run("analog-mcp3008", func(b *testing.B) {
		adc, _ := mcp3008.New(&fastConn{}, 3300*physic.MilliVolt)
		var pins []analog.PinADC
		for m := 0; m < 4; m++ {
			p, _ := adc.Pin(m)
			pins = append(pins, p)
		}
		sel := []gpio.PinOut{&fastPin{}, &fastPin{}, &fastPin{}, &fastPin{}}
		a, _ := sensors.NewAnalog(sel, pins, nil, sensors.AnalogOptions{Clock: clk})
		benchScan(b, a)
	})
	b.Run("analog-fakeadc", func(b *testing.B) {
		pins := []analog.PinADC{&fastADC{}, &fastADC{}, &fastADC{}, &fastADC{}}
		sel := []gpio.PinOut{&fastPin{}, &fastPin{}, &fastPin{}, &fastPin{}}
		a, _ := sensors.NewAnalog(sel, pins, nil, sensors.AnalogOptions{Clock: clk})
		benchScan(b, a)
	})
}

// rtADS1115 is an ADS1115 whose conversions take 1/860 s of real time:
// the config register's OS bit reads 0 until then.
type rtADS1115 struct {
	start time.Time
	n     int
}

func (a *rtADS1115) String() string                  { return "ads1115 in real time" }
func (a *rtADS1115) SetSpeed(physic.Frequency) error { return nil }
func (a *rtADS1115) Tx(addr uint16, w, r []byte) error {
	a.n++
	switch {
	case len(w) == 3 && w[0] == 1:
		a.start = time.Now()
	case len(w) == 1 && w[0] == 1 && len(r) == 2:
		r[0], r[1] = 0x43, 0xe3
		if time.Since(a.start) >= time.Second/860 {
			r[0] |= 0x80
		}
	case len(r) == 2:
		r[0], r[1] = 0x34, 0x00
	}
	return nil
}

// BenchmarkScanADS1115 scans 64 sensors on an ADS1115 whose conversions
// take their real time: through periph's ads1x15 driver, which sleeps a
// conversion time per reading with time.Sleep, and through
// sensors/ads1115, which waits 90 % of it and polls the OS bit. ns/op is
// the time of one scan: the design's real pace, not CPU.
func BenchmarkScanADS1115(b *testing.B) {
	sel := []gpio.PinOut{&fastPin{}, &fastPin{}, &fastPin{}, &fastPin{}}
	b.Run("periph-ads1x15", func(b *testing.B) {
		bus := &rtADS1115{}
		dev, _ := ads1x15.NewADS1115(bus, &ads1x15.Opts{I2cAddress: 0x48})
		var pins []analog.PinADC
		for m := 0; m < 4; m++ {
			p, _ := dev.PinForChannel(ads1x15.Channel0+ads1x15.Channel(m), 4096*physic.MilliVolt, 860*physic.Hertz, ads1x15.SaveEnergy)
			pins = append(pins, p)
		}
		a, _ := sensors.NewAnalog(sel, pins, nil, sensors.AnalogOptions{Clock: &noDelay{sensorstest.NewClock()}})
		benchScan(b, a)
		b.ReportMetric(float64(bus.n)/float64(b.N), "tx/op")
	})
	b.Run("ads1115-polling", func(b *testing.B) {
		bus := &rtADS1115{}
		clk := sensors.NewRealClock()
		dev, _ := ads1115.New(bus, 0x48, ads1115.Opts{Delay: clk.Delay, Now: clk.Now})
		var pins []analog.PinADC
		for m := 0; m < 4; m++ {
			p, _ := dev.Pin(m)
			pins = append(pins, p)
		}
		a, _ := sensors.NewAnalog(sel, pins, nil, sensors.AnalogOptions{Clock: &noDelay{sensorstest.NewClock()}})
		benchScan(b, a)
		b.ReportMetric(float64(bus.n)/float64(b.N), "tx/op")
	})
}

// BenchmarkMCP23017PeriphGroups is the peer of mcp23017x5: the same five
// chips read through periph's mcp23xxx, one gpio.Group per port.
func BenchmarkMCP23017PeriphGroups(b *testing.B) {
	bus := &fastBus{}
	var groups []gpio.Group
	for c := 0; c < 5; c++ {
		d, err := mcp23xxx.NewI2C(bus, mcp23xxx.MCP23017, uint16(0x20+c))
		if err != nil {
			b.Fatal(err)
		}
		defer d.Close()
		for port := 0; port < 2; port++ {
			groups = append(groups, *d.Group(port, []int{0, 1, 2, 3, 4, 5, 6}))
		}
	}
	bus.n = 0
	b.ReportAllocs()
	b.ResetTimer()
	var sink gpio.GPIOValue
	for i := 0; i < b.N; i++ {
		for _, g := range groups {
			v, err := g.Read(0)
			if err != nil {
				b.Fatal(err)
			}
			sink ^= v
		}
	}
	b.ReportMetric(float64(bus.n)/float64(b.N), "tx/op")
	_ = sink
}

func BenchmarkDebounceStep(b *testing.B) {
	d, _ := sensors.NewDebouncer(4)
	raw := [4]chess.Bitboard{standard, standard | 1<<28, standard, standard &^ (1 << 12)}
	b.ReportAllocs()
	var sink chess.Bitboard
	for i := 0; i < b.N; i++ {
		sink ^= d.Step(raw[i&3], 0, ^chess.Bitboard(0))
	}
	_ = sink
}

// BenchmarkDebounceCounters is the peer of DebounceStep: the obvious
// per-square counters.
func BenchmarkDebounceCounters(b *testing.B) {
	const n = 4
	var run [64]int
	var last, stable chess.Bitboard
	raw := [4]chess.Bitboard{standard, standard | 1<<28, standard, standard &^ (1 << 12)}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r := raw[i&3]
		for s := 0; s < 64; s++ {
			bit := chess.Bitboard(1) << s
			if r&bit == last&bit {
				run[s]++
			} else {
				run[s] = 1
			}
			if run[s] >= n {
				stable = stable&^bit | r&bit
			}
		}
		last = r
	}
	_ = stable
}

// BenchmarkSourceFrame is the whole path of one frame: scan (the MCP23017
// bank on the fake bus), map, debounce, stuck check, event out.
func BenchmarkSourceFrame(b *testing.B) {
	clk := sensorstest.NewClock()
	_, _, wiring, chips := mcpLayout(5, allSquares())
	// (No IOCON check: the fake bus would fail it.)
	bank, _ := sensors.NewMCP23017Bank(&fastBus{}, nil, chips, sensors.MCP23017Options{Clock: clk, CheckEvery: -1})
	// A heartbeat every scan makes every scan deliver a frame.
	src, _ := sensors.NewScanSource(bank, mustWiring(b, wiring), sensors.SourceOptions{Clock: clk, Heartbeat: time.Nanosecond})
	var ev sensors.Event
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := src.Next(ctx, &ev); err != nil {
			b.Fatal(err)
		}
	}
}
