// Package mosqtest starts a private mosquitto for tests: on loopback, on a
// free port, with a temporary configuration, persistence and (optionally)
// passwords, an ACL, a WebSocket listener and TLS. Tests skip when
// mosquitto is not installed, unless BOARDD_REQUIRE names it.
package mosqtest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boardd/boardd/publish/broker"
)

// Options configure the broker.
type Options struct {
	// Users and their plaintext passwords (hashed into a password_file).
	Users map[string]string
	// ACL is an acl_file's text; "" for none (everything allowed).
	ACL string
	// AllowAnonymous lets clients without a username in.
	AllowAnonymous bool
	// WebSocket adds a WebSocket listener.
	WebSocket bool
	// TLS adds a TLS listener requiring client certificates whose CN is
	// the username (files in PEM).
	TLSCA, TLSCert, TLSKey string
	// MaxInflight is max_inflight_messages (default 1).
	MaxInflight int
	// Autosave is autosave_interval in seconds (default 1: tests that
	// kill the broker want its state on disk at once).
	Autosave int
	// Extra lines for mosquitto.conf.
	Extra string
}

// Mosquitto is a running (or stopped) test broker.
type Mosquitto struct {
	t       testing.TB
	Dir     string
	Port    int
	WSPort  int
	TLSPort int
	conf    string
	mu      sync.Mutex
	cmd     *exec.Cmd
	log     *bytes.Buffer
	exited  chan struct{}
}

// Binary finds mosquitto, or skips (or fails, if BOARDD_REQUIRE says so).
func Binary(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("mosquitto"); err == nil {
		return p
	}
	for _, p := range []string{"/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if Required() {
		t.Fatal("mosquitto is not installed and BOARDD_REQUIRE names it")
	}
	t.Skip("mosquitto not installed (set BOARDD_REQUIRE=mosquitto to fail instead)")
	return ""
}

// Required reports whether BOARDD_REQUIRE names mosquitto.
func Required() bool {
	for _, s := range strings.Split(os.Getenv("BOARDD_REQUIRE"), ",") {
		if strings.TrimSpace(s) == "mosquitto" {
			return true
		}
	}
	return false
}

