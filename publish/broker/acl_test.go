package broker

import (
	"os"
	"strings"
	"testing"
)

func defaultACL(t *testing.T) *ACL {
	t.Helper()
	a, err := ParseACL(strings.NewReader(DefaultACL))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// The embedded broker's default rules are the venue file's.
func TestDefaultACLIsTheDeployedFile(t *testing.T) {
	b, err := os.ReadFile("../../deploy/mosquitto/acl")
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != DefaultACL {
		t.Fatal("broker.DefaultACL and deploy/mosquitto/acl differ; keep them identical")
	}
}

func TestACLRules(t *testing.T) {
	a := defaultACL(t)
	for _, c := range []struct {
		user, topic string
		acc         Access
		want        bool
	}{
		{"b1", "chess/v1/board/b1/state", Write, true},
		{"b1", "chess/v1/board/b1/cmd/new_game", Read, true},
		{"b1", "chess/v1/board/b2/state", Write, false},
		{"b1", "chess/v1/board/b2/state", Read, false},
		{"b1", "chess/v1/board/b2/cmd/ack_alert", Write, false},
		{"arbiter", "chess/v1/board/b1/cmd/ack_alert", Write, true},
		{"arbiter", "chess/v1/board/b1/cmd/set_result", Write, true},
		{"arbiter", "chess/v1/board/b1/cmd/correct_move", Write, true},
		{"arbiter", "chess/v1/board/b1/cmd/new_game", Write, false},
		{"arbiter", "chess/v1/board/b1/state", Write, false},
		{"arbiter", "chess/v1/board/b1/reply", Read, true},
		{"director", "chess/v1/board/b1/cmd/new_game", Write, true},
		{"director", "chess/v1/board/b1/move", Write, false},
		{"relay", "chess/v1/board/b1/pgn", Read, true},
		{"relay", "chess/v1/board/b1/pgn", Write, false},
		{"", "chess/v1/board/b1/state", Read, true},
		{"", "chess/v1/board/b1/alerts/active", Read, true},
		{"", "chess/v1/board/b1/reply", Read, false},
		{"", "chess/v1/board/b1/cmd/new_game", Read, false},
		{"", "chess/v1/board/b1/state", Write, false},
		{"stranger", "chess/v1/board/b1/state", Read, false},
		{"", "$SYS/broker/uptime", Read, false},
	} {
		if got := a.Allowed(c.user, "boardd-"+c.user, c.topic, c.acc); got != c.want {
			t.Errorf("Allowed(%q, %s, %d) = %v, want %v", c.user, c.topic, c.acc, got, c.want)
		}
	}
	for _, c := range []struct {
		user, filter string
		want         bool
	}{
		{"", "chess/v1/#", true},
		{"", "chess/v1/board/+/state", true},
		{"", "chess/v1/board/+/cmd/#", false},
		{"b1", "chess/v1/board/b1/cmd/+", true},
		{"b1", "chess/v1/board/+/state", true}, // delivery then filters other boards
		{"b1", "other/#", false},
	} {
		if got := a.AllowedFilter(c.user, "x", c.filter); got != c.want {
			t.Errorf("AllowedFilter(%q, %s) = %v, want %v", c.user, c.filter, got, c.want)
		}
	}
}

func TestACLDenyWins(t *testing.T) {
	a, err := ParseACL(strings.NewReader("user u\ntopic readwrite a/#\ntopic deny a/secret/#\npattern read p/%u/%c\n"))
	if err != nil {
		t.Fatal(err)
	}
	if a.Allowed("u", "c", "a/secret/x", Read) || a.Allowed("u", "c", "a/secret/x", Write) {
		t.Error("deny did not win over a broader grant")
	}
	if !a.Allowed("u", "c", "a/open", Write) {
		t.Error("grant lost")
	}
	if a.AllowedFilter("u", "c", "a/secret/#") {
		t.Error("subscription entirely inside a deny allowed")
	}
	if !a.AllowedFilter("u", "c", "a/#") {
		t.Error("subscription partly outside a deny refused")
	}
	if !a.Allowed("u", "c1", "p/u/c1", Read) || a.Allowed("u", "c1", "p/u/c2", Read) {
		t.Error("pattern substitution of user and client id wrong")
	}
	if a.Allowed("", "c1", "p//c1", Read) {
		t.Error("a user pattern applied to an anonymous client")
	}
	if a.Allowed("u/x", "c1", "p/u/x/c1", Read) {
		t.Error("a user pattern applied to a username holding /")
	}
}

func TestACLParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		"topic read":              "without a topic",
		"topic read a/#/b":        "# must be",
		"topic read a/b+":         "+ must be",
		"pattern read a/x%u":      "%u and %c",
		"user":                    "user without a name",
		"allow all":               "unknown keyword",
		"\n\ntopic write a/#/c\n": "line 3",
	} {
		_, err := ParseACL(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseACL(%q) = %v, want an error containing %q", in, err, want)
		}
	}
}

