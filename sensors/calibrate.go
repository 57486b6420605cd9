package sensors

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
	"periph.io/x/conn/v3/physic"
)

// Prompter is the operator's side of a calibration: instructions out,
// lines typed in.
type Prompter interface {
	// Say shows an instruction or a progress line.
	Say(format string, args ...any)
	// Lines delivers each line the operator types (closed at the end of
	// input).
	Lines() <-chan string
}

// CalibrateOptions configure Calibrate.
type CalibrateOptions struct {
	// Clock paces the scans (default: the wall clock).
	Clock Clock
	// ScanInterval is the time between scans (default 10ms).
	ScanInterval time.Duration
	// Stable is the number of identical scans that make a reading
	// (default 10: a piece has to sit still for a tenth of a second).
	Stable int
	// Squares is the order of the prompts (default a1, b1, ..., h8).
	Squares []chess.Square
	// BaselineScans is the number of empty-board scans averaged for an
	// analog board's baselines (default 20).
	BaselineScans int
	// InputName names an input in messages (default "input N").
	InputName func(i int) string
	// Timeout ends the calibration when a square waits longer (default:
	// none).
	Timeout time.Duration
	// FailAfter ends the calibration with a *UnitError when a unit (a
	// chip that does not answer: a wrong address strap, a loose wire)
	// has failed in every scan for that long (default 2s).
	FailAfter time.Duration
	// Quiet is how long a prompt waits for a new input before it says
	// what it is waiting for and what could be wrong, once per prompt
	// (default 1m; negative: never).
	Quiet time.Duration
	// GiveUp ends the calibration with a *NoPieceError when a prompt has
	// waited that long and no input has read a piece since the empty
	// board was measured: a board that sees no piece at all (a 74HC165
	// data line stuck at the empty level reads as an empty board), with
	// nothing learned that giving up would lose (default 3m; negative:
	// never).
	GiveUp time.Duration
	// Asked, when set, is called with each square as its piece is asked
	// for (after the prompt is said): a simulated hand (boardd calibrate
	// --source model:...) puts its piece there in answer, as an operator
	// would, however long the scans before the prompt took.
	Asked func(sq chess.Square)
}

// UnitError is a calibration given up because units of the scanner failed
// in every scan for a while: without their inputs no square can be
// learned.
type UnitError struct {
	Units []string      // the failing units ("mcp23017 0x21")
	Errs  []error       // each one's last error
	For   time.Duration // how long (0: a count of scans, as for the baselines)
}

func (e *UnitError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s failed in every scan", strings.Join(e.Units, ", "))
	if e.For > 0 {
		fmt.Fprintf(&b, " for %v", e.For)
	}
	for i, err := range e.Errs {
		if err == nil {
			continue
		}
		if len(e.Units) > 1 {
			fmt.Fprintf(&b, "; %s", e.Units[i])
		}
		fmt.Fprintf(&b, ": %v", err)
	}
	return b.String()
}

// NoPieceError is a calibration given up because no input read a piece
// for a while after the operator was asked for one, and none had since
// the board was cleared.
type NoPieceError struct {
	Square chess.Square  // the square asked for
	For    time.Duration // how long it was waited for
}

func (e *NoPieceError) Error() string {
	return fmt.Sprintf("no input read a piece in %v after the prompt for %s, nor any since the empty board", e.For, e.Square)
}

// CalibrationResult is what a calibration learned.
type CalibrationResult struct {
	// Wiring maps each input that answered a prompt to its square.
	Wiring *Wiring
	// Skipped are the squares the operator skipped.
	Skipped chess.Bitboard
	// Stuck are the inputs that read a piece on the empty board.
	Stuck Inputs
	// Analog boards: each input's baseline, and its own "on" threshold
	// (half the deflection a white piece caused; off is half of that),
	// and whether white pieces raised the readings.
	Baselines  []physic.ElectricPotential
	Thresholds []physic.ElectricPotential
	WhiteHigh  bool
}

// ErrCalibrationAborted is returned when the operator typed q.
var ErrCalibrationAborted = errors.New("calibration aborted")

