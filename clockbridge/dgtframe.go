package clockbridge

import (
	"errors"
	"fmt"
	"time"
)

// DGT3000 I2C addresses in their 8-bit form (7-bit address << 1), which is
// how they appear in byte 0 of a frame.
const (
	dgtAddrBroadcast byte = 0x00 // the clock's broadcasts (times, buttons, some ACKs)
	dgtAddrClock     byte = 0x10 // the clock (7-bit 0x08)
	dgtAddrHost      byte = 0x20 // the Pi (7-bit 0x10): the clock's addressed ACKs
	dgtAddrWake      byte = 0x50 // wake only (7-bit 0x28); never acknowledged
)

// Message ids (byte 3 of a frame).
const (
	dgtMsgAck              byte = 1
	dgtMsgHello            byte = 2
	dgtMsgDebug            byte = 3
	dgtMsgTime             byte = 4
	dgtMsgButton           byte = 5
	dgtMsgDisplay          byte = 6
	dgtMsgEndDisplay       byte = 7
	dgtMsgCurrentProgram   byte = 8
	dgtMsgProgram          byte = 9
	dgtMsgSetAndRun        byte = 10
	dgtMsgChangeState      byte = 11
	dgtMsgSendHello        byte = 12
	dgtMsgPing             byte = 13
	dgtMsgTimeCorrelation  byte = 14
	dgtMsgSetCentral       byte = 15
	dgtMsgReleaseCentral   byte = 16
	dgtMsgTriggerBootLoadr byte = 17
)

var dgtMsgNames = [...]string{"", "Ack", "Hello", "Debug", "Time", "Button", "Display", "EndDisplay",
	"CurrentProgram", "Program", "SetAndRun", "ChangeState", "SendHello", "Ping", "TimeCorrelation",
	"SetCentralControl", "ReleaseCentralControl", "TriggerBootLoader"}

func dgtMsgName(id byte) string {
	if id > 0 && int(id) < len(dgtMsgNames) {
		return dgtMsgNames[id]
	}
	return fmt.Sprintf("msg(%d)", id)
}

// dgtMode25 is the ChangeState argument that puts the clock in mode 25,
// the mode in which SetAndRun is obeyed.
const dgtMode25 byte = 0x39

// crc8 is CRC-8 with polynomial x^8+x^2+x+1 (0x07), initial value 0,
// MSB first, no reflection, no final XOR ("ATM-8").
func crc8(b []byte) byte {
	var c byte
	for _, x := range b {
		c = crc8Table[c^x]
	}
	return c
}