// A hash written by Debian 12's mosquitto_passwd 2.0.11
// (mosquitto_passwd -c -b pw alice secret).
const mosquittoHash = "$7$101$Bey67m2NqO3ywzqH$VtcEP0I4hBYPpls/oYyebAwmDEUr39Dni41g6sq5gsy2CtxzMz+yk1FWaqEnEkbB5FHZy3futrXkifiPIOxAQw=="

func TestPasswordsMosquittoCompatible(t *testing.T) {
	pw, err := ParsePasswords(strings.NewReader("alice:" + mosquittoHash + "\nbob:" + HashPassword("hunter2", []byte("0123456789ab")) + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !pw.Check("alice", "secret") {
		t.Error("mosquitto_passwd hash not accepted")
	}
	if pw.Check("alice", "Secret") || pw.Check("alice", "") || pw.Check("carol", "secret") {
		t.Error("wrong password or user accepted")
	}
	if !pw.Check("bob", "hunter2") {
		t.Error("own $7$ hash not accepted")
	}
	if err := pw.Set("carol", "s3cret"); err != nil || !pw.Check("carol", "s3cret") || pw.Check("carol", "x") {
		t.Error("Set then Check failed")
	}
	if _, err := ParsePasswords(strings.NewReader("eve:plaintext\n")); err == nil {
		t.Error("a plaintext password line was accepted")
	}
}

func FuzzParseACL(f *testing.F) {
	f.Add(DefaultACL, "b1", "chess/v1/board/b1/state")
	f.Add("topic deny #\npattern read a/%c/+", "", "a/x/y")
	f.Fuzz(func(t *testing.T, text, user, topic string) {
		a, err := ParseACL(strings.NewReader(text))
		if err != nil {
			return
		}
		a.Allowed(user, "c", topic, Read)
		a.Allowed(user, "c", topic, Write)
		a.AllowedFilter(user, "c", topic)
	})
}

// An unknown user's login costs as much as a wrong password, so the time
// does not tell which users exist: it is checked against a key derived
// with the same function and the largest iteration count of the file.
// (Compared as work, not as time: a timed test fails on a loaded machine.)
func TestUnknownUserCostsAsMuchAsWrongPassword(t *testing.T) {
	pw := Passwords{}
	if err := pw.Set("arbiter", "correct horse"); err != nil {
		t.Fatal(err)
	}
	if _, err := pw.SetGenerated("board-1"); err != nil {
		t.Fatal(err)
	}
	known, err := parseHash(pw["arbiter"])
	if err != nil {
		t.Fatal(err)
	}
	u := pw.unknownUser()
	if !u.pbkdf2 || u.iterations != known.iterations || len(u.key) != len(known.key) {
		t.Errorf("unknown user checked with pbkdf2=%v at %d iterations (%d-byte key); a person's password: pbkdf2=%v at %d (%d-byte key)",
			u.pbkdf2, u.iterations, len(u.key), known.pbkdf2, known.iterations, len(known.key))
	}
	if !pw.costly("nobody") {
		t.Error("an unknown user is not checked at a person's cost")
	}
	if pw.Check("nobody", "") || pw.Check("nobody", "correct horse") {
		t.Error("an unknown user was let in")
	}
}
