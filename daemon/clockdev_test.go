package daemon

import (
	"io"
	"log/slog"
	"testing"

	"github.com/boardd/boardd/clockbridge"
	"github.com/boardd/boardd/config"
)

// The DGT settings reach the device's configuration.
func TestDGTConfigFromClockKeys(t *testing.T) {
	c := config.Default().Clock
	c.Kind, c.WhiteSide, c.DGTLeverInverted = "dgt3000", "right", true
	dc := dgtConfig(c, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if dc.White != clockbridge.Right || !dc.LeverInverted {
		t.Errorf("white %v, inverted %v", dc.White, dc.LeverInverted)
	}
}
