package relay

import (
	"strings"
	"testing"
)

// An anonymous relay on the default client id gets a suffix nobody can
// guess, a new one each start; a given id or an account's login keeps
// the id as it is.
func TestRelayClientID(t *testing.T) {
	a, err := relayClientID("boardd-relay", "", false)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := relayClientID("boardd-relay", "", false)
	if !strings.HasPrefix(a, "boardd-relay-") || len(a) != len("boardd-relay-")+8 || a == b {
		t.Errorf("anonymous ids %q and %q", a, b)
	}
	for _, c := range []struct {
		user     string
		explicit bool
	}{{"relay", false}, {"", true}, {"relay", true}} {
		if id, _ := relayClientID("boardd-relay", c.user, c.explicit); id != "boardd-relay" {
			t.Errorf("user %q explicit %v: %q", c.user, c.explicit, id)
		}
	}
}
