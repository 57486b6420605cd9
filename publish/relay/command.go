package relay

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/web"
)

// DefaultPort is the relay's HTTP port: not boardd run's 8080, so
// a relay starts beside a board on the same host.
const DefaultPort = "8090"

// pushFlags collects repeated --push ROUND=URL flags.
type pushFlags []PushTarget

func (p *pushFlags) String() string { return "" }
func (p *pushFlags) Set(v string) error {
	round, url, ok := strings.Cut(v, "=")
	if !ok || round == "" || url == "" {
		return fmt.Errorf("want ROUND=URL, e.g. 3=https://lichess.org/api/broadcast/round/AbCd1234/push")
	}
	*p = append(*p, PushTarget{Round: round, URL: url})
	return nil
}

// Cmd is the relay command: the venue's games as delayed live PGN, and
// pushed to broadcasts.
func Cmd(ctx context.Context, env *cli.Env, args []string) error {
	fs := flag.NewFlagSet("relay", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	broker := fs.String("broker", "tcp://localhost:1883", "venue broker URL: tcp://, ssl:// (TLS), ws:// or wss://")
	username := fs.String("username", "", "username at the broker, password from $BOARDD_MQTT_PASSWORD (default: relay when that is set, else anonymous, which reads every board under the venue ACL)")
	caFile := fs.String("ca", "", "CA certificate (PEM) of the broker's TLS certificate")
	certFile := fs.String("cert", "", "client certificate (PEM)")
	keyFile := fs.String("key", "", "client key (PEM)")
	clientID := fs.String("client-id", "boardd-relay", "MQTT client id (one per relay; the session is persistent); logged in anonymously without it, the relay adds a random suffix nobody can guess")
	boards := fs.String("boards", "", "comma-separated board ids to relay; empty: every board on the broker")
	listen := fs.String("listen", ":"+DefaultPort, "HTTP address serving /round/<round>.pgn, /board/<id>.pgn and /live/; empty: none")
	mode := fs.String("mode", "tournament", "tournament (15 minute transmission delay) or casual (none)")
	delay := fs.String("delay", "", "transmission delay, overriding --mode (e.g. 15m, 0)")
	var push pushFlags
	fs.Var(&push, "push", "push a round to a Lichess-style endpoint: ROUND=URL (repeatable); token from $BOARDD_PUSH_TOKEN or --token-file")
	tokenFile := fs.String("token-file", "", "file holding the push endpoint's OAuth token")
	verbose := fs.Bool("v", false, "log every push and connection event")
	webPages := fs.Bool("web", true, "serve the demonstration boards and a read-only console under /live/, fed by the relay itself with every message held back by the delay")
	webBroker := fs.String("web-broker", "", "with no delay only: the pages under /live/ connect browsers to this MQTT-over-WebSocket URL instead (e.g. ws://broker.venue:9001/; ws://:9001/ means the host the page came from)")
	webProxy := fs.String("web-proxy", "", "with no delay only: forward /live/mqtt to this broker WebSocket listener instead (e.g. ws://127.0.0.1:9001/), so the console can send decisions")
	title := fs.String("title", "", "heading of the pages (e.g. the event's name)")
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, `usage: boardd relay [flags]

Subscribes to every board's <b>/pgn topic on the venue broker and serves
one multi-game PGN per round (the PGN Round tag) for broadcast pollers:

  GET /round/<round>.pgn   the round's games, ordered by the Board tag
  GET /board/<id>.pgn      one board's game
  GET /live/               demonstration boards (?round=3 shows one round,
                           ?large=1 a wall display)
  GET /live/console        the arbiter console, read-only

and, with --push, posts each round's PGN to a Lichess-style push endpoint
(POST /api/broadcast/round/<id>/push) whenever it changes. Everything
that leaves the relay, the pages' feed included, is held back by the
transmission delay: 15 minutes in tournament mode, none in casual mode.
See docs/broadcast.md.

`)
		fs.PrintDefaults()
	}
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return cli.ExitError{Code: 2}
	}
	var d time.Duration
	switch {
	case *delay != "":
		var err error
		if d, err = time.ParseDuration(*delay); err != nil || d < 0 {
			fmt.Fprintf(env.Stderr, "boardd relay: --delay %q: want a duration like 15m or 0\n", *delay)
			return cli.ExitError{Code: 2}
		}
	case *mode == "tournament":
		d = TournamentDelay
	case *mode == "casual":
		d = CasualDelay
	default:
		fmt.Fprintf(env.Stderr, "boardd relay: --mode %q: want tournament or casual\n", *mode)
		return cli.ExitError{Code: 2}
	}
	if d > 0 && (*webBroker != "" || *webProxy != "") {
		// Either would hand browsers the venue broker's live topics.
		fmt.Fprintf(env.Stderr, "boardd relay: --web-broker and --web-proxy show the boards live, which the %v delay forbids; leave them out (the pages under /live/ then follow the delay) or use --mode casual\n", d)
		return cli.ExitError{Code: 2}
	}
	var ids []string
	if *boards != "" {
		for _, b := range strings.Split(*boards, ",") {
			ids = append(ids, strings.TrimSpace(b))
		}
	}
	token := env.Getenv("BOARDD_PUSH_TOKEN")
	if *tokenFile != "" {
		b, err := os.ReadFile(*tokenFile)
		if err != nil {
			return fmt.Errorf("token file: %w", err)
		}
		token = strings.TrimSpace(string(b))
	}
	password := env.Getenv("BOARDD_MQTT_PASSWORD")
	user := *username
	if user == "" && password != "" {
		user = "relay"
	}
	explicitID := false
	fs.Visit(func(f *flag.Flag) { explicitID = explicitID || f.Name == "client-id" })
	id, err := relayClientID(*clientID, user, explicitID)
	if err != nil {
		return err
	}
	*clientID = id
	dialer := publish.PahoDialer{URL: *broker, Username: user, Password: password}
	if *caFile != "" || *certFile != "" || *keyFile != "" {
		tc, err := publish.TLSConfig(*caFile, *certFile, *keyFile)
		if err != nil {
			return err
		}
		dialer.TLS = tc
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: level}))
	r, err := New(Config{Dialer: dialer, ClientID: *clientID, Boards: ids, Delay: d, Push: push, Token: token, Logger: log})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 2)
	if *listen != "" {
		ln, err := net.Listen("tcp", *listen)
		if err != nil {
			return fmt.Errorf("listen: %w", err)
		}
		handler := r.Handler()
		if *webPages || *webBroker != "" || *webProxy != "" {
			proxyTo := *webProxy
			if *webBroker == "" && *webProxy == "" {
				// The pages read a broker of the relay's own that gets
				// every viewer topic only once the delay has passed.
				vb, err := StartViewerBroker(log)
				if err != nil {
					return err
				}
				defer func() { cancel(); vb.Close() }()
				m, err := NewMirror(MirrorConfig{From: dialer, To: vb.Dialer, ClientID: *clientID + "-mirror", Boards: ids, Delay: d, Logger: log})
				if err != nil {
					return err
				}
				go m.Run(ctx)
				proxyTo = vb.WS
			}
			pages, err := web.Handler(web.Config{Broker: *webBroker, ProxyTo: proxyTo, Boards: ids, Title: *title, Logger: log})
			if err != nil {
				return fmt.Errorf("web pages: %w", err)
			}
			mux := http.NewServeMux()
			mux.Handle("/", handler)
			mux.Handle("/live/", http.StripPrefix("/live", pages))
			mux.Handle("/favicon.ico", pages)
			handler = mux
		}
		srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
		go func() {
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				errc <- err
			}
		}()
		defer srv.Close()
		fmt.Fprintf(env.Stderr, "boardd relay: serving http://%s/ (delay %v) from %s\n", ln.Addr(), d, *broker)
	}
	go func() { errc <- r.Run(ctx) }()
	select {
	case <-ctx.Done():
		return nil
	case err := <-errc:
		return err
	}
}

// relayClientID is the relay's MQTT client id: the one given, but for an
// anonymous login on the default id, which gets a random suffix: an
// anonymous login cannot reserve its id, and one nobody can guess keeps a
// spectator from taking it (docs/security.md).
func relayClientID(id, user string, explicit bool) (string, error) {
	if user != "" || explicit {
		return id, nil
	}
	return publish.UniqueClientID(id)
}
