// Package web serves boardd's browser pages from the binary: the
// demonstration board (one board or a round's grid, with a large mode for
// a wall display) at /, and the arbiter console at /console. Both pages
// subscribe to the boards' topics (docs/mqtt.md) over MQTT over WebSocket
// themselves; the server only hands out the files and /config.json, which
// tells the pages where the broker is and which boards to show. It can
// also forward /mqtt to the broker's WebSocket listener, so a browser
// needs nothing but this server's address.
//
// The front-end sources are in web/ at the top of the repository; their
// build output is committed in dist/ so go build needs no npm.
package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/boardd/boardd/internal/ratelimit"
	"github.com/boardd/boardd/publish"
)

//go:embed dist
var distFS embed.FS

// Config configures the pages.
type Config struct {
	// Broker is the MQTT-over-WebSocket URL the pages connect to, e.g.
	// ws://broker.venue:8083/mqtt or wss://... . The host may be left out
	// (ws://:8083/) to mean the host the page was loaded from, so one
	// setting serves every address the board answers on. Empty: /mqtt on
	// this server, which needs ProxyTo.
	Broker string
	// ProxyTo is the broker's WebSocket listener (ws://127.0.0.1:8083/)
	// to which /mqtt is forwarded. Browsers then reach the broker through
	// this server: one port, same origin, and the broker's own listener
	// can stay on loopback.
	ProxyTo string
	// TopicPrefix is the root of the board topics (default
	// chess/v1/board, publish.TopicPrefix without its slash).
	TopicPrefix string
	// Boards are the board ids the pages show, in this order; empty: every
	// board that publishes a state.
	Boards []string
	// Title heads the pages (e.g. the event's name); empty: none.
	Title string
	// ProxyRate and ProxyBurst limit the WebSocket connections to /mqtt
	// per browser address (default 1 a second after 30 at once). Each
	// connection carries one MQTT login, so this is also the limit on the
	// passwords a browser can try through the console; the broker sees
	// every browser behind the proxy as this host.
	ProxyRate, ProxyBurst float64
	Logger                *slog.Logger
}

// clientConfig is /config.json.
type clientConfig struct {
	Broker      string   `json:"broker"`
	TopicPrefix string   `json:"topic_prefix"`
	Boards      []string `json:"boards"`
	Title       string   `json:"title,omitempty"`
}

type asset struct {
	body  []byte
	gz    []byte // nil when compression does not pay
	etag  string
	ctype string
}

type handler struct {
	cfg    Config
	log    *slog.Logger
	assets map[string]*asset // by URL path
	config []byte
	proxy  *httputil.ReverseProxy
	limit  *ratelimit.Limiter // /mqtt connections by browser address
}

// Handler returns the pages' handler. Mount it at the root of a server or
// under a prefix with http.StripPrefix: the pages use relative URLs. Routes:
//
//	GET /             demonstration board(s)
//	GET /console      arbiter console
//	GET /config.json  broker URL, topic prefix, boards, title
//	GET /assets/...   scripts, styles, piece images, LICENSES.txt
//	    /mqtt         WebSocket forwarded to ProxyTo (when set)
func Handler(cfg Config) (http.Handler, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	h := &handler{cfg: cfg, log: cfg.Logger, assets: map[string]*asset{}}
	prefix := strings.TrimSuffix(cfg.TopicPrefix, "/")
	if prefix == "" {
		prefix = strings.TrimSuffix(publish.TopicPrefix, "/")
	}
	if strings.ContainsAny(prefix, "+#") || strings.HasPrefix(prefix, "/") {
		return nil, fmt.Errorf("web: topic prefix %q: no wildcards and no leading slash", cfg.TopicPrefix)
	}
	boards := []string{}
	seen := map[string]bool{}
	for _, b := range cfg.Boards {
		if err := publish.ValidBoardID(b); err != nil {
			return nil, fmt.Errorf("web: boards: %w", err)
		}
		if !seen[b] {
			seen[b] = true
			boards = append(boards, b)
		}
	}
	broker, err := browserBrokerURL(cfg.Broker)
	if err != nil {
		return nil, err
	}
	if cfg.ProxyTo != "" {
		if h.proxy, err = newProxy(cfg.ProxyTo, h.log); err != nil {
			return nil, err
		}
		if h.cfg.ProxyRate <= 0 {
			h.cfg.ProxyRate = 1
		}
		if h.cfg.ProxyBurst <= 0 {
			h.cfg.ProxyBurst = 30
		}
		h.limit = ratelimit.New(h.cfg.ProxyRate, h.cfg.ProxyBurst, 4096, nil)
	} else if broker == "" {
		return nil, errors.New("web: no broker: set Broker (the WebSocket URL browsers use) or ProxyTo (the broker's WebSocket listener, forwarded at /mqtt)")
	}
	h.config, err = json.Marshal(clientConfig{Broker: broker, TopicPrefix: prefix, Boards: boards, Title: cfg.Title})
	if err != nil {
		return nil, fmt.Errorf("web: config: %w", err)
	}
	if err := h.load(); err != nil {
		return nil, err
	}
	return h, nil
}

