package sensors

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/bits"
	"sync"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// SourceOptions configure a ScanSource. Zero values take the defaults.
type SourceOptions struct {
	// Clock paces the scans and stamps the frames (default: the wall clock).
	Clock Clock
	// Logger gets fault transitions at Warn (default: discarded).
	Logger *slog.Logger
	// ScanInterval is the time from one scan's start to the next while
	// polling, or while a change is settling (default 10ms).
	ScanInterval time.Duration
	// PollInterval is, for a scanner with an interrupt line (Waiter), the
	// longest wait for it before scanning anyway: the safety net for a
	// lost interrupt (default 100ms).
	PollInterval time.Duration
	// Debounce is the number of consecutive agreeing scans before a square
	// changes (default 4: 30-40 ms at the default interval).
	Debounce int
	// StuckAfter is how long a square may read unsettled before a "stuck"
	// fault is reported (default 1 minute; negative: never).
	StuckAfter time.Duration
	// Heartbeat, when positive, repeats the current frame (with Changed
	// empty) when nothing has changed for that long, so that a consumer
	// can tell a quiet board from a dead source.
	Heartbeat time.Duration
	// StaleAfter is how long after the last completed scan (or after
	// the source was made, before its first scan) Fresh turns false
	// (default 2s, and never less than twice PollInterval and
	// ScanInterval).
	StaleAfter time.Duration
}

// Defaults of SourceOptions.
const (
	DefaultScanInterval = 10 * time.Millisecond
	DefaultPollInterval = 100 * time.Millisecond
	DefaultDebounce     = 4
	DefaultStuckAfter   = time.Minute
	DefaultStaleAfter   = 2 * time.Second
)

func (o *SourceOptions) setDefaults() {
	if o.Clock == nil {
		o.Clock = NewRealClock()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.ScanInterval <= 0 {
		o.ScanInterval = DefaultScanInterval
	}
	if o.PollInterval <= 0 {
		o.PollInterval = DefaultPollInterval
	}
	if o.Debounce == 0 {
		o.Debounce = DefaultDebounce
	}
	if o.StuckAfter == 0 {
		o.StuckAfter = DefaultStuckAfter
	}
	if o.StaleAfter <= 0 {
		o.StaleAfter = DefaultStaleAfter
	}
	// An idle interrupt-driven source scans every PollInterval: that is
	// not staleness.
	o.StaleAfter = max(o.StaleAfter, 2*o.PollInterval, 2*o.ScanInterval)
}

// Stats are a ScanSource's counters, for diagnostics and metrics.
type Stats struct {
	Scans     uint64        // scans done
	Frames    uint64        // frames delivered (heartbeats included)
	Faults    uint64        // fault events delivered (clearing ones included)
	BusErrors uint64        // failed bus transactions, retried or not
	ScanRate  float64       // scans per second over the last full second
	ScanTime  time.Duration // duration of the last scan (bus and settling time)
	LastScan  time.Time     // when the last scan finished
	Failing   []string      // units failing now
	Stuck     chess.Bitboard
}

// ScanSource is the FrameSource of a hardware scanner: it paces the scans
// (polling, or waiting on an interrupt line with a polling safety net),
// maps inputs to squares, debounces, and turns unit failures, stuck
// squares, ghosting and out-of-range readings into fault events.
type ScanSource struct {
	sc     Scanner
	waiter Waiter
	w      *Wiring
	o      SourceOptions
	deb    *Debouncer
	sensor trace.Sensor

	units    []Unit
	unitSq   []chess.Bitboard
	scan     Scan
	started  bool
	closed   bool
	nscans   int
	lastT    time.Time // start of the last scan
	lastEmit time.Time
	frame    Frame

	failed    uint64
	rangeSq   chess.Bitboard
	missing   chess.Bitboard
	ghostSq   chess.Bitboard
	ghostT    time.Time
	pending   chess.Bitboard
	since     [64]time.Time
	stuck     chess.Bitboard
	errStuck  error
	queue     []Event
	qhead     int
	rateStart time.Time
	rateN     int

	mu      sync.Mutex
	stats   Stats
	created time.Time
}

// Errors carried by faults that have no bus error.
var (
	errReset   = errors.New("chip lost its configuration (reset or brown-out) and was configured again")
	errRange   = errors.New("reading at a supply rail: sensor open, shorted or unpowered")
	errGhost   = errors.New("squares changed together with a rectangle of occupied squares: a missing or shorted diode makes the fourth corner of three closed ones read closed")
	errMissing = errors.New("a reverse-bias check found the diode missing or shorted")
)

// NewScanSource returns the frame source of scanner sc, whose inputs w
// maps to squares.
func NewScanSource(sc Scanner, w *Wiring, o SourceOptions) (*ScanSource, error) {
	o.setDefaults()
	if w.Inputs() > sc.Inputs() {
		return nil, fmt.Errorf("sensors: wiring has %d inputs, the scanner reads %d", w.Inputs(), sc.Inputs())
	}
	deb, err := NewDebouncer(o.Debounce)
	if err != nil {
		return nil, err
	}
	units := sc.Units()
	if len(units) > 64 {
		return nil, fmt.Errorf("sensors: scanner has %d units, at most 64", len(units))
	}
	s := &ScanSource{
		sc: sc, w: w, o: o, deb: deb, sensor: sc.Sensor(), units: units,
		queue:    make([]Event, 0, 2*len(units)+8),
		errStuck: fmt.Errorf("reading has not settled for %v", o.StuckAfter),
	}
	s.waiter, _ = sc.(Waiter)
	s.created = o.Clock.Now()
	for i := range units {
		s.unitSq = append(s.unitSq, w.Map(&units[i].Inputs))
	}
	return s, nil
}

// Sensor implements FrameSource.
func (s *ScanSource) Sensor() trace.Sensor { return s.sensor }

// Wiring returns the source's wiring.
func (s *ScanSource) Wiring() *Wiring { return s.w }

// Close implements FrameSource: it leaves the hardware idle.
func (s *ScanSource) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	return s.sc.Close()
}

