package bringup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/sensorstest"
	"github.com/boardd/boardd/trace"
	"periph.io/x/conn/v3/gpio"
)

// modelSpec is a --source model:DESIGN[,FAULT] value: the reference board
// of a design (docs/hardware.md) as chip models in virtual time, so that
// every step of a bring-up can be rehearsed without hardware, faults
// included.
type modelSpec struct {
	design string
	dead   string // a unit that does not answer: an MCP23017 address, "adc", "row3"
	stuck  string // the 74HC165 data line stuck "low" or "high"
}

const modelUsage = `model:DESIGN[,dead=UNIT][,stuck=low|high]: the reference board of DESIGN (matrix, mcp23017, hc165, analog, analog-ads1115) as chip models; dead=0x21 (an MCP23017), dead=adc (the analog ADC) or dead=row3 (a matrix row) does not answer, stuck= holds the 74HC165 data line`

func parseModelSpec(s string) (modelSpec, error) {
	rest, ok := strings.CutPrefix(s, "model:")
	if !ok {
		return modelSpec{}, fmt.Errorf("--source %q: want %s", s, modelUsage)
	}
	parts := strings.Split(rest, ",")
	m := modelSpec{design: parts[0]}
	seen := map[string]bool{}
	for _, p := range parts[1:] {
		k, v, _ := strings.Cut(p, "=")
		if seen[k] {
			return m, fmt.Errorf("--source %q: %s given twice", s, k)
		}
		seen[k] = true
		switch k {
		case "dead":
			if v == "" {
				return m, fmt.Errorf("--source %q: dead= names no unit: want %s", s, modelUsage)
			}
			m.dead = v
		case "stuck":
			if v != "low" && v != "high" {
				return m, fmt.Errorf("--source %q: stuck=%q: want low or high", s, v)
			}
			m.stuck = v
		default:
			return m, fmt.Errorf("--source %q: unknown fault %q: want %s", s, p, modelUsage)
		}
	}
	return m, nil
}

// open builds the design's reference configuration and its models, with
// the faults injected.
func (m modelSpec) open() (*sensors.Config, *sensorstest.Rig, error) {
	cfg, err := sensors.DefaultConfig(m.design)
	if err != nil {
		return nil, nil, fmt.Errorf("--source model:%s: %w", m.design, err)
	}
	rig, err := sensorstest.NewRig(cfg)
	if err != nil {
		return nil, nil, err
	}
	if err := m.inject(rig); err != nil {
		return nil, nil, err
	}
	return cfg, rig, nil
}

// forever is a failure count no probe or calibration outlives.
const forever = 1 << 30

func (m modelSpec) inject(r *sensorstest.Rig) error {
	switch {
	case m.dead == "":
	case r.MCP23017 != nil:
		a, err := strconv.ParseUint(m.dead, 0, 16)
		if err != nil || a < 0x20 || a > 0x24 {
			return fmt.Errorf("--source model:%s: dead=%q: want the address of one of its chips, 0x20 to 0x24", m.design, m.dead)
		}
		r.MCP23017.Unplug(uint16(a), true)
	case r.Matrix != nil:
		n, err := strconv.Atoi(strings.TrimPrefix(m.dead, "row"))
		if err != nil || n < 0 || n > 7 {
			return fmt.Errorf("--source model:%s: dead=%q: want row0 to row7", m.design, m.dead)
		}
		r.Matrix.Line(n).Fail(forever)
	case r.MCP3008 != nil && m.dead == "adc":
		r.MCP3008.Fail(forever)
	case r.ADS1115 != nil && m.dead == "adc":
		r.ADS1115.Fail(forever)
	default:
		return fmt.Errorf("--source model:%s: dead=%q: this design has no such unit", m.design, m.dead)
	}
	if m.stuck != "" {
		if r.HC165 == nil {
			return fmt.Errorf("--source model:%s: stuck= is for the hc165 design's data line", m.design)
		}
		l := gpio.Level(m.stuck == "high")
		r.HC165.StuckMISO = &l
	}
	return nil
}

// modelOpening is what the model board plays for diag: the first moves of
// a Ruy Lopez, a move every 1.5 s.
var modelOpening = strings.Fields("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1")

// playOpening schedules modelOpening on the rig's board and returns when
// the last piece is down.
func playOpening(r *sensorstest.Rig, sensor trace.Sensor) (time.Time, error) {
	pos := chess.NewPosition()
	var moves []chess.Move
	for _, u := range modelOpening {
		mv, err := pos.ParseUCI(u)
		if err != nil {
			return time.Time{}, err
		}
		moves = append(moves, mv)
		pos.MakeMove(mv)
	}
	evs, err := sensorstest.GameEvents(chess.NewPosition(), moves, sensor, 1500, 150)
	if err != nil {
		return time.Time{}, err
	}
	start := r.Clock.Now()
	if _, err := r.Board.Play(&sensorstest.Events{List: evs}, sensorstest.PlayOptions{Start: start}); err != nil {
		return time.Time{}, err
	}
	return start.Add(time.Duration(evs[len(evs)-1].T) * time.Millisecond), nil
}

// untilSource ends a source in virtual time: io.EOF once its clock has
// passed the end (over is cancelled then).
type untilSource struct {
	*sensors.ScanSource
	over context.Context
}

func newUntilSource(src *sensors.ScanSource, clk *sensorstest.Clock, end time.Time) *untilSource {
	over, cancel := context.WithCancel(context.Background())
	clk.OnAdvance(func(now time.Time) {
		if now.After(end) {
			cancel()
		}
	})
	return &untilSource{ScanSource: src, over: over}
}

func (u *untilSource) Next(ctx context.Context, ev *sensors.Event) error {
	if u.over.Err() != nil {
		return io.EOF
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(u.over, cancel)()
	err := u.ScanSource.Next(ctx, ev)
	if errors.Is(err, context.Canceled) && u.over.Err() != nil {
		return io.EOF
	}
	return err
}

// openModelSource opens a model board as diag's frame source: it plays
// an opening and ends two seconds after.
func openModelSource(spec string) (sensors.FrameSource, error) {
	m, err := parseModelSpec(spec)
	if err != nil {
		return nil, err
	}
	cfg, rig, err := m.open()
	if err != nil {
		return nil, err
	}
	src, err := sensors.Open(cfg, rig.Hardware, sensors.SourceOptions{Clock: rig.Clock})
	if err != nil {
		return nil, err
	}
	end, err := playOpening(rig, src.Sensor())
	if err != nil {
		src.Close()
		return nil, err
	}
	return newUntilSource(src, rig.Clock, end.Add(2*time.Second)), nil
}
