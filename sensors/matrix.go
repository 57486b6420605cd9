package sensors

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/trace"
	"periph.io/x/conn/v3/gpio"
)

// MatrixOptions configure a diode Matrix.
type MatrixOptions struct {
	// Clock provides the settling delay (default: the wall clock).
	Clock Clock
	// Settle is the wait after driving a row before reading the columns
	// (default 50µs). The Pi's internal pull-ups are 50-65 kΩ: with a
	// board's wiring (100 pF or more) a column released by the previous
	// row takes about 5 RC, 25 µs or more, to read high again, and 400 µs
	// a scan are nothing at a 10 ms scan interval.
	Settle time.Duration
	// DiodeCheckEvery runs, every that many scans, a reverse-bias check
	// (columns driven, rows read) that finds a missing or shorted diode
	// under a closed switch. Pins only (a line set cannot change
	// direction). 0: the default, 100; negative: never.
	DiodeCheckEvery int
	// NoGhostCheck turns off the ghosting-pattern check.
	NoGhostCheck bool
}

// Matrix scans a switch matrix with one diode per switch: each row is
// pulled low in turn while the columns, inputs with pull-ups, read which
// switches of that row are closed. Input r*cols+c is the switch at row r,
// column c.
//
// With pins, rows that are not being scanned float (high impedance), so a
// missing diode cannot short two row outputs; it makes "ghosts" instead,
// which the reverse-bias check and the ghosting-pattern check report as a
// FaultGhost. With line sets (one ioctl per row for all lines) the idle
// rows are driven high: safe only when every diode is fitted.
type Matrix struct {
	rows, cols []gpio.PinIO
	rowG, colG gpio.Group
	nr, nc     int
	o          MatrixOptions
	units      []Unit
	nscans     int
	prev       Inputs
	hasPrev    bool
	ghosts     [8]ghostRect
	ghostNext  int
}

// ghostRect is a rectangle seen with a ghosting pattern, and how often.
type ghostRect struct {
	corners Inputs
	seen    int
}

func (o *MatrixOptions) setDefaults() {
	if o.Clock == nil {
		o.Clock = NewRealClock()
	}
	if o.Settle == 0 {
		o.Settle = DefaultMatrixSettle
	}
	if o.DiodeCheckEvery == 0 {
		o.DiodeCheckEvery = 100
	}
}

// DefaultMatrixSettle is MatrixOptions.Settle's default.
const DefaultMatrixSettle = 50 * time.Microsecond

func checkMatrixSize(nr, nc int) error {
	if nr < 1 || nc < 1 || nr > 16 || nc > 16 || nr*nc > MaxInputs {
		return fmt.Errorf("matrix: %d rows x %d columns, want at most 16 x 16 and %d switches", nr, nc, MaxInputs)
	}
	return nil
}

// NewMatrix returns a matrix scanner on individual pins: rows are driven
// (low for the row being read, high impedance otherwise), columns read
// with pull-ups. It configures the pins: rows floating, columns pulled up.
func NewMatrix(rows, cols []gpio.PinIO, o MatrixOptions) (*Matrix, error) {
	if err := checkMatrixSize(len(rows), len(cols)); err != nil {
		return nil, err
	}
	o.setDefaults()
	m := &Matrix{rows: rows, cols: cols, nr: len(rows), nc: len(cols), o: o}
	for r := range rows {
		m.units = append(m.units, Unit{Name: fmt.Sprintf("matrix row %d", r), Inputs: span(r*m.nc, m.nc), Kind: FaultBus})
	}
	for _, c := range cols {
		if err := c.In(gpio.PullUp, gpio.NoEdge); err != nil {
			return nil, fmt.Errorf("matrix: column pin %v: %w", c, err)
		}
	}
	// A row pin that cannot be set floating now is not fatal: every scan
	// drives and releases it again and reports its row as a failed unit,
	// so diag --probe and the daemon's faults name the row (a broken
	// row is a wiring fault to show, not a reason to see nothing).
	for _, r := range rows {
		_ = r.In(gpio.Float, gpio.NoEdge)
	}
	return m, nil
}

