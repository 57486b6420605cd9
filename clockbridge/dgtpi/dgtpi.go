// Package dgtpi is the DGT3000's I2C link on a Raspberry Pi wired as a
// DGT Pi: the Pi sends with the BSC1 I2C master (GPIO2 SDA1, GPIO3 SCL1)
// and receives with the BSC/SPI slave peripheral wired to the same two
// lines (GPIO18/19 on Pi 1-3, GPIO10/11 on Pi 4), because the clock is a
// bus master itself and the kernel's i2c-dev cannot be a slave.
//
// It drives the peripherals' registers directly through /dev/mem (periph's
// host/pmem), as periph's bcm283x driver does for GPIO. That needs root,
// and the VPU core clock must be fixed (core_freq and core_freq_min in
// config.txt): the I2C divider is computed from it once. Pi 5 (RP1) is not
// supported. docs/clock.md lists what a test on a Pi must confirm.
package dgtpi

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"periph.io/x/host/v3/pmem"

	"github.com/boardd/boardd/clockbridge"
	"github.com/boardd/boardd/internal/finesleep"
)

// Register blocks, as offsets from the peripheral base.
const (
	gpioOffset   = 0x200000
	slaveOffset  = 0x214000 // BSC/SPI slave
	masterOffset = 0x804000 // BSC1
	blockSize    = 0x100
)

// Register offsets (bytes) within the blocks.
const (
	gpFSEL0, gpFSEL1, gpLEV0 = 0x00, 0x04, 0x34

	slDR, slRSR, slSLV, slCR, slFR = 0x00, 0x04, 0x08, 0x0c, 0x10

	msC, msS, msDLEN, msA, msFIFO, msDIV, msDEL = 0x00, 0x04, 0x08, 0x0c, 0x10, 0x14, 0x18
)

// Register bits.
const (
	cI2CEN = 1 << 15
	cST    = 1 << 7
	cCLEAR = 1 << 4

	sDONE = 1 << 1
	sTXD  = 1 << 4
	sERR  = 1 << 8
	sCLKT = 1 << 9

	crEN  = 1 << 0
	crI2C = 1 << 2
	crBRK = 1 << 7
	crRXE = 1 << 9

	frRXFE   = 1 << 1
	frRXBUSY = 1 << 5

	rsrOE = 1 << 0
)

// Regs is 32-bit register access to one peripheral block.
type Regs interface {
	Read(off uint32) uint32
	Write(off, v uint32)
}

// memRegs is a mapped register block.
type memRegs []uint32

func (m memRegs) Read(off uint32) uint32 { return atomic.LoadUint32(&m[off/4]) }
func (m memRegs) Write(off, v uint32)    { atomic.StoreUint32(&m[off/4], v) }

// Config configures the link.
type Config struct {
	// Base is the peripheral base address; 0 reads it from
	// /proc/device-tree/soc/ranges (0x20000000 Pi 1/Zero, 0x3f000000
	// Pi 2/3, 0xfe000000 Pi 4).
	Base uint64
	// CoreMHz is the VPU core clock the BSC master runs from; 0 asks
	// "vcgencmd measure_clock core". It must not change while boardd
	// runs: fix it with core_freq=250 and core_freq_min=250 (or 300) in
	// config.txt.
	CoreMHz int
	// Time is where timeouts are measured (nil: real time).
	Time clockbridge.TimeSource
	// Sleep waits between register polls (nil: finesleep.Sleep; time.Sleep
	// would make the 400 µs and 10 µs polls about 1.1 ms, against a FIFO
	// that fills in 1.5 ms).
	Sleep func(time.Duration)
}

// Link is the DGT Pi's I2C link; it implements clockbridge.DGTTransport.
type Link struct {
	gpio, slave, master Regs
	pi4                 bool
	coreMHz             int
	ts                  clockbridge.TimeSource
	sleep               func(time.Duration)
	views               []*pmem.View

	// Frames the clock sent while Send waited for the bus: the slave's
	// FIFO is drained during that wait, as DGT's driver does, since a
	// frame longer than the 16-byte FIFO would otherwise stall the clock,
	// keep the bus busy until the send times out, and be lost. Receive
	// returns them first.
	rx     []byte    // a frame being drained, arrival address first
	queued []rxFrame // frames drained complete
}

