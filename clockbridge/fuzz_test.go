package clockbridge

import (
	"errors"
	"testing"
)

// FuzzDGTDecode feeds arbitrary received frames to the decoder: it must
// never panic, accept only frames whose length byte and CRC match, and
// decode every Time message it accepts without reading out of range.
func FuzzDGTDecode(f *testing.F) {
	for _, s := range [][]byte{
		{0x20, 0x10, 0x07, 0x01, 0x0f, 0x08, 0xfb},
		{0x00, 0x10, 0x05, 0x02, 0xed},
		{0x00, 0x10, 0x07, 0x05, 0x40, 0x00, 0xcb},
		{0x00, 0x10, 0x16, 0x04, 0x00, 0x01, 0x29, 0x45, 0x00, 0x00, 0x00, 0x01, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x7b},
		{0, 0, 0},
		{},
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, ok, err := dgtDecode(b)
		if err != nil {
			if ok || !(errors.Is(err, ErrDGTFrame) || errors.Is(err, ErrDGTCRC)) {
				t.Fatalf("% x: ok=%t err=%v", b, ok, err)
			}
			return
		}
		if !ok {
			return
		}
		if int(b[2]) != len(b) || crc8(b[:len(b)-1]) != b[len(b)-1] || b[1] != dgtAddrClock {
			t.Fatalf("accepted bad frame % x", b)
		}
		if fr.Cmd == dgtMsgTime {
			if _, err := dgtDecodeTime(fr.Raw); err != nil && !errors.Is(err, ErrDGTFrame) {
				t.Fatalf("time % x: %v", b, err)
			}
		}
	})
}
