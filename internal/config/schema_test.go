package config

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules"
)

const schemaFile = "../../docs/brenner-ci.schema.json"

// schema compiles docs/brenner-ci.schema.json with a JSON Schema validator.
func schema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("brenner-ci.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("brenner-ci.schema.json")
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return s
}

// validate checks a YAML configuration against the schema, as an editor
// does: the YAML read as JSON values.
func validate(t *testing.T, s *jsonschema.Schema, src string) error {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(src), &v); err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%q as JSON: %v", src, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(inst)
}

// readmeConfig is the configuration README.md shows.
func readmeConfig(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, "## Configuration")
	start := strings.Index(s[i:], "```yaml\n")
	if i < 0 || start < 0 {
		t.Fatal("README has no yaml block in its Configuration section")
	}
	block := s[i+start+len("```yaml\n"):]
	return block[:strings.Index(block, "```")]
}

// TestSchemaAcceptsWhatTheParserAccepts: the README's configuration and
// every configuration in testdata are valid under the schema (and parse).
func TestSchemaAcceptsWhatTheParserAccepts(t *testing.T) {
	s := schema(t)
	files := map[string]string{"README.md": readmeConfig(t)}
	err := filepath.WalkDir("../../testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && slices.Contains(FileNames[:], d.Name()) {
			data, err := os.ReadFile(path)
			files[path] = string(data)
			return err
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 5 {
		t.Fatalf("only %d configurations found", len(files))
	}
	for name, src := range files {
		if _, err := Parse(name, []byte(src), rules.Known); err != nil {
			t.Errorf("%s does not parse: %v", name, err)
		}
		if err := validate(t, s, src); err != nil {
			t.Errorf("%s is not valid under the schema: %v", name, err)
		}
	}
}

// TestSchemaRejectsWhatTheParserRejects: an unknown key at any depth, an
// unknown fail-on or severity, a malformed rule id, a negative limit and a
// suppression without its thread are invalid under the schema, as they
// are configuration errors.
func TestSchemaRejectsWhatTheParserRejects(t *testing.T) {
	s := schema(t)
	for _, src := range []string{
		"bogus: 1\n",
		"fail_on: warning\n",
		"rules: {MB-001: {enable: false}}\n",
		"rules: {MB-001: loud}\n",
		"rules: {mb-001: off}\n",
		"fail-on: sometimes\n",
		"limits: {file_bytes: 3}\n",
		"limits: {json-depth: -1}\n",
		"overrides:\n  - paths: [a]\n    rule: {MB-001: off}\n",
		"overrides:\n  - paths: [a]\n    rules: {MB-001: {severty: note}}\n",
		"suppress:\n  - {rule: MB-002, thread: x, mesage: \"1\"}\n",
		"suppress:\n  - {rule: MB-002}\n",
		"agents: A\n",
	} {
		if err := validate(t, s, src); err == nil {
			t.Errorf("%q is valid under the schema", src)
		}
		if _, err := Parse("c.yaml", []byte(src), rules.Known); err == nil {
			t.Errorf("%q parses", src)
		}
	}
}

// TestSchemaKeysAreTheFileFormat: the schema names the keys the parser
// knows at every depth, the registry's rule id pattern, and only values
// the parser accepts.
func TestSchemaKeysAreTheFileFormat(t *testing.T) {
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	get := func(v any, path ...string) any {
		for _, k := range path {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		return v
	}
	defs := get(doc, "definitions")
	props := func(v any) []string {
		var out []string
		for k := range get(v, "properties").(map[string]any) {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	goKeys := func(v any) []string {
		_, names := yamlFields(reflect.TypeOf(v))
		names = slices.Clone(names)
		slices.Sort(names)
		return names
	}
	ruleObj := get(defs, "ruleSettings", "additionalProperties", "oneOf").([]any)[2]
	for _, c := range []struct {
		name   string
		schema any
		goType any
	}{
		{"top level", doc, Config{}},
		{"overrides[]", get(doc, "properties", "overrides", "items"), Override{}},
		{"suppress[]", get(doc, "properties", "suppress", "items"), Suppression{}},
		{"limits", get(doc, "properties", "limits"), Limits{}},
		{"rules.ID", ruleObj, RuleCf{}},
	} {
		if s, g := props(c.schema), goKeys(c.goType); !slices.Equal(s, g) {
			t.Errorf("%s: the schema has %v, the parser %v", c.name, s, g)
		}
		if get(c.schema, "additionalProperties") != false {
			t.Errorf("%s: the schema allows unknown keys", c.name)
		}
	}
	for _, p := range []any{get(defs, "ruleSettings", "propertyNames", "pattern"), get(doc, "properties", "suppress", "items", "properties", "rule", "pattern")} {
		if p != rules.IDPattern.String() {
			t.Errorf("rule id pattern %v, the registry's %s", p, rules.IDPattern)
		}
	}
	for _, v := range get(doc, "properties", "fail-on", "enum").([]any) {
		if _, ok := ParseFailOn(v.(string)); !ok {
			t.Errorf("fail-on %v is not accepted", v)
		}
	}
	for _, v := range get(defs, "severity", "enum").([]any) {
		if _, ok := diag.ParseSeverity(v.(string)); !ok {
			t.Errorf("severity %v is not accepted", v)
		}
	}
}