// rxFrame is a frame drained during a send, with its error (an overrun).
type rxFrame struct {
	m   []byte
	err error
}

// Timing from DGT's driver.
const (
	busFreeSamples = 256                    // consecutive idle samples before sending
	xferTimeout    = 10 * time.Millisecond  // bus free, FIFO space, transfer done, frame received
	idlePoll       = 400 * time.Microsecond // receive poll while nothing arrives
	bytePoll       = 10 * time.Microsecond  // poll while a frame arrives (a byte takes ~90 µs)
	maxFrame       = 256
)

// Open maps the registers, checks the wiring and sets the peripherals up.
// It needs root (/dev/mem).
func Open(cfg Config) (*Link, error) {
	base := cfg.Base
	if base == 0 {
		b, err := peripheralBase()
		if err != nil {
			return nil, fmt.Errorf("dgtpi: %w", err)
		}
		base = b
	}
	if base != 0x20000000 && base != 0x3f000000 && base != 0xfe000000 {
		return nil, fmt.Errorf("dgtpi: peripheral base 0x%x is not a Pi 1-4 (Pi 5 is not supported)", base)
	}
	core := cfg.CoreMHz
	if core == 0 {
		c, err := measureCore()
		if err != nil {
			return nil, fmt.Errorf("dgtpi: core clock unknown (set it in the configuration): %w", err)
		}
		core = c
	}
	l := &Link{pi4: base == 0xfe000000, coreMHz: core}
	for _, off := range []uint64{gpioOffset, slaveOffset, masterOffset} {
		v, err := pmem.Map(base+off, blockSize)
		if err != nil {
			_ = l.Close()
			if errors.Is(err, os.ErrPermission) || strings.Contains(err.Error(), "permission") {
				return nil, fmt.Errorf("dgtpi: map registers at 0x%x (run as root): %w: %w", base+off, clockbridge.ErrDGTNoAccess, err)
			}
			return nil, fmt.Errorf("dgtpi: map registers at 0x%x: %w: %w", base+off, clockbridge.ErrDGTNoAccess, err)
		}
		l.views = append(l.views, v)
	}
	l.gpio, l.slave, l.master = memRegs(l.views[0].Uint32()), memRegs(l.views[1].Uint32()), memRegs(l.views[2].Uint32())
	l.setDefaults(cfg)
	if err := l.checkWiring(); err != nil {
		_ = l.Close()
		return nil, err
	}
	if err := l.Reset(); err != nil {
		_ = l.Close()
		return nil, err
	}
	return l, nil
}

// New returns a Link on the given register blocks (for tests, or for a
// caller that mapped them itself). It does not touch them.
func New(gpio, slave, master Regs, pi4 bool, coreMHz int, cfg Config) *Link {
	l := &Link{gpio: gpio, slave: slave, master: master, pi4: pi4, coreMHz: coreMHz}
	l.setDefaults(cfg)
	return l
}

func (l *Link) setDefaults(cfg Config) {
	l.ts, l.sleep = cfg.Time, cfg.Sleep
	if l.ts == nil {
		l.ts = clockbridge.SystemTime{}
	}
	if l.sleep == nil {
		l.sleep = finesleep.Sleep
	}
}

// Close unmaps the registers (after putting the pins back to inputs).
func (l *Link) Close() error {
	if l.gpio != nil && l.slave != nil {
		l.slave.Write(slCR, 0)
		l.pinsInput()
	}
	var errs []error
	for _, v := range l.views {
		errs = append(errs, v.Close())
	}
	l.views = nil
	return errors.Join(errs...)
}

