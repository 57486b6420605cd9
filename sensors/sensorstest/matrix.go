package sensorstest

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/boardd/boardd/chess"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/pin"
)

// MatrixModel is a switch matrix with its row and column lines: switch
// (r, c) reads square Squares[r][c] of a Board and sits in series with a
// diode conducting from column c to row r, unless that diode is missing
// (Missing). Line levels are computed from the circuit: a line driven low
// pulls low every undriven line it reaches through closed switches in
// the diodes' conducting direction (both ways without a diode); an
// undriven line nobody pulls low reads its pull-up (high) or, floating,
// low. A low reaching a line driven high is a short, counted in Shorts.
type MatrixModel struct {
	mu      sync.Mutex
	board   *Board
	squares [][]chess.Square
	nr, nc  int
	rows    []*MatrixLine
	cols    []*MatrixLine
	// Missing[r][c] marks a switch without its diode.
	Missing [][]bool
	// Shorts counts reads during which an output driven high was pulled
	// low through the matrix (a damaging short on real hardware).
	Shorts int
	// Reads counts line reads.
	Reads int
}

// NewMatrixModel returns a matrix with len(squares) rows and
// len(squares[0]) columns.
func NewMatrixModel(board *Board, squares [][]chess.Square) *MatrixModel {
	m := &MatrixModel{board: board, squares: squares, nr: len(squares), nc: len(squares[0])}
	m.Missing = make([][]bool, m.nr)
	for r := range m.Missing {
		m.Missing[r] = make([]bool, m.nc)
	}
	for r := 0; r < m.nr; r++ {
		m.rows = append(m.rows, &MatrixLine{m: m, n: r, name: fmt.Sprintf("ROW%d", r)})
	}
	for c := 0; c < m.nc; c++ {
		m.cols = append(m.cols, &MatrixLine{m: m, n: m.nr + c, name: fmt.Sprintf("COL%d", c)})
	}
	return m
}

// Rows returns the row lines as pins.
func (m *MatrixModel) Rows() []gpio.PinIO {
	ps := make([]gpio.PinIO, m.nr)
	for i, l := range m.rows {
		ps[i] = l
	}
	return ps
}

// Cols returns the column lines as pins.
func (m *MatrixModel) Cols() []gpio.PinIO {
	ps := make([]gpio.PinIO, m.nc)
	for i, l := range m.cols {
		ps[i] = l
	}
	return ps
}

// Line returns row r's line (or column r-rows's).
func (m *MatrixModel) Line(n int) *MatrixLine {
	if n < m.nr {
		return m.rows[n]
	}
	return m.cols[n-m.nr]
}

// RowGroup returns the row lines as a line set of outputs.
func (m *MatrixModel) RowGroup() *LineGroup { return &LineGroup{lines: m.rows, output: true} }

// ColGroup returns the column lines as a line set of inputs with pull-ups.
func (m *MatrixModel) ColGroup() *LineGroup { return &LineGroup{lines: m.cols, pull: gpio.PullUp} }

// levels computes every line's level; m.mu held.
func (m *MatrixModel) levels() []gpio.Level {
	occ, _ := m.board.State()
	n := m.nr + m.nc
	low := make([]bool, n)
	var queue []int
	for i := 0; i < n; i++ {
		l := m.Line(i)
		if l.output && l.level == gpio.Low {
			low[i] = true
			queue = append(queue, i)
		}
	}
	short := false
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		visit := func(j int) {
			if low[j] {
				return
			}
			if lj := m.Line(j); lj.output {
				if lj.level == gpio.High {
					short = true
				}
				return
			}
			low[j] = true
			queue = append(queue, j)
		}
		if i < m.nr { // a row: its low reaches columns through the diodes
			for c := 0; c < m.nc; c++ {
				if m.closed(occ, i, c) {
					visit(m.nr + c)
				}
			}
		} else { // a column reaches rows only where a diode is missing
			c := i - m.nr
			for r := 0; r < m.nr; r++ {
				if m.closed(occ, r, c) && m.Missing[r][c] {
					visit(r)
				}
			}
		}
	}
	if short {
		m.Shorts++
	}
	lv := make([]gpio.Level, n)
	for i := range lv {
		l := m.Line(i)
		switch {
		case l.output:
			lv[i] = l.level
		case low[i]:
			lv[i] = gpio.Low
		default:
			lv[i] = gpio.Level(l.pull == gpio.PullUp)
		}
	}
	return lv
}

func (m *MatrixModel) closed(occ chess.Bitboard, r, c int) bool {
	sq := m.squares[r][c]
	return sq != chess.NoSquare && occ.Has(sq)
}

// MatrixLine is one row or column line of a MatrixModel.
type MatrixLine struct {
	m      *MatrixModel
	n      int
	name   string
	output bool
	level  gpio.Level
	pull   gpio.Pull
	failN  int
	// Log, when not nil, records every operation ("ROW0.Out(Low)").
	Log *[]string
}

// Fail makes the next n Out or In calls fail.
func (l *MatrixLine) Fail(n int) {
	l.m.mu.Lock()
	defer l.m.mu.Unlock()
	l.failN = n
}

func (l *MatrixLine) log(s string) {
	if l.Log != nil {
		*l.Log = append(*l.Log, l.name+"."+s)
	}
}

// String implements conn.Resource.
func (l *MatrixLine) String() string { return l.name }

// Halt implements conn.Resource.
func (l *MatrixLine) Halt() error { return nil }

// Name implements pin.Pin.
func (l *MatrixLine) Name() string { return l.name }

// Number implements pin.Pin.
func (l *MatrixLine) Number() int { return l.n }

// Function implements pin.Pin.
func (l *MatrixLine) Function() string { return string(l.Func()) }

