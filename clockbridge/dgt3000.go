package clockbridge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/boardd/boardd/chess"
)

// DGTTransport is the DGT3000's two-wire link as a DGT Pi wires it: the
// host sends as I2C bus master and receives as I2C bus slave on the same
// lines, because the clock is itself a bus master. DGTPi (package
// clockbridge/dgtpi) implements it on a Raspberry Pi; tests use a model of
// the clock.
type DGTTransport interface {
	// Send transmits frame as bus master: frame[0] is the destination in
	// 8-bit form (7-bit address << 1) and frame[1:] go on the wire. Just
	// before the transfer starts the slave is set to listen on the 7-bit
	// address listen, so a reply sent there is caught. It returns nil
	// when every byte was acknowledged, else ErrDGTSilent (not
	// acknowledged, lines idle: clock off, and the expected outcome of
	// a wake), ErrDGTLinesLow or ErrDGTStretch (collision with the
	// clock's own transfer) or ErrDGTTimeout (bus never free). A frame
	// the clock sends while Send waits for the bus is taken in (so that
	// it neither stalls the clock nor keeps the bus busy) and returned by
	// the next Receive.
	Send(frame []byte, listen byte) error
	// Receive waits up to timeout for one frame received as slave and
	// returns it with its arrival address (8-bit form) prepended, i.e.
	// [addr, src, len, cmd, ..., crc]. Afterwards the slave listens on
	// the broadcast address again. ErrDGTNoFrame means nothing arrived;
	// ErrDGTOverrun and ErrDGTTimeout report lost or stuck bytes.
	Receive(timeout time.Duration) ([]byte, error)
	// Listen sets the slave's 7-bit address (0 = broadcasts only).
	Listen(addr byte) error
	// Reset re-initialises the bus hardware after it got stuck.
	Reset() error
}

// Timing of the DGT3000 protocol (DGT's reference driver).
const (
	dgtAckTimeout     = 10 * time.Millisecond   // every ACK and the Hello after a wake
	dgtFastAckTimeout = 1200 * time.Microsecond // EndDisplay's "already empty" ACK
	dgtSetCCPause     = 10 * time.Millisecond   // between SetCentralControl attempts
	dgtTries          = 3                       // tries per command
	dgtMaxCollisions  = 16                      // collisions tolerated in one configure
)

// DGT3000Config configures a DGT3000.
type DGT3000Config struct {
	Transport DGTTransport
	Time      TimeSource   // nil: SystemTime
	Logger    *slog.Logger // nil: discard
	// White is the half of the clock that shows White's time and whose
	// lever side White presses.
	White ClockSide
	// LeverInverted swaps the meaning of the lever bit. DGT's driver
	// documents bit 0x40 as "right side down" in the state and names the
	// change event the other way round; a Pi test settles it (docs/clock.md).
	LeverInverted bool
	// Poll is how long Run waits in one receive before it lets commands
	// use the link (default 20 ms).
	Poll time.Duration
	// Reconfigure is how often Run retries configuring a clock that does
	// not answer (default 5 s).
	Reconfigure time.Duration
}

// DGT3000 drives a DGT3000 clock over its I2C link: wake, central
// control, mode 25, SetAndRun, display and end display, with DGT's ACK,
// retry and recovery rules; and it turns the clock's Time and Button
// messages into reports. It is a Device: wrap it in a SoftClock.
type DGT3000 struct {
	cfg DGT3000Config
	ts  TimeSource
	log *slog.Logger

	mu         sync.Mutex // owns the transport
	pending    []Report   // reports produced under mu, flushed by Run
	lever      int8       // -1 unknown, 0 left side down, 1 right side down
	buttons    byte       // last button state bits
	configured bool
	text       string    // text shown, "" = times
	endAt      time.Time // when to end a beep-only display
	stats      DGTStats
}

// DGTStats counts link events, for diagnostics.
type DGTStats struct {
	Sent, Received, CRCErrors, FrameErrors, Overruns, NoAcks, Nacks, Retries, Configures, Wakes int
}

