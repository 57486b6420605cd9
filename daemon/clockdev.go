package daemon

import (
	"fmt"
	"log/slog"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/host/v3"

	"github.com/boardd/boardd/clockbridge"
	"github.com/boardd/boardd/clockbridge/dgtpi"
	"github.com/boardd/boardd/config"
)

// openClockDevice brings up the clock hardware the configuration names.
func openClockDevice(c config.ClockConfig, log *slog.Logger) (clockbridge.Device, func(), error) {
	switch c.Kind {
	case "lever":
		if _, err := host.Init(); err != nil {
			return nil, nil, fmt.Errorf("clock: host bring-up: %w", err)
		}
		pin := gpioreg.ByName(c.LeverPin)
		if pin == nil {
			return nil, nil, fmt.Errorf("clock.lever_pin %q: no such GPIO on this machine (no /dev/gpiochip*?)", c.LeverPin)
		}
		lever, err := clockbridge.NewGPIOLever(clockbridge.GPIOLeverConfig{Lever: pin, WhiteDown: gpio.Low, Logger: log.With("part", "lever")})
		if err != nil {
			return nil, nil, fmt.Errorf("clock lever: %w", err)
		}
		return lever, func() {}, nil
	case "dgt3000":
		link, err := dgtpi.Open(dgtpi.Config{CoreMHz: c.DGTCoreMHz})
		if err != nil {
			return nil, nil, fmt.Errorf("clock: DGT3000 link (needs root, /dev/mem and a fixed core clock; see docs/clock.md): %w", err)
		}
		dev, err := clockbridge.NewDGT3000(dgtConfig(c, link, log))
		if err != nil {
			link.Close()
			return nil, nil, fmt.Errorf("clock: DGT3000: %w", err)
		}
		return dev, func() { link.Close() }, nil
	}
	return nil, nil, fmt.Errorf("clock.kind %q has no device", c.Kind)
}

// dgtConfig is the DGT3000 protocol's configuration from the clock keys.
func dgtConfig(c config.ClockConfig, t clockbridge.DGTTransport, log *slog.Logger) clockbridge.DGT3000Config {
	white := clockbridge.Left
	if c.WhiteSide == "right" {
		white = clockbridge.Right
	}
	return clockbridge.DGT3000Config{Transport: t, White: white, LeverInverted: c.DGTLeverInverted, Logger: log.With("part", "dgt3000")}
}
