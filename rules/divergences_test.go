package rules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/run"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
	"github.com/brenner-ci/brenner-ci/rules"
)

// A divergence row of docs/divergences.md and the example that shows it is
// true of the code. The row is found under its section heading by its first
// table cell, or by the bold text that starts a bullet ("- **key**"); it must
// contain says, so that the page and the example cannot part.
type divergenceRow struct {
	section string // a heading of the page (its text without the #s), or a prefix of it
	key     string // the row's first cell, or a bullet's bold lead
	says    []string
	// input is an example script in the format of rules/examples_run_test.go
	// ("@@ SUBJECT | FROM" messages, "@@ thread ID", "@@ file PATH").
	input string
	// want lists findings that must be reported and, prefixed with "!",
	// findings that must not be: "RULE severity text", where severity and
	// text may be left out ("!WP-001 P1 " — no WP-001 finding whose line
	// contains "P1 ").
	want []string
}

// divergenceRows are the rows executed so far; every row added or changed
// since gets its example here.
var divergenceRows = []divergenceRow{
	{
		section: "2. Rules", key: "TH-001…003",
		says: []string{"`brenner_bot-5so.3.` is TH-002 (INVALID_BEAD_ID) and TH-006"},
		input: `@@ thread brenner_bot-5so.3.
@@ CLAIM: Taking the delta parser
# Work Claim

## Item
brenner_bot-5so.3

## Agent
RedLake
@@ thread RS-2026/../x
@@ INFO: status
# Status

On track.
`,
		want: []string{
			`TH-002 error Thread id "brenner_bot-5so.3." is invalid: it is not a bead id`,
			`TH-006 error Thread id "brenner_bot-5so.3." is unsafe as a file name`,
			`TH-001 error Thread id "RS-2026/../x" is invalid`,
			`TH-006 error Thread id "RS-2026/../x" is unsafe`,
		},
	},
	{
		section: "2. Rules", key: "AP-005",
		says: []string{"is AP-005 (at its `session_id`)", "**DR-002**, brenner-ci's earlier id for the file check, is reported with it"},
		input: `@@ thread RS-20260301-quorum-timing
@@ INFO: status
# Status

On track.
@@ file artifacts/quorum-v1.md
` + persistedArtifact("RS-20260301-quorum-timing") + `@@ file artifacts/RS-20260301-quorum-timing/artifact.md
` + persistedArtifact("RS-20260301-quorum") + `@@ file artifacts/RS-20260301-quorum-timing.md
` + persistedArtifact("RS-20260301-quorum-timing"),
		want: []string{
			"AP-005 error Artifact ",
			`AP-005 quorum-v1.md belongs to thread RS-20260301-quorum-timing, so its path must be artifacts/RS-20260301-quorum-timing.md (the path names "quorum-v1").`,
			`AP-005 artifact.md has session_id "RS-20260301-quorum", but its thread is RS-20260301-quorum-timing: the session_id is the thread id.`,
			"DR-002 quorum-v1.md holds session_id",
			"DR-002 artifact.md holds session_id",
			"!AP-005 RS-20260301-quorum-timing.md:", // the well-named file
		},
	},
	{
		section: "2. Rules", key: "RF- on artifacts",
		says: []string{"with the same ids and messages", "**RF-003** (a warning) for every item, the research thread and killed items included", "RF-004 for a session that is not among the inputs"},
		input: `@@ file artifacts/RS-20260311-refs.json
{"metadata": {"session_id": "RS-20260311-refs"}, "sections": {"hypothesis_slate": [
  {"id": "H1", "name": "Threshold", "claim": "A fixed concentration.", "references": {"session": "RS-20260310-notes", "item": "H1", "relation": "extends"}},
  {"id": "H2", "name": "Timer", "claim": "A fixed delay.", "killed": true, "references": [{"session": "RS-20260310-notes", "item": "H2", "relation": "builds_on"}]},
  {"id": "H3", "name": "Neither", "claim": "The rate of change.", "references": [{"session": "RS-20260310-notes", "item": "H9", "relation": "informed_by"}, {"session": "RS-20251101-elsewhere", "item": "H1", "relation": "refutes"}]}
]}}
@@ file artifacts/RS-20260310-notes.md
` + persistedArtifact("RS-20260310-notes") + `## 2. Hypothesis Slate

### H1: Threshold
**Claim**: A fixed concentration.

### H2: Timer
**Claim**: A fixed delay.
`,
		want: []string{
			"RF-003 warning H1.references is an object, not an array of {session, item, relation} objects; it is ignored.",
			`RF-003 warning H2.references[0] has relation "builds_on", which is not one of`,
			"RF-001 warning H3 references H9 in session RS-20260310-notes, which has no such item.",
			"RF-004 note H3 references H1 in session RS-20251101-elsewhere, which is not among the inputs",
			"!RF-001 H2 references H2", // H2 of the markdown artifact exists
		},
	},
	{
		section: "2. Scope decisions", key: "WP-001",
		says: []string{`"Not all cells in a row are identical"`, "`A \\| A \\| ?` discriminates", "an empty cell is a cell"},
		input: "@@ file artifacts/RS-20260310-rows.md\n" + rowsArtifact(
			"| P1 | Pulse | Switch on | Switch on | ? |",
			"| P2 | Ramp | — | — | — |",
			"| P3 | Dark | Switch on |  |  |",
			"| P4 | Dose | Switch on | switch on. | **Switch on** |",
		),
		want: []string{
			"!WP-001 P1 ", "!WP-001 P3 ",
			"WP-001 warning P2 gives no outcome for any hypothesis",
			`WP-001 warning P4 does not discriminate: H1, H2 and H3 all predict "Switch on"`,
		},
	},
	{
		section: "JSON and structure", key: "A KILL without a reason (DL-011)",
		says: []string{"is applied, with a warning", "KILL: Optional", "is an error (DL-004) and the KILL is rejected"},
		input: addH1 + `@@ DELTA[gpt]: Kill H1
` + "```delta" + `
{"operation": "KILL", "section": "hypothesis_slate", "target_id": "H1"}
` + "```" + `
@@ DELTA[gpt]: Kill H2
` + "```delta" + `
{"operation": "KILL", "section": "hypothesis_slate", "target_id": "H2", "payload": {"reason": 7}}
` + "```" + `
@@ DELTA[gpt]: Edit H1
` + "```delta" + `
{"operation": "EDIT", "section": "hypothesis_slate", "target_id": "H1", "payload": {"claim": "Lineage, revised"}}
` + "```" + `
`,
		want: []string{
			"DL-011 warning KILL has no payload with a reason; the KILL is applied",
			"MG-002 warning", // H1 was killed: the EDIT after it is skipped
			"DL-004 error KILL reason is a number, not a string; the block is rejected.",
		},
	},
	{
		section: "Merge (upstream", key: "15",
		says: []string{"Same: the KILL is rejected (DL-004, an error) and the item stays alive"},
		input: addH1 + `@@ DELTA[gpt]: Kill H1
` + "```delta" + `
{"operation": "KILL", "section": "hypothesis_slate", "target_id": "H1", "payload": {"reason": {"text": "refuted"}}}
` + "```" + `
@@ DELTA[gpt]: Edit H1
` + "```delta" + `
{"operation": "EDIT", "section": "hypothesis_slate", "target_id": "H1", "payload": {"claim": "Lineage, revised"}}
` + "```" + `
`,
		want: []string{
			"DL-004 error KILL reason is an object, not a string; the block is rejected.",
			"!MG-002", // H1 is alive: the EDIT applies
			"!DL-011",
		},
	},
	{
		section: "Merge (upstream", key: "12",
		says: []string{"Same: dropped, with a DL-012 warning at the key"},
		input: addH1 + `@@ DELTA[gpt]: H2
` + "```delta" + `
{"operation": "ADD", "section": "hypothesis_slate", "target_id": null, "payload": {"__proto__": {"verified": true}, "name": "Gradient", "claim": "Fate follows position", "mechanism": "Cells read a field", "anchors": ["§205"], "notes": {"constructor": 1}}}
` + "```" + `
@@ DELTA[gpt]: Edit H2
` + "```delta" + `
{"operation": "EDIT", "section": "hypothesis_slate", "target_id": "H2", "payload": {"claim": "Fate follows position, revised", "id": "H9"}}
` + "```" + `
`,
		want: []string{
			`DL-012 warning Payload key "__proto__" is dropped`,
			`!DL-012 Payload key "constructor"`, // inside a value
			`!DL-012 Payload key "id"`,          // the merge's own key
			"!DL-004", "!MG-001",                // the ADD applied: H2 exists
		},
	},
	{
		section: "3. Evidence packs", key: "EV-001",
		says: []string{"Without a pack no citation resolves", "A **warning**, not an error", `If it doesn't, treat the statement as ` + "`[inference]`"},
		input: "@@ file artifacts/RS-20260310-rows.md\n" + strings.Replace(rowsArtifact(
			"| P1 | Pulse | Switch on | No switch | indeterminate |",
		), "**Anchors**: §57", "**Anchors**: §57, EV-004#E2", 1),
		want: []string{
			"EV-001 warning Citation EV-004#E2 cannot be resolved: the artifact has no evidence pack.",
			"!EV-001 error",
		},
	},
}

