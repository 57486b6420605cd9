package rules

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated tables of docs/rules.md")

const (
	docPath     = "../docs/rules.md"
	beginMarker = "<!-- BEGIN GENERATED: go test ./rules -run TestRulesDoc -update -->\n"
	endMarker   = "<!-- END GENERATED -->\n"
)

// TestRulesDoc fails when the tables in docs/rules.md differ from the
// profile data; go test ./rules -run TestRulesDoc -update rewrites them.
func TestRulesDoc(t *testing.T) {
	data, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i := strings.Index(doc, beginMarker)
	j := strings.Index(doc, endMarker)
	if i < 0 || j < i {
		t.Fatalf("%s: generated section markers missing", docPath)
	}
	want := renderProfileTables()
	got := doc[i+len(beginMarker) : j]
	if got == want {
		return
	}
	if *update {
		doc = doc[:i+len(beginMarker)] + want + doc[j:]
		if err := os.WriteFile(docPath, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %s", docPath)
		return
	}
	t.Errorf("%s is out of date with the profile data; run go test ./rules -run TestRulesDoc -update", docPath)
}