// FreePort returns a loopback port that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// Start writes a configuration and starts mosquitto; it is stopped when
// the test ends.
func Start(t testing.TB, o Options) *Mosquitto {
	t.Helper()
	bin := Binary(t)
	dir := t.TempDir()
	m := &Mosquitto{t: t, Dir: dir, Port: FreePort(t)}
	var c strings.Builder
	fmt.Fprintf(&c, "per_listener_settings false\n")
	fmt.Fprintf(&c, "listener %d 127.0.0.1\n", m.Port)
	if o.WebSocket {
		m.WSPort = FreePort(t)
		fmt.Fprintf(&c, "listener %d 127.0.0.1\nprotocol websockets\n", m.WSPort)
	}
	if o.TLSCert != "" {
		m.TLSPort = FreePort(t)
		fmt.Fprintf(&c, "listener %d 127.0.0.1\ncafile %s\ncertfile %s\nkeyfile %s\nrequire_certificate true\nuse_identity_as_username true\n", m.TLSPort, o.TLSCA, o.TLSCert, o.TLSKey)
	}
	fmt.Fprintf(&c, "allow_anonymous %v\n", o.AllowAnonymous)
	fmt.Fprintf(&c, "persistence true\npersistence_location %s/\nautosave_interval %d\n", dir, max(o.Autosave, 1))
	// One message in flight per subscriber keeps each subscriber's stream
	// in order across its reconnects; the queue holds a long outage.
	fmt.Fprintf(&c, "max_inflight_messages %d\nmax_queued_messages 100000\n", max(o.MaxInflight, 1))
	fmt.Fprintf(&c, "log_dest stderr\nlog_type error\nlog_type warning\nlog_type notice\n")
	if os.Geteuid() == 0 {
		// As root mosquitto would switch to user mosquitto, which cannot
		// read this test's temporary files.
		c.WriteString("user root\n")
	}
	if len(o.Users) > 0 {
		var pw strings.Builder
		i := 0
		for u, p := range o.Users {
			salt := []byte(fmt.Sprintf("salt%08d", i))
			i++
			fmt.Fprintf(&pw, "%s:%s\n", u, broker.HashPassword(p, salt))
		}
		pf := filepath.Join(dir, "passwd")
		if err := os.WriteFile(pf, []byte(pw.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&c, "password_file %s\n", pf)
	}
	if o.ACL != "" {
		af := filepath.Join(dir, "acl")
		if err := os.WriteFile(af, []byte(o.ACL), 0o600); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&c, "acl_file %s\n", af)
	}
	c.WriteString(o.Extra)
	m.conf = filepath.Join(dir, "mosquitto.conf")
	if err := os.WriteFile(m.conf, []byte(c.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	m.cmd = nil
	m.startBin(bin)
	t.Cleanup(func() { m.Stop() })
	return m
}

// URL is the plain TCP listener's URL.
func (m *Mosquitto) URL() string { return fmt.Sprintf("tcp://127.0.0.1:%d", m.Port) }

func (m *Mosquitto) startBin(bin string) {
	m.t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.log = &bytes.Buffer{}
	cmd := exec.Command(bin, "-c", m.conf)
	cmd.Stdout, cmd.Stderr = m.log, m.log
	if err := cmd.Start(); err != nil {
		m.t.Fatalf("starting mosquitto: %v", err)
	}
	m.cmd = cmd
	m.exited = make(chan struct{})
	go func(c *exec.Cmd, ch chan struct{}) { c.Wait(); close(ch) }(cmd, m.exited)
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", m.Port), 200*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-m.exited:
			m.t.Fatalf("mosquitto exited at start:\n%s", m.log.String())
		default:
		}
		if time.Now().After(deadline) {
			m.t.Fatalf("mosquitto did not listen on %d:\n%s", m.Port, m.log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop stops mosquitto (SIGTERM: it saves its persistent state).
func (m *Mosquitto) Stop() {
	m.mu.Lock()
	cmd, exited := m.cmd, m.exited
	m.cmd = nil
	m.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-exited
	}
}

// Restart starts mosquitto again with the same configuration and state.
func (m *Mosquitto) Restart() {
	m.t.Helper()
	m.startBin(Binary(m.t))
}

// Log is what mosquitto wrote.
func (m *Mosquitto) Log() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.log.String()
}

// Certs are PEM files for a TLS test: a CA, a server certificate for
// localhost/127.0.0.1 and client certificates by common name.
type Certs struct {
	CA, ServerCert, ServerKey string
	Client                    map[string][2]string // CN -> cert, key
}

// WriteCerts makes a CA and certificates in dir.
func WriteCerts(t testing.TB, dir string, clientCNs ...string) Certs {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "boardd test CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		IsCA:                  true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	write := func(name string, typ string, der []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	c := Certs{CA: write("ca.crt", "CERTIFICATE", caDER), Client: map[string][2]string{}}
	issue := func(serial int64, cn string, server bool) (string, string) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial),
			Subject:      pkix.Name{CommonName: cn},
			NotBefore:    now.Add(-time.Hour),
			NotAfter:     now.Add(24 * time.Hour),
			KeyUsage:     x509.KeyUsageDigitalSignature,
		}
		if server {
			tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
			tmpl.DNSNames = []string{"localhost"}
			tmpl.IPAddresses = []net.IP{net.ParseIP("127.0.0.1")}
		} else {
			tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		kder, err := x509.MarshalECPrivateKey(key)
		if err != nil {
			t.Fatal(err)
		}
		return write(cn+".crt", "CERTIFICATE", der), write(cn+".key", "EC PRIVATE KEY", kder)
	}
	c.ServerCert, c.ServerKey = issue(2, "server", true)
	for i, cn := range clientCNs {
		cert, key := issue(int64(10+i), cn, false)
		c.Client[cn] = [2]string{cert, key}
	}
	return c
}

// Pid is the running mosquitto's process id (0 when stopped).
func (m *Mosquitto) Pid() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cmd == nil || m.cmd.Process == nil {
		return 0
	}
	return m.cmd.Process.Pid
}
