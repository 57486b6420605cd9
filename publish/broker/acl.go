package broker

import (
	"bufio"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/boardd/boardd/publish"
)

// Access is what an ACL rule grants.
type Access uint8

// Access bits; Deny (no bits) blocks read and write.
const (
	Read  Access = 1
	Write Access = 2
	Deny  Access = 0
)

type rule struct {
	access  Access
	topic   string // filter, possibly with %u / %c levels (patterns)
	pattern bool
	line    int
}

// ACL is an access control list in mosquitto's acl_file format, evaluated
// the way mosquitto 2.0 does, so the embedded broker and a venue's
// mosquitto share one file:
//
//	# comment
//	topic [read|write|readwrite|deny] <filter>    anonymous clients (before any user line)
//	user <name>
//	topic [read|write|readwrite|deny] <filter>    that user
//	pattern [read|write|readwrite|deny] <filter>  everyone, %u = username, %c = client id
//
// A deny that matches wins over any grant; otherwise a matching grant with
// the access asked for allows; otherwise access is denied. Patterns with %u
// do not apply to clients without a username, nor %u/%c to names holding +,
// # or /. Topics starting with $ only match rules starting with $.
type ACL struct {
	anon     []rule
	users    map[string][]rule
	patterns []rule
}

// ParseACL reads an acl_file.
func ParseACL(r io.Reader) (*ACL, error) {
	a := &ACL{users: map[string][]rule{}}
	sc := bufio.NewScanner(r)
	user, inUser := "", false
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		kw, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		switch kw {
		case "user":
			if rest == "" {
				return nil, fmt.Errorf("acl line %d: user without a name", n)
			}
			user, inUser = rest, true
			if _, ok := a.users[user]; !ok {
				a.users[user] = nil
			}
		case "topic", "pattern":
			acc := Read | Write
			if f, t, ok := strings.Cut(rest, " "); ok {
				switch f {
				case "read":
					acc, rest = Read, strings.TrimSpace(t)
				case "write":
					acc, rest = Write, strings.TrimSpace(t)
				case "readwrite":
					acc, rest = Read|Write, strings.TrimSpace(t)
				case "deny":
					acc, rest = Deny, strings.TrimSpace(t)
				}
			} else {
				switch rest {
				case "read", "write", "readwrite", "deny":
					return nil, fmt.Errorf("acl line %d: %s %s without a topic", n, kw, rest)
				}
			}
			if err := checkFilter(rest); err != nil {
				return nil, fmt.Errorf("acl line %d: %v", n, err)
			}
			r := rule{access: acc, topic: rest, pattern: kw == "pattern", line: n}
			switch {
			case r.pattern:
				a.patterns = append(a.patterns, r)
			case inUser:
				a.users[user] = append(a.users[user], r)
			default:
				a.anon = append(a.anon, r)
			}
		default:
			return nil, fmt.Errorf("acl line %d: unknown keyword %q (want topic, pattern or user)", n, kw)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("acl: %w", err)
	}
	return a, nil
}

// LoadACL reads an acl_file from disk.
func LoadACL(path string) (*ACL, error) { return loadFile(path, ParseACL) }

