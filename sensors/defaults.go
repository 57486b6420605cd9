package sensors

import (
	"fmt"
	"strings"

	"github.com/boardd/boardd/chess"
)

// DefaultConfig returns the reference wiring of a design, as drawn in
// docs/hardware.md: the pins and buses, and the squares in a1, b1, ...,
// h8 order. design is "matrix", "mcp23017", "hc165", "analog" (an
// MCP3008), or "analog-ads1115". An analog board still needs its
// baselines, from boardd calibrate.
func DefaultConfig(design string) (*Config, error) {
	if design == "analog-ads1115" {
		return analogADS1115Reference(), nil
	}
	d, ok := findDesign(design)
	if !ok {
		return nil, fmt.Errorf("design %q: want one of %s or analog-ads1115", design, strings.Join(Designs, ", "))
	}
	return d.reference(), nil
}

// squareNames lists n names of squares in a1, b1, ..., h8 order, "-" at
// every skipEvery-th place (a pin left free) and after h8.
func squareNames(n, skipEvery int) []string {
	var l []string
	k := 0
	for i := 0; len(l) < n; i++ {
		if skipEvery > 0 && i%skipEvery == skipEvery-1 || k >= 64 {
			l = append(l, "-")
			continue
		}
		l = append(l, chess.Square(k).String())
		k++
	}
	return l
}

// groupNames cuts l into lists of per names.
func groupNames(l []string, per int) [][]string {
	var g [][]string
	for i := 0; i < len(l); i += per {
		g = append(g, l[i:i+per])
	}
	return g
}
