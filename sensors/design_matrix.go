package sensors

import (
	"fmt"
	"strings"
	"time"

	"periph.io/x/conn/v3/gpio"
)

// The diode matrix on GPIO lines (docs/hardware.md, section 1).

func matrixReference() *Config {
	return &Config{
		Design: "matrix", ScanInterval: Duration(DefaultScanInterval), Debounce: DefaultDebounce,
		Matrix: &MatrixConfig{
			Rows:            strings.Fields("GPIO5 GPIO6 GPIO13 GPIO19 GPIO26 GPIO16 GPIO20 GPIO21"),
			Cols:            strings.Fields("GPIO4 GPIO17 GPIO27 GPIO22 GPIO23 GPIO24 GPIO25 GPIO12"),
			Settle:          Duration(DefaultMatrixSettle),
			DiodeCheckEvery: 100,
			Squares:         groupNames(squareNames(64, 0), 8),
		},
	}
}

func (m *MatrixConfig) validate() error {
	if err := checkMatrixSize(len(m.Rows), len(m.Cols)); err != nil {
		return cfgErr("matrix.rows", "%v", err)
	}
	if err := checkNames("matrix.rows", m.Rows); err != nil {
		return err
	}
	if err := checkNames("matrix.cols", m.Cols); err != nil {
		return err
	}
	if m.LineSets && m.DiodeCheckEvery > 0 {
		return cfgErr("matrix.diode_check_every", "needs individual pins, not line_sets")
	}
	if len(m.Squares) > len(m.Rows) {
		return cfgErr("matrix.squares", "%d rows for %d row lines", len(m.Squares), len(m.Rows))
	}
	for r, row := range m.Squares {
		if len(row) > len(m.Cols) {
			return cfgErr(fmt.Sprintf("matrix.squares[%d]", r), "%d columns for %d column lines", len(row), len(m.Cols))
		}
	}
	return nil
}

func (m *MatrixConfig) inputs() int { return len(m.Rows) * len(m.Cols) }

func (m *MatrixConfig) squares(set func(int, string, string) error) error {
	return gridSquares("matrix.squares", m.Squares, len(m.Cols), set)
}

func (m *MatrixConfig) setSquares(name func(int) string) {
	m.Squares = grid(len(m.Rows), len(m.Cols), name)
}

func (m *MatrixConfig) inputName(i int) string {
	nc := len(m.Cols)
	return fmt.Sprintf("row %d col %d", i/nc, i%nc)
}

func (m *MatrixConfig) uses() []Use {
	return append(gpioUses("matrix.rows", m.Rows), gpioUses("matrix.cols", m.Cols)...)
}

func (m *MatrixConfig) checkComplete(*Wiring) error { return nil }

func (m *MatrixConfig) scanner(hw Hardware, clk Clock, _ *Wiring) (Scanner, error) {
	o := MatrixOptions{Clock: clk, Settle: time.Duration(m.Settle), DiodeCheckEvery: m.DiodeCheckEvery}
	if m.LineSets {
		rows, err := hw.LineSet(m.Rows, true, gpio.PullNoChange)
		if err != nil {
			return nil, cfgErr("matrix.rows", "%v", err)
		}
		cols, err := hw.LineSet(m.Cols, false, gpio.PullUp)
		if err != nil {
			return nil, cfgErr("matrix.cols", "%v", err)
		}
		o.DiodeCheckEvery = -1
		return NewMatrixGroup(rows, cols, len(m.Rows), len(m.Cols), o)
	}
	rows, err := openPins(hw, "matrix.rows", m.Rows)
	if err != nil {
		return nil, err
	}
	cols, err := openPins(hw, "matrix.cols", m.Cols)
	if err != nil {
		return nil, err
	}
	return NewMatrix(rows, cols, o)
}

// openPins opens GPIO lines by name; errors name the key of the one that
// failed.
func openPins(hw Hardware, key string, names []string) ([]gpio.PinIO, error) {
	ps := make([]gpio.PinIO, 0, len(names))
	for i, n := range names {
		p, err := hw.Pin(n)
		if err != nil {
			return nil, cfgErr(fmt.Sprintf("%s[%d]", key, i), "%q: %v", n, err)
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// probeChecks runs the reverse-bias check on every scan (pins only).
func (m *MatrixConfig) probeChecks() {
	if !m.LineSets {
		m.DiodeCheckEvery = 1
	}
}
