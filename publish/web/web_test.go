package web_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/boardd/boardd/publish/web"
)

func get(t *testing.T, h http.Handler, method, path string, hdr map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestConfigJSON(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  web.Config
		want string
	}{
		{"proxied", web.Config{ProxyTo: "ws://127.0.0.1:8083/"},
			`{"broker":"","topic_prefix":"chess/v1/board","boards":[]}`},
		{"host of the page", web.Config{Broker: "ws://:8083", Boards: []string{"b-2", "b-1", "b-2"}, Title: "Open <2025>"},
			`{"broker":"ws://{host}:8083/","topic_prefix":"chess/v1/board","boards":["b-2","b-1"],"title":"Open \u003c2025\u003e"}`},
		{"venue broker", web.Config{Broker: "wss://broker.example:8443/mqtt", TopicPrefix: "club/v1/board/"},
			`{"broker":"wss://broker.example:8443/mqtt","topic_prefix":"club/v1/board","boards":[]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, err := web.Handler(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			r := get(t, h, "GET", "/config.json", nil)
			if r.StatusCode != 200 || r.Header.Get("Content-Type") != "application/json" || r.Header.Get("Cache-Control") != "no-store" {
				t.Fatalf("status %d, type %q, cache %q", r.StatusCode, r.Header.Get("Content-Type"), r.Header.Get("Cache-Control"))
			}
			if got := body(t, r); got != c.want {
				t.Fatalf("config.json\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []struct {
		cfg  web.Config
		want string
	}{
		{web.Config{}, "no broker"},
		{web.Config{Broker: "tcp://broker:1883"}, "want a ws:// or wss:// URL"},
		{web.Config{Broker: "ws://"}, "no host and no port"},
		{web.Config{Broker: "ws://:8083", Boards: []string{"Board 1"}}, `board id "Board 1"`},
		{web.Config{Broker: "ws://:8083", TopicPrefix: "chess/+/board"}, "no wildcards"},
		{web.Config{ProxyTo: "http://127.0.0.1:8083/"}, "want ws://host:port/path"},
		{web.Config{ProxyTo: "ws:///"}, "no host"},
		{web.Config{Broker: "ws://a b"}, "broker"},
	} {
		_, err := web.Handler(c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Handler(%+v): error %v, want one containing %q", c.cfg, err, c.want)
		}
	}
}

func TestPagesAndAssets(t *testing.T) {
	h, err := web.Handler(web.Config{Broker: "ws://:8083/"})
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"/":           `src="assets/board.js"`,
		"/index.html": `src="assets/board.js"`,
		"/console":    `src="assets/console.js"`,
	} {
		r := get(t, h, "GET", path, nil)
		b := body(t, r)
		if r.StatusCode != 200 || !strings.Contains(b, want) || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
			t.Errorf("GET %s: %d %q, body lacks %q", path, r.StatusCode, r.Header.Get("Content-Type"), want)
		}
		// mqtt.js's timer worker is made from a blob; a CSP without
		// worker-src blob: blocks it.
		if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "worker-src 'self' blob:") {
			t.Errorf("GET %s: CSP %q", path, csp)
		}
		if !strings.Contains(b, `rel="icon" href="assets/favicon.svg"`) {
			t.Errorf("GET %s: no icon link", path)
		}
	}
	// Every file the pages load is there with a sensible type: the
	// scripts' imports, the pieces, the markers, the licences.
	idx := body(t, get(t, h, "GET", "/", nil))
	js := body(t, get(t, h, "GET", "/assets/board.js", nil))
	refs := []string{"/assets/app.css", "/assets/board.js", "/assets/console.js", "/assets/pieces/standard.svg", "/assets/markers.svg", "/assets/LICENSES.txt", "/assets/favicon.svg", "/favicon.ico"}
	for _, part := range strings.Split(js, `"./`)[1:] {
		if f, _, ok := strings.Cut(part, `"`); ok && strings.HasSuffix(f, ".js") {
			refs = append(refs, "/assets/"+f)
		}
	}
	if len(refs) < 7 || !strings.Contains(idx, "assets/app.css") {
		t.Fatalf("board.js imports no shared chunk (refs %v)", refs)
	}
	types := map[string]string{".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml", ".txt": "text/plain", ".ico": "image/svg+xml"}
	for _, ref := range refs {
		r := get(t, h, "GET", ref, nil)
		ext := ref[strings.LastIndex(ref, "."):]
		if r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), types[ext]) {
			t.Errorf("GET %s: %d %q", ref, r.StatusCode, r.Header.Get("Content-Type"))
		}
	}
	lic := body(t, get(t, h, "GET", "/assets/LICENSES.txt", nil))
	for _, s := range []string{"mqtt", "cm-chessboard", "CC BY-SA 3.0"} {
		if !strings.Contains(lic, s) {
			t.Errorf("LICENSES.txt does not mention %s", s)
		}
	}
	for _, p := range []string{"/nope", "/assets/", "/assets/../web.go", "/mqtt", "/console/"} {
		if r := get(t, h, "GET", p, nil); r.StatusCode != 404 {
			t.Errorf("GET %s: %d, want 404", p, r.StatusCode)
		}
	}
	if r := get(t, h, "POST", "/", nil); r.StatusCode != 405 || r.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST /: %d, Allow %q", r.StatusCode, r.Header.Get("Allow"))
	}
}

