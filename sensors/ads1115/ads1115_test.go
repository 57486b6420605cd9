package ads1115_test

import (
	"errors"
	"testing"
	"time"

	"github.com/boardd/boardd/sensors/ads1115"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"
)

// waits is a clock that only moves when waited on, recording the waits.
type waits struct {
	now  time.Time
	list []time.Duration
}

func (w *waits) Delay(d time.Duration) { w.list = append(w.list, d); w.now = w.now.Add(d) }
func (w *waits) Now() time.Time        { return w.now }

func TestReadPollsConversionReady(t *testing.T) {
	// AIN2 against GND, ±4.096 V, single shot, 860 SPS, comparator off:
	// config 0xe3e3. The first poll finds it converting (OS 0), the second
	// done (OS 1); then the conversion register.
	bus := &i2ctest.Playback{DontPanic: true, Ops: []i2ctest.IO{
		{Addr: 0x49, W: []byte{0x01, 0xe3, 0xe3}},
		{Addr: 0x49, W: []byte{0x01}, R: []byte{0x63, 0xe3}},
		{Addr: 0x49, W: []byte{0x01}, R: []byte{0xe3, 0xe3}},
		{Addr: 0x49, W: []byte{0x00}, R: []byte{0x34, 0x00}},
	}}
	clk := &waits{}
	dev, err := ads1115.New(bus, 0x49, ads1115.Opts{Delay: clk.Delay, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := dev.Pin(2)
	s, err := p.Read()
	if err != nil {
		t.Fatal(err)
	}
	if s.Raw != 0x3400 || s.V != 1664*physic.MilliVolt {
		t.Errorf("read %d = %v, want 13312 = 1.664V", s.Raw, s.V)
	}
	if len(clk.list) != 2 || clk.list[0] != ads1115.FirstPoll || clk.list[1] != ads1115.PollEvery {
		t.Errorf("waits %v, want %v then %v", clk.list, ads1115.FirstPoll, ads1115.PollEvery)
	}
	if err := bus.Close(); err != nil {
		t.Error(err)
	}
}

func TestReadGivesUpOnAConversionThatNeverEnds(t *testing.T) {
	var ops []i2ctest.IO
	ops = append(ops, i2ctest.IO{Addr: 0x48, W: []byte{0x01, 0xc3, 0xe3}})
	for range 200 {
		ops = append(ops, i2ctest.IO{Addr: 0x48, W: []byte{0x01}, R: []byte{0x43, 0xe3}})
	}
	bus := &i2ctest.Playback{DontPanic: true, Ops: ops}
	clk := &waits{}
	dev, _ := ads1115.New(bus, 0x48, ads1115.Opts{Delay: clk.Delay, Now: clk.Now})
	_, err := dev.ReadRaw(0)
	if !errors.Is(err, ads1115.ErrNotReady) {
		t.Fatalf("err %v, want ErrNotReady", err)
	}
	if clk.now.Sub(time.Time{}) > ads1115.Timeout+ads1115.PollEvery {
		t.Errorf("gave up after %v", clk.now.Sub(time.Time{}))
	}
	if _, err := ads1115.New(bus, 0x20, ads1115.Opts{}); err == nil {
		t.Error("address 0x20 accepted")
	}
	if _, err := dev.Pin(4); err == nil {
		t.Error("channel 4 accepted")
	}
}