// NewMatrixGroup returns a matrix scanner on two line sets: rows (outputs;
// bit r drives row r) and cols (inputs with pull-ups; bit c reads column
// c), each read or written in one operation. nr and nc are the numbers of
// rows and columns used (bits 0..nr-1 and 0..nc-1).
func NewMatrixGroup(rows, cols gpio.Group, nr, nc int, o MatrixOptions) (*Matrix, error) {
	if err := checkMatrixSize(nr, nc); err != nil {
		return nil, err
	}
	o.setDefaults()
	m := &Matrix{rowG: rows, colG: cols, nr: nr, nc: nc, o: o}
	m.units = []Unit{{Name: "matrix lines", Inputs: span(0, nr*nc), Kind: FaultBus}}
	all := gpio.GPIOValue(1)<<uint(nr) - 1
	if err := rows.Out(all, all); err != nil {
		return nil, fmt.Errorf("matrix: row lines %v: %w", rows, err)
	}
	return m, nil
}

// Sensor implements Scanner.
func (m *Matrix) Sensor() trace.Sensor { return trace.Occupancy }

// Inputs implements Scanner.
func (m *Matrix) Inputs() int { return m.nr * m.nc }

// Units implements Scanner: one per row on pins, one for both line sets.
func (m *Matrix) Units() []Unit { return m.units }

// Scan implements Scanner.
func (m *Matrix) Scan(s *Scan) error {
	s.reset()
	if m.rowG != nil {
		m.scanGroup(s)
	} else {
		m.scanPins(s)
		m.nscans++
		if m.o.DiodeCheckEvery > 0 && m.nscans%m.o.DiodeCheckEvery == 0 {
			m.diodeCheck(s)
		}
	}
	if !m.o.NoGhostCheck {
		if m.hasPrev {
			m.ghostCheck(s)
		}
		m.prev, m.hasPrev = s.Occ, true
	}
	return nil
}

func (m *Matrix) scanPins(s *Scan) {
	colMask := uint64(1)<<uint(m.nc) - 1
	for r, row := range m.rows {
		err := row.Out(gpio.Low)
		if err != nil {
			s.BusErrors++
			err = row.Out(gpio.Low)
		}
		if err != nil {
			s.BusErrors++
			s.Failed |= 1 << uint(r)
			s.Errs[r] = fmt.Errorf("driving %v low: %w", row, err)
			_ = row.In(gpio.Float, gpio.NoEdge)
			continue
		}
		m.o.Clock.Delay(m.o.Settle)
		var v uint64
		for c, col := range m.cols {
			if col.Read() == gpio.Low {
				v |= 1 << uint(c)
			}
		}
		err = row.In(gpio.Float, gpio.NoEdge)
		if err != nil {
			s.BusErrors++
			err = row.In(gpio.Float, gpio.NoEdge)
		}
		if err != nil {
			// A row that stays low pulls its columns down while the
			// next rows are read: this scan is worthless after it.
			s.BusErrors++
			for rr := r; rr < m.nr; rr++ {
				s.Failed |= 1 << uint(rr)
				s.Errs[rr] = fmt.Errorf("releasing %v: %w", row, err)
			}
			return
		}
		s.Occ.put(r*m.nc, m.nc, v)
		s.Valid.put(r*m.nc, m.nc, colMask)
	}
}

func (m *Matrix) scanGroup(s *Scan) {
	all := gpio.GPIOValue(1)<<uint(m.nr) - 1
	colMask := gpio.GPIOValue(1)<<uint(m.nc) - 1
	var occ Inputs
	fail := func(err error) {
		s.BusErrors++
		s.Failed = 1
		s.Errs[0] = err
		_ = m.rowG.Out(all, all)
	}
	for r := 0; r < m.nr; r++ {
		if err := m.rowG.Out(all&^(1<<uint(r)), all); err != nil {
			fail(fmt.Errorf("driving row %d: %w", r, err))
			return
		}
		m.o.Clock.Delay(m.o.Settle)
		v, err := m.colG.Read(colMask)
		if err != nil {
			fail(fmt.Errorf("reading columns for row %d: %w", r, err))
			return
		}
		occ.put(r*m.nc, m.nc, uint64(^v&colMask))
	}
	if err := m.rowG.Out(all, all); err != nil {
		fail(fmt.Errorf("releasing rows: %w", err))
		return
	}
	s.Occ = occ
	s.Valid = m.units[0].Inputs
}

