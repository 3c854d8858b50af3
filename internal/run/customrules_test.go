package run

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/internal/gen"
)

// customConfig declares one custom rule of each scope.
const customConfig = `custom-rules:
  - id: LAB-001
    name: b-agent-delta
    scope: message
    severity: warning
    when: message.type == "DELTA" && message.from.startsWith("S")
    message: "{{ message.from }} posted delta {{ message.id }}"
    short: A DELTA from an agent whose name starts with S.
  - id: LAB-002
    name: critiqued-twice
    scope: thread
    severity: note
    when: '"CRITIQUE" in thread.types && thread.types["CRITIQUE"] >= 2'
    message: "{{ thread.id }} has {{ thread.types['CRITIQUE'] }} critiques"
    short: A thread critiqued twice or more.
  - id: LAB-003
    name: killed-hypothesis
    scope: item
    severity: note
    when: item.section == "hypothesis_slate" && item.status == "killed"
    message: "{{ item.id }} of {{ thread.id }} is killed"
    short: A killed hypothesis.
  - id: LAB-004
    name: many-tests
    scope: artifact
    severity: warning
    when: artifact.items.filter(i, i.section == "discriminative_tests").size() >= 2
    message: "{{ artifact.session }} lists {{ artifact.items.filter(i, i.section == 'discriminative_tests').size() }} tests"
    short: An artifact with two tests or more.
`

// TestCustomRulesSelectExactlyTheirCondition: on a generated corpus, each
// scope's findings are exactly those its condition selects, computed here
// from the files with encoding/json and regular expressions, not through
// the compiler; the messages are rendered.
func TestCustomRulesSelectExactlyTheirCondition(t *testing.T) {
	dir := t.TempDir()
	if _, err := gen.WriteCorpus(dir, gen.Options{Seed: 7, Threads: 60, FaultRate: 0.2}); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.WriteArtifacts(dir, 2); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(dir, ".brenner-ci.yaml")
	if err := os.WriteFile(cfgPath, []byte(customConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{}
	add := func(id, s string) { want[id] = append(want[id], s) }

	threads, _ := filepath.Glob(filepath.Join(dir, "threads", "*.json"))
	for _, f := range threads {
		var ex struct {
			ThreadID string `json:"thread_id"`
			Messages []struct {
				ID      int    `json:"id"`
				Subject string `json:"subject"`
				From    string `json:"from"`
			} `json:"messages"`
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &ex); err != nil {
			t.Fatal(err)
		}
		critiques := 0
		for _, m := range ex.Messages {
			if strings.HasPrefix(m.Subject, "DELTA[") && strings.HasPrefix(m.From, "S") {
				add("LAB-001", fmt.Sprintf("%s posted delta %d", m.From, m.ID))
			}
			if strings.HasPrefix(m.Subject, "CRITIQUE:") {
				critiques++
			}
		}
		if critiques >= 2 {
			add("LAB-002", fmt.Sprintf("%s has %d critiques", ex.ThreadID, critiques))
		}
	}
	killed := regexp.MustCompile(`(?m)^### ~~(H\d+):`)
	test := regexp.MustCompile(`(?m)^### (?:~~)?T\d+:`)
	arts, _ := filepath.Glob(filepath.Join(dir, "artifacts", "*.md"))
	for _, f := range arts {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		session := strings.TrimSuffix(filepath.Base(f), ".md")
		// The persisted artifact is the thread's compiled one: its killed
		// hypotheses are the thread's.
		for _, m := range killed.FindAllStringSubmatch(string(data), -1) {
			add("LAB-003", fmt.Sprintf("%s of %s is killed", m[1], session))
		}
		if n := len(test.FindAllString(string(data), -1)); n >= 2 {
			add("LAB-004", fmt.Sprintf("%s lists %d tests", session, n))
		}
	}

	res, err := config.Resolve(cfgPath, dir, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	plan := NewPlan([]string{dir}, res, 2)
	_, out, err := plan.Lint()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, f := range out.Findings {
		if strings.HasPrefix(f.Rule, "LAB-") {
			got[f.Rule] = append(got[f.Rule], f.Message)
		}
	}
	for _, id := range []string{"LAB-001", "LAB-002", "LAB-003", "LAB-004"} {
		w, g := slices.Sorted(slices.Values(want[id])), slices.Sorted(slices.Values(got[id]))
		if len(w) == 0 {
			t.Errorf("%s: the corpus has no case of the condition: the test shows nothing", id)
		}
		if !slices.Equal(w, g) {
			t.Errorf("%s: findings differ from the condition's selection\nwant %d: %q\ngot  %d: %q", id, len(w), w, len(g), g)
		}
	}
}
