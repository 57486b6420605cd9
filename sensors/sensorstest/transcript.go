package sensorstest

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"
)

// Transcript is a board's bus traffic as boardd diag --probe --record
// writes it (JSON, bytes in hex), per bus or port name: what a real
// board did at its bring-up, to be replayed in a test.
type Transcript struct {
	I2C map[string][]TranscriptOp `json:"i2c,omitempty"`
	SPI map[string][]TranscriptOp `json:"spi,omitempty"`
}

// TranscriptOp is one transaction: the address (I2C), bytes written and
// bytes read.
type TranscriptOp struct {
	Addr uint16   `json:"addr,omitempty"`
	W    HexBytes `json:"w,omitempty"`
	R    HexBytes `json:"r,omitempty"`
}

// HexBytes are bytes written as a hex string.
type HexBytes []byte

// MarshalText implements encoding.TextMarshaler.
func (h HexBytes) MarshalText() ([]byte, error) { return []byte(hex.EncodeToString(h)), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (h *HexBytes) UnmarshalText(b []byte) error {
	v, err := hex.DecodeString(string(b))
	if err != nil {
		return fmt.Errorf("transcript bytes %q: %w", b, err)
	}
	*h = v
	return nil
}

// ParseTranscript reads a transcript.
func ParseTranscript(b []byte) (*Transcript, error) {
	var t Transcript
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	return &t, nil
}

// AddI2C appends the transactions periph's i2ctest.Record recorded on a
// bus.
func (t *Transcript) AddI2C(name string, ops []i2ctest.IO) {
	if t.I2C == nil {
		t.I2C = map[string][]TranscriptOp{}
	}
	for _, op := range ops {
		t.I2C[name] = append(t.I2C[name], TranscriptOp{Addr: op.Addr, W: op.W, R: op.R})
	}
}

// AddSPI appends the transfers periph's conntest.Record recorded on a
// port.
func (t *Transcript) AddSPI(name string, ops []conntest.IO) {
	if t.SPI == nil {
		t.SPI = map[string][]TranscriptOp{}
	}
	for _, op := range ops {
		t.SPI[name] = append(t.SPI[name], TranscriptOp{W: op.W, R: op.R})
	}
}

// Hardware replays the transcript: each bus an i2ctest.Playback, each
// port an spitest.Playback (a transaction that differs from the
// transcript is an error, not a panic), and the GPIOs from pins. done
// reports a transaction of the transcript that was not replayed.
func (t *Transcript) Hardware(pins map[string]gpio.PinIO) (hw *Hardware, done func() error) {
	hw = &Hardware{Pins: pins, Buses: map[string]i2c.Bus{}, Ports: map[string]spi.Port{}, Groups: map[string]gpio.Group{}}
	var closers []func() error
	for _, name := range sortedKeys(t.I2C) {
		p := &i2ctest.Playback{DontPanic: true}
		for _, op := range t.I2C[name] {
			p.Ops = append(p.Ops, i2ctest.IO{Addr: op.Addr, W: op.W, R: op.R})
		}
		hw.Buses[name] = p
		closers = append(closers, func() error { return wrap(name, p.Close()) })
	}
	for _, name := range sortedKeys(t.SPI) {
		p := &spitest.Playback{Playback: conntest.Playback{DontPanic: true}}
		for _, op := range t.SPI[name] {
			p.Ops = append(p.Ops, conntest.IO{W: op.W, R: op.R})
		}
		hw.Ports[name] = p
		closers = append(closers, func() error { return wrap(name, p.Close()) })
	}
	return hw, func() error {
		var errs []error
		for _, c := range closers {
			errs = append(errs, c())
		}
		return errors.Join(errs...)
	}
}

func wrap(name string, err error) error {
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	l := make([]string, 0, len(m))
	for k := range m {
		l = append(l, k)
	}
	sort.Strings(l)
	return l
}