// Calibrate learns a board's wiring by asking the operator to clear the
// board and then to put a piece on each square in turn: the one input
// that starts reading a piece is that square's. Typing "s" skips the
// square being asked for, "q" aborts. Pieces may be left on the squares
// done or moved on; only a new input counts. An analog board also gets
// its empty baselines measured, and per square its white-piece deflection
// (so put white pieces).
func Calibrate(ctx context.Context, sc Scanner, p Prompter, o CalibrateOptions) (*CalibrationResult, error) {
	if o.Clock == nil {
		o.Clock = NewRealClock()
	}
	if o.ScanInterval <= 0 {
		o.ScanInterval = 10 * time.Millisecond
	}
	if o.Stable <= 0 {
		o.Stable = 10
	}
	if o.BaselineScans <= 0 {
		o.BaselineScans = 20
	}
	if o.FailAfter <= 0 {
		o.FailAfter = 2 * time.Second
	}
	if o.Quiet == 0 {
		o.Quiet = time.Minute
	}
	if o.GiveUp == 0 {
		o.GiveUp = 3 * time.Minute
	}
	if o.InputName == nil {
		o.InputName = func(i int) string { return fmt.Sprintf("input %d", i) }
	}
	if len(o.Squares) == 0 {
		for s := chess.Square(0); s < 64; s++ {
			o.Squares = append(o.Squares, s)
		}
	}
	c := &calibration{sc: sc, p: p, o: o, ctx: ctx}
	c.analog, _ = sc.(*Analog)
	return c.run()
}

type calibration struct {
	ctx    context.Context
	sc     Scanner
	p      Prompter
	o      CalibrateOptions
	analog *Analog
	scan   Scan
	hist   []Inputs
	eof    bool
	// failing has the units that failed in every scan since failSince.
	failing   uint64
	failSince time.Time
}

// line returns a typed line if there is one, without waiting.
func (c *calibration) line() (string, bool) {
	if c.eof {
		return "", false
	}
	select {
	case l, ok := <-c.p.Lines():
		if !ok {
			c.eof = true
			return "", false
		}
		return strings.TrimSpace(l), true
	default:
		return "", false
	}
}

// waitEnter waits for the operator to press Enter (or for the end of
// input).
func (c *calibration) waitEnter() error {
	if c.eof {
		return nil
	}
	select {
	case <-c.ctx.Done():
		return c.ctx.Err()
	case l, ok := <-c.p.Lines():
		if !ok {
			c.eof = true
		}
		if strings.TrimSpace(l) == "q" {
			return ErrCalibrationAborted
		}
		return nil
	}
}

// stable scans until o.Stable scans in a row agree and returns that
// reading.
func (c *calibration) stable() (Inputs, error) {
	c.hist = c.hist[:0]
	for {
		if err := c.o.Clock.Sleep(c.ctx, c.o.ScanInterval); err != nil {
			return Inputs{}, err
		}
		if err := c.sc.Scan(&c.scan); err != nil {
			return Inputs{}, fmt.Errorf("scan: %w", err)
		}
		in := c.scan.Occ
		if c.scan.Failed != 0 {
			// A unit failing makes the reading meaningless: start over,
			// unless it has not answered for so long that waiting on would
			// leave the operator before a prompt that never completes.
			c.hist = c.hist[:0]
			if err := c.checkFailing(); err != nil {
				return Inputs{}, err
			}
			continue
		}
		c.failing = 0
		if len(c.hist) > 0 && c.hist[len(c.hist)-1] != in {
			c.hist = c.hist[:0]
		}
		c.hist = append(c.hist, in)
		if len(c.hist) >= c.o.Stable {
			return in, nil
		}
	}
}

// checkFailing follows the units failing scan after scan and returns a
// *UnitError once some have failed in every scan for FailAfter.
func (c *calibration) checkFailing() error {
	now := c.o.Clock.Now()
	if c.failing &= c.scan.Failed; c.failing == 0 {
		c.failing, c.failSince = c.scan.Failed, now
		return nil
	}
	if d := now.Sub(c.failSince); d < c.o.FailAfter {
		return nil
	}
	units := c.sc.Units()
	e := &UnitError{For: c.o.FailAfter}
	for b := c.failing; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		name := fmt.Sprintf("unit %d", i)
		if i < len(units) {
			name = units[i].Name
		}
		e.Units = append(e.Units, name)
		e.Errs = append(e.Errs, c.scan.Errs[i])
	}
	return e
}

// hint says what a prompt for sq that has waited Quiet is waiting for,
// and what could be wrong.
func (c *calibration) hint(sq chess.Square, seen bool) {
	if seen {
		c.p.Say("Still waiting for a new piece on %s (%v): an input that already reads a piece (a square learned, or stuck on the empty board) does not count. Type s to skip %s, q to give up.", sq, c.o.Quiet, sq)
		return
	}
	giveUp := ""
	if c.o.GiveUp > 0 {
		giveUp = fmt.Sprintf(" (giving up after %v)", c.o.GiveUp)
	}
	c.p.Say("No input has read a piece for %v, waiting for one on %s. If a piece is on %s, the board sees none: a 74HC165 chain whose data line is stuck at the empty level reads as an empty board (and a matrix row not driven reads empty). Check with boardd diag --probe and a piece on a known square (docs/hardware.md, bring-up). Still waiting%s: s skips %s, q gives up.", c.o.Quiet, sq, sq, giveUp, sq)
}

