// Package host is the sensor board's buses on the machine boardd runs
// on: periph's host drivers brought up, and the GPIO, I2C and SPI buses a
// sensor configuration names opened through periph's registries. The
// sensors package itself never opens hardware.
package host

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/boardd/boardd/sensors"
	"periph.io/x/conn/v3/driver/driverreg"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"
	"periph.io/x/host/v3/gpioioctl"
)

// Hardware is sensors.Hardware on this machine's buses, through
// periph's registries after host bring-up. It keeps what it opened to
// close it.
type Hardware struct {
	state   *driverreg.State
	closers []io.Closer
}

// ErrNoHardware marks the absence of the buses a configuration needs; the
// message lists what host bring-up found.
var ErrNoHardware = errors.New("no sensor hardware found")

// Init brings up periph's host drivers (GPIO, I2C, SPI) and checks
// that the buses cfg needs exist. Without them it returns an error
// wrapping ErrNoHardware that says which drivers were skipped or failed.
func Init(cfg *sensors.Config) (*Hardware, error) {
	st, err := host.Init()
	if err != nil {
		return nil, fmt.Errorf("host bring-up: %w", err)
	}
	h := &Hardware{state: st}
	var missing []string
	uses, err := cfg.Uses()
	if err != nil {
		return nil, err
	}
	var needGPIO, needI2C, needSPI bool
	for _, u := range uses {
		needGPIO = needGPIO || u.Kind == sensors.UseGPIO
		needI2C = needI2C || u.Kind == sensors.UseI2C
		needSPI = needSPI || u.Kind == sensors.UseSPI
	}
	if needGPIO && len(gpioreg.All()) == 0 {
		missing = append(missing, "no GPIO (no /dev/gpiochip*)")
	}
	if needI2C && len(i2creg.All()) == 0 {
		missing = append(missing, "no I2C bus (no /dev/i2c-*)")
	}
	if needSPI && len(spireg.All()) == 0 {
		missing = append(missing, "no SPI port (no /dev/spidev*)")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w for the %s design: %s\n%s", ErrNoHardware, cfg.Design, strings.Join(missing, ", "), h.drivers())
	}
	return h, nil
}

// drivers describes the host drivers loaded, skipped and failed.
func (h *Hardware) drivers() string {
	var b strings.Builder
	list := func(what string, names []string) {
		sort.Strings(names)
		if len(names) == 0 {
			fmt.Fprintf(&b, "  host drivers %s: none\n", what)
			return
		}
		fmt.Fprintf(&b, "  host drivers %s:\n", what)
		for _, n := range names {
			fmt.Fprintf(&b, "    %s\n", n)
		}
	}
	var loaded, skipped, failed []string
	for _, d := range h.state.Loaded {
		loaded = append(loaded, d.String())
	}
	for _, f := range h.state.Skipped {
		skipped = append(skipped, f.String())
	}
	for _, f := range h.state.Failed {
		failed = append(failed, f.String())
	}
	list("loaded", loaded)
	list("skipped", skipped)
	list("failed", failed)
	return strings.TrimSuffix(b.String(), "\n")
}

func (h *Hardware) Pin(name string) (gpio.PinIO, error) {
	if p := gpioreg.ByName(name); p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("no GPIO named %q (%d known)", name, len(gpioreg.All()))
}

func (h *Hardware) I2C(name string) (i2c.Bus, error) {
	b, err := i2creg.Open(name)
	if err != nil {
		return nil, err
	}
	h.closers = append(h.closers, b)
	return b, nil
}

func (h *Hardware) SPI(name string, f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	p, err := spireg.Open(name)
	if err != nil {
		return nil, err
	}
	h.closers = append(h.closers, p)
	return p.Connect(f, mode, bits)
}

func (h *Hardware) LineSet(names []string, output bool, pull gpio.Pull) (gpio.Group, error) {
	dir := gpioioctl.LineInput
	if output {
		dir = gpioioctl.LineOutput
	}
	var errs []error
	for _, c := range gpioioctl.Chips {
		ls, err := c.LineSet(dir, gpio.NoEdge, pull, names...)
		if err == nil {
			h.closers = append(h.closers, ls)
			return ls, nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", c.Name(), err))
	}
	if len(errs) == 0 {
		return nil, errors.New("no GPIO chip (/dev/gpiochip*) for a line set")
	}
	return nil, fmt.Errorf("no GPIO chip has all of %s: %w", strings.Join(names, ", "), errors.Join(errs...))
}

func (h *Hardware) Close() error {
	var errs []error
	for i := len(h.closers) - 1; i >= 0; i-- {
		if err := h.closers[i].Close(); err != nil {
			errs = append(errs, err)
		}
	}
	h.closers = nil
	return errors.Join(errs...)
}