// loadFile parses the file at path, naming it in a parse error.
func loadFile[T any](path string, parse func(io.Reader) (T, error)) (T, error) {
	var zero T
	f, err := os.Open(path)
	if err != nil {
		return zero, err
	}
	defer f.Close()
	v, err := parse(f)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

func checkFilter(f string) error {
	if f == "" {
		return fmt.Errorf("empty topic")
	}
	levels := strings.Split(f, "/")
	for i, l := range levels {
		if strings.Contains(l, "#") && (l != "#" || i != len(levels)-1) {
			return fmt.Errorf("topic %q: # must be a whole last level", f)
		}
		if strings.Contains(l, "+") && l != "+" {
			return fmt.Errorf("topic %q: + must be a whole level", f)
		}
		if strings.Contains(l, "%") && l != "%u" && l != "%c" {
			return fmt.Errorf("topic %q: %%u and %%c must be a whole level", f)
		}
	}
	return nil
}

// Allowed reports whether a client may read (receive) or write (publish)
// topic. username is "" for an anonymous client.
func (a *ACL) Allowed(username, clientID, topic string, acc Access) bool {
	return a.check(username, clientID, topic, acc, false)
}

// AllowedFilter reports whether a client may subscribe to filter: some
// topic it matches must be readable and a deny must not cover all of
// them. Each message is checked again with Allowed on delivery.
func (a *ACL) AllowedFilter(username, clientID, filter string) bool {
	return a.check(username, clientID, filter, Read, true)
}

func (a *ACL) check(username, clientID, topic string, acc Access, isFilter bool) bool {
	var own []rule
	if username == "" {
		own = a.anon
	} else {
		own = a.users[username]
	}
	rules := append([]rule(nil), own...)
	for _, p := range a.patterns {
		if t, ok := substitute(p.topic, username, clientID); ok {
			p.topic = t
			rules = append(rules, p)
		}
	}
	dollar := strings.HasPrefix(topic, "$")
	for _, r := range rules {
		if r.access != Deny || strings.HasPrefix(r.topic, "$") != dollar {
			continue
		}
		if isFilter && covers(r.topic, topic) || !isFilter && publish.MatchTopic(r.topic, topic) {
			return false
		}
	}
	for _, r := range rules {
		if r.access&acc != acc || r.access == Deny || strings.HasPrefix(r.topic, "$") != dollar {
			continue
		}
		if isFilter && filtersIntersect(r.topic, topic) || !isFilter && publish.MatchTopic(r.topic, topic) {
			return true
		}
	}
	return false
}

// covers reports whether every topic matching inner also matches outer.
func covers(outer, inner string) bool {
	ol, il := strings.Split(outer, "/"), strings.Split(inner, "/")
	for i := 0; ; i++ {
		switch {
		case i < len(ol) && ol[i] == "#":
			return true
		case i == len(ol) || i == len(il):
			return len(ol) == len(il)
		case il[i] == "#":
			return false
		case ol[i] == "+" || ol[i] == il[i] && il[i] != "+":
			continue
		default:
			return false
		}
	}
}

// substitute fills %u and %c in a pattern; ok is false when the pattern
// cannot apply (no username for %u, or a name that is not a safe level).
func substitute(pattern, username, clientID string) (string, bool) {
	if !strings.Contains(pattern, "%") {
		return pattern, true
	}
	levels := strings.Split(pattern, "/")
	for i, l := range levels {
		switch l {
		case "%u":
			if username == "" || strings.ContainsAny(username, "+#/") {
				return "", false
			}
			levels[i] = username
		case "%c":
			if clientID == "" || strings.ContainsAny(clientID, "+#/") {
				return "", false
			}
			levels[i] = clientID
		}
	}
	return strings.Join(levels, "/"), true
}

// filtersIntersect reports whether some topic matches both filters.
func filtersIntersect(a, b string) bool {
	al, bl := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; ; i++ {
		switch {
		case i == len(al) && i == len(bl):
			return true
		case i < len(al) && al[i] == "#", i < len(bl) && bl[i] == "#":
			return true
		case i == len(al) || i == len(bl):
			return false
		case al[i] == "+" || bl[i] == "+" || al[i] == bl[i]:
			continue
		default:
			return false
		}
	}
}

// Passwords are users and password hashes in mosquitto's password_file
// format (user:hash per line), as mosquitto_passwd writes them: "$7$"
// (PBKDF2-SHA512, mosquitto 2.0's default) or "$6$" (salted SHA-512).
type Passwords map[string]string

// ParsePasswords reads a password_file.
func ParsePasswords(r io.Reader) (Passwords, error) {
	pw := Passwords{}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		user, hash, ok := strings.Cut(line, ":")
		if !ok || user == "" {
			return nil, fmt.Errorf("password file line %d: want user:hash", n)
		}
		if !strings.HasPrefix(hash, "$6$") && !strings.HasPrefix(hash, "$7$") {
			return nil, fmt.Errorf("password file line %d (user %s): not a $6$ or $7$ hash; create it with mosquitto_passwd", n, user)
		}
		pw[user] = hash
	}
	return pw, sc.Err()
}

// LoadPasswords reads a password_file from disk.
func LoadPasswords(path string) (Passwords, error) { return loadFile(path, ParsePasswords) }

// Check reports whether password is user's.
func (pw Passwords) Check(user, password string) bool {
	h, ok := pw[user]
	if !ok {
		return false
	}
	parts := strings.Split(h, "$") // "", "7", iterations, salt, hash  or  "", "6", salt, hash
	switch {
	case len(parts) == 5 && parts[1] == "7":
		iter, err := strconv.Atoi(parts[2])
		if err != nil || iter < 1 {
			return false
		}
		salt, err1 := base64.StdEncoding.DecodeString(parts[3])
		want, err2 := base64.StdEncoding.DecodeString(parts[4])
		if err1 != nil || err2 != nil {
			return false
		}
		got, err := pbkdf2.Key(sha512.New, password, salt, iter, len(want))
		if err != nil {
			return false
		}
		return subtle.ConstantTimeCompare(got, want) == 1
	case len(parts) == 4 && parts[1] == "6":
		salt, err1 := base64.StdEncoding.DecodeString(parts[2])
		want, err2 := base64.StdEncoding.DecodeString(parts[3])
		if err1 != nil || err2 != nil {
			return false
		}
		s := sha512.New()
		s.Write([]byte(password))
		s.Write(salt)
		return subtle.ConstantTimeCompare(s.Sum(nil), want) == 1
	}
	return false
}

// Set adds or replaces a user with a fresh random salt. boardd uses it
// for its own login to the embedded broker (a random password per start).
func (pw Passwords) Set(user, password string) error {
	salt := make([]byte, 12)
	if _, err := rand.Read(salt); err != nil {
		return fmt.Errorf("password salt: %w", err)
	}
	pw[user] = HashPassword(password, salt)
	return nil
}

// HashPassword makes a "$7$" hash as mosquitto_passwd does (101
// iterations, as mosquitto 2.0 uses).
func HashPassword(password string, salt []byte) string {
	key, _ := pbkdf2.Key(sha512.New, password, salt, 101, 64)
	return "$7$101$" + base64.StdEncoding.EncodeToString(salt) + "$" + base64.StdEncoding.EncodeToString(key)
}