func (c *calibration) run() (*CalibrationResult, error) {
	n := c.sc.Inputs()
	res := &CalibrationResult{}
	c.p.Say("Take every piece off the board, then press Enter.")
	if err := c.waitEnter(); err != nil {
		return nil, err
	}
	if c.analog != nil {
		c.p.Say("Measuring the empty board ...")
		base, err := c.analog.MeasureBaselines(c.o.BaselineScans)
		if err != nil {
			return nil, err
		}
		cal := make([]HallInput, n)
		for i, b := range base {
			cal[i].Baseline = b
		}
		if err := c.analog.SetCalibration(cal); err != nil {
			return nil, err
		}
		res.Baselines = base
		res.Thresholds = make([]physic.ElectricPotential, n)
	}
	empty, err := c.stable()
	if err != nil {
		return nil, err
	}
	res.Stuck = empty
	if !empty.IsZero() {
		names := make([]string, 0, empty.Count())
		for _, i := range empty.List() {
			names = append(names, c.o.InputName(i))
		}
		c.p.Say("On the empty board %s read a piece (a stuck switch or a short?): left out.", strings.Join(names, ", "))
	}

	squares := make([]chess.Square, n)
	for i := range squares {
		squares[i] = chess.NoSquare
	}
	var assigned Inputs
	var votes [2]int // analog: white pieces lowering, raising the reading
	seen := false    // an input has read a piece since the empty board
	for _, sq := range c.o.Squares {
		what := "a piece"
		if c.analog != nil {
			what = "a white piece"
		}
		c.p.Say("Put %s on %s.", what, sq)
		if c.o.Asked != nil {
			c.o.Asked(sq)
		}
		start := c.o.Clock.Now()
		complained := Inputs{}
		hinted := false
		for {
			if l, ok := c.line(); ok {
				switch l {
				case "q":
					return nil, ErrCalibrationAborted
				case "s":
					res.Skipped |= sq.Bitboard()
					c.p.Say("%s skipped.", sq)
					goto next
				}
			}
			waited := c.o.Clock.Now().Sub(start)
			if c.o.Timeout > 0 && waited > c.o.Timeout {
				return nil, fmt.Errorf("no new input for %s within %v", sq, c.o.Timeout)
			}
			if !seen && c.o.GiveUp > 0 && waited >= c.o.GiveUp {
				return nil, &NoPieceError{Square: sq, For: c.o.GiveUp}
			}
			if !hinted && c.o.Quiet > 0 && waited >= c.o.Quiet {
				hinted = true
				c.hint(sq, seen)
			}
			in, err := c.stable()
			if err != nil {
				return nil, err
			}
			for w := range in {
				if in[w]&^res.Stuck[w] != 0 {
					seen = true
				}
			}
			var fresh Inputs
			for w := range fresh {
				fresh[w] = in[w] &^ assigned[w] &^ res.Stuck[w]
			}
			switch fresh.Count() {
			case 0:
				continue
			case 1:
				i := fresh.List()[0]
				squares[i] = sq
				assigned.Set(i)
				msg := ""
				if c.analog != nil {
					d := c.analog.volts[i] - res.Baselines[i]
					if d < 0 {
						votes[0]++
						d = -d
					} else {
						votes[1]++
					}
					res.Thresholds[i] = d / 2
					msg = fmt.Sprintf(", %+.0f mV", float64(c.analog.volts[i]-res.Baselines[i])/float64(physic.MilliVolt))
				}
				c.p.Say("%s is %s%s.", sq, c.o.InputName(i), msg)
				goto next
			default:
				if fresh != complained {
					complained = fresh
					names := []string{}
					for _, i := range fresh.List() {
						names = append(names, c.o.InputName(i))
					}
					c.p.Say("%s all read a piece: leave only the piece on %s.", strings.Join(names, ", "), sq)
				}
			}
		}
	next:
	}
	res.WhiteHigh = votes[1] > votes[0]
	if votes[0] > 0 && votes[1] > 0 {
		c.p.Say("White pieces lowered %d readings and raised %d: check the magnets' poles.", votes[0], votes[1])
	}
	w, err := NewWiring(squares)
	if err != nil {
		return nil, err
	}
	res.Wiring = w
	return res, nil
}
