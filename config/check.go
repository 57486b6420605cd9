package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/rules"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/session"
)

// The checks that `run` would otherwise meet only when it opens what the
// configuration names: time controls, start positions, addresses, files
// and numbers. Validate runs them, so `run --check-config` says no to
// every configuration `run` would refuse, and nothing is replaced by a
// default without a word.

// checkRunnable runs every check of this file; the error names the key.
func (c *Config) checkRunnable() error {
	for _, check := range []func() error{c.checkNumbers, c.checkGame, c.checkAddresses, c.checkFiles} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

func badKey(key, format string, args ...any) error {
	return &Error{Key: key, Msg: fmt.Sprintf(format, args...)}
}

// checkNumbers refuses what a comparison lets through: NaN is neither
// more nor less than anything, and infinities.
func (c *Config) checkNumbers() error {
	if s := c.Simulation.Speed; math.IsNaN(s) || math.IsInf(s, 0) || s <= 0 || s > 1000 {
		return badKey("simulation.speed", "%g: want a number more than 0 and at most 1000", s)
	}
	return nil
}

// checkGame parses the time control, the start position and the tags as
// the daemon does and looks up the Laws it would judge by.
func (c *Config) checkGame() error {
	var tc rules.TimeControl
	if c.Game.TimeControl != "" {
		var err error
		if tc, err = rules.ParseTimeControl(c.Game.TimeControl); err != nil {
			return badKey("game.time_control", "%q: %v", c.Game.TimeControl, err)
		}
	}
	switch c.Clock.Kind {
	case "lever", "dgt3000":
		if !tc.Timed() {
			return badKey("game.time_control", "%q: a %s clock needs a time control, e.g. 90m+30s", c.Game.TimeControl, c.Clock.Kind)
		}
	case "software":
		if c.Game.TimeControl != "" && !tc.Timed() {
			return badKey("game.time_control", "%q: the software clock needs a timed control, or none (empty)", c.Game.TimeControl)
		}
	}
	if _, err := ParseStart(c.Game.Start); err != nil {
		return badKey("game.start", "%v", err)
	}
	for _, t := range []struct{ key, v string }{{"game.white", c.Game.White}, {"game.black", c.Game.Black}, {"game.event", c.Game.Event}, {"game.round", c.Game.Round}} {
		if err := publish.ValidTag("the value", t.v); err != nil {
			return badKey(t.key, "%v", err)
		}
	}
	// The Laws the daemon would judge by, from the same call: a clock
	// of kind none keeps no time control.
	judged := tc
	if c.Clock.Kind == "none" {
		judged = rules.TimeControl{}
	}
	if _, err := session.SettingFor(c.Game.Edition, c.Game.Type, !c.Game.Unsupervised, judged); err != nil {
		return badKey("game.type", "%v", err)
	}
	return nil
}

// hostPattern is a host name as a listener or a URL may give it.
var hostPattern = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$`)

// checkListen checks a host:port to listen on: host empty (every
// address), an IP or a name; port 0 (any free one) to 65535.
func checkListen(key, addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return badKey(key, "%q: want host:port, e.g. 127.0.0.1:8080 or :8080 (%v)", addr, err)
	}
	if err := checkPort(port); err != nil {
		return badKey(key, "%q: %v", addr, err)
	}
	if host != "" && net.ParseIP(host) == nil && !hostPattern.MatchString(host) {
		return badKey(key, "%q: host %q is neither an IP address nor a host name", addr, host)
	}
	return nil
}

func checkPort(port string) error {
	n, err := strconv.Atoi(port)
	if err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("port %q: want 0 to 65535", port)
	}
	return nil
}

// checkURL checks a broker URL's host and port; the scheme is the
// caller's.
func checkURL(key, s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return badKey(key, "%q: %v", s, err)
	}
	if p := u.Port(); p != "" {
		if err := checkPort(p); err != nil {
			return badKey(key, "%q: %v", s, err)
		}
	}
	if h := u.Hostname(); h != "" && net.ParseIP(h) == nil && !hostPattern.MatchString(h) {
		return badKey(key, "%q: host %q is neither an IP address nor a host name", s, h)
	}
	return nil
}

// checkAddresses checks every address the daemon listens on or dials.
func (c *Config) checkAddresses() error {
	if c.MQTT.Broker == "embedded" {
		if err := checkListen("mqtt.listen", c.MQTT.Listen); err != nil {
			return err
		}
		if c.MQTT.WSListen != "" {
			if err := checkListen("mqtt.ws_listen", c.MQTT.WSListen); err != nil {
				return err
			}
		}
	} else if err := checkURL("mqtt.broker", c.MQTT.Broker); err != nil {
		return err
	}
	if c.MQTT.WSURL != "" {
		u, err := url.Parse(c.MQTT.WSURL)
		if err != nil || u.Scheme != "ws" && u.Scheme != "wss" {
			return badKey("mqtt.ws_url", "%q: want a ws:// or wss:// URL", c.MQTT.WSURL)
		}
		if err := checkURL("mqtt.ws_url", c.MQTT.WSURL); err != nil {
			return err
		}
	}
	if c.HTTP.Listen != "" {
		if err := checkListen("http.listen", c.HTTP.Listen); err != nil {
			return err
		}
	}
	// Two listeners cannot share a port (port 0 picks a free one each).
	var ls [][2]string
	if c.MQTT.Broker == "embedded" {
		ls = append(ls, [2]string{"mqtt.listen", c.MQTT.Listen}, [2]string{"mqtt.ws_listen", c.MQTT.WSListen})
	}
	ls = append(ls, [2]string{"http.listen", c.HTTP.Listen})
	seen := map[string]string{}
	for _, l := range ls {
		_, port, err := net.SplitHostPort(l[1])
		if l[1] == "" || err != nil || port == "0" {
			continue
		}
		if other, ok := seen[port]; ok {
			return badKey(l[0], "%q: port %s is also %s's", l[1], port, other)
		}
		seen[port] = l[0]
	}
	return nil
}

// checkFiles reads the files the configuration names as the daemon
// would, and checks that the journal's directory can be one.
func (c *Config) checkFiles() error {
	if c.Sensors.Kind == "hardware" {
		if _, err := sensors.LoadConfigFile(c.Sensors.File, true); err != nil {
			return badKey("sensors.file", "%v", err)
		}
	}
	if c.Sensors.Kind == "simulated" && c.Simulation.PGN != "" {
		data, err := os.ReadFile(c.Simulation.PGN)
		if err != nil {
			return badKey("simulation.pgn", "%v", err)
		}
		if games, err := chess.ReadAllPGN(bytes.NewReader(data)); len(games) == 0 {
			return badKey("simulation.pgn", "%s: no games to play: %v", c.Simulation.PGN, err)
		}
	}
	if c.MQTT.Broker != "embedded" && (c.MQTT.CAFile != "" || c.MQTT.CertFile != "") {
		if _, err := publish.TLSConfig(c.MQTT.CAFile, c.MQTT.CertFile, c.MQTT.KeyFile); err != nil {
			key := "mqtt.cert_file"
			if c.MQTT.CAFile != "" && strings.Contains(err.Error(), "CA") {
				key = "mqtt.ca_file"
			}
			return badKey(key, "%v", err)
		}
	}
	if c.Journal.Dir != "" {
		if err := checkDirectory(c.Journal.Dir); err != nil {
			return badKey("journal.dir", "%v", err)
		}
	}
	return nil
}

// checkDirectory reports why dir cannot be a directory: it is something
// else, or the nearest part of its path that exists is not a directory or
// cannot hold one (a directory made there and removed at once tells; /proc
// and read-only file systems cannot).
func checkDirectory(dir string) error {
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		switch {
		case err == nil && fi.IsDir() && p == filepath.Clean(dir):
			return nil
		case err == nil && fi.IsDir():
			probe, err := os.MkdirTemp(p, ".boardd-check-")
			if err != nil {
				return fmt.Errorf("%s: cannot be made in %s: %w", dir, p, errors.Unwrap(err))
			}
			_ = os.Remove(probe)
			return nil
		case err == nil && p == filepath.Clean(dir):
			return fmt.Errorf("%s: exists and is not a directory", dir)
		case err == nil:
			return fmt.Errorf("%s: %s is not a directory", dir, p)
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return fmt.Errorf("%s: %w", dir, err)
		}
		if parent := filepath.Dir(p); parent == p {
			return nil
		}
	}
}
