package daemon

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/journal"
)

type fullDisk struct {
	journal.File
	full *atomic.Bool
}

func (f fullDisk) Write(b []byte) (int, error) {
	if f.full.Load() {
		return 0, syscall.ENOSPC
	}
	return f.File.Write(b)
}

// A journal that cannot be written makes /healthz answer 503 with the
// cause, and the metrics say so; once it can be written again both are
// back to ok.
func TestHealthAndMetricsOnAFullDisk(t *testing.T) {
	var full atomic.Bool
	p, err := publish.Open(publish.Config{Board: "b1", JournalDir: t.TempDir(), NoSync: true,
		WrapJournalFile: func(f journal.File) journal.File { return fullDisk{File: f, full: &full} }})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m := newMetrics()
	registerJournalMetrics(m, p.Health)
	check := func(wantCode int, body []string, metrics []string) {
		t.Helper()
		rec := httptest.NewRecorder()
		writeHealth(rec, true, p)
		if rec.Code != wantCode {
			t.Errorf("/healthz: %d, want %d: %s", rec.Code, wantCode, rec.Body)
		}
		for _, s := range body {
			if !strings.Contains(rec.Body.String(), s) {
				t.Errorf("/healthz body lacks %q: %s", s, rec.Body)
			}
		}
		var buf bytes.Buffer
		m.write(&buf)
		for _, s := range metrics {
			if !strings.Contains(buf.String(), s+"\n") {
				t.Errorf("/metrics lacks %q:\n%s", s, buf.String())
			}
		}
	}
	if _, err := p.StartGame(publish.GameInfo{White: "A", Black: "B"}); err != nil {
		t.Fatal(err)
	}
	check(http.StatusOK, []string{`"ok":true`}, []string{"boardd_journal_ok 1", "boardd_journal_write_failing 0", "boardd_journal_write_errors_total 0"})
	full.Store(true)
	if _, err := p.Move(publish.Move{Ply: 1, UCI: "e2e4", Final: true}); err != nil {
		t.Fatalf("a move on a full disk is held, not refused: %v", err)
	}
	check(http.StatusServiceUnavailable, []string{`"ok":false`, "no space left on device", `"write_failing":true`},
		[]string{"boardd_journal_ok 0", "boardd_journal_write_failing 1", "# TYPE boardd_journal_write_errors_total counter"})
	full.Store(false)
	if _, err := p.Move(publish.Move{Ply: 2, UCI: "e7e5", Final: true}); err != nil {
		t.Fatal(err)
	}
	check(http.StatusOK, []string{`"ok":true`}, []string{"boardd_journal_ok 1", "boardd_journal_write_failing 0", "boardd_journal_held_events 0"})
}
