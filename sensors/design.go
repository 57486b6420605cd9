package sensors

import (
	"fmt"
	"strings"
)

// A section is the configuration section of one sensor design, and all
// that depends on the design: what its settings must be, how many inputs
// it reads and which squares its lists name, the scanner it builds and the
// GPIO lines and buses it takes. Each design has one file (design_*.go)
// with its section type implementing this, and one line in designTable.
type section interface {
	// validate checks the hardware settings (everything but the squares,
	// which calibration learns).
	validate() error
	// inputs is the number of inputs its scanner reads.
	inputs() int
	// squares calls set with each square name its lists give, the input
	// it is on and its key ("hc165.squares[2][5]").
	squares(set func(input int, key, name string) error) error
	// setSquares writes a learned wiring into its lists: name(i) is
	// input i's square, "-" for none.
	setSquares(name func(input int) string)
	// inputName names input i for people ("0x21 GPB3").
	inputName(i int) string
	// scanner builds the scanner on hw; w maps its inputs (perhaps only
	// partly, during calibration).
	scanner(hw Hardware, clk Clock, w *Wiring) (Scanner, error)
	// uses lists the GPIO lines and buses it takes.
	uses() []Use
	// checkComplete checks what a board ready to run needs beyond a square
	// on every input (the analog baselines).
	checkComplete(w *Wiring) error
	// probeChecks makes every check of the design's scanner run on every
	// scan, for boardd diag --probe.
	probeChecks()
}

// designEntry is one design: its name (Config.Design and the key of its
// section), its section in a Config (nil when absent) and its reference
// wiring as drawn in docs/hardware.md.
type designEntry struct {
	name      string
	section   func(c *Config) section
	reference func() *Config
}

// designTable lists the sensor designs, one line each.
var designTable = [...]designEntry{
	{"matrix", func(c *Config) section { return present(c.Matrix) }, matrixReference},
	{"mcp23017", func(c *Config) section { return present(c.MCP23017) }, mcp23017Reference},
	{"hc165", func(c *Config) section { return present(c.HC165) }, hc165Reference},
	{"analog", func(c *Config) section { return present(c.Analog) }, analogReference},
}

// present turns a nil section pointer into a nil section.
func present[T any, P interface {
	*T
	section
}](p P) section {
	if p == nil {
		return nil
	}
	return p
}

// Designs are the Config.Design values.
var Designs = func() []string {
	var l []string
	for _, d := range designTable {
		l = append(l, d.name)
	}
	return l
}()

func findDesign(name string) (*designEntry, bool) {
	for i := range designTable {
		if designTable[i].name == name {
			return &designTable[i], true
		}
	}
	return nil, false
}

// section returns the section of the configured design, checking that it
// and only it is present.
func (c *Config) section() (section, error) {
	d, ok := findDesign(c.Design)
	if !ok {
		return nil, cfgErr("design", "%q: want one of %s", c.Design, strings.Join(Designs, ", "))
	}
	s := d.section(c)
	if s == nil {
		return nil, cfgErr(c.Design, "missing: design %q needs its section", c.Design)
	}
	for _, o := range designTable {
		if o.name != c.Design && o.section(c) != nil {
			return nil, cfgErr(o.name, "given, but design is %q", c.Design)
		}
	}
	return s, nil
}

// UseKind is what a Use takes.
type UseKind uint8

// The kinds of Use.
const (
	UseGPIO UseKind = iota + 1 // a GPIO line, by name ("GPIO17")
	UseI2C                     // an I2C bus ("/dev/i2c-1", "1")
	UseSPI                     // an SPI port ("/dev/spidev0.0", "SPI0.0")
)

func (k UseKind) String() string {
	switch k {
	case UseGPIO:
		return "GPIO"
	case UseI2C:
		return "I2C bus"
	case UseSPI:
		return "SPI port"
	}
	return fmt.Sprintf("UseKind(%d)", uint8(k))
}

// Use is a GPIO line or a bus that a configuration takes, and the key
// that names it.
type Use struct {
	Key  string // "matrix.rows[2]", "mcp23017.bus"
	Kind UseKind
	Name string // as configured: "GPIO17", "/dev/i2c-1"
}

// Uses lists the GPIO lines and buses the configured design takes, for
// bringing up only the host drivers it needs and for checking it against
// the other users of the Pi's pins.
func (c *Config) Uses() ([]Use, error) {
	s, err := c.section()
	if err != nil {
		return nil, err
	}
	return s.uses(), nil
}

func gpioUses(key string, names []string) []Use {
	u := make([]Use, 0, len(names))
	for i, n := range names {
		u = append(u, Use{Key: fmt.Sprintf("%s[%d]", key, i), Kind: UseGPIO, Name: n})
	}
	return u
}

// grid names the inputs of groups of per inputs: groups*per names.
func grid(groups, per int, name func(int) string) [][]string {
	g := make([][]string, groups)
	for i := range g {
		g[i] = make([]string, per)
		for j := range g[i] {
			g[i][j] = name(i*per + j)
		}
	}
	return g
}

// gridSquares calls set for each name of lists of per inputs.
func gridSquares(key string, lists [][]string, per int, set func(int, string, string) error) error {
	for i, l := range lists {
		for j, name := range l {
			if err := set(i*per+j, fmt.Sprintf("%s[%d][%d]", key, i, j), name); err != nil {
				return err
			}
		}
	}
	return nil
}