func TestGzipAndRevalidation(t *testing.T) {
	h, err := web.Handler(web.Config{Broker: "ws://:8083/"})
	if err != nil {
		t.Fatal(err)
	}
	plain := get(t, h, "GET", "/assets/board.js", nil)
	pb := body(t, plain)
	if plain.Header.Get("Content-Encoding") != "" || plain.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("plain: encoding %q cache %q", plain.Header.Get("Content-Encoding"), plain.Header.Get("Cache-Control"))
	}
	gz := get(t, h, "GET", "/assets/board.js", map[string]string{"Accept-Encoding": "br, gzip;q=0.8"})
	if gz.Header.Get("Content-Encoding") != "gzip" || gz.Header.Get("ETag") == plain.Header.Get("ETag") {
		t.Fatalf("gzip: encoding %q, etag %q (plain %q)", gz.Header.Get("Content-Encoding"), gz.Header.Get("ETag"), plain.Header.Get("ETag"))
	}
	zr, err := gzip.NewReader(bytes.NewReader([]byte(body(t, gz))))
	if err != nil {
		t.Fatal(err)
	}
	unz, _ := io.ReadAll(zr)
	if string(unz) != pb {
		t.Fatal("gzip body differs from the plain one")
	}
	if r := get(t, h, "GET", "/assets/board.js", map[string]string{"Accept-Encoding": "gzip;q=0"}); r.Header.Get("Content-Encoding") != "" {
		t.Error("gzip;q=0 got gzip")
	}
	r := get(t, h, "GET", "/assets/board.js", map[string]string{"If-None-Match": plain.Header.Get("ETag")})
	if r.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation: %d, want 304", r.StatusCode)
	}
	if r := get(t, h, "HEAD", "/", nil); r.StatusCode != 200 || body(t, r) != "" {
		t.Errorf("HEAD /: %d", r.StatusCode)
	}
}

