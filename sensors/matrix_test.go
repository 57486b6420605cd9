package sensors_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/sensorstest"
	"github.com/boardd/boardd/trace"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// rowPin is a gpiotest.Pin that logs and remembers whether it is driven.
type rowPin struct {
	*gpiotest.Pin
	log    *[]string
	driven bool
}

func (p *rowPin) Out(l gpio.Level) error {
	*p.log = append(*p.log, fmt.Sprintf("%s.Out(%s)", p.N, l))
	p.driven = true
	return p.Pin.Out(l)
}

func (p *rowPin) In(pull gpio.Pull, e gpio.Edge) error {
	*p.log = append(*p.log, fmt.Sprintf("%s.In(%s)", p.N, pull))
	p.driven = false
	return p.Pin.In(pull, e)
}

// colPin is a column: it reads low when a driven-low row has its switch
// in this column closed (closed[row][col]).
type colPin struct {
	*gpiotest.Pin
	log    *[]string
	c      int
	rows   []*rowPin
	closed [][]bool
}

func (p *colPin) In(pull gpio.Pull, e gpio.Edge) error {
	*p.log = append(*p.log, fmt.Sprintf("%s.In(%s)", p.N, pull))
	return p.Pin.In(pull, e)
}

func (p *colPin) Read() gpio.Level {
	*p.log = append(*p.log, p.N+".Read")
	for r, row := range p.rows {
		if row.driven && row.Pin.Read() == gpio.Low && p.closed[r][p.c] {
			return gpio.Low
		}
	}
	return p.Pin.Read()
}