// browserBrokerURL checks Broker and turns a missing host into the
// {host} placeholder the pages fill in with their own host.
func browserBrokerURL(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("web: broker %q: %v", s, err)
	}
	if u.Scheme != "ws" && u.Scheme != "wss" {
		return "", fmt.Errorf("web: broker %q: want a ws:// or wss:// URL (browsers speak MQTT only over WebSocket)", s)
	}
	if u.Hostname() == "" {
		if u.Port() == "" {
			return "", fmt.Errorf("web: broker %q: no host and no port", s)
		}
		u.Host = "{host}:" + u.Port()
	}
	if u.Path == "" {
		u.Path = "/"
	}
	// url.URL would escape the braces.
	return strings.Replace(u.String(), "%7Bhost%7D", "{host}", 1), nil
}

// LocalWS turns a WebSocket listener address as configured ("127.0.0.1:8083",
// ":8083", "0.0.0.0:8083", "[::]:8083") into the URL this host reaches it
// at, for Config.ProxyTo.
func LocalWS(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("web: WebSocket listener %q: %v", addr, err)
	}
	if port == "" || port == "0" {
		return "", fmt.Errorf("web: WebSocket listener %q: no port", addr)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return "ws://" + net.JoinHostPort(host, port) + "/", nil
}

func newProxy(target string, log *slog.Logger) (*httputil.ReverseProxy, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, fmt.Errorf("web: proxy target %q: %v", target, err)
	}
	switch u.Scheme {
	case "ws":
		u.Scheme = "http"
	case "wss":
		u.Scheme = "https"
	default:
		return nil, fmt.Errorf("web: proxy target %q: want ws://host:port/path or wss://", target)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("web: proxy target %q: no host", target)
	}
	if u.Path == "" {
		u.Path = "/"
	}
	return &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.Out.URL.Scheme = u.Scheme
			r.Out.URL.Host = u.Host
			r.Out.URL.Path = u.Path
			r.Out.URL.RawPath = ""
			r.Out.URL.RawQuery = u.RawQuery
			r.Out.Host = u.Host
			r.SetXForwarded()
		},
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			log.Warn("web: broker WebSocket unreachable", "target", target, "err", err)
			http.Error(w, "broker unreachable", http.StatusBadGateway)
		},
	}, nil
}