// addH1 is a DELTA message that adds H1.
const addH1 = `@@ DELTA[gpt]: H1
` + "```delta" + `
{"operation": "ADD", "section": "hypothesis_slate", "target_id": null, "payload": {"name": "Lineage", "claim": "Lineage explains fate", "mechanism": "Determinants are partitioned", "anchors": ["§42"]}}
` + "```" + `
`

// persistedArtifact is the start of a persisted artifact of session sid
// (front matter and title: enough to be paired with its thread).
func persistedArtifact(sid string) string {
	return "---\nsession_id: \"" + sid + "\"\nversion: 1\ncompiled_at: \"2026-03-01T11:00:00Z\"\ncompiled_by: \"LindenFox\"\n---\n\n# Brenner Protocol Artifact: " + sid + "\n\n"
}

// rowsArtifact is a persisted artifact with three hypotheses and the given
// prediction rows.
func rowsArtifact(rows ...string) string {
	return `---
session_id: "RS-20260310-rows"
created_at: "2026-03-10T09:00:00Z"
version: 1
contributors:
  - agent: "AmberFox"
status: "active"
---

# Brenner Protocol Artifact: RS-20260310-rows

## 2. Hypothesis Slate

### H1: Concentration threshold
**Claim**: Luminescence switches on above a threshold concentration.
**Anchors**: §42

### H2: Exposure-time integrator
**Claim**: Luminescence switches on after a fixed integrated exposure.
**Anchors**: §57

### H3: Third Alternative
**Claim**: Cells respond to the rate of change.
**Anchors**: inference

## 3. Predictions Table

| ID | Observation/Condition | H1 | H2 | H3 |
|----|----|----|----|----|
` + strings.Join(rows, "\n") + "\n"
}