func TestMatrixWireLevel(t *testing.T) {
	var log []string
	closed := [][]bool{{true, false}, {true, true}}
	rows := []*rowPin{{Pin: &gpiotest.Pin{N: "R0"}, log: &log}, {Pin: &gpiotest.Pin{N: "R1"}, log: &log}}
	cols := []*colPin{{Pin: &gpiotest.Pin{N: "C0"}, log: &log, c: 0, rows: rows, closed: closed}, {Pin: &gpiotest.Pin{N: "C1"}, log: &log, c: 1, rows: rows, closed: closed}}
	clk := sensorstest.NewClock()
	m, err := sensors.NewMatrix([]gpio.PinIO{rows[0], rows[1]}, []gpio.PinIO{cols[0], cols[1]}, sensors.MatrixOptions{Clock: clk, DiodeCheckEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	want := "C0.In(PullUp) C1.In(PullUp) R0.In(Float) R1.In(Float)"
	if got := strings.Join(log, " "); got != want {
		t.Errorf("set-up: %s\nwant    %s", got, want)
	}
	log = log[:0]
	t0 := clk.Now()
	var s sensors.Scan
	m.Scan(&s)
	want = "R0.Out(Low) C0.Read C1.Read R0.In(Float) R1.Out(Low) C0.Read C1.Read R1.In(Float)"
	if got := strings.Join(log, " "); got != want {
		t.Errorf("scan: %s\nwant  %s", got, want)
	}
	if got := s.Occ.List(); !equalInts(got, []int{0, 2, 3}) || s.Valid.Count() != 4 {
		t.Errorf("inputs %v (valid %d), want [0 2 3]", got, s.Valid.Count())
	}
	if d := clk.Now().Sub(t0); d != 100*time.Microsecond {
		t.Errorf("settling took %v, want 2 x 50µs", d)
	}
}

// matrixBoard is an 8x8 matrix model: row r is rank r+1, column c file c
// unless wired otherwise.
func matrixBoard(t *testing.T) (*sensorstest.Clock, *sensorstest.Board, *sensorstest.MatrixModel, *sensors.Wiring) {
	t.Helper()
	clk := sensorstest.NewClock()
	board := sensorstest.NewBoard(clk)
	sqs := make([][]chess.Square, 8)
	for r := range sqs {
		sqs[r] = make([]chess.Square, 8)
		for c := range sqs[r] {
			sqs[r][c] = chess.NewSquare(c, r)
		}
	}
	return clk, board, sensorstest.NewMatrixModel(board, sqs), mustWiring(t, identity(64))
}

func TestMatrixSettlesEachRow50us(t *testing.T) {
	// 10 µs was too short for the Pi's 50-65 kΩ pull-ups to bring a
	// column back high through a board's wiring; a scan of 8 rows spends
	// 8 x 50 µs settling, nothing beside a 10 ms scan interval.
	clk, _, model, _ := matrixBoard(t)
	m, err := sensors.NewMatrix(model.Rows(), model.Cols(), sensors.MatrixOptions{Clock: clk, DiodeCheckEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	t0 := clk.Now()
	var s sensors.Scan
	if err := m.Scan(&s); err != nil {
		t.Fatal(err)
	}
	if d := clk.Now().Sub(t0); d != 8*50*time.Microsecond {
		t.Errorf("a scan settled for %v, want 8 x 50µs", d)
	}
	cfg, _ := sensors.DefaultConfig("matrix")
	if time.Duration(cfg.Matrix.Settle) != 50*time.Microsecond {
		t.Errorf("reference settle %v", time.Duration(cfg.Matrix.Settle))
	}
}

func TestMatrixGameThroughModel(t *testing.T) {
	for _, group := range []bool{false, true} {
		clk, board, model, w := matrixBoard(t)
		var m *sensors.Matrix
		var err error
		if group {
			m, err = sensors.NewMatrixGroup(model.RowGroup(), model.ColGroup(), 8, 8, sensors.MatrixOptions{Clock: clk})
		} else {
			m, err = sensors.NewMatrix(model.Rows(), model.Cols(), sensors.MatrixOptions{Clock: clk, DiodeCheckEvery: 50})
		}
		if err != nil {
			t.Fatal(err)
		}
		src, _ := sensors.NewScanSource(m, w, sensors.SourceOptions{Clock: clk, Debounce: 3})
		evs := gameEvents(t, trace.Occupancy, 60)
		start := clk.Now()
		board.Play(&sensorstest.Events{List: evs}, sensorstest.PlayOptions{Bounce: 2 * time.Millisecond, Toggles: 2})
		got := collect(t, src, clk, start.Add(time.Duration(evs[len(evs)-1].T+1000)*time.Millisecond))
		if f := faults(got); len(f) != 0 {
			t.Fatalf("group %v: faults on a healthy matrix: %v", group, f[0].String())
		}
		checkFrames(t, frames(got), states(evs, false), start, 40*time.Millisecond)
		if model.Shorts != 0 {
			t.Errorf("group %v: %d shorts", group, model.Shorts)
		}
	}
}

func TestMatrixMissingDiode(t *testing.T) {
	clk, board, model, w := matrixBoard(t)
	model.Missing[0][3] = true // d1
	m, _ := sensors.NewMatrix(model.Rows(), model.Cols(), sensors.MatrixOptions{Clock: clk, DiodeCheckEvery: 10})
	src, _ := sensors.NewScanSource(m, w, sensors.SourceOptions{Clock: clk, Debounce: 2})
	board.Set(standard, 0)
	got := collect(t, src, clk, clk.Now().Add(300*time.Millisecond))
	fl := faults(got)
	if len(fl) != 1 || fl[0].Kind != sensors.FaultGhost || fl[0].Squares != sq("d1").Bitboard() || !strings.Contains(fl[0].Err.Error(), "reverse-bias") {
		t.Fatalf("faults %v, want the missing diode at d1", fl)
	}
	// What it does: with d1, d2 and e1 closed, e2 cannot be seen empty.
	board.Set(standard&^sq("e2").Bitboard(), 0)
	got = collect(t, src, clk, clk.Now().Add(300*time.Millisecond))
	if fs := frames(got); len(fs) != 0 {
		t.Errorf("e2's lift was seen despite the ghost: %v", fs)
	}
	if len(faults(got)) != 0 {
		t.Errorf("the same missing diode reported twice: %v", faults(got))
	}
	// Floating idle rows: the missing diode never shorts two outputs.
	if model.Shorts != 0 {
		t.Errorf("%d shorts with floating idle rows", model.Shorts)
	}
}

func TestMatrixGhostPattern(t *testing.T) {
	// Without the reverse-bias check (as with line sets), the ghost shows
	// as a rectangle changing two corners at once; seen twice, reported.
	clk, board, model, w := matrixBoard(t)
	model.Missing[0][3] = true // d1
	m, _ := sensors.NewMatrix(model.Rows(), model.Cols(), sensors.MatrixOptions{Clock: clk, DiodeCheckEvery: -1})
	src, _ := sensors.NewScanSource(m, w, sensors.SourceOptions{Clock: clk, Debounce: 2})
	three := sq("d1").Bitboard() | sq("d2").Bitboard() | sq("e1").Bitboard()
	board.Set(three, 0)
	got := collect(t, src, clk, clk.Now().Add(100*time.Millisecond))
	if fs := frames(got); len(fs) != 1 || fs[0].Occ != three|sq("e2").Bitboard() {
		t.Fatalf("three corners should read four: %v", fs)
	}
	board.Set(three&^sq("d1").Bitboard(), 0) // d1 lifted: the ghost e2 goes too
	got = collect(t, src, clk, clk.Now().Add(100*time.Millisecond))
	if len(faults(got)) != 0 {
		t.Fatalf("one sighting reported: %v", faults(got))
	}
	board.Set(three, 0) // put back: both come back at once, again
	got = collect(t, src, clk, clk.Now().Add(100*time.Millisecond))
	fl := faults(got)
	rect := three | sq("e2").Bitboard()
	if len(fl) != 1 || fl[0].Kind != sensors.FaultGhost || fl[0].Squares != rect {
		t.Fatalf("faults %v, want a ghost fault on %s", fl, sensors.SquareSet(rect))
	}
}

func TestMatrixRowFault(t *testing.T) {
	clk, board, model, w := matrixBoard(t)
	m, _ := sensors.NewMatrix(model.Rows(), model.Cols(), sensors.MatrixOptions{Clock: clk})
	src, _ := sensors.NewScanSource(m, w, sensors.SourceOptions{Clock: clk, Debounce: 2})
	board.Set(standard, 0)
	collect(t, src, clk, clk.Now().Add(100*time.Millisecond))
	model.Line(1).Fail(2) // row 1 cannot be driven, twice: one scan
	got := collect(t, src, clk, clk.Now().Add(100*time.Millisecond))
	fl := faults(got)
	if len(fl) != 2 || fl[0].Chip != "matrix row 1" || fl[0].Squares != 0xff00 || fl[0].Cleared || !fl[1].Cleared {
		t.Fatalf("faults %v, want row 1 failing then clearing", fl)
	}
	if len(frames(got)) != 0 {
		t.Errorf("frames from a failed row: %v", frames(got))
	}
}

// A row whose pin fails from the start (a dead row) does not stop the
// scanner: its row is reported failed in every scan, the others are read.
func TestMatrixDeadRowFromStart(t *testing.T) {
	clk, board, model, w := matrixBoard(t)
	model.Line(3).Fail(1 << 30)
	m, err := sensors.NewMatrix(model.Rows(), model.Cols(), sensors.MatrixOptions{Clock: clk})
	if err != nil {
		t.Fatalf("NewMatrix with a dead row: %v", err)
	}
	src, _ := sensors.NewScanSource(m, w, sensors.SourceOptions{Clock: clk, Debounce: 2})
	board.Set(standard, 0)
	got := collect(t, src, clk, clk.Now().Add(100*time.Millisecond))
	fl := faults(got)
	if len(fl) == 0 || fl[0].Chip != "matrix row 3" || fl[0].Cleared {
		t.Fatalf("faults %v, want row 3 failing", fl)
	}
}