// load reads the embedded files once: their ETags and gzip forms are
// computed here rather than per request.
func (h *handler) load() error {
	sub, err := fs.Sub(distFS, "dist")
	if err != nil {
		return fmt.Errorf("web: %w", err)
	}
	err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		a := &asset{body: b, etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`}
		a.ctype = mime.TypeByExtension(path.Ext(p))
		switch path.Ext(p) {
		case ".js":
			a.ctype = "text/javascript; charset=utf-8"
		case ".txt":
			a.ctype = "text/plain; charset=utf-8"
		}
		if a.ctype == "" {
			a.ctype = "application/octet-stream"
		}
		if len(b) > 512 && !strings.HasPrefix(a.ctype, "image/png") {
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			zw.Write(b)
			zw.Close()
			if buf.Len() < len(b)*9/10 {
				a.gz = buf.Bytes()
			}
		}
		h.assets["/"+p] = a
		return nil
	})
	if err != nil {
		return fmt.Errorf("web: embedded files: %w", err)
	}
	for _, p := range []string{"/index.html", "/console.html"} {
		if h.assets[p] == nil {
			return fmt.Errorf("web: embedded files: %s missing (run the build in web/)", p)
		}
	}
	h.assets["/"] = h.assets["/index.html"]
	h.assets["/console"] = h.assets["/console.html"]
	// Browsers ask for /favicon.ico whatever the pages link; an SVG under
	// that name is shown all the same, and the request is no 404.
	if a := h.assets["/assets/favicon.svg"]; a != nil {
		h.assets["/favicon.ico"] = a
	}
	return nil
}

// A fixed time for ServeContent: the ETag does the revalidation.
var modTime = time.Unix(0, 0)

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if p == "" {
		p = "/"
	}
	if p == "/mqtt" {
		if h.proxy == nil {
			http.NotFound(w, r)
			return
		}
		h.serveMQTT(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	hd := w.Header()
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	if p == "/config.json" {
		hd.Set("Content-Type", "application/json")
		hd.Set("Cache-Control", "no-store")
		w.Write(h.config)
		return
	}
	a := h.assets[p]
	if a == nil {
		http.NotFound(w, r)
		return
	}
	if strings.HasPrefix(a.ctype, "text/html") {
		// The pages load only their own scripts and styles and talk only
		// to the broker; inline styles are cm-chessboard's. mqtt.js runs
		// its keep-alive timer in a worker made from a blob (timers in a
		// background tab are throttled, workers' are not).
		hd.Set("Content-Security-Policy", "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:; frame-ancestors 'self'")
	}
	// Files keep their names across versions: browsers revalidate by ETag
	// (a 304 when nothing changed) rather than cache blindly.
	hd.Set("Cache-Control", "no-cache")
	hd.Set("Content-Type", a.ctype)
	hd.Add("Vary", "Accept-Encoding")
	body, etag := a.body, a.etag
	if a.gz != nil && acceptsGzip(r) {
		body, etag = a.gz, strings.TrimSuffix(a.etag, `"`)+`-gz"`
		hd.Set("Content-Encoding", "gzip")
	}
	hd.Set("ETag", etag)
	http.ServeContent(w, r, "", modTime, bytes.NewReader(body))
}

// serveMQTT forwards a browser's MQTT WebSocket to the broker: only a
// WebSocket upgrade, only from a page of this server (another site's page
// must not use a visitor's browser to reach the broker or try passwords
// from inside the hall's network), and at most ProxyRate a second per
// address.
func (h *handler) serveMQTT(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || !headerHas(r.Header, "Connection", "upgrade") || !headerHas(r.Header, "Upgrade", "websocket") {
		http.Error(w, "/mqtt takes MQTT over WebSocket only", http.StatusBadRequest)
		return
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || !sameHost(u.Host, r) {
			h.log.Warn("web: MQTT WebSocket from another site's page refused", "origin", o, "host", r.Host, "remote", r.RemoteAddr)
			http.Error(w, "cross-origin WebSocket refused", http.StatusForbidden)
			return
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if !h.limit.Allow(host) {
		w.Header().Set("Retry-After", strconv.Itoa(int(1/h.cfg.ProxyRate+1)))
		http.Error(w, "too many connections from this address; retry later", http.StatusTooManyRequests)
		return
	}
	// The broker needs none of the browser's cookies or credentials.
	r.Header.Del("Cookie")
	r.Header.Del("Authorization")
	h.proxy.ServeHTTP(w, r)
}

// sameHost reports whether host is the one the browser addressed: the
// request's Host, or the X-Forwarded-Host of a reverse proxy in front (a
// page cannot set headers on a WebSocket, so another site cannot forge
// it).
func sameHost(host string, r *http.Request) bool {
	if strings.EqualFold(host, r.Host) {
		return true
	}
	for _, v := range r.Header.Values("X-Forwarded-Host") {
		for _, f := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), host) {
				return true
			}
		}
	}
	return false
}

// headerHas reports whether a comma-separated header holds token.
func headerHas(hd http.Header, name, token string) bool {
	for _, v := range hd.Values(name) {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(enc) != "gzip" {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}
