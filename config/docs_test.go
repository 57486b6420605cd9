package config

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/boardd/boardd/sensors"
)

// The configuration the guides show must be the one boardd reads: every
// key they name exists, every value they give for a key loads, every
// TOML example loads, and every sensor design they name is one
// 'boardd calibrate --design' knows. A documented key that does not exist
// fails here.
func TestDocsConfigurationRuns(t *testing.T) {
	for _, name := range []string{"install.md", "config.md", "broadcast.md"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "docs", name))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range docConfigProblems(string(data)) {
				t.Errorf("docs/%s: %s", name, p)
			}
		})
	}
}

var (
	docKeyRe     = regexp.MustCompile(`^([a-z0-9_]+)\.([a-z0-9_*]+)(?:\s*=\s*(.+))?$`)
	docTickRe    = regexp.MustCompile("`([^`]+)`")
	docSetRe     = regexp.MustCompile(`--set[ =]([a-z0-9_]+\.[a-z0-9_]+)=("[^"]*"|'[^']*'|\S+)`)
	docEnvRe     = regexp.MustCompile(`\bBOARDD_([A-Z0-9]+)_([A-Z0-9_]+)=`)
	docDesignRe  = regexp.MustCompile(`(?i)designs?(?: names?)?\s*(?:\([^)]*\))?:?\s*((?:` + "`[^`]+`" + `(?:,\s*|\s+or\s+|\s+and\s+)?)+)`)
	docDesignArg = regexp.MustCompile(`--design[ =]([a-z0-9-]+)`)
	docSectionRe = regexp.MustCompile(`^## \[([a-z0-9_]+)\]`)
	docRowRe     = regexp.MustCompile("^\\|\\s*`([^`]+)`\\s*\\|(.*)$")
)

// docConfigProblems checks one guide; it returns what is wrong, each
// naming the line.
func docConfigProblems(doc string) []string {
	cfg := Default()
	keys := map[string]bool{}
	sections := map[string]bool{}
	for _, f := range configFields(&cfg) {
		keys[f.key] = true
		sections[f.section] = true
	}
	var out []string
	bad := func(line int, format string, args ...any) {
		out = append(out, fmt.Sprintf("line %d: %s", line, fmt.Sprintf(format, args...)))
	}
	noEnv := func(string) string { return "" }
	loads := func(key, value string) error {
		value = strings.Trim(value, `"'`)
		sets := []string{key + "=" + value}
		if key == "sensors.kind" && value == "hardware" {
			// A hardware board needs its sensors file, which the guides
			// write in a step of their own: a reference one stands in.
			f, err := referenceSensorsFile()
			if err != nil {
				return err
			}
			defer os.Remove(f)
			sets = append(sets, "sensors.file="+f)
		}
		_, err := Load("", noEnv, sets)
		return err
	}
	// isKey reports whether s names a configuration key (section.key or
	// section.*), and checks it.
	isKey := func(line int, s string) (string, bool) {
		m := docKeyRe.FindStringSubmatch(strings.TrimSpace(s))
		if m == nil || !sections[m[1]] {
			return "", false
		}
		key := m[1] + "." + m[2]
		if m[2] != "*" && !keys[key] {
			bad(line, "`%s`: no such configuration key", key)
			return key, true
		}
		if m[3] != "" && m[2] != "*" {
			if err := loads(key, m[3]); err != nil {
				bad(line, "`%s`: %v", s, err)
			}
		}
		return key, true
	}
	checkDesigns := func(line int, text string) {
		var names []string
		for _, m := range docDesignRe.FindAllStringSubmatch(text, -1) {
			for _, n := range docTickRe.FindAllStringSubmatch(m[1], -1) {
				names = append(names, n[1])
			}
		}
		for _, m := range docDesignArg.FindAllStringSubmatch(text, -1) {
			names = append(names, m[1])
		}
		for _, n := range names {
			if _, err := sensors.DefaultConfig(n); err != nil {
				bad(line, "sensor design %q: %v", n, err)
			}
		}
	}
	lines := strings.Split(doc, "\n")
	fence, lang, section := "", "", ""
	var block []string
	blockStart := 0
	for i, l := range lines {
		n := i + 1
		trimmed := strings.TrimSpace(l)
		if strings.HasPrefix(trimmed, "```") {
			if fence == "" {
				fence, lang, block, blockStart = "```", strings.TrimPrefix(trimmed, "```"), nil, n
				continue
			}
			if lang == "toml" {
				f, err := os.CreateTemp("", "boardd-doc-*.toml")
				if err == nil {
					f.WriteString(strings.Join(block, "\n"))
					f.Close()
					if _, err := Load(f.Name(), noEnv, nil); err != nil {
						bad(blockStart, "TOML example does not load: %v", err)
					}
					os.Remove(f.Name())
				}
			}
			fence = ""
			continue
		}
		checkDesigns(n, l)
		for _, m := range docSetRe.FindAllStringSubmatch(l, -1) {
			if m[1] == "section.key" {
				continue // the syntax, not a key
			}
			if !keys[m[1]] {
				bad(n, "--set %s: no such configuration key", m[1])
			} else if err := loads(m[1], m[2]); err != nil {
				bad(n, "--set %s=%s: %v", m[1], m[2], err)
			}
		}
		for _, m := range docEnvRe.FindAllStringSubmatch(l, -1) {
			sec := strings.ToLower(m[1])
			if !sections[sec] || m[2] == "SECTION" {
				continue // not a configuration variable (BOARDD_PUSH_TOKEN)
			}
			if key := sec + "." + strings.ToLower(m[2]); !keys[key] {
				bad(n, "BOARDD_%s_%s: no configuration key %s", m[1], m[2], key)
			}
		}
		if fence != "" {
			block = append(block, l)
			continue
		}
		if m := docSectionRe.FindStringSubmatch(l); m != nil {
			section = m[1]
			if !sections[section] {
				bad(n, "[%s]: no such section", section)
			}
			continue
		}
		if strings.HasPrefix(l, "## ") {
			section = ""
		}
		// The reference's rows: `key` | `default` | meaning.
		if m := docRowRe.FindStringSubmatch(l); m != nil && section != "" {
			key := section + "." + m[1]
			if !keys[key] {
				bad(n, "[%s] %s: no such configuration key", section, m[1])
				continue
			}
			def := docTickRe.FindStringSubmatch(m[2])
			if def == nil {
				bad(n, "%s: no default shown", key)
				continue
			}
			f, err := os.CreateTemp("", "boardd-doc-*.toml")
			if err != nil {
				continue
			}
			fmt.Fprintf(f, "[%s]\n%s = %s\n", section, m[1], def[1])
			f.Close()
			if _, err := Load(f.Name(), noEnv, nil); err != nil {
				bad(n, "%s = %s: %v", key, def[1], err)
			}
			os.Remove(f.Name())
			continue
		}
		// A guide's rows: `section.key` | what to set it to, with values
		// in backticks; a value belongs to the key named last before it.
		if m := docRowRe.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			if key, ok := isKey(n, m[1]); ok {
				for _, tk := range docTickRe.FindAllStringSubmatch(m[2], -1) {
					if k, ok := isKey(n, tk[1]); ok {
						key = k
						continue
					}
					v := tk[1]
					if strings.HasSuffix(key, ".*") || !keys[key] || strings.ContainsAny(v, " <>") || strings.HasPrefix(v, "/") && !strings.HasSuffix(key, "file") && !strings.HasSuffix(key, "dir") {
						continue // prose, a placeholder or a URL path, not a value
					}
					if err := loads(key, v); err != nil {
						bad(n, "%s = %s: %v", key, v, err)
					}
				}
				continue
			}
		}
		for _, tk := range docTickRe.FindAllStringSubmatch(l, -1) {
			isKey(n, tk[1])
		}
	}
	return out
}

