package daemon

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
)

// The daemon's journal and broker.

func (d *daemon) journalDir() (string, error) {
	if d.cfg.Journal.Dir != "" {
		return d.cfg.Journal.Dir, nil
	}
	if s := d.getenv("STATE_DIRECTORY"); s != "" {
		return strings.Split(s, ":")[0], nil
	}
	if os.Geteuid() == 0 {
		return "/var/lib/boardd", nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("journal.dir is not set and there is no home directory: %w", err)
	}
	if x := d.getenv("XDG_STATE_HOME"); x != "" {
		return filepath.Join(x, "boardd"), nil
	}
	return filepath.Join(home, ".local", "state", "boardd"), nil
}

func (d *daemon) openPublisher(ctx context.Context) error {
	dir, err := d.journalDir()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("journal directory: %w", err)
	}
	var dialer publish.Dialer
	if d.cfg.MQTT.Broker == "embedded" {
		// The board logs in to its own broker with a secret made at start.
		// The arbiter's password is mqtt.arbiter_password, or a fresh one
		// that the log shows.
		pw := broker.Passwords{}
		boardSecret, err := pw.SetGenerated(d.cfg.Board.ID)
		if err != nil {
			return fmt.Errorf("embedded broker: %w", err)
		}
		arbiter := d.cfg.MQTT.ArbiterPassword
		if arbiter == "" {
			arbiter, err = pw.SetGenerated("arbiter")
		} else {
			err = pw.Set("arbiter", arbiter)
		}
		if err != nil {
			return fmt.Errorf("embedded broker: %w", err)
		}
		if d.cfg.MQTT.DirectorPassword != "" {
			// The tournament director's account, for new games from the
			// console: only when a password is chosen.
			if err := pw.Set("director", d.cfg.MQTT.DirectorPassword); err != nil {
				return fmt.Errorf("embedded broker: %w", err)
			}
		}
		acl, err := broker.ParseACL(strings.NewReader(broker.DefaultACL))
		if err != nil {
			return fmt.Errorf("embedded broker ACL: %w", err)
		}
		lst := []broker.Listener{{Kind: "tcp", Addr: d.cfg.MQTT.Listen}}
		if d.cfg.MQTT.WSListen != "" {
			lst = append(lst, broker.Listener{Kind: "ws", Addr: d.cfg.MQTT.WSListen})
		}
		b, err := broker.Start(broker.Config{Listeners: lst, Passwords: pw, ACL: acl, AllowAnonymous: true, Logger: d.log.With("part", "broker")})
		if err != nil {
			if errors.Is(err, syscall.EADDRINUSE) {
				return fmt.Errorf("embedded broker: %w (another MQTT broker on this port? choose others with --set mqtt.listen=127.0.0.1:1884 --set mqtt.ws_listen=127.0.0.1:8084, or use it with --set mqtt.broker=tcp://127.0.0.1:1883)", err)
			}
			return fmt.Errorf("embedded broker: %w", err)
		}
		d.brk = b
		d.closers = append(d.closers, func() { b.Close() })
		dialer = publish.PahoDialer{URL: b.URL(), Username: d.cfg.Board.ID, Password: boardSecret}
		d.log.Info("embedded MQTT broker", "mqtt", "tcp://"+b.Addr(0), "websocket", wsAddr(b, d.cfg.MQTT.WSListen))
		if d.cfg.MQTT.ArbiterPassword == "" {
			d.log.Info("arbiter console login", "user", "arbiter", "password", arbiter)
		} else {
			d.log.Info("arbiter console login", "user", "arbiter", "password", "mqtt.arbiter_password") // a chosen password stays out of the log
		}
	} else {
		var tlsCfg *tls.Config
		if d.cfg.MQTT.CAFile != "" || d.cfg.MQTT.CertFile != "" {
			t, err := publish.TLSConfig(d.cfg.MQTT.CAFile, d.cfg.MQTT.CertFile, d.cfg.MQTT.KeyFile)
			if err != nil {
				return fmt.Errorf("mqtt TLS: %w", err)
			}
			tlsCfg = t
		}
		user := d.cfg.MQTT.Username
		if user == "" {
			user = d.cfg.Board.ID
		}
		dialer = publish.PahoDialer{URL: d.cfg.MQTT.Broker, Username: user, Password: d.cfg.MQTT.Password, TLS: tlsCfg}
	}
	maxBackoff, _ := time.ParseDuration(d.cfg.MQTT.ReconnectMax)
	pub, err := publish.Open(publish.Config{
		Board:      d.cfg.Board.ID,
		JournalDir: dir,
		Dialer:     dialer,
		Handler:    &commandHandler{d: d, ctx: ctx},
		Status:     publish.Status{State: "starting", Firmware: "boardd " + d.version, Sensors: d.describeSensors(), Clock: d.cfg.Clock.Kind},
		BackoffMax: maxBackoff,
		Logger:     d.log.With("part", "publish"),
	})
	if err != nil {
		return fmt.Errorf("opening the journal in %s: %w", dir, err)
	}
	d.pub = pub
	d.m.gauge("boardd_publish_queue", "Journaled messages not yet acknowledged by the broker.", func() float64 { return float64(pub.Pending()) })
	d.m.gauge("boardd_broker_reconnects", "Broker connections made since start, after the first.", func() float64 {
		return float64(max(pub.Connects(), 1) - 1)
	})
	d.m.gauge("boardd_commands_dropped", "Commands dropped on arrival for coming faster than the board takes them.", func() float64 { return float64(pub.CommandsDropped()) })
	d.m.gauge("boardd_broker_connected", "1 while the broker connection is up.", func() float64 {
		if pub.Connected() {
			return 1
		}
		return 0
	})
	d.log.Info("journal", "dir", dir, "session", pub.Session())
	return nil
}

func wsAddr(b *broker.Embedded, configured string) string {
	if configured == "" {
		return "off"
	}
	return "ws://" + b.Addr(1) + "/"
}
