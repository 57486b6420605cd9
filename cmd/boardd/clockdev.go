package main

import (
	"fmt"
	"log/slog"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/host/v3"

	"github.com/boardd/boardd/clockbridge"
	"github.com/boardd/boardd/clockbridge/dgtpi"
)

// openClockDevice brings up the clock hardware the configuration names.
func openClockDevice(c ClockConfig, log *slog.Logger) (clockbridge.Device, func(), error) {
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
		link, err := dgtpi.Open(dgtpi.Config{})
		if err != nil {
			return nil, nil, fmt.Errorf("clock: DGT3000 link (needs root, /dev/mem and a fixed core clock; see docs/clock.md): %w", err)
		}
		dev, err := clockbridge.NewDGT3000(clockbridge.DGT3000Config{Transport: link, Logger: log.With("part", "dgt3000")})
		if err != nil {
			link.Close()
			return nil, nil, fmt.Errorf("clock: DGT3000: %w", err)
		}
		return dev, func() { link.Close() }, nil
	}
	return nil, nil, fmt.Errorf("clock.kind %q has no device", c.Kind)
}