// TestDivergenceRows: each row of docs/divergences.md listed in
// divergenceRows says what its example shows, through the real check flow.
func TestDivergenceRows(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(t), "docs", "divergences.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range divergenceRows {
		t.Run(row.key, func(t *testing.T) {
			text := findDivergenceRow(string(doc), row.section, row.key)
			if text == "" {
				t.Fatalf("docs/divergences.md has no row %q under a heading %q", row.key, row.section)
			}
			for _, s := range row.says {
				if !strings.Contains(text, s) {
					t.Errorf("the row %q does not say %q:\n%s", row.key, s, text)
				}
			}
			got := divergenceFindings(t, row.input)
			for _, w := range row.want {
				absent := strings.HasPrefix(w, "!")
				rule, rest, _ := strings.Cut(strings.TrimPrefix(w, "!"), " ")
				if sev, text, ok := strings.Cut(rest, " "); ok && (sev == "error" || sev == "warning" || sev == "note") {
					rest = sev + ": " + text
				}
				found := ""
				for _, f := range got {
					if strings.HasSuffix(f, "["+rule+"]") && strings.Contains(f, rest) {
						found = f
						break
					}
				}
				switch {
				case absent && found != "":
					t.Errorf("reported, but the row says it is not: %s", found)
				case !absent && found == "":
					t.Errorf("no finding %q; the findings were:\n%s", w, strings.Join(got, "\n"))
				}
			}
		})
	}
}

// findDivergenceRow returns the table row or bullet of the page with key
// under a heading that starts with section ("" when there is none).
func findDivergenceRow(doc, section, key string) string {
	in := false
	var bullet []string // a bullet and its continuation lines
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "#") {
			if len(bullet) > 0 {
				break
			}
			in = strings.HasPrefix(strings.TrimSpace(strings.TrimLeft(line, "#")), section)
			continue
		}
		if !in {
			continue
		}
		if strings.HasPrefix(line, "|") && len(bullet) == 0 {
			cells := strings.SplitN(line, " | ", 2)
			if strings.TrimSpace(strings.TrimPrefix(cells[0], "|")) == key {
				return line
			}
		}
		if strings.HasPrefix(line, "- **"+key+"**") {
			bullet = append(bullet, line)
			continue
		}
		if len(bullet) > 0 {
			if !strings.HasPrefix(line, "  ") {
				break
			}
			bullet = append(bullet, strings.TrimSpace(line))
		}
	}
	return strings.Join(bullet, " ")
}