// The checker itself: the mistakes the install guide once had are found.
func TestDocsConfigurationChecker(t *testing.T) {
	doc := "   | `sensors.kind` | the board's design: `matrix`, `mcp23017`, `hc165`, `hall-ads1115` or `hall-mcp3008` |\n" +
		"   | `sensors.wiring` | the file `boardd calibrate` wrote |\n" +
		"Set `game.round = 3` and `clock.kind = lever`, then `clock.kind = stopwatch`.\n" +
		"```toml\n[game]\nround = \"3\"\nrounds = 9\n```\n" +
		"```sh\nboardd run --set game.board_no=7 --set game.colour=white\nBOARDD_GAME_ROUND=3 BOARDD_GAME_ROUNDS=9 BOARDD_PUSH_TOKEN=x\n```\n" +
		"## [http]\n\n| key | default | meaning |\n| --- | --- | --- |\n| `listen` | `\"127.0.0.1:8080\"` | x |\n| `port` | `8080` | x |\n"
	got := strings.Join(docConfigProblems(doc), "\n")
	for _, want := range []string{
		`line 1: sensors.kind = matrix`, `sensor design "hall-ads1115"`, `sensor design "hall-mcp3008"`,
		"line 2: `sensors.wiring`: no such configuration key",
		"line 3: `clock.kind = stopwatch`",
		"line 4: TOML example does not load", "--set game.colour: no such", "BOARDD_GAME_ROUNDS",
		"[http] port: no such configuration key",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the checker missed %q; it found:\n%s", want, got)
		}
	}
	for _, wrong := range []string{"game.round = 3`:", "clock.kind = lever", "game.board_no", "BOARDD_PUSH", "BOARDD_GAME_ROUND:", "[http] listen", "sensor design \"matrix\"", "sensor design \"hc165\""} {
		if strings.Contains(got, wrong) {
			t.Errorf("the checker flagged %q, which is right:\n%s", wrong, got)
		}
	}
}

// referenceSensorsFile writes the reference matrix board's sensors file
// to a temporary file and returns its name.
func referenceSensorsFile() (string, error) {
	sc, err := sensors.DefaultConfig("matrix")
	if err != nil {
		return "", err
	}
	b, err := sc.Marshal()
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp("", "boardd-sensors-*.json")
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		return "", err
	}
	return f.Name(), nil
}