// slavePins returns the GPFSEL register and the shift of the slave's
// SDA pin function (its SCL pin is the next one).
func (l *Link) slavePins() (reg, shift uint32, sda, scl uint32) {
	if l.pi4 {
		return gpFSEL1, 0, 10, 11 // GPIO10, GPIO11
	}
	return gpFSEL1, 24, 18, 19 // GPIO18, GPIO19
}

// checkWiring refuses pins some other driver uses as outputs and lines
// that are low with the pull-ups on (no clock cable, or a short).
func (l *Link) checkWiring() error {
	fsel0 := l.gpio.Read(gpFSEL0)
	if (fsel0>>6)&7 == 1 || (fsel0>>9)&7 == 1 {
		return fmt.Errorf("dgtpi: GPIO2/GPIO3 are outputs (in use by something else?): %w", clockbridge.ErrDGTLinesLow)
	}
	reg, shift, sda, scl := l.slavePins()
	f := l.gpio.Read(reg)
	if (f>>shift)&7 == 1 || (f>>(shift+3))&7 == 1 {
		return fmt.Errorf("dgtpi: GPIO%d/GPIO%d are outputs (in use by something else?): %w", sda, scl, clockbridge.ErrDGTLinesLow)
	}
	l.pinsInput()
	l.sleep(time.Microsecond)
	want := uint32(1)<<2 | 1<<3 | 1<<sda | 1<<scl
	if lev := l.gpio.Read(gpLEV0); lev&want != want {
		return fmt.Errorf("dgtpi: I2C lines low with pull-ups (GPLEV0 0x%08x; no DGT3000 cable, or a short): %w", lev, clockbridge.ErrDGTLinesLow)
	}
	return nil
}

func (l *Link) pinsInput() {
	l.gpio.Write(gpFSEL0, l.gpio.Read(gpFSEL0)&^(0x3f<<6)) // GPIO2, GPIO3
	reg, shift, _, _ := l.slavePins()
	l.gpio.Write(reg, l.gpio.Read(reg)&^(0x3f<<shift))
}

// Reset re-initialises master, slave and pins, as DGT's driver does after
// the bus got stuck: pins to inputs (this un-hangs the master), FIFOs
// cleared, then master ALT0 on GPIO2/3, slave ALT3 on its pins, slave
// listening on the broadcast address, divider from the core clock.
func (l *Link) Reset() error {
	l.rx = nil // the rest of a frame being drained is lost with the FIFO
	l.slave.Write(slCR, 0)
	l.master.Write(msC, cCLEAR)
	l.master.Write(msC, 0)
	l.pinsInput()
	l.master.Write(msDLEN, 0)
	deadline := l.ts.Now().Add(xferTimeout)
	for l.slave.Read(slFR)&frRXFE == 0 {
		_ = l.slave.Read(slDR)
		if l.ts.Now().After(deadline) {
			return fmt.Errorf("dgtpi: reset: slave FIFO does not empty: %w", clockbridge.ErrDGTTimeout)
		}
	}
	l.sleep(2 * time.Millisecond)
	l.master.Write(msS, sCLKT|sERR|sDONE)
	l.master.Write(msC, cI2CEN|cCLEAR)
	l.gpio.Write(gpFSEL0, l.gpio.Read(gpFSEL0)|4<<6|4<<9) // ALT0
	reg, shift, _, _ := l.slavePins()
	l.gpio.Write(reg, l.gpio.Read(reg)|0x3f<<shift) // ALT3
	l.sleep(time.Millisecond)
	l.slave.Write(slCR, crBRK)
	l.slave.Write(slCR, crEN|crI2C|crRXE)
	l.slave.Write(slSLV, 0)
	l.slave.Write(slRSR, 0)
	l.master.Write(msDIV, uint32(l.coreMHz*1000/95)) // ≈95 kHz
	if l.coreMHz > 300 {
		l.master.Write(msDEL, 0x600060)
	}
	l.master.Write(msA, 0x08)
	return nil
}

// Listen sets the slave's address.
func (l *Link) Listen(addr byte) error {
	l.slave.Write(slSLV, uint32(addr))
	return nil
}

