package config

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/boardd/boardd/sensors"
)

// piModel is the Raspberry Pi family, as far as its pins differ: the
// DGT3000 link's I2C slave is on GPIO18/19 up to the Pi 3 and on
// GPIO10/11 on the Pi 4.
type piModel uint8

const (
	piUnknown piModel = iota // not a Pi, or not known: only what holds on every model is checked
	pi1to3                   // Pi 1, 2, 3, Zero
	pi4                      // Pi 4, 400, CM4
	pi5                      // Pi 5, 500, CM5 (RP1: no DGT3000 link)
)

func (m piModel) String() string {
	switch m {
	case pi1to3:
		return "Pi 1-3"
	case pi4:
		return "Pi 4"
	case pi5:
		return "Pi 5"
	}
	return "unknown Pi model"
}

// parsePiModel reads /proc/device-tree/model's text ("Raspberry Pi 4
// Model B Rev 1.4").
func parsePiModel(model string) piModel {
	model = strings.TrimRight(model, "\x00\n ")
	if !strings.HasPrefix(model, "Raspberry Pi") {
		return piUnknown
	}
	for _, p := range []struct {
		prefix string
		m      piModel
	}{
		{"Raspberry Pi 5", pi5}, {"Raspberry Pi 500", pi5}, {"Raspberry Pi Compute Module 5", pi5},
		{"Raspberry Pi 4", pi4}, {"Raspberry Pi 400", pi4}, {"Raspberry Pi Compute Module 4", pi4},
	} {
		if strings.HasPrefix(model, p.prefix) {
			return p.m
		}
	}
	return pi1to3
}

// hostPiModel is the model of the machine boardd runs on.
func hostPiModel() piModel {
	b, err := os.ReadFile("/proc/device-tree/model")
	if err != nil {
		return piUnknown
	}
	return parsePiModel(string(b))
}

// pinUser is a key of the configuration that takes GPIO lines.
type pinUser struct {
	key  string // "clock.lever_pin", "sensors.file: mcp23017.bus"
	what string // "the DGT3000 link's I2C slave", "" when the key says it
	pins []int  // BCM GPIO numbers
}

func (u pinUser) String() string {
	if u.what == "" {
		return u.key
	}
	return u.key + " (" + u.what + ")"
}

// gpioNumber reads a GPIO name as boardd's configurations write them
// ("GPIO17", "17", "BCM17"); ok is false for names it cannot place
// (another chip's lines), which are then not checked.
func gpioNumber(name string) (int, bool) {
	s := strings.TrimPrefix(strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(name)), "GPIO"), "BCM")
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 27 {
		return 0, false
	}
	return n, true
}

// busPins returns the header GPIOs a kernel bus occupies: i2c-1 GPIO2/3,
// i2c-0 GPIO0/1, SPI0 GPIO7-11 (both chip selects: dtparam=spi=on claims
// them), SPI1 GPIO16-21.
func busPins(kind sensors.UseKind, name string) ([]int, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	switch kind {
	case sensors.UseI2C:
		n = strings.TrimPrefix(strings.TrimPrefix(n, "/dev/i2c-"), "i2c")
		switch n {
		case "1":
			return []int{2, 3}, true
		case "0":
			return []int{0, 1}, true
		}
	case sensors.UseSPI:
		n = strings.TrimPrefix(strings.TrimPrefix(n, "/dev/spidev"), "spi")
		port, _, _ := strings.Cut(n, ".")
		switch port {
		case "0":
			return []int{7, 8, 9, 10, 11}, true
		case "1":
			return []int{16, 17, 18, 19, 20, 21}, true
		}
	case sensors.UseGPIO:
		if g, ok := gpioNumber(name); ok {
			return []int{g}, true
		}
	}
	return nil, false
}

// pinUsers lists what the clock and the sensor board take. sc is nil for
// a simulated board.
func pinUsers(c ClockConfig, sc *sensors.Config, model piModel) ([]pinUser, error) {
	var users []pinUser
	switch c.Kind {
	case "lever":
		if g, ok := gpioNumber(c.LeverPin); ok {
			users = append(users, pinUser{key: "clock.lever_pin", pins: []int{g}})
		}
	case "dgt3000":
		users = append(users, pinUser{key: "clock.kind", what: "the DGT3000 link's I2C master, SDA1/SCL1", pins: []int{2, 3}})
		switch model {
		case pi1to3:
			users = append(users, pinUser{key: "clock.kind", what: "the DGT3000 link's I2C slave on a Pi 1-3", pins: []int{18, 19}})
		case pi4:
			users = append(users, pinUser{key: "clock.kind", what: "the DGT3000 link's I2C slave on a Pi 4", pins: []int{10, 11}})
		}
	}
	if sc == nil {
		return users, nil
	}
	uses, err := sc.Uses()
	if err != nil {
		return nil, err
	}
	for _, u := range uses {
		pins, ok := busPins(u.Kind, u.Name)
		if !ok {
			continue
		}
		what := ""
		if u.Kind != sensors.UseGPIO {
			what = fmt.Sprintf("%s %s", u.Kind, u.Name)
		}
		users = append(users, pinUser{key: "sensors.file: " + u.Key, what: what, pins: pins})
	}
	return users, nil
}

// checkPins finds a GPIO that two parts of the configuration take and
// names both. A Pi 5 has no DGT3000 link at all.
func checkPins(c ClockConfig, sc *sensors.Config, model piModel) error {
	if c.Kind == "dgt3000" && model == pi5 {
		return &Error{Key: "clock.kind", Msg: "dgt3000: the DGT3000 link needs a Pi 1-4 (the Pi 5's RP1 has no I2C slave)"}
	}
	users, err := pinUsers(c, sc, model)
	if err != nil {
		return &Error{Key: "sensors.file", Msg: err.Error()}
	}
	owner := map[int]int{}
	var clashes []string
	var first string
	for i, u := range users {
		for _, p := range u.pins {
			j, taken := owner[p]
			if !taken {
				owner[p] = i
				continue
			}
			if users[j].key == u.key && users[j].what == u.what {
				continue
			}
			if first == "" {
				first = u.key
				if strings.HasPrefix(users[j].key, "clock.") {
					first = users[j].key
				}
			}
			clashes = append(clashes, fmt.Sprintf("GPIO%d is taken by both %v and %v", p, users[j], u))
		}
	}
	if len(clashes) == 0 {
		return nil
	}
	sort.Strings(clashes)
	key := first
	if k, _, ok := strings.Cut(key, ": "); ok {
		key = k
	}
	msg := strings.Join(clashes, "; ")
	if model == piUnknown && c.Kind == "dgt3000" {
		msg += " (not a Pi: the DGT3000 link's slave pins were not checked)"
	}
	return &Error{Key: key, Msg: msg}
}

// checkHardware checks the pins of the clock against those of the
// sensor board the configuration names, on the Pi model boardd runs on.
func checkHardware(c *Config, model piModel) error {
	var sc *sensors.Config
	if c.Sensors.Kind == "hardware" {
		var err error
		sc, err = sensors.LoadConfigFile(c.Sensors.File, true)
		if err != nil {
			return &Error{Key: "sensors.file", Msg: err.Error()}
		}
	}
	return checkPins(c.Clock, sc, model)
}