// Stats returns a copy of the counters; safe to call from any goroutine.
func (s *ScanSource) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.Failing = append([]string(nil), st.Failing...)
	return st
}

// Fresh reports whether a scan has completed within StaleAfter: what a
// health check or a watchdog wants to know. Unlike the scan rate, which
// is only updated when a scan completes, it turns false when scanning
// stalls (a hung bus, a consumer that stopped reading frames). Safe to
// call from any goroutine.
func (s *ScanSource) Fresh() bool {
	now := s.o.Clock.Now()
	s.mu.Lock()
	last := s.stats.LastScan
	s.mu.Unlock()
	if last.IsZero() {
		last = s.created
	}
	return now.Sub(last) <= s.o.StaleAfter
}

// Next implements FrameSource.
func (s *ScanSource) Next(ctx context.Context, ev *Event) error {
	for {
		if s.qhead < len(s.queue) {
			e := &s.queue[s.qhead]
			s.qhead++
			if s.qhead == len(s.queue) {
				s.queue, s.qhead = s.queue[:0], 0
			}
			ev.Kind = e.Kind
			switch e.Kind {
			case FrameEvent:
				ev.Frame, ev.T = e.Frame, e.Frame.T
			case FaultEvent:
				ev.Fault, ev.T = e.Fault, e.Fault.T
			}
			return nil
		}
		if s.closed {
			return ErrClosed
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.wait(ctx); err != nil {
			return err
		}
		if err := s.scanOnce(); err != nil {
			return err
		}
	}
}

// wait returns when the next scan is due: at once for the first scan,
// ScanInterval after the last one while polling or settling, and when the
// interrupt line signals (or PollInterval has passed) while idle.
func (s *ScanSource) wait(ctx context.Context) error {
	if s.nscans == 0 {
		return nil
	}
	clk := s.o.Clock
	if s.waiter != nil && s.started && s.deb.Unsettled()&s.w.Covered() == 0 {
		if rem := s.lastT.Add(s.o.PollInterval).Sub(clk.Now()); rem > 0 {
			s.waiter.WaitChange(rem)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	// Never scan more often than ScanInterval: an interrupt line held low
	// (a chip that is not answering) must not turn into a busy loop.
	if d := s.lastT.Add(s.o.ScanInterval).Sub(clk.Now()); d > 0 {
		return clk.Sleep(ctx, d)
	}
	return nil
}

func (s *ScanSource) push(k EventKind) *Event {
	s.queue = append(s.queue, Event{Kind: k})
	return &s.queue[len(s.queue)-1]
}

func (s *ScanSource) fault(f Fault) {
	e := s.push(FaultEvent)
	e.Fault = f
	s.stats.Faults++
	s.o.Logger.Warn("sensor fault", "fault", f.String())
}

func (s *ScanSource) scanOnce() error {
	clk := s.o.Clock
	t0 := clk.Now()
	if err := s.sc.Scan(&s.scan); err != nil {
		return fmt.Errorf("sensors: scan: %w", err)
	}
	t := clk.Now()
	s.lastT = t0
	s.nscans++
	sc := &s.scan

	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.Scans++
	s.stats.BusErrors += uint64(sc.BusErrors)
	s.stats.ScanTime = t.Sub(t0)
	s.stats.LastScan = t
	if s.rateStart.IsZero() {
		s.rateStart = t
	}
	s.rateN++
	if el := t.Sub(s.rateStart); el >= time.Second {
		s.stats.ScanRate = float64(s.rateN) / el.Seconds()
		s.rateStart, s.rateN = t, 0
	}

	// Units that failed or came back.
	if sc.Failed != s.failed || sc.Reset != 0 {
		for b := sc.Failed &^ s.failed; b != 0; b &= b - 1 {
			i := bits.TrailingZeros64(b)
			s.fault(Fault{T: t, Kind: s.units[i].Kind, Chip: s.units[i].Name, Squares: s.unitSq[i], Err: sc.Errs[i]})
		}
		for b := s.failed &^ sc.Failed; b != 0; b &= b - 1 {
			i := bits.TrailingZeros64(b)
			s.fault(Fault{T: t, Kind: s.units[i].Kind, Cleared: true, Chip: s.units[i].Name, Squares: s.unitSq[i]})
		}
		for b := sc.Reset; b != 0; b &= b - 1 {
			i := bits.TrailingZeros64(b)
			s.fault(Fault{T: t, Kind: FaultReset, Chip: s.units[i].Name, Squares: s.unitSq[i], Err: errReset})
		}
		s.failed = sc.Failed
		s.stats.Failing = s.stats.Failing[:0]
		for b := s.failed; b != 0; b &= b - 1 {
			s.stats.Failing = append(s.stats.Failing, s.units[bits.TrailingZeros64(b)].Name)
		}
	}

	// Analog readings at a rail.
	rangeSq := s.w.Map(&sc.Range)
	if rangeSq != s.rangeSq {
		if b := rangeSq &^ s.rangeSq; b != 0 {
			s.fault(Fault{T: t, Kind: FaultRange, Squares: b, Err: errRange})
		}
		if b := s.rangeSq &^ rangeSq; b != 0 {
			s.fault(Fault{T: t, Kind: FaultRange, Cleared: true, Squares: b})
		}
		s.rangeSq = rangeSq
	}

	// Diode matrix: a missing diode found by the reverse-bias check stays
	// reported; a ghosting pattern is reported again only if it differs
	// or a minute has passed.
	if !sc.MissingDiode.IsZero() {
		if b := s.w.Map(&sc.MissingDiode) &^ s.missing; b != 0 {
			s.missing |= b
			s.fault(Fault{T: t, Kind: FaultGhost, Squares: b, Err: errMissing})
		}
	}
	if !sc.Ghost.IsZero() {
		if b := s.w.Map(&sc.Ghost); b != 0 && (b != s.ghostSq || t.Sub(s.ghostT) >= time.Minute) {
			s.ghostSq, s.ghostT = b, t
			s.fault(Fault{T: t, Kind: FaultGhost, Squares: b, Err: errGhost})
		}
	}

	occ := s.w.Map(&sc.Occ)
	var white chess.Bitboard
	if s.sensor == trace.Colour {
		white = s.w.Map(&sc.White)
	}
	valid := s.w.Map(&sc.Valid) &^ rangeSq
	changed := s.deb.Step(occ, white, valid)

	s.checkStuck(t)

	if !s.started {
		if s.nscans < s.deb.N() {
			return nil
		}
		s.started = true
		changed = ^chess.Bitboard(0)
	}
	if changed == 0 && (s.o.Heartbeat <= 0 || t.Sub(s.lastEmit) < s.o.Heartbeat) {
		return nil
	}
	f := &s.frame
	f.T = t
	f.Seq++
	f.Sensor = s.sensor
	f.Occ, f.White = s.deb.State()
	f.Changed = changed
	e := s.push(FrameEvent)
	e.Frame = *f
	s.lastEmit = t
	s.stats.Frames++
	return nil
}

// checkStuck reports squares that have read unsettled for StuckAfter,
// and clears them when they settle.
func (s *ScanSource) checkStuck(t time.Time) {
	uns := s.deb.Unsettled() & s.w.Covered()
	for b := uns &^ s.pending; b != 0; b &= b - 1 {
		s.since[b.First()] = t
	}
	s.pending = uns
	if b := s.stuck &^ uns; b != 0 {
		s.stuck &^= b
		s.stats.Stuck = s.stuck
		s.fault(Fault{T: t, Kind: FaultStuck, Cleared: true, Squares: b})
	}
	if s.o.StuckAfter < 0 {
		return
	}
	var now chess.Bitboard
	for b := uns &^ s.stuck; b != 0; b &= b - 1 {
		if sq := b.First(); t.Sub(s.since[sq]) >= s.o.StuckAfter {
			now |= sq.Bitboard()
		}
	}
	if now != 0 {
		s.stuck |= now
		s.stats.Stuck = s.stuck
		s.fault(Fault{T: t, Kind: FaultStuck, Squares: now, Err: s.errStuck})
	}
}