// divergenceFindings runs the example script through check (every rule,
// the configuration found as check finds it) and returns the findings'
// lines, "path:line:col: severity: message [ID]".
func divergenceFindings(t *testing.T, script string) []string {
	t.Helper()
	dir := t.TempDir()
	writeExample(t, rules.Lookup("MB-001"), script, dir)
	first := dir
	if fi, err := os.Stat(filepath.Join(dir, "mailbox")); err == nil && fi.IsDir() {
		first = filepath.Join(dir, "mailbox")
	}
	_, out, err := run.LintTree(dir, first, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range out.Findings {
		got = append(got, f.String())
	}
	return got
}

// A divergenceRef names a row of docs/divergences.md: the heading it is
// under (or a prefix of it) and its key (a table row's first cell, or a
// bullet's bold lead); a key of "" names a heading's prose (a section
// without rows).
type divergenceRef struct{ section, key string }

func (r divergenceRef) String() string { return r.section + " > " + r.key }

// divergenceTableRows lists every row of the page: the table rows (not the
// header or separator) and the "- **key**" bullets, with their heading.
func divergenceTableRows(doc string) []divergenceRef {
	var rows []divergenceRef
	heading := ""
	header := false // the next table line is a header
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "#"):
			heading = strings.TrimSpace(strings.TrimLeft(line, "#"))
			header = true
		case strings.HasPrefix(line, "|"):
			if header {
				header = false // the header row
				continue
			}
			if strings.Trim(line, "|- ") == "" {
				continue // the separator
			}
			cells := strings.SplitN(line, " | ", 2)
			rows = append(rows, divergenceRef{heading, strings.TrimSpace(strings.TrimPrefix(cells[0], "|"))})
		case strings.HasPrefix(line, "- **"):
			key, _, ok := strings.Cut(strings.TrimPrefix(line, "- **"), "**")
			if ok {
				rows = append(rows, divergenceRef{heading, key})
			}
		default:
			if strings.TrimSpace(line) != "" {
				header = header && !strings.HasPrefix(line, "|")
			}
		}
	}
	return rows
}

// referenceDivergences are the "divergence: <heading> > <key>" lines of
// the reference suite's cases (testdata/reference/<area>/<case>/expect.txt).
func referenceDivergences(t *testing.T) map[divergenceRef][]string {
	t.Helper()
	root := filepath.Join(testutil.ModuleRoot(t), "testdata", "reference")
	refs := map[divergenceRef][]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "expect.txt" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		for _, line := range strings.Split(string(data), "\n") {
			ref, ok := strings.CutPrefix(line, "divergence: ")
			if !ok {
				continue
			}
			section, key, _ := strings.Cut(ref, " > ")
			r := divergenceRef{strings.TrimSpace(section), strings.TrimSpace(key)}
			refs[r] = append(refs[r], filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return refs
}

// TestDivergenceRowsExecuted: every row of docs/divergences.md is executed
// by a test, through the real check flow: an example of divergenceRows
// above, or a case of the reference suite (internal/run/reference_test.go)
// whose expect.txt names the row ("divergence: <heading> > <key>"). A row
// added without either fails here, and so does a case naming a row the page
// does not have.
func TestDivergenceRowsExecuted(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(t), "docs", "divergences.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	rows := divergenceTableRows(doc)
	if len(rows) < 100 {
		t.Fatalf("docs/divergences.md has %d rows: the page's tables were not read", len(rows))
	}
	matches := func(ref divergenceRef, row divergenceRef) bool {
		return strings.HasPrefix(row.section, ref.section) && row.key == ref.key
	}
	refs := referenceDivergences(t)
	var covered []divergenceRef
	for _, r := range divergenceRows {
		covered = append(covered, divergenceRef{r.section, r.key})
	}
	for ref, cases := range refs {
		if ref.key == "" {
			if !hasHeading(doc, ref.section) {
				t.Errorf("%s names the heading %q, which docs/divergences.md does not have", strings.Join(cases, ", "), ref.section)
			}
			continue
		}
		n := 0
		for _, row := range rows {
			if matches(ref, row) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s names the row %q, which matches %d rows of docs/divergences.md (not one)", strings.Join(cases, ", "), ref, n)
		}
		covered = append(covered, ref)
	}
	for _, row := range rows {
		ok := false
		for _, c := range covered {
			if matches(c, row) {
				ok = true
				break
			}
		}
		if !ok {
			t.Errorf("the row %q of docs/divergences.md is executed by no test: add an example to divergenceRows or name it in a reference case's expect.txt (divergence: %s)", row, row)
		}
	}
}

// hasHeading reports whether the page has a heading starting with prefix.
func hasHeading(doc, prefix string) bool {
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "#") && strings.HasPrefix(strings.TrimSpace(strings.TrimLeft(line, "#")), prefix) {
			return true
		}
	}
	return false
}
