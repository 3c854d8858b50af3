package config_test

import (
	"os"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/rules"
)

// TestREADMEConfigExample: the configuration shown in README.md parses
// strictly, with every rule id it names known.
func TestREADMEConfigExample(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, "## Configuration")
	if i < 0 {
		t.Fatal("README has no Configuration section")
	}
	start := strings.Index(s[i:], "```yaml\n")
	if start < 0 {
		t.Fatal("no yaml block in the Configuration section")
	}
	block := s[i+start+len("```yaml\n"):]
	block = block[:strings.Index(block, "```")]
	c, err := config.Parse("README.md", []byte(block), rules.Known)
	if err != nil {
		t.Fatalf("README's configuration does not parse: %v\n%s", err, block)
	}
	if c.Limits.FileBytes == 0 || len(c.Suppress) == 0 {
		t.Errorf("parsed %+v", c)
	}
}
