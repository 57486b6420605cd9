package sensorstest

import (
	"fmt"
	"strings"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// Rig is a sensor board of chip models behind the names a sensors.Config
// gives its pins and buses, wired as the configuration's squares say, on a
// Board in virtual time: what `boardd diag` and `boardd calibrate` run on
// with `--source model:<design>`, and what tests open a Config on.
type Rig struct {
	Clock    *Clock
	Board    *Board
	Hardware *Hardware
	// The models of the design (the others are nil), for injecting faults.
	Matrix   *MatrixModel
	MCP23017 *MCP23017Model
	HC165    *HC165Model
	Hall     *HallModel
	MCP3008  *MCP3008Model
	ADS1115  *ADS1115Model
}

// rigDesigns builds each design's models: one entry per design, in step
// with the sensors package's table.
var rigDesigns = []func(r *Rig, c *sensors.Config, w *sensors.Wiring) bool{
	rigMatrix, rigMCP23017, rigHC165, rigAnalog,
}

// NewRig builds the models of cfg's design. An analog configuration
// without baselines gets the model's, as boardd calibrate would measure.
func NewRig(cfg *sensors.Config) (*Rig, error) {
	if err := cfg.ValidateHardware(); err != nil {
		return nil, err
	}
	w, err := cfg.Wiring()
	if err != nil {
		return nil, err
	}
	clk := NewClock()
	r := &Rig{Clock: clk, Board: NewBoard(clk), Hardware: &Hardware{
		Pins: map[string]gpio.PinIO{}, Buses: map[string]i2c.Bus{}, Ports: map[string]spi.Port{}, Groups: map[string]gpio.Group{},
	}}
	for _, build := range rigDesigns {
		if build(r, cfg, w) {
			return r, nil
		}
	}
	return nil, fmt.Errorf("sensorstest: no model of design %q", cfg.Design)
}

func rigMatrix(r *Rig, cfg *sensors.Config, w *sensors.Wiring) bool {
	m := cfg.Matrix
	if m == nil {
		return false
	}
	sqs := make([][]chess.Square, len(m.Rows))
	for row := range sqs {
		sqs[row] = make([]chess.Square, len(m.Cols))
		for col := range sqs[row] {
			sqs[row][col] = w.Square(row*len(m.Cols) + col)
		}
	}
	r.Matrix = NewMatrixModel(r.Board, sqs)
	for i, n := range m.Rows {
		r.Hardware.Pins[n] = r.Matrix.Line(i)
	}
	for i, n := range m.Cols {
		r.Hardware.Pins[n] = r.Matrix.Line(len(m.Rows) + i)
	}
	r.Hardware.Groups[strings.Join(m.Rows, ",")] = r.Matrix.RowGroup()
	r.Hardware.Groups[strings.Join(m.Cols, ",")] = r.Matrix.ColGroup()
	return true
}

func rigMCP23017(r *Rig, cfg *sensors.Config, w *sensors.Wiring) bool {
	m := cfg.MCP23017
	if m == nil {
		return false
	}
	var addrs []uint16
	var pins [][16]chess.Square
	for i, ch := range m.Chips {
		addrs = append(addrs, uint16(ch.Addr))
		var p [16]chess.Square
		for b := range p {
			p[b] = w.Square(i*16 + b)
		}
		pins = append(pins, p)
	}
	r.MCP23017 = NewMCP23017Model(r.Board, addrs, pins)
	r.MCP23017.Erratum = !m.UseGPx7
	r.Hardware.Buses[m.Bus] = r.MCP23017
	if m.IntPin != "" {
		r.Hardware.Pins[m.IntPin] = r.MCP23017.IntLine()
	}
	return true
}

func rigHC165(r *Rig, cfg *sensors.Config, w *sensors.Wiring) bool {
	h := cfg.HC165
	if h == nil {
		return false
	}
	in := make([][8]chess.Square, cfg.Inputs()/8)
	for i := range cfg.Inputs() {
		in[i/8][i%8] = w.Square(i)
	}
	r.HC165 = NewHC165Model(r.Board, in)
	r.HC165.ActiveHigh = h.ActiveHigh
	// SER tied as the configuration says (low without a sentinel).
	r.HC165.SER = h.Sentinel == "high"
	r.Hardware.Ports[h.SPI] = r.HC165
	r.Hardware.Pins[h.Latch] = r.HC165.Latch()
	return true
}

func rigAnalog(r *Rig, cfg *sensors.Config, w *sensors.Wiring) bool {
	a := cfg.Analog
	if a == nil {
		return false
	}
	sqs := make([][16]chess.Square, cfg.Inputs()/16)
	for i := range cfg.Inputs() {
		sqs[i/16][i%16] = w.Square(i)
	}
	r.Hall = NewHallModel(r.Board, sqs)
	r.Hall.WhiteHigh = a.WhiteHigh
	if len(a.BaselineMV) == 0 {
		a.BaselineMV = map[string]float64{}
		for i := range cfg.Inputs() {
			if sq := w.Square(i); sq != chess.NoSquare {
				a.BaselineMV[sq.String()] = float64(r.Hall.Baseline[i/16][i%16]) / float64(physic.MilliVolt)
			}
		}
	}
	for i, p := range r.Hall.SelectPins() {
		r.Hardware.Pins[a.Select[i]] = p
	}
	if a.ADC == "mcp3008" {
		vref := a.VRefMV
		if vref == 0 {
			vref = 3300
		}
		r.MCP3008 = r.Hall.MCP3008(physic.ElectricPotential(vref * float64(physic.MilliVolt)))
		r.Hardware.Ports[a.Bus] = r.MCP3008
		return true
	}
	addrs := []uint16{0x48}
	if len(a.Addrs) > 0 {
		addrs = addrs[:0]
		for _, ad := range a.Addrs {
			addrs = append(addrs, uint16(ad))
		}
	}
	r.ADS1115 = r.Hall.ADS1115(addrs...)
	r.Hardware.Buses[a.Bus] = r.ADS1115
	return true
}
