package bringup

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/sensors/host"
	"github.com/boardd/boardd/sensors/sensorstest"
	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// probeTarget is what diag --probe and calibrate scan: a configuration,
// the hardware its names open, and the clock of the scans.
type probeTarget struct {
	cfg   *sensors.Config
	hw    sensors.Hardware
	clk   sensors.Clock // nil: the wall clock
	close func()
	rig   bool // chip models in virtual time
}

// openTarget opens --source model:... or the --config file's hardware.
// hardwareOnly loads a configuration whose squares may be missing.
func openTarget(f sourceFlags, hardwareOnly bool) (*probeTarget, error) {
	if strings.HasPrefix(*f.source, "model:") {
		m, err := parseModelSpec(*f.source)
		if err != nil {
			return nil, err
		}
		cfg, rig, err := m.open()
		if err != nil {
			return nil, err
		}
		return &probeTarget{cfg: cfg, hw: rig.Hardware, clk: rig.Clock, close: func() {}, rig: true}, nil
	}
	if *f.source != "hw" {
		return nil, fmt.Errorf(`--source %q: want "hw" (with --config) or "model:DESIGN"`, *f.source)
	}
	if *f.config == "" {
		return nil, fmt.Errorf("--config FILE is needed to read the board's sensors (or --source model:DESIGN to rehearse on chip models)")
	}
	cfg, err := sensors.LoadConfigFile(*f.config, hardwareOnly)
	if err != nil {
		return nil, err
	}
	hw, err := host.Init(cfg)
	if err != nil {
		return nil, err
	}
	return &probeTarget{cfg: cfg, hw: hw, close: func() { hw.Close() }}, nil
}

// probe checks that every part of the board answers and keeps its
// configuration, and prints what the inputs read and the scan rate. It
// returns cli.ExitError{Code: 1} when something is wrong.
func probe(w io.Writer, t *probeTarget, scans int, recordTo string) error {
	if err := t.cfg.SetProbeChecks(); err != nil {
		return err
	}
	hw := t.hw
	var rec *recorder
	if recordTo != "" {
		rec = &recorder{hw: hw, i2c: map[string]*i2ctest.Record{}, spi: map[string]*conntest.Record{}}
		hw = rec
	}
	sc, wiring, err := t.cfg.NewScanner(hw, t.clk)
	if err != nil {
		return err
	}
	defer sc.Close()
	rep, err := sensors.Probe(sc, sensors.ProbeOptions{Clock: t.clk, Scans: scans, InputName: t.cfg.InputName})
	if err != nil {
		return err
	}
	rate := fmt.Sprintf("%.0f scans/s back to back", rep.Rate())
	if rep.Elapsed <= 0 {
		rate = "bus time not modelled"
	}
	fmt.Fprintf(w, "probe of the %s board: %d scans in %v (%s), %d bus errors\n",
		t.cfg.Design, rep.Scans, rep.Elapsed, rate, rep.BusErrors)
	for _, u := range rep.Units {
		state := "ok"
		switch {
		case u.Failed == rep.Scans:
			state = fmt.Sprintf("NO ANSWER: %v", u.Err)
		case u.Failed > 0:
			state = fmt.Sprintf("failed in %d scans: %v", u.Failed, u.Err)
		case u.Reset > 0:
			state = fmt.Sprintf("lost its configuration %d times", u.Reset)
		}
		fmt.Fprintf(w, "  %-24s %s\n", u.Name, state)
	}
	occ := rep.Occupied.List()
	names := make([]string, 0, len(occ))
	var board chess.Bitboard
	for _, i := range occ {
		n := t.cfg.InputName(i)
		if sq := wiring.Square(i); sq != chess.NoSquare {
			n += " (" + sq.String() + ")"
			board |= sq.Bitboard()
		}
		names = append(names, n)
	}
	fmt.Fprintf(w, "inputs reading a piece: %d", len(occ))
	if len(names) > 0 {
		fmt.Fprintf(w, ": %s", strings.Join(names, ", "))
	}
	fmt.Fprintln(w)
	if wiring.Covered() != 0 {
		fmt.Fprint(w, sensors.Picture(&sensors.Frame{Occ: board}, 0))
	}
	if rec != nil {
		if err := rec.save(recordTo); err != nil {
			return err
		}
		fmt.Fprintf(w, "bus transcripts written to %s\n", recordTo)
	}
	if rep.OK() {
		fmt.Fprintln(w, "probe: OK")
		return nil
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(w, "problem: %s\n", p)
	}
	return cli.ExitError{Code: 1}
}

// recorder wraps a Hardware and records every I2C and SPI transaction
// (periph's i2ctest.Record and conntest.Record), so that a real board's
// bring-up can be replayed with i2ctest.Playback and spitest.Playback.
type recorder struct {
	hw  sensors.Hardware
	mu  sync.Mutex
	i2c map[string]*i2ctest.Record
	spi map[string]*conntest.Record
}

func (r *recorder) Pin(name string) (gpio.PinIO, error) { return r.hw.Pin(name) }

func (r *recorder) LineSet(names []string, output bool, pull gpio.Pull) (gpio.Group, error) {
	return r.hw.LineSet(names, output, pull)
}

func (r *recorder) I2C(name string) (i2c.Bus, error) {
	b, err := r.hw.I2C(name)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	rec := &i2ctest.Record{Bus: b}
	r.i2c[name] = rec
	return rec, nil
}

func (r *recorder) SPI(name string, f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	c, err := r.hw.SPI(name, f, mode, bits)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	rec := &conntest.Record{Conn: c}
	r.spi[name] = rec
	return recordedConn{rec, c}, nil
}

// recordedConn is an spi.Conn whose transfers are recorded.
type recordedConn struct {
	rec *conntest.Record
	spi.Conn
}

func (c recordedConn) Tx(w, r []byte) error { return c.rec.Tx(w, r) }
func (c recordedConn) Duplex() conn.Duplex  { return c.Conn.Duplex() }
func (c recordedConn) String() string       { return c.Conn.String() }
func (c recordedConn) TxPackets([]spi.Packet) error {
	return errors.New("recording: TxPackets is not recorded")
}

func (r *recorder) save(path string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var t sensorstest.Transcript
	for _, name := range sortedNames(r.i2c) {
		t.AddI2C(name, r.i2c[name].Ops)
	}
	for _, name := range sortedNames(r.spi) {
		t.AddSPI(name, r.spi[name].Ops)
	}
	b, err := json.MarshalIndent(&t, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing the bus transcripts: %w", err)
	}
	return nil
}

func sortedNames[V any](m map[string]V) []string {
	l := make([]string, 0, len(m))
	for k := range m {
		l = append(l, k)
	}
	sort.Strings(l)
	return l
}