// NewDGT3000 returns a DGT3000 on cfg.Transport. It does not touch the
// bus; Configure or Run does.
func NewDGT3000(cfg DGT3000Config) (*DGT3000, error) {
	if cfg.Transport == nil {
		return nil, errors.New("dgt3000: no transport")
	}
	if cfg.Time == nil {
		cfg.Time = SystemTime{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Poll <= 0 {
		cfg.Poll = 20 * time.Millisecond
	}
	if cfg.Reconfigure <= 0 {
		cfg.Reconfigure = 5 * time.Second
	}
	return &DGT3000{cfg: cfg, ts: cfg.Time, log: cfg.Logger, lever: -1}, nil
}

// Stats returns the link counters.
func (d *DGT3000) Stats() DGTStats {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.stats
}

// send transmits one frame. Callers hold mu.
func (d *DGT3000) send(f []byte, listen byte) error {
	d.stats.Sent++
	if err := d.cfg.Transport.Send(f, listen); err != nil {
		return fmt.Errorf("send %s: %w", dgtMsgName(f[3]), err)
	}
	return nil
}

// waitAck receives until an Ack for cmd arrives or timeout passes, and
// returns its flags byte. Other frames that arrive meanwhile are handled
// as usual (times, buttons), and bad frames are counted and skipped, so a
// corrupted ACK ends as ErrDGTNoAck. Callers hold mu.
func (d *DGT3000) waitAck(cmd byte, timeout time.Duration) (byte, error) {
	deadline := d.ts.Now().Add(timeout)
	for {
		left := deadline.Sub(d.ts.Now())
		if left <= 0 {
			// Stop listening on our address, as DGT's driver does, so a
			// late ACK is not taken for the next attempt's.
			_ = d.cfg.Transport.Listen(0)
			return 0, fmt.Errorf("%s: %w within %v", dgtMsgName(cmd), ErrDGTNoAck, timeout)
		}
		raw, err := d.cfg.Transport.Receive(left)
		if errors.Is(err, ErrDGTNoFrame) {
			continue
		}
		fr, ok := d.handle(raw, err)
		if ok && fr.Cmd == dgtMsgAck && fr.Payload[0] == cmd {
			return fr.Payload[1], nil
		}
	}
}

// waitHello receives until a Hello arrives or timeout passes.
func (d *DGT3000) waitHello(timeout time.Duration) bool {
	deadline := d.ts.Now().Add(timeout)
	for {
		left := deadline.Sub(d.ts.Now())
		if left <= 0 {
			return false
		}
		raw, err := d.cfg.Transport.Receive(left)
		if errors.Is(err, ErrDGTNoFrame) {
			continue
		}
		if fr, ok := d.handle(raw, err); ok && fr.Cmd == dgtMsgHello {
			return true
		}
	}
}

// drain handles whatever arrives during d (used as the pause between
// attempts, so broadcasts are not lost while waiting).
func (d *DGT3000) drain(dur time.Duration) {
	deadline := d.ts.Now().Add(dur)
	for {
		left := deadline.Sub(d.ts.Now())
		if left <= 0 {
			return
		}
		raw, err := d.cfg.Transport.Receive(left)
		if errors.Is(err, ErrDGTNoFrame) {
			continue
		}
		d.handle(raw, err)
	}
}

// wake sends the Ping to the wake address. It must not be acknowledged on
// the bus (a clock asleep cannot; anything that does is not the clock),
// and a Hello must follow within 10 ms.
func (d *DGT3000) wake() error {
	d.stats.Wakes++
	err := d.send(dgtWakeFrame, 0)
	switch {
	case err == nil:
		return ErrDGTWakeAcked
	case !errors.Is(err, ErrDGTSilent):
		return err
	}
	if !d.waitHello(dgtAckTimeout) {
		return fmt.Errorf("wake: no Hello within %v: %w", dgtAckTimeout, ErrDGTNoAck)
	}
	return nil
}

// setCentral asks for central control; the ACK's bit 3 grants it (a
// clock that is running refuses).
func (d *DGT3000) setCentral() error {
	if err := d.send(dgtSetCentralFrame, dgtAddrHost>>1); err != nil {
		return err
	}
	flags, err := d.waitAck(dgtMsgSetCentral, dgtAckTimeout)
	if err != nil {
		return err
	}
	if flags&0x08 == 0 {
		return fmt.Errorf("SetCentralControl refused (flags 0x%02x, clock running?): %w", flags, ErrDGTNack)
	}
	return nil
}

// mode25 switches to mode 25; only an ACK with flags exactly 0x08 counts.
func (d *DGT3000) mode25() error {
	if err := d.send(dgtMode25Frame, dgtAddrHost>>1); err != nil {
		return err
	}
	flags, err := d.waitAck(dgtMsgChangeState, dgtAckTimeout)
	if err != nil {
		return err
	}
	if flags != 0x08 {
		return fmt.Errorf("mode 25 refused (flags 0x%02x, not in central control): %w", flags, ErrDGTNack)
	}
	return nil
}

// endDisplay clears a text. A fast addressed ACK with flags&7 == 5 means
// the display was already showing the times; otherwise the clock answers
// on the broadcast address once the display changed (flags&7 == 0).
func (d *DGT3000) endDisplay() error {
	if err := d.send(dgtEndDisplayFrame, dgtAddrHost>>1); err != nil {
		return err
	}
	flags, err := d.waitAck(dgtMsgEndDisplay, dgtFastAckTimeout)
	if err == nil {
		if flags&0x07 == 0x05 {
			return nil
		}
		return fmt.Errorf("EndDisplay refused (flags 0x%02x): %w", flags, ErrDGTNack)
	}
	if err := d.cfg.Transport.Listen(0); err != nil {
		return fmt.Errorf("EndDisplay: listen on broadcast: %w", err)
	}
	flags, err = d.waitAck(dgtMsgEndDisplay, dgtAckTimeout)
	if err != nil {
		return err
	}
	if flags&0x07 != 0 {
		return fmt.Errorf("EndDisplay refused (flags 0x%02x): %w", flags, ErrDGTNack)
	}
	return nil
}

// display sends a Display frame; the clock answers on the broadcast
// address, and flags&0xf3 == 0x23 means it is busy with another text.
func (d *DGT3000) display(f []byte) error {
	if err := d.send(f, 0); err != nil {
		return err
	}
	flags, err := d.waitAck(dgtMsgDisplay, dgtAckTimeout)
	if err != nil {
		return err
	}
	if flags&0xf3 == 0x23 {
		return fmt.Errorf("Display refused, display busy (flags 0x%02x): %w", flags, ErrDGTNack)
	}
	return nil
}

// setAndRun sends a SetAndRun frame; only an ACK with flags 0x08 counts
// (anything else: not in mode 25).
func (d *DGT3000) setAndRun(f []byte) error {
	if err := d.send(f, dgtAddrHost>>1); err != nil {
		return err
	}
	flags, err := d.waitAck(dgtMsgSetAndRun, dgtAckTimeout)
	if err != nil {
		return err
	}
	if flags != 0x08 {
		return fmt.Errorf("SetAndRun refused (flags 0x%02x, not in mode 25): %w", flags, ErrDGTNack)
	}
	return nil
}

// count records a failed attempt in the statistics.
func (d *DGT3000) count(err error) {
	switch {
	case errors.Is(err, ErrDGTNoAck):
		d.stats.NoAcks++
	case errors.Is(err, ErrDGTNack):
		d.stats.Nacks++
	}
}

// tries runs op up to dgtTries times and returns the last error.
func (d *DGT3000) tries(op func() error) error {
	var err error
	for i := range dgtTries {
		if i > 0 {
			d.stats.Retries++
		}
		if err = op(); err == nil {
			return nil
		}
		d.count(err)
	}
	return err
}

// configure brings the clock into mode 25, as DGT's driver does: try mode
// 25; on NACK or no ACK take central control (at most 3 times, 10 ms
// apart); on silence wake the clock (at most 3 times); on a bus timeout
// reset the bus hardware once; on a collision just try again. Callers
// hold mu.
func (d *DGT3000) configure() error {
	var setCC, wakes, resets, collisions int
	for {
		err := d.mode25()
		d.count(err)
		switch {
		case err == nil:
			d.configured = true
			d.stats.Configures++
			return nil
		case errors.Is(err, ErrDGTNack) || errors.Is(err, ErrDGTNoAck):
			if setCC++; setCC > dgtTries {
				return fmt.Errorf("configure: central control refused %d times: %w", dgtTries, err)
			}
			d.drain(dgtSetCCPause)
			if err := d.setCentral(); err != nil {
				d.log.Debug("dgt3000: set central control", "err", err)
			}
		case errors.Is(err, ErrDGTTimeout):
			if resets++; resets > 1 {
				return fmt.Errorf("configure: bus stuck after a reset (jack plug half in?): %w", err)
			}
			if err := d.cfg.Transport.Reset(); err != nil {
				return fmt.Errorf("configure: reset bus: %w", err)
			}
		case errors.Is(err, ErrDGTStretch) || errors.Is(err, ErrDGTLinesLow):
			if collisions++; collisions > dgtMaxCollisions {
				return fmt.Errorf("configure: %d collisions in a row: %w", collisions, err)
			}
		case errors.Is(err, ErrDGTSilent):
			if wakes++; wakes > dgtTries {
				return fmt.Errorf("configure: clock does not wake after %d tries: %w", dgtTries, err)
			}
			if err := d.wake(); err != nil {
				d.log.Debug("dgt3000: wake", "err", err)
			}
		default:
			return fmt.Errorf("configure: %w", err)
		}
	}
}

// Configure wakes the clock if needed, takes central control and sets
// mode 25.
func (d *DGT3000) Configure(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.configure()
}

// command runs op under the lock with DGT's three tries; if they all
// fail, the clock may have lost mode 25 (switched off and on, jack
// replugged), so it is configured again and op gets three more tries.
func (d *DGT3000) command(ctx context.Context, op func() error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	err := d.tries(op)
	if err == nil {
		return nil
	}
	d.configured = false
	if cerr := d.configure(); cerr != nil {
		return fmt.Errorf("%w (then %v)", err, cerr)
	}
	return d.tries(op)
}

// sides maps White/Black to the clock's left and right halves.
func (d *DGT3000) sides(white, black time.Duration) (left, right time.Duration) {
	if d.cfg.White == Left {
		return white, black
	}
	return black, white
}

// SetAndRun shows white and black (rounded up to whole seconds, at most
// 9:59:59) and lets the clock count down the side in run.
func (d *DGT3000) SetAndRun(ctx context.Context, white, black time.Duration, run Running) error {
	left, right := d.sides(white, black)
	var lr, rr dgtRun
	if side, ok := run.Side(); ok {
		if (side == chess.White) == (d.cfg.White == Left) {
			lr = dgtCountDn
		} else {
			rr = dgtCountDn
		}
	}
	f := dgtSetAndRunFrame(left, right, lr, rr)
	return d.command(ctx, func() error { return d.setAndRun(f) })
}

// Display shows text (11 characters) with a beep and icons. As DGT's
// driver does, it first ends any text shown, because the clock refuses a
// new text while one is up.
func (d *DGT3000) Display(ctx context.Context, text string, beep time.Duration, leftIcons, rightIcons byte) error {
	f := dgtDisplayFrame(text, beep, leftIcons, rightIcons)
	err := d.command(ctx, d.endDisplay)
	if err == nil {
		err = d.command(ctx, func() error { return d.display(f) })
	}
	if err == nil {
		d.mu.Lock()
		d.text, d.endAt = text, time.Time{}
		d.mu.Unlock()
	}
	return err
}

// Show displays text with a beep; "" ends the display (back to times).
func (d *DGT3000) Show(ctx context.Context, text string, beep time.Duration) error {
	if text == "" {
		err := d.command(ctx, d.endDisplay)
		if err == nil {
			d.mu.Lock()
			d.text, d.endAt = "", time.Time{}
			d.mu.Unlock()
		}
		return err
	}
	return d.Display(ctx, text, beep, 0, 0)
}

// Beep sounds the clock: the DGT3000 beeps only with a Display message,
// so it shows the current text (blank when it showed the times) for the
// beep's length, after which Run ends the display again.
func (d *DGT3000) Beep(ctx context.Context, dur time.Duration) error {
	d.mu.Lock()
	text := d.text
	d.mu.Unlock()
	if err := d.Display(ctx, text, dur, 0, 0); err != nil {
		return err
	}
	if text == "" {
		d.mu.Lock()
		d.endAt = d.ts.Now().Add(time.Duration(dgtBeep(dur)) * dgtBeepUnit)
		d.mu.Unlock()
	}
	return nil
}

// Off switches the clock off (ChangeState with mode 0, listening on the
// broadcast address; DGT's driver awaits no ACK for it).
func (d *DGT3000) Off(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.configured = false
	return d.send(dgtOffFrame, 0)
}

// Run configures the clock, then listens for its messages and reports
// presses (lever changes), buttons and displayed times. A clock that is
// off or unplugged is retried every Reconfigure interval; switching the
// clock on is noticed and configures it again. Run returns when ctx ends.
func (d *DGT3000) Run(ctx context.Context, report func(Report)) error {
	var nextConfig time.Time
	for ctx.Err() == nil {
		d.mu.Lock()
		now := d.ts.Now()
		if !d.configured && !now.Before(nextConfig) {
			if err := d.configure(); err != nil {
				d.pending = append(d.pending, Report{Kind: ReportError, At: now, Err: err, Msg: "configure"})
				nextConfig = now.Add(d.cfg.Reconfigure)
			} else {
				d.pending = append(d.pending, Report{Kind: ReportOnline, At: d.ts.Now(), Msg: "mode 25"})
			}
		}
		if !d.endAt.IsZero() && !now.Before(d.endAt) {
			d.endAt = time.Time{}
			if err := d.tries(d.endDisplay); err != nil {
				d.pending = append(d.pending, Report{Kind: ReportError, At: now, Err: err, Msg: "end beep display"})
			}
		}
		raw, err := d.cfg.Transport.Receive(d.cfg.Poll)
		if !errors.Is(err, ErrDGTNoFrame) {
			d.handle(raw, err)
		}
		out := d.pending
		d.pending = nil
		d.mu.Unlock()
		for _, r := range out {
			report(r)
		}
	}
	return nil
}

// handle decodes a received frame (or receive error) and turns Time and
// Button messages into reports. It returns the decoded frame and whether
// it is valid. Callers hold mu.
func (d *DGT3000) handle(raw []byte, rxErr error) (dgtRxFrame, bool) {
	now := d.ts.Now()
	if rxErr != nil {
		if errors.Is(rxErr, ErrDGTOverrun) {
			d.stats.Overruns++
		}
		d.pending = append(d.pending, Report{Kind: ReportError, At: now, Err: rxErr, Msg: "receive"})
		return dgtRxFrame{}, false
	}
	d.stats.Received++
	fr, ok, err := dgtDecode(raw)
	if err != nil {
		if errors.Is(err, ErrDGTCRC) {
			d.stats.CRCErrors++
		} else {
			d.stats.FrameErrors++
		}
		d.pending = append(d.pending, Report{Kind: ReportError, At: now, Err: err, Msg: "receive"})
		return fr, false
	}
	if !ok {
		return fr, false
	}
	switch fr.Cmd {
	case dgtMsgTime:
		t, err := dgtDecodeTime(fr.Raw)
		if err != nil {
			d.stats.FrameErrors++
			d.pending = append(d.pending, Report{Kind: ReportError, At: now, Err: err, Msg: "time message"})
			return fr, false
		}
		d.leverState(t.LeverRightDown, now)
		r := Report{Kind: ReportTimes, At: now}
		if d.cfg.White == Left {
			r.Times = [2]time.Duration{t.Left, t.Right}
		} else {
			r.Times = [2]time.Duration{t.Right, t.Left}
		}
		d.pending = append(d.pending, r)
	case dgtMsgButton:
		d.buttonMsg(dgtButtons{New: fr.Payload[0], Old: fr.Payload[1]}, now)
	}
	return fr, true
}

var dgtButtonBits = [...]struct {
	bit byte
	b   Button
}{{dgtBtnBack, ButtonBack}, {dgtBtnMinus, ButtonMinus}, {dgtBtnPlay, ButtonPlayPause}, {dgtBtnPlus, ButtonPlus}, {dgtBtnForward, ButtonForward}}

// buttonMsg reports button edges, power changes and lever moves.
func (d *DGT3000) buttonMsg(b dgtButtons, now time.Time) {
	for _, x := range dgtButtonBits {
		if was, is := b.Old&x.bit != 0, b.New&x.bit != 0; was != is {
			d.pending = append(d.pending, Report{Kind: ReportButton, At: now, Button: x.b, Down: is})
		}
	}
	if was, is := b.Old&dgtBtnOff != 0, b.New&dgtBtnOff != 0; was != is {
		// The clock leaves mode 25 when switched off; when it comes back
		// Run configures it again.
		d.configured = false
		d.pending = append(d.pending, Report{Kind: ReportButton, At: now, Button: ButtonPower, Down: !is})
	}
	d.leverState(b.New&dgtBtnLever != 0, now)
	d.buttons = b.New
}

// leverState records the lever position from a Button or Time message; a
// change is a press by the player whose side went down. Both messages
// carry the position, so a lost Button message still yields the press
// (from the next Time message, later), and the first position seen after
// start-up is not a press.
func (d *DGT3000) leverState(rightDown bool, now time.Time) {
	if d.cfg.LeverInverted {
		rightDown = !rightDown
	}
	var v int8
	if rightDown {
		v = 1
	}
	if d.lever == v {
		return
	}
	first := d.lever < 0
	d.lever = v
	if first {
		return
	}
	pressed := Left
	if rightDown {
		pressed = Right
	}
	side := chess.White
	if pressed != d.cfg.White {
		side = chess.Black
	}
	d.pending = append(d.pending, Report{Kind: ReportPress, At: now, Side: side})
}
