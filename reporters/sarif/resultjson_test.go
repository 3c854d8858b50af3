package sarif

import (
	"bytes"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/reporters"
	"github.com/brenner-ci/brenner-ci/reporters/internal/fixture"
)

// plainResult is what appendResult must write: encoding/json's encoding of
// go-sarif's structure of the result.
func plainResult(t testing.TB, r *diag.Report, i, ruleIndex int, fi reporters.FileInfo, paths *reporters.Paths) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := encode(&buf, result(r, i, ruleIndex, fi, paths)); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'})
}

// sameResult checks appendResult against plainResult for every finding of
// r (without a baseline, and with one where every other finding is old),
// appended after bytes already in the buffer.
func sameResult(t testing.TB, r *diag.Report, ruleIndex int) {
	t.Helper()
	paths := reporters.PathsFor(r)
	old := map[string]bool{}
	for i, fp := range r.Fingerprints {
		if i%2 == 0 {
			old[fp] = true
		}
	}
	for _, baseline := range []map[string]bool{nil, old} {
		r.CompareWith(baseline)
		for i := range r.Findings {
			fi := paths.File(r.Findings[i].Pos.File)
			want := plainResult(t, r, i, ruleIndex, fi, paths)
			got := appendResult([]byte("[x,"), r, i, ruleIndex, fi, paths)
			if !bytes.HasPrefix(got, []byte("[x,")) || !bytes.Equal(got[3:], want) {
				t.Fatalf("finding %+v (baseline %v):\nappendResult %s\nencoding/json %s", r.Findings[i], baseline != nil, got, want)
			}
		}
	}
}

// TestResultJSON: the results of findings with every optional part of a
// result present and absent, texts that need escaping, and positions the
// region is clamped from.
func TestResultJSON(t *testing.T) {
	root := fixture.Repo(t)
	fix := func(file, desc, text string, line int) *diag.Fix {
		return &diag.Fix{Description: desc, Text: text, Pos: diag.Pos{File: file, Line: line, Col: 2, EndLine: line + 1, EndCol: 3}}
	}
	findings := []diag.Finding{
		{Rule: "MG-001", Code: "INVALID_TARGET", Severity: diag.Error, Message: "Delta targets H9.", Hint: "Target H1.",
			Pos: diag.Pos{File: "threads/alpha.json", Line: 4, Col: 5, EndLine: 4, EndCol: 13}, Thread: "alpha", MsgID: "m1"},
		{Rule: "MG-001", Code: "MG-001", Severity: diag.Warning, Message: "code equal to the rule id", Pos: diag.Pos{File: "threads/alpha.json", Line: 2}},
		{Rule: "", Severity: diag.Note, Message: "", Pos: diag.Pos{File: "artifacts/beta.md"}},
		{Rule: "TH-002", Severity: diag.Off, Message: "  ", Hint: "hint only", Pos: diag.Pos{File: "artifacts/beta.md", Line: 900, Col: 40, EndLine: 999, EndCol: 1}, MsgID: "only a message"},
		{Rule: "XX-1", Severity: diag.Error, Message: "<script>&\"quoted\" \\ \x00\x1f\x7f \u2028\u2029 \xff\xfe cut \xe6\x97 é 漢 😀",
			Hint: "tab\there\r\nline", Code: "C<&>", Thread: "th \"x\"", MsgID: "\x01",
			Pos: diag.Pos{File: "threads/alpha.json", Line: -3, Col: -1, EndLine: -9, EndCol: -2}},
		{Rule: "MG-001", Severity: diag.Error, Message: "with a fix", Pos: diag.Pos{File: "threads/alpha.json", Line: 3, Col: 1},
			Fix: fix("", "", "new \"text\"\n\u2028", 3)},
		{Rule: "MG-001", Severity: diag.Warning, Message: "a fix in another file", Pos: diag.Pos{File: "threads/alpha.json", Line: 3},
			Fix: fix("artifacts/beta.md", "Replace <it> & go", "x", 2)},
		{Rule: "MG-001", Severity: diag.Warning, Message: "a fix outside the repository (left out)", Pos: diag.Pos{File: "threads/alpha.json", Line: 3},
			Fix: fix("/elsewhere/file.md", "d", "x", 2)},
		{Rule: "MG-001", Severity: diag.Warning, Message: "a fix without a line (left out)", Pos: diag.Pos{File: "threads/alpha.json", Line: 3},
			Fix: fix("", "d", "x", 0)},
	}
	fixture.Sort(findings)
	r := &diag.Report{RepoRoot: root, Findings: findings, Fingerprints: diag.Fingerprints(findings), Rules: fixture.Rules()}
	r.Fingerprints[1] = "" // a fingerprint the report does not hold: computed
	for _, ruleIndex := range []int{0, 7, 1 << 20} {
		sameResult(t, r, ruleIndex)
	}
	// A report without fingerprints at all.
	r.Fingerprints = nil
	sameResult(t, r, 3)
}

// FuzzResultJSON holds appendResult to encoding/json's encoding of
// result() for any finding texts, positions, severities and fixes, in a
// file of the repository or not.
func FuzzResultJSON(f *testing.F) {
	f.Add("MG-001", "CODE", "message", "hint", "thread", "m1", 4, 5, 4, 13, uint8(2), uint8(0), "fix", "desc", 3, true)
	f.Add("", "", "", "", "", "", 0, 0, 0, 0, uint8(0), uint8(1), "", "", 0, false)
	f.Add("X", "X", "<&>\"\\\x00\u2028\xff", "\t\r\n", "\xe6\x97", "é", -1, -2, -3, -4, uint8(3), uint8(2), "\u2029", "<>", 1, true)
	root := fixture.Repo(f)
	files := []string{"threads/alpha.json", "artifacts/beta.md", "missing.json", ""}
	f.Fuzz(func(t *testing.T, rule, code, msg, hint, thread, msgID string, line, col, endLine, endCol int,
		sev, file uint8, fixText, fixDesc string, fixLine int, baseline bool) {
		fd := diag.Finding{Rule: rule, Code: code, Severity: diag.Severity(sev % 5), Message: msg, Hint: hint, Thread: thread, MsgID: msgID,
			Pos: diag.Pos{File: files[int(file)%len(files)], Line: line, Col: col, EndLine: endLine, EndCol: endCol}}
		if fixLine != 0 {
			fd.Fix = &diag.Fix{Description: fixDesc, Text: fixText,
				Pos: diag.Pos{File: files[int(file/4)%len(files)], Line: fixLine, Col: col, EndLine: endLine, EndCol: endCol}}
		}
		r := &diag.Report{RepoRoot: root, Findings: []diag.Finding{fd}}
		r.Fingerprints = diag.Fingerprints(r.Findings)
		var base map[string]bool
		if baseline {
			base = map[string]bool{r.Fingerprints[0]: sev%2 == 0}
		}
		r.CompareWith(base)
		paths := reporters.PathsFor(r)
		fi := paths.File(fd.Pos.File)
		want := plainResult(t, r, 0, int(sev), fi, paths)
		if got := appendResult(nil, r, 0, int(sev), fi, paths); !bytes.Equal(got, want) {
			t.Fatalf("appendResult %s\nencoding/json %s", got, want)
		}
	})
}