var crc8Table = func() (t [256]byte) {
	for i := range 256 {
		c := byte(i)
		for range 8 {
			if c&0x80 != 0 {
				c = c<<1 ^ 0x07
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

// dgtFrame builds a host-to-clock frame [dest, 0x20, len, cmd, payload..., crc].
func dgtFrame(dest, cmd byte, payload ...byte) []byte {
	n := 5 + len(payload)
	f := make([]byte, 0, n)
	f = append(f, dest, dgtAddrHost, byte(n), cmd)
	f = append(f, payload...)
	return append(f, crc8(f))
}

// The fixed messages.
var (
	// dgtWakeFrame is a Ping sent to the wake address. It carries the CRC
	// of the same frame addressed to the clock (10 20 05 0d), as the
	// clock's firmware expects: 50 20 05 0d 46.
	dgtWakeFrame       = append([]byte{dgtAddrWake}, dgtFrame(dgtAddrClock, dgtMsgPing)[1:]...)
	dgtSetCentralFrame = dgtFrame(dgtAddrClock, dgtMsgSetCentral)             // 10 20 05 0f 48
	dgtMode25Frame     = dgtFrame(dgtAddrClock, dgtMsgChangeState, dgtMode25) // 10 20 06 0b 39 b9
	dgtOffFrame        = dgtFrame(dgtAddrClock, dgtMsgChangeState, 0)         // 10 20 06 0b 00 crc
	dgtEndDisplayFrame = dgtFrame(dgtAddrClock, dgtMsgEndDisplay)             // 10 20 05 07 70
)

// Icons on the DGT3000 display, one byte per half.
const (
	IconFlag      byte = 0x01
	IconWhiteKing byte = 0x02
	IconBlackKing byte = 0x04
	IconColon     byte = 0x08
	IconDot       byte = 0x10
	IconExtraDot  byte = 0x20 // left half only
)

// dgtDisplayWidth is the number of characters of a Display message.
const dgtDisplayWidth = 11

// dgtBeepUnit is the DGT3000's beep unit; the longest beep is 48 units.
const (
	dgtBeepUnit = 62500 * time.Microsecond
	dgtBeepMax  = 48
)

// dgtBeep converts a duration to beep units, rounded, at most 3 s.
func dgtBeep(d time.Duration) byte {
	if d <= 0 {
		return 0
	}
	n := (d + dgtBeepUnit/2) / dgtBeepUnit
	if n > dgtBeepMax {
		n = dgtBeepMax
	}
	return byte(n)
}

// dgtDisplayFrame builds the 21-byte Display message: 11 ASCII characters
// (space padded; longer text is cut, non-ASCII shown as '?'), 0xff, the beep,
// 0x03, left and right icons.
func dgtDisplayFrame(text string, beep time.Duration, left, right byte) []byte {
	p := make([]byte, 0, 16)
	for _, r := range text {
		if len(p) == dgtDisplayWidth {
			break
		}
		if r < 0x20 || r > 0x7e {
			r = '?'
		}
		p = append(p, byte(r))
	}
	for len(p) < dgtDisplayWidth {
		p = append(p, ' ')
	}
	p = append(p, 0xff, dgtBeep(beep), 0x03, left, right)
	return dgtFrame(dgtAddrClock, dgtMsgDisplay, p...)
}

// dgtRun is the run mode of one side in SetAndRun.
type dgtRun byte

const (
	dgtStop     dgtRun = 0
	dgtCountDn  dgtRun = 1
	dgtCountUp  dgtRun = 2
	dgtMaxHours        = 9
)

// dgtHMS splits d into hours, minutes and seconds for the clock, rounding
// up to the next whole second (so the clock reaches 0:00 no earlier than
// the exact time does) and clamping to 9:59:59, the display's limit.
func dgtHMS(d time.Duration) (h, m, s byte) {
	if d < 0 {
		d = 0
	}
	secs := int64((d + time.Second - 1) / time.Second)
	if limit := int64(dgtMaxHours*3600 + 59*60 + 59); secs > limit {
		secs = limit
	}
	return byte(secs / 3600), byte(secs / 60 % 60), byte(secs % 60)
}

func bcd(v byte) byte { return v/10<<4 | v%10 }

// unbcd decodes a BCD byte; ok is false when a nibble is not a digit.
func unbcd(b byte) (byte, bool) {
	hi, lo := b>>4, b&0x0f
	if hi > 9 || lo > 9 {
		return 0, false
	}
	return hi*10 + lo, true
}

// dgtSetAndRunFrame builds the 12-byte SetAndRun message:
// lh lm ls rh rm rs (minutes and seconds BCD) and the mode lr | rr<<2.
func dgtSetAndRunFrame(left, right time.Duration, lr, rr dgtRun) []byte {
	lh, lm, ls := dgtHMS(left)
	rh, rm, rs := dgtHMS(right)
	return dgtFrame(dgtAddrClock, dgtMsgSetAndRun,
		lh, bcd(lm), bcd(ls), rh, bcd(rm), bcd(rs), byte(lr)|byte(rr)<<2)
}

// Errors of the DGT3000 link. The transport returns the bus-level ones;
// the protocol layer adds the others. The numbers in the comments are the
// codes of DGT's reference driver, for reading its logs.
var (
	ErrDGTNack      = errors.New("dgt3000: negative acknowledgement")                  // -1
	ErrDGTNoAck     = errors.New("dgt3000: no acknowledgement")                        // -2
	ErrDGTSilent    = errors.New("dgt3000: not acknowledged on the bus (clock off?)")  // -3
	ErrDGTStretch   = errors.New("dgt3000: clock stretch timeout (collision)")         // -4
	ErrDGTLinesLow  = errors.New("dgt3000: bus lines low after send (collision)")      // -5
	ErrDGTTimeout   = errors.New("dgt3000: bus not free or transfer not done in time") // -6
	ErrDGTCRC       = errors.New("dgt3000: CRC error in received frame")               // -7
	ErrDGTFrame     = errors.New("dgt3000: malformed received frame")                  // -8
	ErrDGTOverrun   = errors.New("dgt3000: receive overrun, bytes lost")               // -8/-9
	ErrDGTNoFrame   = errors.New("dgt3000: nothing received")                          // receive timeout, not an error by itself
	ErrDGTNoAccess  = errors.New("dgt3000: no access to the bus hardware")             // -10
	ErrDGTWakeAcked = errors.New("dgt3000: wake message was acknowledged on the bus; something else answers at 0x28")
)

// dgtTimes is a decoded Time message.
type dgtTimes struct {
	Left, Right    time.Duration
	LeverRightDown bool // the lever's right side is down (byte 19 bit 0)
}

// dgtButtons is a decoded Button message: the new and previous state bits.
type dgtButtons struct{ New, Old byte }

// Button state bits of Button messages.
const (
	dgtBtnBack    byte = 0x01
	dgtBtnMinus   byte = 0x02
	dgtBtnPlay    byte = 0x04
	dgtBtnPlus    byte = 0x08
	dgtBtnForward byte = 0x10
	dgtBtnOff     byte = 0x20 // set while the clock is switched off
	dgtBtnLever   byte = 0x40 // set while the lever's right side is down
)

// dgtRxFrame is one received frame, checked and decoded.
type dgtRxFrame struct {
	Raw     []byte
	Addr    byte // address it arrived on (8-bit form)
	Cmd     byte
	Payload []byte
}

// dgtDecode checks a received frame [addr, src, len, cmd, payload..., crc].
// It returns ok=false without error for the stray "00 00" packets the clock
// sends after some messages.
func dgtDecode(f []byte) (dgtRxFrame, bool, error) {
	if len(f) == 3 && f[1] == 0 && f[2] == 0 {
		return dgtRxFrame{}, false, nil
	}
	if len(f) < 5 {
		return dgtRxFrame{}, false, fmt.Errorf("%w: %d bytes % x", ErrDGTFrame, len(f), f)
	}
	if f[1] != dgtAddrClock {
		return dgtRxFrame{}, false, fmt.Errorf("%w: source 0x%02x, want the clock 0x10: % x", ErrDGTFrame, f[1], f)
	}
	if int(f[2]) != len(f) {
		return dgtRxFrame{}, false, fmt.Errorf("%w: length byte %d but %d bytes received: % x", ErrDGTFrame, f[2], len(f), f)
	}
	if c := crc8(f[:len(f)-1]); c != f[len(f)-1] {
		return dgtRxFrame{}, false, fmt.Errorf("%w: got 0x%02x, computed 0x%02x: % x", ErrDGTCRC, f[len(f)-1], c, f)
	}
	fr := dgtRxFrame{Raw: f, Addr: f[0], Cmd: f[3], Payload: f[4 : len(f)-1]}
	switch fr.Cmd {
	case dgtMsgAck:
		if len(fr.Payload) < 2 {
			return fr, false, fmt.Errorf("%w: Ack with %d payload bytes: % x", ErrDGTFrame, len(fr.Payload), f)
		}
	case dgtMsgButton:
		if len(fr.Payload) < 2 {
			return fr, false, fmt.Errorf("%w: Button with %d payload bytes: % x", ErrDGTFrame, len(fr.Payload), f)
		}
	case dgtMsgTime:
		// Fields up to frame byte 19 are used; the clock's exact length
		// beyond that is not documented, so only the minimum is checked.
		if len(f) < 21 {
			return fr, false, fmt.Errorf("%w: Time message of %d bytes, want at least 21: % x", ErrDGTFrame, len(f), f)
		}
	}
	return fr, true, nil
}

// dgtDecodeTime reads a Time frame (whole frame f, already checked):
// left h = f[5]&0x0f, min f[6], sec f[7]; right f[11]&0x0f, f[12], f[13];
// lever f[19] bit 0.
func dgtDecodeTime(f []byte) (dgtTimes, error) {
	side := func(h, m, s byte) (time.Duration, error) {
		mm, ok1 := unbcd(m)
		ss, ok2 := unbcd(s)
		if !ok1 || !ok2 || mm > 59 || ss > 59 {
			return 0, fmt.Errorf("%w: impossible time %x:%02x:%02x in Time message: % x", ErrDGTFrame, h&0x0f, m, s, f)
		}
		return time.Duration(h&0x0f)*time.Hour + time.Duration(mm)*time.Minute + time.Duration(ss)*time.Second, nil
	}
	l, err := side(f[5], f[6], f[7])
	if err != nil {
		return dgtTimes{}, err
	}
	r, err := side(f[11], f[12], f[13])
	if err != nil {
		return dgtTimes{}, err
	}
	return dgtTimes{Left: l, Right: r, LeverRightDown: f[19]&1 == 1}, nil
}
