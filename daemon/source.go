package daemon

import (
	"bytes"
	"compress/gzip"
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/host"
	"github.com/boardd/boardd/sensors/sim"
	"github.com/boardd/boardd/trace"
)

// The daemon's frame source: the simulated board or the sensor hardware.

// bundledCorpus is the simulated board's default games (corpus/README.md).
//
//go:embed corpus/rapid.pgn.gz
var bundledCorpus []byte

func (d *daemon) openSource() error {
	switch d.cfg.Sensors.Kind {
	case "simulated":
		return d.openSimulated()
	case "hardware":
		cfg, err := sensors.LoadConfigFile(d.cfg.Sensors.File, true)
		if err != nil {
			return fmt.Errorf("sensors.file: %w", err)
		}
		hw, err := host.Init(cfg)
		if err != nil {
			return fmt.Errorf("%w (set sensors.kind = \"simulated\" to run without a board)", err)
		}
		src, err := sensors.Open(cfg, hw, sensors.SourceOptions{Logger: d.log.With("part", "sensors")})
		if err != nil {
			hw.Close()
			return fmt.Errorf("%s: %w", d.cfg.Sensors.File, err)
		}
		d.src = src
		d.closers = append(d.closers, func() { src.Close(); hw.Close() })
		d.m.gauge("boardd_scan_rate", "Scans per second of the sensor board.", func() float64 { return src.Stats().ScanRate })
		d.m.gauge("boardd_sensor_bus_errors", "Bus errors of the sensor board since start.", func() float64 { return float64(src.Stats().BusErrors) })
		return nil
	}
	return fmt.Errorf("sensors.kind %q", d.cfg.Sensors.Kind)
}

// bundledTimeControl is the control the bundled corpus was played at
// (corpus/README.md): 15 minutes and 10 seconds a move.
const bundledTimeControl = "15m+10s"

func (d *daemon) openSimulated() error {
	if d.cfg.Simulation.PGN == "" && d.cfg.Game.TimeControl == config.Default().Game.TimeControl {
		// The demo's clock is the corpus games' own, unless the
		// configuration chose another.
		d.cfg.Game.TimeControl = bundledTimeControl
	}
	var data []byte
	if d.cfg.Simulation.PGN != "" {
		b, err := os.ReadFile(d.cfg.Simulation.PGN)
		if err != nil {
			return fmt.Errorf("simulation.pgn: %w", err)
		}
		data = b
	} else {
		zr, err := gzip.NewReader(bytes.NewReader(bundledCorpus))
		if err != nil {
			return fmt.Errorf("bundled corpus: %w", err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return fmt.Errorf("bundled corpus: %w", err)
		}
	}
	pgs, err := chess.ReadAllPGN(bytes.NewReader(data))
	if len(pgs) == 0 {
		return fmt.Errorf("simulation: no games to play: %v", err)
	}
	if err != nil {
		d.log.Warn("simulation: some games do not read and are skipped", "err", err)
	}
	games := make([]sim.Game, len(pgs))
	infos := make([]simGameInfo, len(pgs))
	for i, g := range pgs {
		games[i] = sim.FromPGN(g)
		infos[i] = simGameInfo{g.Tag("White"), g.Tag("Black"), g.Tag("Event"), g.Tag("Round"), g.Tag("Site"), g.Tag("Date"), games[i]}
	}
	sensor, err := trace.ParseSensor(d.cfg.Sensors.Simulated)
	if err != nil {
		return fmt.Errorf("sensors.simulated_sensor: %w", err)
	}
	seed := uint64(d.cfg.Simulation.Seed)
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	clockMode := sim.ClockMode(0)
	if d.cfg.Clock.Kind == "none" {
		clockMode = sim.ClockNever
	}
	lp, err := sim.NewLoop(sim.Cycle(games), sim.Options{Sensor: sensor, Seed: seed, Irregular: d.cfg.Simulation.Irregular, Clock: clockMode})
	if err != nil {
		return fmt.Errorf("simulation: %w", err)
	}
	d.speed = d.cfg.Simulation.Speed
	src, err := sensors.NewReplayer(lp.Events(), sensor, sensors.ReplayOptions{Pace: true, Inputs: true, Speed: d.speed, Start: d.epoch})
	if err != nil {
		return fmt.Errorf("simulation: %w", err)
	}
	d.src, d.simLoop, d.simGames = src, lp, infos
	d.pressesFromSource = true
	d.closers = append(d.closers, func() { src.Close() })
	return nil
}

func (d *daemon) describeSensors() string {
	if d.cfg.Sensors.Kind == "simulated" {
		return "simulated " + d.cfg.Sensors.Simulated
	}
	return "hardware (" + d.cfg.Sensors.File + ")"
}

func (d *daemon) readSource(ctx context.Context, out chan<- sensors.Event, done chan<- error) {
	d.srcAlive.Store(true)
	defer d.srcAlive.Store(false)
	var ev sensors.Event
	for {
		if err := d.src.Next(ctx, &ev); err != nil {
			select {
			case done <- err:
			default:
			}
			return
		}
		d.lastFrame.Store(time.Now().UnixNano())
		select {
		case out <- ev:
		case <-ctx.Done():
			return
		}
	}
}

func (d *daemon) handleSource(ctx context.Context, ev *sensors.Event) {
	switch ev.Kind {
	case sensors.FrameEvent:
		d.frames.Add(1)
		d.frameRate.add(time.Now())
		te := trace.Event{T: d.boardTime(ev.T), Kind: trace.Frame, Occ: ev.Frame.Occ}
		switch ev.Frame.Sensor {
		case trace.Colour:
			te.White, te.HasColour = ev.Frame.White, true
		case trace.PieceSensor:
			te.White, te.HasColour = ev.Frame.White, true
			te.Placement, te.HasPieces = ev.Frame.Placement, true
		}
		d.outs = d.sess.Feed(&te, d.outs[:0])
		d.emit()
	case sensors.FaultEvent:
		d.faults.Add(1)
		d.log.Warn("sensor fault", "fault", fmt.Sprintf("%+v", ev.Fault))
	case sensors.InputEvent:
		te := ev.Input
		te.T = d.boardTime(ev.T)
		if ev.Input.Kind == trace.Press && d.clock != nil {
			if err := d.clock.Press(te.Side); err != nil {
				d.log.Debug("clock press not applied", "side", te.Side, "err", err)
			}
		}
		if te.Kind == trace.Press || te.Kind == trace.Promote {
			d.outs = d.sess.Feed(&te, d.outs[:0])
			d.emit()
		}
	}
}
