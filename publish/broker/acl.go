package broker

import (
	"bufio"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
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
// (PBKDF2-SHA512 with the iteration count in the hash; mosquitto 2.0
// writes 101) or "$6$" (salted SHA-512). The hashes boardd makes keep
// mosquitto's limits (a 12-byte salt, a 64-byte key), so mosquitto reads
// them too.
type Passwords map[string]string

// Iterations is the PBKDF2-SHA512 cost of the hashes boardd makes for
// passwords people choose: OWASP's recommendation for PBKDF2-HMAC-SHA512
// (2023). mosquitto reads such a "$7$" hash as it reads its own.
const Iterations = 210_000

// secretIterations is the cost of the hashes of secrets boardd generates
// itself (NewSecret: 128 random bits or more), which no amount of key
// stretching makes harder to guess: it spares a Pi a costly login each
// time its board reconnects.
const secretIterations = 1000

// unknownUser is what a login of an unknown user is checked against: a
// hash as costly as the costliest of pw (Iterations if pw has none), so
// that it takes as long as a wrong password and the time does not tell
// which users exist. No password matches its all-zero key.
func (pw Passwords) unknownUser() hash {
	h := hash{pbkdf2: true, salt: make([]byte, 16), key: make([]byte, 64)}
	sha := false
	for _, s := range pw {
		if p, err := parseHash(s); err == nil {
			h.iterations = max(h.iterations, p.iterations)
			sha = sha || !p.pbkdf2
		}
	}
	switch {
	case h.iterations > 0:
	case sha:
		h.pbkdf2 = false
	default:
		h.iterations = Iterations
	}
	return h
}

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
		if _, err := parseHash(hash); err != nil {
			return nil, fmt.Errorf("password file line %d (user %s): %v; create it with mosquitto_passwd", n, user, err)
		}
		pw[user] = hash
	}
	return pw, sc.Err()
}

// LoadPasswords reads a password_file from disk.
func LoadPasswords(path string) (Passwords, error) { return loadFile(path, ParsePasswords) }

// hash is a parsed password hash.
type hash struct {
	pbkdf2     bool // "$7$"; else "$6$"
	iterations int
	salt, key  []byte
}

func parseHash(h string) (hash, error) {
	parts := strings.Split(h, "$") // "", "7", iterations, salt, hash  or  "", "6", salt, hash
	var out hash
	var err1, err2 error
	switch {
	case len(parts) == 5 && parts[1] == "7":
		it, err := strconv.Atoi(parts[2])
		if err != nil || it < 1 || it > 10_000_000 {
			return out, fmt.Errorf("$7$ hash: iteration count %q: want 1 to 10000000", parts[2])
		}
		out.pbkdf2, out.iterations = true, it
		out.salt, err1 = base64.StdEncoding.DecodeString(parts[3])
		out.key, err2 = base64.StdEncoding.DecodeString(parts[4])
	case len(parts) == 4 && parts[1] == "6":
		out.salt, err1 = base64.StdEncoding.DecodeString(parts[2])
		out.key, err2 = base64.StdEncoding.DecodeString(parts[3])
	case strings.HasPrefix(h, "$argon2id$"):
		return out, errors.New("an argon2id hash, which the embedded broker does not read; make it with mosquitto_passwd -H sha512-pbkdf2")
	default:
		return out, errors.New("not a $6$ or $7$ hash")
	}
	if err1 != nil || err2 != nil || len(out.key) == 0 {
		return out, errors.New("hash: salt or key is not base64")
	}
	return out, nil
}

// matches reports whether password hashes to h, in a time that depends
// on h's cost only.
func (h hash) matches(password string) bool {
	if h.pbkdf2 {
		got, err := pbkdf2.Key(sha512.New, password, h.salt, h.iterations, len(h.key))
		return err == nil && subtle.ConstantTimeCompare(got, h.key) == 1
	}
	s := sha512.New()
	s.Write([]byte(password))
	s.Write(h.salt)
	return subtle.ConstantTimeCompare(s.Sum(nil), h.key) == 1
}

// Check reports whether password is user's. An unknown user costs as
// much as a wrong password.
func (pw Passwords) Check(user, password string) bool {
	h, err := parseHash(pw[user])
	if err != nil {
		h = pw.unknownUser()
	}
	return h.matches(password) && err == nil
}

// costly reports whether checking a password of user means a key
// derivation at a tenth of Iterations or more (a user whose password a
// person chose, or an unknown user checked as one).
func (pw Passwords) costly(user string) bool {
	h, err := parseHash(pw[user])
	if err != nil {
		h = pw.unknownUser()
	}
	return h.pbkdf2 && h.iterations >= Iterations/10
}

// Set adds or replaces a user whose password a person chose, hashed at
// Iterations with a fresh random salt.
func (pw Passwords) Set(user, password string) error {
	return pw.set(user, password, Iterations)
}

// SetGenerated adds or replaces a user with a new secret of 128 random
// bits (NewSecret) and returns it.
func (pw Passwords) SetGenerated(user string) (string, error) {
	secret, err := NewSecret()
	if err != nil {
		return "", err
	}
	return secret, pw.set(user, secret, secretIterations)
}

func (pw Passwords) set(user, password string, iterations int) error {
	// 12 bytes as mosquitto_passwd: mosquitto reads salts of 12 or 64
	// bytes only.
	salt := make([]byte, 12)
	if _, err := rand.Read(salt); err != nil {
		return fmt.Errorf("password salt: %w", err)
	}
	pw[user] = HashPasswordCost(password, salt, iterations)
	return nil
}

// NewSecret returns 128 random bits as 32 hex digits.
func NewSecret() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generating a secret: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// HashPassword makes a "$7$" hash (PBKDF2-SHA512) at Iterations, which
// mosquitto reads as it reads its own.
func HashPassword(password string, salt []byte) string {
	return HashPasswordCost(password, salt, Iterations)
}

// HashPasswordCost makes a "$7$" hash with the given iteration count.
func HashPasswordCost(password string, salt []byte, iterations int) string {
	key, _ := pbkdf2.Key(sha512.New, password, salt, iterations, 64)
	return "$7$" + strconv.Itoa(iterations) + "$" + base64.StdEncoding.EncodeToString(salt) + "$" + base64.StdEncoding.EncodeToString(key)
}