func (l *Link) linesLow() bool {
	lev := l.gpio.Read(gpLEV0)
	return lev&(1<<2) == 0 || lev&(1<<3) == 0
}

func (l *Link) slaveBusy() bool {
	fr := l.slave.Read(slFR)
	return fr&frRXBUSY != 0 || fr&frRXFE == 0
}

// Send transmits frame as bus master (clockbridge.DGTTransport).
func (l *Link) Send(frame []byte, listen byte) error {
	if len(frame) < 2 || len(frame) > maxFrame {
		return fmt.Errorf("dgtpi: frame of %d bytes", len(frame))
	}
	l.master.Write(msDLEN, uint32(len(frame)-1))
	l.master.Write(msC, cCLEAR)
	n := 1
	for ; n < len(frame) && l.master.Read(msS)&sTXD != 0; n++ {
		l.master.Write(msFIFO, uint32(frame[n]))
	}
	// The clock sends its queued frames about 50 µs after the previous
	// one: the bus is free only after many consecutive idle samples.
	deadline := l.ts.Now().Add(xferTimeout)
	for idle := 0; idle < busFreeSamples; idle++ {
		if l.linesLow() || l.slaveBusy() {
			l.drainSlave()
			idle = 0
		}
		if l.ts.Now().After(deadline) {
			return fmt.Errorf("dgtpi: bus not free for %v: %w", xferTimeout, clockbridge.ErrDGTTimeout)
		}
	}
	l.slave.Write(slSLV, uint32(listen))
	l.master.Write(msA, uint32(frame[0]>>1))
	l.master.Write(msS, sCLKT|sERR|sDONE)
	l.master.Write(msC, cI2CEN|cST)
	for ; n < len(frame); n++ {
		deadline := l.ts.Now().Add(xferTimeout)
		for l.master.Read(msS)&sTXD == 0 {
			if l.master.Read(msS)&sDONE != 0 {
				break
			}
			if l.ts.Now().After(deadline) {
				l.slave.Write(slSLV, 0)
				return fmt.Errorf("dgtpi: no FIFO space for %v: %w", xferTimeout, clockbridge.ErrDGTTimeout)
			}
		}
		if l.master.Read(msS)&sDONE != 0 {
			break // ended early: not acknowledged, handled below
		}
		l.master.Write(msFIFO, uint32(frame[n]))
	}
	deadline = l.ts.Now().Add(xferTimeout)
	for l.master.Read(msS)&sDONE == 0 {
		if l.ts.Now().After(deadline) {
			l.slave.Write(slSLV, 0)
			return fmt.Errorf("dgtpi: transfer not done in %v: %w", xferTimeout, clockbridge.ErrDGTTimeout)
		}
	}
	s := l.master.Read(msS)
	if s&(sERR|sCLKT) == 0 {
		return nil
	}
	l.slave.Write(slSLV, 0)
	l.master.Write(msS, s&(sERR|sCLKT))
	if s&sCLKT != 0 {
		return clockbridge.ErrDGTStretch
	}
	l.master.Write(msC, l.master.Read(msC)|cCLEAR)
	if l.linesLow() || l.slaveBusy() {
		return clockbridge.ErrDGTLinesLow
	}
	return clockbridge.ErrDGTSilent
}

// drainSlave moves what the slave's FIFO holds into l.rx, and each
// frame completed (its length byte reached) to l.queued.
func (l *Link) drainSlave() {
	for l.slave.Read(slFR)&frRXFE == 0 {
		if len(l.rx) == 0 {
			l.rx = append(make([]byte, 0, 32), byte(l.slave.Read(slSLV)*2))
		}
		l.rx = append(l.rx, byte(l.slave.Read(slDR)))
		if len(l.rx) > 2 && len(l.rx) >= int(l.rx[2]) || len(l.rx) >= maxFrame {
			f := rxFrame{m: l.rx}
			if l.slave.Read(slRSR)&rsrOE != 0 {
				l.slave.Write(slRSR, 0)
				f.err = fmt.Errorf("dgtpi: slave FIFO overrun (% x): %w", f.m, clockbridge.ErrDGTOverrun)
			}
			l.queued = append(l.queued, f)
			l.rx = nil
		}
	}
}

