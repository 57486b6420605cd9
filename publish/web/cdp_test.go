package web_test

// A minimal Chrome DevTools Protocol client over --remote-debugging-pipe:
// chromium reads NUL-terminated JSON commands on fd 3 and writes replies
// and events on fd 4, so no WebSocket library (and no downloaded browser)
// is needed.

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// chromiumBinary finds Debian's chromium, or skips (fails when
// BOARDD_REQUIRE names chromium).
func chromiumBinary(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "/usr/bin/chromium", "/usr/lib/chromium/chromium"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if required("chromium") {
		t.Fatal("chromium is not installed and BOARDD_REQUIRE names it (apt-get install chromium)")
	}
	t.Skip("chromium not installed (apt-get install chromium; set BOARDD_REQUIRE=chromium to fail instead)")
	return ""
}

func required(name string) bool {
	for _, s := range strings.Split(os.Getenv("BOARDD_REQUIRE"), ",") {
		if strings.TrimSpace(s) == name {
			return true
		}
	}
	return false
}

type cdpMsg struct {
	ID        int64           `json:"id,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

type browser struct {
	t    *testing.T
	cmd  *exec.Cmd
	in   *os.File // our end of chromium's fd 3
	out  *os.File // our end of chromium's fd 4
	done chan struct{}

	mu      sync.Mutex
	next    int64
	pending map[int64]chan cdpMsg
	logs    []string // console messages and exceptions, for failures
	stderr  strings.Builder
}

// startBrowser starts headless chromium with a fresh profile; it is
// stopped when the test ends.
func startBrowser(t *testing.T) *browser {
	t.Helper()
	bin := chromiumBinary(t)
	profile := t.TempDir()
	r3, w3, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r4, w4, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
		// Several tabs are watched at once: none may be throttled as a
		// background tab (timers at 1 Hz would freeze the clocks).
		"--disable-background-timer-throttling", "--disable-renderer-backgrounding",
		"--disable-backgrounding-occluded-windows",
		"--user-data-dir="+profile, "--remote-debugging-pipe", "about:blank")
	cmd.ExtraFiles = []*os.File{r3, w4}
	b := &browser{t: t, cmd: cmd, in: w3, out: r4, done: make(chan struct{}), pending: map[int64]chan cdpMsg{}}
	cmd.Stderr = &lockedWriter{mu: &b.mu, w: &b.stderr}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	r3.Close()
	w4.Close()
	go b.read()
	t.Cleanup(b.close)
	return b
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *strings.Builder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w.Len() < 1<<16 {
		l.w.Write(p)
	}
	return len(p), nil
}

func (b *browser) close() {
	b.in.Close() // chromium exits when its command pipe closes
	select {
	case <-b.done:
	case <-time.After(5 * time.Second):
		b.cmd.Process.Kill()
		<-b.done
	}
	b.cmd.Wait()
	b.out.Close()
	if b.t.Failed() {
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, l := range b.logs {
			b.t.Logf("page: %s", l)
		}
		// D-Bus complaints are chromium's noise in a container.
		var keep []string
		for _, l := range strings.Split(b.stderr.String(), "\n") {
			if l != "" && !strings.Contains(l, "dbus") && !strings.Contains(l, "unexpected operator") {
				keep = append(keep, l)
			}
		}
		if s := strings.Join(keep, "\n"); s != "" {
			b.t.Logf("chromium stderr (tail): %s", tail(s, 3000))
		}
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

func (b *browser) read() {
	defer close(b.done)
	rd := bufio.NewReaderSize(b.out, 1<<20)
	for {
		frame, err := rd.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			for id, ch := range b.pending {
				close(ch)
				delete(b.pending, id)
			}
			b.mu.Unlock()
			return
		}
		var m cdpMsg
		if json.Unmarshal(frame[:len(frame)-1], &m) != nil {
			continue
		}
		if m.ID != 0 {
			b.mu.Lock()
			ch := b.pending[m.ID]
			delete(b.pending, m.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		b.event(m)
	}
}

func (b *browser) event(m cdpMsg) {
	var line string
	switch m.Method {
	case "Runtime.consoleAPICalled":
		var p struct {
			Type string `json:"type"`
			Args []struct {
				Value       any    `json:"value"`
				Description string `json:"description"`
			} `json:"args"`
		}
		json.Unmarshal(m.Params, &p)
		var parts []string
		for _, a := range p.Args {
			if a.Value != nil {
				parts = append(parts, fmt.Sprint(a.Value))
			} else {
				parts = append(parts, a.Description)
			}
		}
		line = "console." + p.Type + ": " + strings.Join(parts, " ")
	case "Runtime.exceptionThrown":
		var p struct {
			Details struct {
				Text      string `json:"text"`
				Exception struct {
					Description string `json:"description"`
				} `json:"exception"`
			} `json:"exceptionDetails"`
		}
		json.Unmarshal(m.Params, &p)
		line = "exception: " + p.Details.Text + " " + p.Details.Exception.Description
	case "Log.entryAdded":
		// Browser messages: CSP violations, failed loads (404s).
		var p struct {
			Entry struct {
				Source string `json:"source"`
				Level  string `json:"level"`
				Text   string `json:"text"`
				URL    string `json:"url"`
			} `json:"entry"`
		}
		json.Unmarshal(m.Params, &p)
		line = "log." + p.Entry.Level + ": " + p.Entry.Source + ": " + p.Entry.Text + " " + p.Entry.URL
	default:
		return
	}
	b.mu.Lock()
	if len(b.logs) < 500 {
		b.logs = append(b.logs, line)
	}
	b.mu.Unlock()
}

// call sends a command (to a page when session is set) and decodes its
// result into out.
func (b *browser) call(ctx context.Context, session, method string, params, out any) error {
	b.mu.Lock()
	b.next++
	id := b.next
	ch := make(chan cdpMsg, 1)
	b.pending[id] = ch
	b.mu.Unlock()
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	msg, _ := json.Marshal(cdpMsg{ID: id, SessionID: session, Method: method, Params: p})
	if _, err := b.in.Write(append(msg, 0)); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: chromium closed the pipe", method)
		}
		if m.Error != nil {
			return fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(m.Result, out)
		}
		return nil
	case <-ctx.Done():
		b.mu.Lock()
		delete(b.pending, id)
		b.mu.Unlock()
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// page is one tab.
type page struct {
	b       *browser
	session string
}

// newPage opens a tab of width x height CSS pixels.
func (b *browser) newPage(ctx context.Context, width, height int) *page {
	b.t.Helper()
	var tr struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank", "newWindow": true}, &tr); err != nil {
		b.t.Fatal(err)
	}
	var ar struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": tr.TargetID, "flatten": true}, &ar); err != nil {
		b.t.Fatal(err)
	}
	p := &page{b: b, session: ar.SessionID}
	for _, m := range []string{"Page.enable", "Runtime.enable", "Log.enable"} {
		if err := b.call(ctx, p.session, m, map[string]any{}, nil); err != nil {
			b.t.Fatal(err)
		}
	}
	if err := b.call(ctx, p.session, "Emulation.setDeviceMetricsOverride", map[string]any{
		"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		b.t.Fatal(err)
	}
	return p
}

func (p *page) navigate(ctx context.Context, url string) {
	p.b.t.Helper()
	var r struct {
		ErrorText string `json:"errorText"`
	}
	if err := p.b.call(ctx, p.session, "Page.navigate", map[string]any{"url": url}, &r); err != nil {
		p.b.t.Fatal(err)
	}
	if r.ErrorText != "" {
		p.b.t.Fatalf("navigate %s: %s", url, r.ErrorText)
	}
}

// eval evaluates a JavaScript expression (awaiting a promise) and decodes
// its JSON value into out.
func (p *page) eval(ctx context.Context, expr string, out any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := p.b.call(ctx, p.session, "Runtime.evaluate", map[string]any{
		"expression": expr, "returnByValue": true, "awaitPromise": true}, &r)
	if err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return fmt.Errorf("%s: %s %s", expr, r.ExceptionDetails.Text, r.ExceptionDetails.Exception.Description)
	}
	if out == nil || len(r.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
}

// waitFor polls expr until it returns want (compared as JSON) or timeout;
// it returns the last value seen.
func (p *page) waitFor(ctx context.Context, what, expr string, want any, timeout time.Duration) error {
	wantJSON, _ := json.Marshal(want)
	deadline := time.Now().Add(timeout)
	var last json.RawMessage
	for {
		var got json.RawMessage
		err := p.eval(ctx, expr, &got)
		if err == nil {
			// Chromium escapes non-ASCII text (\u2013); compare values.
			var v any
			if json.Unmarshal(got, &v) == nil {
				got, _ = json.Marshal(v)
			}
		}
		if err == nil && string(got) == string(wantJSON) {
			return nil
		}
		if err == nil {
			last = got
		}
		if time.Now().After(deadline) {
			if err != nil {
				return fmt.Errorf("%s: %v", what, err)
			}
			return fmt.Errorf("%s: after %v got %s, want %s", what, timeout, last, wantJSON)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// screenshot saves a PNG of the page.
func (p *page) screenshot(ctx context.Context, file string) error {
	var r struct {
		Data string `json:"data"`
	}
	if err := p.b.call(ctx, p.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &r); err != nil {
		return err
	}
	b, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		return err
	}
	if len(b) == 0 {
		return errors.New("empty screenshot")
	}
	return os.WriteFile(file, b, 0o644)
}
