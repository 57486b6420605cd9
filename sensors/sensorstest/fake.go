package sensorstest

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/trace"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// Source is a scripted FrameSource: Next returns Events in order, then
// io.EOF (or, with Block, waits for its context).
type Source struct {
	Kind   trace.Sensor
	Events []sensors.Event
	Block  bool
	next   int
	closed bool
}

// Sensor implements sensors.FrameSource.
func (s *Source) Sensor() trace.Sensor { return s.Kind }

// Next implements sensors.FrameSource.
func (s *Source) Next(ctx context.Context, ev *sensors.Event) error {
	if s.closed {
		return sensors.ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.next < len(s.Events) {
		*ev = s.Events[s.next]
		s.next++
		return nil
	}
	if s.Block {
		<-ctx.Done()
		return ctx.Err()
	}
	return io.EOF
}

// Close implements sensors.FrameSource.
func (s *Source) Close() error {
	s.closed = true
	return nil
}

// Closed reports whether Close was called.
func (s *Source) Closed() bool { return s.closed }

// Hardware hands out models (or any fakes) by name; it implements
// sensors.Hardware.
type Hardware struct {
	Pins   map[string]gpio.PinIO
	Buses  map[string]i2c.Bus
	Ports  map[string]spi.Port
	Groups map[string]gpio.Group // by the names joined with ","
}

// Pin implements sensors.Hardware.
func (h *Hardware) Pin(name string) (gpio.PinIO, error) {
	if p, ok := h.Pins[name]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("no GPIO named %q", name)
}

// I2C implements sensors.Hardware.
func (h *Hardware) I2C(name string) (i2c.Bus, error) {
	if b, ok := h.Buses[name]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("no I2C bus named %q", name)
}

// SPI implements sensors.Hardware.
func (h *Hardware) SPI(name string, f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	p, ok := h.Ports[name]
	if !ok {
		return nil, fmt.Errorf("no SPI port named %q", name)
	}
	return p.Connect(f, mode, bits)
}

// LineSet implements sensors.Hardware.
func (h *Hardware) LineSet(names []string, output bool, pull gpio.Pull) (gpio.Group, error) {
	if g, ok := h.Groups[strings.Join(names, ",")]; ok {
		return g, nil
	}
	return nil, fmt.Errorf("no line set of %s", strings.Join(names, ","))
}