// Receive waits for one frame on the slave (clockbridge.DGTTransport).
// Frames drained while a send waited for the bus come first.
func (l *Link) Receive(timeout time.Duration) ([]byte, error) {
	if len(l.queued) > 0 {
		f := l.queued[0]
		l.queued = l.queued[1:]
		return f.m, f.err
	}
	m := l.rx
	l.rx = nil
	if m == nil {
		end := l.ts.Now().Add(timeout)
		for !l.slaveBusy() {
			if !l.ts.Now().Before(end) {
				return nil, clockbridge.ErrDGTNoFrame
			}
			l.sleep(idlePoll)
		}
		m = make([]byte, 1, 32)
		m[0] = byte(l.slave.Read(slSLV) * 2)
	}
	deadline := l.ts.Now().Add(xferTimeout)
	for l.slaveBusy() {
		if l.ts.Now().After(deadline) {
			l.slave.Write(slSLV, 0)
			return m, fmt.Errorf("dgtpi: frame still arriving after %v (% x): %w", xferTimeout, m, clockbridge.ErrDGTTimeout)
		}
		if l.slave.Read(slFR)&frRXFE != 0 {
			l.sleep(bytePoll)
			continue
		}
		m = append(m, byte(l.slave.Read(slDR)))
		if len(m) > 2 && len(m) >= int(m[2]) {
			break
		}
		if len(m) >= maxFrame {
			l.slave.Write(slSLV, 0)
			return m, fmt.Errorf("dgtpi: frame longer than %d bytes: %w", maxFrame, clockbridge.ErrDGTOverrun)
		}
	}
	l.slave.Write(slSLV, 0)
	if l.slave.Read(slRSR)&rsrOE != 0 {
		l.slave.Write(slRSR, 0)
		return m, fmt.Errorf("dgtpi: slave FIFO overrun (% x): %w", m, clockbridge.ErrDGTOverrun)
	}
	return m, nil
}

// peripheralBase reads the SoC's peripheral base as the firmware's
// bcm_host does: /proc/device-tree/soc/ranges, second cell, or the third
// when the second is 0 (Pi 4's 64-bit parent address).
func peripheralBase() (uint64, error) {
	b, err := os.ReadFile("/proc/device-tree/soc/ranges")
	if err != nil {
		return 0, fmt.Errorf("peripheral base: %w", err)
	}
	cell := func(i int) uint64 {
		if len(b) < 4*i+4 {
			return 0
		}
		return uint64(b[4*i])<<24 | uint64(b[4*i+1])<<16 | uint64(b[4*i+2])<<8 | uint64(b[4*i+3])
	}
	if v := cell(1); v != 0 {
		return v, nil
	}
	if v := cell(2); v != 0 {
		return v, nil
	}
	return 0, fmt.Errorf("peripheral base: cannot read /proc/device-tree/soc/ranges (% x)", b)
}

// measureCore asks the firmware for the core clock in MHz.
func measureCore() (int, error) {
	out, err := exec.Command("vcgencmd", "measure_clock", "core").Output()
	if err != nil {
		return 0, fmt.Errorf("vcgencmd measure_clock core: %w", err)
	}
	return parseCore(string(out))
}

// parseCore reads "frequency(1)=250000000".
func parseCore(s string) (int, error) {
	i := strings.IndexByte(s, '=')
	if i < 0 {
		return 0, fmt.Errorf("core clock %q: no '='", strings.TrimSpace(s))
	}
	hz, err := strconv.ParseInt(strings.TrimSpace(s[i+1:]), 10, 64)
	if err != nil || hz < 1e6 {
		return 0, fmt.Errorf("core clock %q: not a frequency", strings.TrimSpace(s))
	}
	return int(hz / 1e6), nil
}

var _ clockbridge.DGTTransport = (*Link)(nil)
