package sensors

import (
	"time"

	"github.com/boardd/boardd/trace"
)

// Scanner reads a sensor board's inputs once per call to Scan. It knows
// nothing of squares (a Wiring maps its inputs) nor of time beyond the
// settling delays of its bus; a ScanSource paces, debounces and turns its
// scans into frames and fault events.
//
// Scan must not panic or fail as a whole on a bus error: it retries a
// failed transaction once, then marks the unit (chip, row, chain) failed
// and its inputs invalid, and carries on with the others.
type Scanner interface {
	// Sensor is what the board can tell: Occupancy, or Colour for analog
	// Hall sensors.
	Sensor() trace.Sensor
	// Inputs is the number of inputs the scanner reads.
	Inputs() int
	// Units are the parts that fail independently (chips, rows, a chain),
	// in the order of the bits of Scan.Failed. At most 64.
	Units() []Unit
	// Scan reads every input into s, first clearing all of s's fields.
	Scan(s *Scan) error
	// Close leaves the hardware in a safe idle state (rows undriven).
	Close() error
}

// Waiter is a Scanner that can wait for its hardware to signal a change
// (the MCP23017 bank's interrupt line) instead of being polled.
type Waiter interface {
	// WaitChange blocks until the hardware signals a change (true) or the
	// timeout expires (false).
	WaitChange(timeout time.Duration) bool
}

// Unit is a part of a scanner that can fail on its own.
type Unit struct {
	Name   string // "mcp23017 0x21", "74hc165 chain", "matrix row 3"
	Inputs Inputs // the inputs it reads
	// Kind is the fault reported when the unit fails: FaultBus, or
	// FaultChain for a 74HC165 chain whose sentinel is wrong.
	Kind FaultKind
}

// Scan is the result of one scan. It is a plain value so a ScanSource can
// reuse one for every scan.
type Scan struct {
	// Occ has the inputs that read "present" (a closed switch, a magnet).
	Occ Inputs
	// White has the inputs that read a white piece's pole (colour sensors).
	White Inputs
	// Valid has the inputs read successfully in this scan; the others keep
	// their last settled state.
	Valid Inputs
	// Failed has a bit per unit (in Units order) that failed in this scan
	// after its retry; Errs holds each failed unit's error.
	Failed uint64
	Errs   [64]error
	// Reset has a bit per unit found reset (and configured again).
	Reset uint64
	// BusErrors counts failed transactions, retried or not.
	BusErrors int
	// Range has the analog inputs reading at a supply rail.
	Range Inputs
	// Ghost has the inputs of a suspected ghosting pattern seen in this
	// scan (a matrix with a missing diode); MissingDiode the inputs whose
	// diode a reverse-bias check found missing.
	Ghost        Inputs
	MissingDiode Inputs
}

// reset clears s for a new scan.
func (s *Scan) reset() {
	*s = Scan{}
}