// diodeCheck drives each column low in turn with the rows pulled up as
// inputs: through a healthy diode no current flows that way, so a row
// reading low means the diode at that row and column is missing or
// shorted (and its switch closed).
func (m *Matrix) diodeCheck(s *Scan) {
	defer func() {
		for _, r := range m.rows {
			if err := r.In(gpio.Float, gpio.NoEdge); err != nil {
				s.BusErrors++
			}
		}
	}()
	for _, r := range m.rows {
		if err := r.In(gpio.PullUp, gpio.NoEdge); err != nil {
			s.BusErrors++
			return
		}
	}
	for c, col := range m.cols {
		if err := col.Out(gpio.Low); err != nil {
			s.BusErrors++
			_ = col.In(gpio.PullUp, gpio.NoEdge)
			continue
		}
		m.o.Clock.Delay(m.o.Settle)
		for r, row := range m.rows {
			if row.Read() == gpio.Low {
				s.MissingDiode.Set(r*m.nc + c)
			}
		}
		if err := col.In(gpio.PullUp, gpio.NoEdge); err != nil {
			s.BusErrors++
		}
	}
}

// ghostCheck looks for the signature of a missing diode: two switches
// changing in the same scan that, with two switches closed before and
// after, form a rectangle (with three corners closed, a missing diode
// makes the fourth read closed, so the ghost appears and disappears with
// the third corner). Hands rarely change two squares within one scan, so
// a rectangle is reported when it has been seen twice.
func (m *Matrix) ghostCheck(s *Scan) {
	cur := &s.Occ
	var changed, both Inputs
	for w := range changed {
		changed[w] = (cur[w] ^ m.prev[w]) & s.Valid[w]
		both[w] = cur[w] & m.prev[w]
	}
	n := changed.Count()
	if n < 2 || n > 4 {
		return
	}
	l := changed.List()
	for i := 0; i < len(l); i++ {
		for j := i + 1; j < len(l); j++ {
			m.ghostPair(s, l[i], l[j], &both)
		}
	}
}

func (m *Matrix) ghostPair(s *Scan, a, b int, both *Inputs) {
	ra, ca, rb, cb := a/m.nc, a%m.nc, b/m.nc, b%m.nc
	var rect Inputs
	switch {
	case ra == rb:
		for r := 0; r < m.nr; r++ {
			if r != ra && both.Has(r*m.nc+ca) && both.Has(r*m.nc+cb) {
				rect.Set(r*m.nc + ca)
				rect.Set(r*m.nc + cb)
				break
			}
		}
	case ca == cb:
		for c := 0; c < m.nc; c++ {
			if c != ca && both.Has(ra*m.nc+c) && both.Has(rb*m.nc+c) {
				rect.Set(ra*m.nc + c)
				rect.Set(rb*m.nc + c)
				break
			}
		}
	default:
		if both.Has(ra*m.nc+cb) && both.Has(rb*m.nc+ca) {
			rect.Set(ra*m.nc + cb)
			rect.Set(rb*m.nc + ca)
		}
	}
	if rect.IsZero() {
		return
	}
	rect.Set(a)
	rect.Set(b)
	for i := range m.ghosts {
		g := &m.ghosts[i]
		if g.seen > 0 && g.corners == rect {
			g.seen++
			if g.seen >= 2 {
				s.Ghost[0] |= rect[0]
				s.Ghost[1] |= rect[1]
			}
			return
		}
	}
	m.ghosts[m.ghostNext] = ghostRect{corners: rect, seen: 1}
	m.ghostNext = (m.ghostNext + 1) % len(m.ghosts)
}

// Close implements Scanner: rows are left floating (pins) or high (line
// sets).
func (m *Matrix) Close() error {
	if m.rowG != nil {
		all := gpio.GPIOValue(1)<<uint(m.nr) - 1
		return m.rowG.Out(all, all)
	}
	for _, r := range m.rows {
		if err := r.In(gpio.Float, gpio.NoEdge); err != nil {
			return fmt.Errorf("matrix: row pin %v: %w", r, err)
		}
	}
	return nil
}
