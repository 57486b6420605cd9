package clockbridge

import (
	"context"
	"fmt"
	"time"

	"github.com/boardd/boardd/chess"
)

// Device is clock hardware under a SoftClock: a lever and buttons that it
// reports, and maybe a display it is told what to show. The SoftClock owns
// the times (FIDE time controls, increments, delay, flags); the device only
// senses and shows. GPIOLever and DGT3000 implement it.
type Device interface {
	// Run reports what the hardware senses until ctx ends or the
	// hardware fails for good. report is called from Run's goroutine.
	Run(ctx context.Context, report func(Report)) error
	// SetAndRun shows both times and runs one side (or none). Hardware
	// without a display returns nil.
	SetAndRun(ctx context.Context, white, black time.Duration, run Running) error
	// Show displays a short text with a beep; "" returns to the times.
	Show(ctx context.Context, text string, beep time.Duration) error
	// Beep sounds for about d.
	Beep(ctx context.Context, d time.Duration) error
}

// ReportKind says what a device report carries.
type ReportKind uint8

// Report kinds.
const (
	ReportPress  ReportKind = iota + 1 // Side pressed the clock (the lever now points away from them)
	ReportButton                       // Button went Down or up
	ReportTimes                        // the times the device itself shows (Times)
	ReportOnline                       // the device is (again) configured and obeying commands
	ReportError                        // something failed (Err); the device keeps trying
)

var reportKindNames = [...]string{"", "press", "button", "times", "online", "error"}

func (k ReportKind) String() string {
	if k > 0 && int(k) < len(reportKindNames) {
		return reportKindNames[k]
	}
	return fmt.Sprintf("report(%d)", k)
}

// Report is one observation of a Device.
type Report struct {
	Kind   ReportKind
	At     time.Time
	Side   chess.Color
	Button Button
	Down   bool
	Times  [2]time.Duration // ReportTimes: White's and Black's time as displayed
	Err    error
	Msg    string
}

// ClockSide is a half of a physical clock as the arbiter sees it.
type ClockSide uint8

// The two halves.
const (
	Left ClockSide = iota
	Right
)

func (s ClockSide) String() string {
	if s == Left {
		return "left"
	}
	return "right"
}
