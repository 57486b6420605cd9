package broker

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// The server's lines without a message get one, and packet dumps stay
// out of the log.
func TestBrokerLogDropsPacketDumps(t *testing.T) {
	var b bytes.Buffer
	log := slog.New(brokerLog{slog.NewTextHandler(&b, nil)})
	log.Warn("", "error", "not authorized", "client", "x", "pk", strings.Repeat("payload", 100))
	log.With("pk", "dump").Info("connected", "listener", "tcp0")
	out := b.String()
	if strings.Contains(out, "payload") || strings.Contains(out, "dump") || strings.Contains(out, `msg=""`) {
		t.Errorf("log:\n%s", out)
	}
	if !strings.Contains(out, `msg="mqtt broker" error="not authorized" client=x`) || !strings.Contains(out, "msg=connected listener=tcp0") {
		t.Errorf("log lost lines or attributes:\n%s", out)
	}
}