// The proxy forwards /mqtt to the broker's listener path, keeping the
// WebSocket headers.
func TestProxy(t *testing.T) {
	var got *http.Request
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Clone(r.Context())
		w.WriteHeader(http.StatusTeapot)
	}))
	defer up.Close()
	h, err := web.Handler(web.Config{ProxyTo: "ws://" + strings.TrimPrefix(up.URL, "http://") + "/mqtt-ws?x=1"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	req := wsRequest(t, srv.URL+"/mqtt")
	req.Header.Set("Sec-WebSocket-Protocol", "mqtt")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTeapot || got == nil {
		t.Fatalf("status %d; upstream saw %v", resp.StatusCode, got)
	}
	if got.URL.Path != "/mqtt-ws" || got.URL.RawQuery != "x=1" || got.Header.Get("Sec-WebSocket-Protocol") != "mqtt" || got.Header.Get("X-Forwarded-For") == "" {
		t.Fatalf("upstream saw %s ?%s, protocol %q, forwarded-for %q", got.URL.Path, got.URL.RawQuery, got.Header.Get("Sec-WebSocket-Protocol"), got.Header.Get("X-Forwarded-For"))
	}
	// A broker that is down is a 502, not a hang.
	up.Close()
	resp, err = http.DefaultClient.Do(wsRequest(t, srv.URL+"/mqtt"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway {
		t.Fatalf("broker down: %d, want 502", resp.StatusCode)
	}
}

// wsRequest is a browser's WebSocket upgrade request for url.
func wsRequest(t *testing.T, url string) *http.Request {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "websocket")
	return req
}

// /mqtt forwards only WebSocket upgrades, only from this server's own
// pages, and at most ProxyBurst at once per address: each is an MQTT login
// the broker sees as coming from this host.
func TestProxyGuards(t *testing.T) {
	var forwarded int
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		forwarded++
		if r.Header.Get("Cookie") != "" {
			t.Errorf("the browser's cookie reached the broker: %q", r.Header.Get("Cookie"))
		}
		w.WriteHeader(http.StatusTeapot)
	}))
	defer up.Close()
	h, err := web.Handler(web.Config{ProxyTo: "ws://" + strings.TrimPrefix(up.URL, "http://") + "/", ProxyBurst: 3, ProxyRate: 0.001})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	do := func(req *http.Request) int {
		t.Helper()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	plain, _ := http.NewRequest("GET", srv.URL+"/mqtt", nil)
	if code := do(plain); code != http.StatusBadRequest {
		t.Errorf("a plain GET of /mqtt: %d, want 400", code)
	}
	post := wsRequest(t, srv.URL+"/mqtt")
	post.Method = "POST"
	if code := do(post); code != http.StatusBadRequest {
		t.Errorf("a POST to /mqtt: %d, want 400", code)
	}
	cross := wsRequest(t, srv.URL+"/mqtt")
	cross.Header.Set("Origin", "https://evil.example")
	if code := do(cross); code != http.StatusForbidden {
		t.Errorf("a WebSocket from another site's page: %d, want 403", code)
	}
	if forwarded != 0 {
		t.Fatalf("%d refused requests reached the broker", forwarded)
	}
	// Behind a reverse proxy that rewrites Host, the host the browser
	// addressed is in X-Forwarded-Host.
	proxied := wsRequest(t, srv.URL+"/mqtt")
	proxied.Header.Set("Origin", "https://venue.example")
	proxied.Header.Set("X-Forwarded-Host", "venue.example")
	if code := do(proxied); code != http.StatusTeapot {
		t.Fatalf("through a reverse proxy: %d, want the broker's answer", code)
	}
	for i := range 2 {
		same := wsRequest(t, srv.URL+"/mqtt")
		same.Header.Set("Origin", srv.URL)
		same.Header.Set("Cookie", "session=x")
		if code := do(same); code != http.StatusTeapot {
			t.Fatalf("connection %d from this server's page: %d, want the broker's answer", i+1, code)
		}
	}
	if code := do(wsRequest(t, srv.URL+"/mqtt")); code != http.StatusTooManyRequests {
		t.Errorf("a fourth connection within a burst of three: %d, want 429", code)
	}
	if forwarded != 3 {
		t.Errorf("the broker saw %d connections, want 3", forwarded)
	}
}

func TestLocalWS(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.1:8083":    "ws://127.0.0.1:8083/",
		":8083":             "ws://127.0.0.1:8083/",
		"0.0.0.0:8083":      "ws://127.0.0.1:8083/",
		"[::]:8083":         "ws://[::1]:8083/",
		"board-7.lan:8083":  "ws://board-7.lan:8083/",
		"192.168.1.20:9001": "ws://192.168.1.20:9001/",
	} {
		got, err := web.LocalWS(in)
		if err != nil || got != want {
			t.Errorf("LocalWS(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "8083", "127.0.0.1:", "127.0.0.1:0"} {
		if got, err := web.LocalWS(in); err == nil {
			t.Errorf("LocalWS(%q) = %q, want an error", in, got)
		}
	}
}