// Func implements pin.PinFunc.
func (l *MatrixLine) Func() pin.Func {
	l.m.mu.Lock()
	defer l.m.mu.Unlock()
	if l.output {
		return gpio.OUT
	}
	return gpio.IN
}

// SupportedFuncs implements pin.PinFunc.
func (l *MatrixLine) SupportedFuncs() []pin.Func { return []pin.Func{gpio.IN, gpio.OUT} }

// SetFunc implements pin.PinFunc.
func (l *MatrixLine) SetFunc(pin.Func) error { return errors.New("matrix line: use In or Out") }

// In implements gpio.PinIn.
func (l *MatrixLine) In(pull gpio.Pull, edge gpio.Edge) error {
	l.m.mu.Lock()
	defer l.m.mu.Unlock()
	l.log(fmt.Sprintf("In(%s)", pull))
	if l.failN > 0 {
		l.failN--
		return fmt.Errorf("%s: injected failure", l.name)
	}
	if edge != gpio.NoEdge {
		return fmt.Errorf("%s: no edge detection on matrix lines", l.name)
	}
	l.output = false
	if pull != gpio.PullNoChange {
		l.pull = pull
	}
	return nil
}

// Read implements gpio.PinIn.
func (l *MatrixLine) Read() gpio.Level {
	l.m.mu.Lock()
	defer l.m.mu.Unlock()
	l.m.Reads++
	v := l.m.levels()[l.n]
	l.log(fmt.Sprintf("Read()=%s", v))
	return v
}

// WaitForEdge implements gpio.PinIn.
func (l *MatrixLine) WaitForEdge(time.Duration) bool { return false }

// Pull implements gpio.PinIn.
func (l *MatrixLine) Pull() gpio.Pull {
	l.m.mu.Lock()
	defer l.m.mu.Unlock()
	return l.pull
}

// DefaultPull implements gpio.PinIn.
func (l *MatrixLine) DefaultPull() gpio.Pull { return gpio.Float }

// Out implements gpio.PinOut.
func (l *MatrixLine) Out(v gpio.Level) error {
	l.m.mu.Lock()
	defer l.m.mu.Unlock()
	l.log(fmt.Sprintf("Out(%s)", v))
	if l.failN > 0 {
		l.failN--
		return fmt.Errorf("%s: injected failure", l.name)
	}
	l.output, l.level = true, v
	return nil
}

// PWM implements gpio.PinOut.
func (l *MatrixLine) PWM(gpio.Duty, physic.Frequency) error { return errors.New("matrix line: no PWM") }

// LineGroup is a set of matrix lines read or written at once, as a
// gpioioctl line set: outputs or inputs with a pull, fixed at creation.
type LineGroup struct {
	lines  []*MatrixLine
	output bool
	pull   gpio.Pull
	init   bool
	// Ops counts Out and Read calls.
	Ops int
}

func (g *LineGroup) setup() {
	if g.init {
		return
	}
	g.init = true
	for _, l := range g.lines {
		l.output = g.output
		l.level = gpio.High
		l.pull = g.pull
	}
}

// String implements conn.Resource.
func (g *LineGroup) String() string { return fmt.Sprintf("lineset(%d)", len(g.lines)) }

// Halt implements conn.Resource.
func (g *LineGroup) Halt() error { return nil }

// Pins implements gpio.Group.
func (g *LineGroup) Pins() []pin.Pin {
	ps := make([]pin.Pin, len(g.lines))
	for i, l := range g.lines {
		ps[i] = l
	}
	return ps
}

// ByOffset implements gpio.Group.
func (g *LineGroup) ByOffset(i int) pin.Pin {
	if i < 0 || i >= len(g.lines) {
		return nil
	}
	return g.lines[i]
}

// ByName implements gpio.Group.
func (g *LineGroup) ByName(name string) pin.Pin {
	for _, l := range g.lines {
		if l.name == name {
			return l
		}
	}
	return nil
}

// ByNumber implements gpio.Group.
func (g *LineGroup) ByNumber(n int) pin.Pin {
	for _, l := range g.lines {
		if l.n == n {
			return l
		}
	}
	return nil
}

// Out implements gpio.Group.
func (g *LineGroup) Out(value, mask gpio.GPIOValue) error {
	if len(g.lines) == 0 {
		return errors.New("lineset: empty")
	}
	m := g.lines[0].m
	m.mu.Lock()
	defer m.mu.Unlock()
	g.setup()
	g.Ops++
	if !g.output {
		return errors.New("lineset: lines requested as inputs")
	}
	for i, l := range g.lines {
		if mask&(1<<uint(i)) != 0 {
			l.level = gpio.Level(value&(1<<uint(i)) != 0)
		}
	}
	return nil
}

// Read implements gpio.Group.
func (g *LineGroup) Read(mask gpio.GPIOValue) (gpio.GPIOValue, error) {
	if len(g.lines) == 0 {
		return 0, errors.New("lineset: empty")
	}
	m := g.lines[0].m
	m.mu.Lock()
	defer m.mu.Unlock()
	g.setup()
	g.Ops++
	m.Reads++
	lv := m.levels()
	var v gpio.GPIOValue
	for i, l := range g.lines {
		if lv[l.n] {
			v |= 1 << uint(i)
		}
	}
	return v & mask, nil
}

// WaitForEdge implements gpio.Group.
func (g *LineGroup) WaitForEdge(time.Duration) (int, gpio.Edge, error) {
	return 0, gpio.NoEdge, gpio.ErrGroupFeatureNotImplemented
}

var _ gpio.Group = (*LineGroup)(nil)
var _ gpio.PinIO = (*MatrixLine)(nil)
