package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"

	sdnotify "github.com/coreos/go-systemd/v22/daemon"

	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/publish/web"
)

// The daemon's web server, health, systemd readiness and reload.

func (d *daemon) openHTTP(ctx context.Context) error {
	if d.cfg.HTTP.Listen == "" {
		return nil
	}
	mux := http.NewServeMux()
	wc := web.Config{Boards: []string{d.cfg.Board.ID}, Title: d.cfg.Game.Event, Logger: d.log.With("part", "web")}
	switch {
	case d.brk != nil && d.cfg.MQTT.WSListen != "":
		to, err := web.LocalWS(d.brk.Addr(1))
		if err != nil {
			return fmt.Errorf("web pages: %w", err)
		}
		wc.ProxyTo = to
	case d.cfg.MQTT.WSURL != "":
		wc.Broker = d.cfg.MQTT.WSURL
	}
	// Without a WebSocket route to the broker the pages could show nothing
	// live; health and metrics are served all the same.
	pages, err := web.Handler(wc)
	if err != nil {
		d.log.Warn("web pages off: set mqtt.ws_url (external broker) or mqtt.ws_listen (embedded)", "err", err)
	} else {
		mux.Handle("/", pages)
	}
	registerJournalMetrics(d.m, d.pub.Health)
	mux.Handle("/metrics", d.m)
	mux.HandleFunc("/healthz", d.health)
	ln, err := net.Listen("tcp", d.cfg.HTTP.Listen)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("http.listen: %w (choose another port with --set http.listen=127.0.0.1:8081)", err)
		}
		return fmt.Errorf("http.listen: %w", err)
	}
	d.httpAddr = ln.Addr().String()
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			d.log.Error("web server", "err", err)
		}
	}()
	d.closers = append(d.closers, func() {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	})
	if pages != nil {
		d.log.Info("demonstration board", "url", "http://"+d.httpAddr+"/")
		d.log.Info("arbiter console", "url", "http://"+d.httpAddr+"/console")
	}
	d.log.Info("health and metrics", "health", "http://"+d.httpAddr+"/healthz", "metrics", "http://"+d.httpAddr+"/metrics")
	return nil
}

// fresh reports whether the sensors are alive: the source goroutine runs
// and, for a scanner, a scan completed recently.
func (d *daemon) fresh() bool {
	if !d.srcAlive.Load() {
		return false
	}
	if ss, ok := d.src.(interface{ Fresh() bool }); ok {
		return ss.Fresh()
	}
	return true
}

func (d *daemon) health(w http.ResponseWriter, _ *http.Request) {
	writeHealth(w, d.fresh(), d.pub)
}

// notifySystemd says READY and feeds the watchdog while the sensors are
// fresh, so systemd restarts a board whose scanning has stalled.
func (d *daemon) notifySystemd(ctx context.Context) {
	if sent, err := sdnotify.SdNotify(false, sdnotify.SdNotifyReady); err != nil {
		d.log.Warn("systemd notify", "err", err)
	} else if sent {
		d.log.Info("told systemd we are ready")
	}
	interval, err := sdnotify.SdWatchdogEnabled(false)
	if err != nil || interval <= 0 {
		return
	}
	go func() {
		t := time.NewTicker(interval / 3)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if d.fresh() {
					_, _ = sdnotify.SdNotify(false, sdnotify.SdNotifyWatchdog)
				} else {
					d.log.Warn("sensors are not fresh; not feeding the watchdog")
				}
			}
		}
	}()
}

// reload applies what SIGHUP can change without a restart: the log level
// and the names of the players of the next game.
func (d *daemon) reload() {
	if d.configPath == "" {
		d.log.Info("SIGHUP: no configuration file to reload")
		return
	}
	cfg, err := config.Load(d.configPath, d.getenv, nil)
	if err != nil {
		d.log.Error("SIGHUP: configuration not reloaded", "err", err)
		return
	}
	d.level.Set(parseLevel(cfg.Log.Level))
	d.cfg.Log.Level = cfg.Log.Level
	// The game in progress takes a changed tag where it has the old value
	// from the configuration (not one a new_game command set).
	cur := d.pub.Current()
	info, changed := cur.Info, false
	for _, f := range []struct {
		game       *string
		old, value string
	}{
		{&info.White, d.cfg.Game.White, cfg.Game.White}, {&info.Black, d.cfg.Game.Black, cfg.Game.Black},
		{&info.Event, d.cfg.Game.Event, cfg.Game.Event}, {&info.Round, d.cfg.Game.Round, cfg.Game.Round},
		{&info.BoardNo, d.cfg.Game.BoardNo, cfg.Game.BoardNo},
	} {
		if f.value != f.old && *f.game == f.old {
			*f.game, changed = f.value, true
		}
	}
	d.cfg.Game.White, d.cfg.Game.Black, d.cfg.Game.Event, d.cfg.Game.Round = cfg.Game.White, cfg.Game.Black, cfg.Game.Event, cfg.Game.Round
	d.cfg.Game.BoardNo = cfg.Game.BoardNo
	changed = changed && cur.Info.ID != "" && !cur.Ended
	if changed {
		if err := d.pub.SetInfo(info); err != nil {
			d.log.Error("SIGHUP: the game's tags were not changed", "err", err)
		} else {
			d.game.info = info
		}
	}
	d.log.Info("SIGHUP: reloaded the log level, player names, event, round and board number (other keys need a restart)",
		"level", cfg.Log.Level, "game_tags_changed", changed)
}
