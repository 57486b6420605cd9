package sensors

import (
	"fmt"
	"time"
)

// ProbeOptions configure Probe.
type ProbeOptions struct {
	// Clock times the scans (default: the wall clock).
	Clock Clock
	// Scans is the number of scans, done back to back (default 100).
	Scans int
	// InputName names an input in the problems found (default "input N").
	InputName func(i int) string
}

// UnitProbe is what a probe found of one unit (chip, row, chain).
type UnitProbe struct {
	Name   string
	Failed int   // scans in which it failed after its retry
	Reset  int   // scans in which it was found reset and configured again
	Err    error // its last error
}

// ProbeReport is what Probe found.
type ProbeReport struct {
	Scans     int
	Elapsed   time.Duration // the scans' total time
	BusErrors int
	Units     []UnitProbe
	// Occupied are the inputs reading a piece in the last scan, Flicker
	// those whose reading changed from one scan to another.
	Occupied, Flicker Inputs
	// MissingDiode and Range are the inputs a matrix's reverse-bias check
	// or an analog sensor's rail reading found.
	MissingDiode, Range Inputs
	// Problems says, one sentence each, what is wrong.
	Problems []string
}

// Rate is the scans per second measured.
func (r *ProbeReport) Rate() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Scans) / r.Elapsed.Seconds()
}

// OK reports whether no problem was found.
func (r *ProbeReport) OK() bool { return len(r.Problems) == 0 }

// Probe scans sc back to back and reports, per unit, whether it answered
// every time and kept its configuration, and what the inputs read: the
// bring-up check of boardd diag --probe. Configure the scanner with
// SetProbeChecks first so that every check runs within the scans.
func Probe(sc Scanner, o ProbeOptions) (*ProbeReport, error) {
	if o.Clock == nil {
		o.Clock = NewRealClock()
	}
	if o.Scans <= 0 {
		o.Scans = 100
	}
	if o.InputName == nil {
		o.InputName = func(i int) string { return fmt.Sprintf("input %d", i) }
	}
	units := sc.Units()
	r := &ProbeReport{Scans: o.Scans, Units: make([]UnitProbe, len(units))}
	for i, u := range units {
		r.Units[i].Name = u.Name
	}
	var s Scan
	var last, lastValid Inputs
	t0 := o.Clock.Now()
	for k := 0; k < o.Scans; k++ {
		if err := sc.Scan(&s); err != nil {
			return nil, fmt.Errorf("probe: scan %d: %w", k+1, err)
		}
		r.BusErrors += s.BusErrors
		for i := range r.Units {
			if s.Failed&(1<<uint(i)) != 0 {
				r.Units[i].Failed++
				r.Units[i].Err = s.Errs[i]
			}
			if s.Reset&(1<<uint(i)) != 0 {
				r.Units[i].Reset++
			}
		}
		occ := s.Occ
		for w := range occ {
			occ[w] &= s.Valid[w]
			// Only inputs read in both scans can be said to change.
			r.Flicker[w] |= (occ[w] ^ last[w]) & s.Valid[w] & lastValid[w]
			r.MissingDiode[w] |= s.MissingDiode[w]
			r.Range[w] |= s.Range[w]
		}
		last, lastValid = occ, s.Valid
	}
	r.Elapsed = o.Clock.Now().Sub(t0)
	r.Occupied = last
	r.findProblems(o)
	return r, nil
}

func (r *ProbeReport) findProblems(o ProbeOptions) {
	for _, u := range r.Units {
		switch {
		case u.Failed == r.Scans:
			r.Problems = append(r.Problems, fmt.Sprintf("%s failed in every scan: %v", u.Name, u.Err))
		case u.Failed > 0:
			r.Problems = append(r.Problems, fmt.Sprintf("%s failed in %d of %d scans (loose wire, noise?): %v", u.Name, u.Failed, r.Scans, u.Err))
		}
		if u.Reset > 0 {
			r.Problems = append(r.Problems, fmt.Sprintf("%s lost its configuration %d times (brown-out, reset line?)", u.Name, u.Reset))
		}
	}
	names := func(in Inputs) string {
		l := in.List()
		s := ""
		for i, n := range l {
			if i == 8 {
				return s + fmt.Sprintf(" and %d more", len(l)-8)
			}
			if i > 0 {
				s += ", "
			}
			s += o.InputName(n)
		}
		return s
	}
	if n := r.Occupied.Count(); n > MaxPieces {
		r.Problems = append(r.Problems, fmt.Sprintf("%d inputs read a piece, more than a chess set has: a stuck data line, or pull-ups missing", n))
	}
	if !r.MissingDiode.IsZero() {
		r.Problems = append(r.Problems, "a reverse-bias check found the diode missing or shorted at "+names(r.MissingDiode))
	}
	if !r.Range.IsZero() {
		r.Problems = append(r.Problems, "reading at a supply rail (sensor open, shorted or unpowered): "+names(r.Range))
	}
	if !r.Flicker.IsZero() {
		r.Problems = append(r.Problems, "changed while probing (a hand on the board, or a bit flipping): "+names(r.Flicker))
	}
}

// SetProbeChecks makes every check of the design run within a probe's
// scans: a matrix's reverse-bias check and an MCP23017's configuration
// read-back on every scan.
func (c *Config) SetProbeChecks() error {
	s, err := c.section()
	if err != nil {
		return err
	}
	s.probeChecks()
	return nil
}
