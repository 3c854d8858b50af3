package mailbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
)

// Tests of issue 23, item 4: the walk skips nothing silently. Every file or
// folder a walk does not read is named once (IN-006), or is an IN-001 error
// when its content is mail brenner-ci cannot read, and a file named on the
// command line is treated as a walk treats it.

func threadJSON(id int, tid string) string {
	return fmt.Sprintf(`{"project":"/p","thread_id":%q,"messages":[{"id":%d,"subject":"KICKOFF: %s","from":"A","created_ts":"2026-01-01T00:00:00Z","body_md":"b"}]}`, tid, id, tid)
}

// rel renders findings as "RULE path:line" with paths relative to dir.
func rel(dir string, fs []diag.Finding) []string {
	var out []string
	d := filepath.ToSlash(dir) + "/"
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s %s:%d", f.Rule, strings.TrimPrefix(f.Pos.File, d), f.Pos.Line))
	}
	return out
}

// TestWalkNamesHiddenEntries: .git is skipped silently; every other name
// starting with "." is named once, a folder as a whole.
func TestWalkNamesHiddenEntries(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.json"), threadJSON(1, "A"))
	write(t, filepath.Join(dir, ".git", "x.json"), threadJSON(2, "GIT"))
	write(t, filepath.Join(dir, ".hidden.json"), threadJSON(3, "HIDDEN"))
	write(t, filepath.Join(dir, ".threads", "t.json"), threadJSON(4, "HIDDEN-DIR"))
	write(t, filepath.Join(dir, ".threads", "u.json"), threadJSON(5, "HIDDEN-DIR2"))
	write(t, filepath.Join(dir, "sub", ".git"), "gitdir: elsewhere\n") // a worktree's .git file
	b := scanT(t, dir)
	if !slices.Equal(keys(b), []string{"A"}) {
		t.Errorf("threads %v", keys(b))
	}
	want := []string{"IN-006 .hidden.json:0", "IN-006 .threads:0"}
	if got := rel(dir, b.Findings); !slices.Equal(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
	for _, f := range b.Findings {
		if !strings.Contains(f.Message, `"."`) || f.Severity != diag.Note {
			t.Errorf("note does not say why: %s", f.String())
		}
	}
}

// TestWalkPassesOverTheConfiguration: a configuration file, under either
// of its names, is read as the configuration, so a walk passes over it in
// silence (a folder of that name is hidden like any other).
func TestWalkPassesOverTheConfiguration(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.json"), threadJSON(1, "A"))
	write(t, filepath.Join(dir, ".brenner-ci.yaml"), "fail-on: error\n")
	write(t, filepath.Join(dir, "sub", ".brenner-ci.yml"), "fail-on: error\n")
	write(t, filepath.Join(dir, "sub", ".brenner-ci.yaml", "t.json"), threadJSON(2, "B"))
	b := scanT(t, dir)
	want := []string{"IN-006 sub/.brenner-ci.yaml:0"}
	if got := rel(dir, b.Findings); !slices.Equal(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
}

// TestWalkNamesExcludedOutput: output is never input, and says so, in a
// walk and when named.
func TestWalkNamesExcludedOutput(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.json"), threadJSON(1, "A"))
	write(t, filepath.Join(dir, "reports", "artifacts", "x.json"), threadJSON(2, "OUT"))
	write(t, filepath.Join(dir, "report.json"), threadJSON(3, "REPORT"))
	opt := ScanOptions{Exclude: []string{filepath.Join(dir, "reports"), filepath.Join(dir, "report.json")}}
	for _, paths := range [][]string{{dir}, {dir, filepath.Join(dir, "report.json"), filepath.Join(dir, "reports")}} {
		b, err := Scan(paths, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(keys(b), []string{"A"}) {
			t.Errorf("%v: threads %v", paths, keys(b))
		}
		want := []string{"IN-006 report.json:0", "IN-006 reports:0"}
		if got := rel(dir, b.Findings); !slices.Equal(got, want) {
			t.Errorf("%v: findings %v, want %v", paths, got, want)
		}
	}
	// Named alone, it is named too (and the run has found something).
	b, err := Scan([]string{filepath.Join(dir, "report.json")}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := rel(dir, b.Findings); !slices.Equal(got, []string{"IN-006 report.json:0"}) {
		t.Errorf("named output: %v", got)
	}
}

// archiveMsg is an archive message file.
func archiveMsg(id int, tid, body string) string {
	return fmt.Sprintf("---json\n{\n  \"id\": %d,\n  \"thread_id\": %q,\n  \"project\": \"/p\",\n  \"from\": \"A\",\n  \"subject\": \"DELTA[a]: %d\",\n  \"created\": \"2026-03-07T08:00:0%d+00:00\"\n}\n---\n\n%s\n", id, tid, id, id%10, body)
}

// TestArchiveCopiesCompared: inbox/outbox copies identical to their
// messages/ original are not read again; one that differs, or has no
// original among the inputs, is read; attachments/, file_reservations/ and
// the digests are named once per folder; a JSON export among the digests
// is read.
func TestArchiveCopiesCompared(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "projects", "p")
	msgs := filepath.Join(proj, "messages", "2026", "03")
	write(t, filepath.Join(msgs, "a__1.md"), archiveMsg(1, "T", "one"))
	write(t, filepath.Join(msgs, "b__2.md"), archiveMsg(2, "T", "two"))
	write(t, filepath.Join(proj, "agents", "X", "profile.json"), `{"name":"X"}`)
	write(t, filepath.Join(proj, "agents", "X", "outbox", "2026", "03", "a__1.md"), archiveMsg(1, "T", "one")) // identical
	write(t, filepath.Join(proj, "agents", "X", "inbox", "2026", "03", "b__2.md"), archiveMsg(2, "T", "TAMPERED"))
	write(t, filepath.Join(proj, "agents", "X", "inbox", "2026", "03", "c__3.md"), archiveMsg(3, "T", "no original"))
	write(t, filepath.Join(proj, "attachments", "ab", "x.webp"), "RIFF\x00\x00WEBP")
	write(t, filepath.Join(proj, "attachments", "_audit", "x.log"), `{"event":"x"}`)
	write(t, filepath.Join(proj, "file_reservations", "1.json"), `{"path_pattern":"a"}`)
	write(t, filepath.Join(proj, "messages", "threads", "T.md"), "### DELTA[a]: 1\n## 2026 — A → B\n")
	write(t, filepath.Join(proj, "messages", "threads", "hidden.json"), threadJSON(9, "IN-DIGESTS"))
	b := scanT(t, dir)
	if !slices.Equal(keys(b), []string{"IN-DIGESTS", "T"}) {
		t.Fatalf("threads %v", keys(b))
	}
	th := loadT(t, b, "T")
	var files []string
	for _, m := range th.Messages {
		files = append(files, m.ID+" "+strings.TrimPrefix(m.Src.File, filepath.ToSlash(proj)+"/"))
	}
	want := []string{
		"1 messages/2026/03/a__1.md",
		"2 agents/X/inbox/2026/03/b__2.md", // the tampered copy is read (and is an IN-003 duplicate)
		"2 messages/2026/03/b__2.md",
		"3 agents/X/inbox/2026/03/c__3.md",
	}
	slices.Sort(files)
	if !slices.Equal(files, want) {
		t.Errorf("messages read from %v, want %v", files, want)
	}
	dup := false
	for _, f := range th.Findings {
		dup = dup || f.Rule == "IN-003"
	}
	if !dup {
		t.Errorf("the tampered copy is not reported as a duplicate id: %v", where(th.Findings))
	}
	wantNotes := []string{
		"IN-006 projects/p/attachments:0",
		"IN-006 projects/p/file_reservations:0",
		"IN-006 projects/p/messages/threads:0",
	}
	if got := rel(dir, b.Findings); !slices.Equal(got, wantNotes) {
		t.Errorf("findings %v, want %v", got, wantNotes)
	}

	// Without the messages/ folder among the inputs, no copy is dropped:
	// the identical one is the only place its message is read.
	b = scanT(t, filepath.Join(proj, "agents"))
	th = loadT(t, b, "T")
	if got := ids(th.Messages); !slices.Equal(got, []string{"1", "2", "3"}) {
		t.Errorf("agents/ alone: messages %v, want 1 2 3", got)
	}
}

// TestUnknownShapes: JSON no shape recognises is never skipped silently:
// mail in an unknown shape is an IN-001 error at its line, in a walk as
// when named; JSON with no mail at all is named in an IN-006 note.
func TestUnknownShapes(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"wrapped.json":       "{\"thread\": {\"project\": \"/p\",\n  \"thread_id\": \"W\", \"messages\": [\n{\"id\": 1, \"subject\": \"KICKOFF: w\", \"body_md\": \"x\"}]}}",
		"messages-obj.json":  "{\"project\": \"/p\", \"thread_id\": \"M\",\n \"messages\": {\"1\": {\"id\": 1}}}",
		"messages-null.json": "{\"thread_id\": \"N\",\n\n \"messages\": null}",
		"mcp-empty.json":     `{"jsonrpc": "2.0", "id": 1, "result": {}}`,
		"mcp-text.json":      `{"result": {"contents": [{"uri": "resource://thread/X", "text": "Thread not found"}]}}`,
		"tool-text.json":     `{"content": [{"type": "text", "text": "agent not registered"}]}`,
		"object.json":        `{}`,
		"number.json":        "42\n",
		"manifest.json":      `{"generator": "x", "threads": [{"thread_id": "RS-1", "file": "RS-1.json"}]}`,
		"lines.jsonl":        "{\"a\": 1}\n{\"b\": 2}\n",
		"lines-mail.jsonl":   "{\"a\": 1}\n{\"x\": {\"id\": 1, \"subject\": \"KICKOFF: j\", \"body_md\": \"x\"}}\n",
		"garbage.json":       "not json at all\n",
		"ok.json":            threadJSON(1, "OK"),
	}
	for name, s := range files {
		write(t, filepath.Join(dir, name), s)
	}
	b := scanT(t, dir)
	if !slices.Equal(keys(b), []string{"OK"}) {
		t.Errorf("threads %v", keys(b))
	}
	want := []string{
		"IN-001 garbage.json:1",
		"IN-001 lines-mail.jsonl:2",
		"IN-006 lines.jsonl:0",
		"IN-006 manifest.json:0",
		"IN-001 mcp-empty.json:1",
		"IN-001 mcp-text.json:1",
		"IN-001 messages-null.json:3",
		"IN-001 messages-obj.json:2",
		"IN-006 number.json:0",
		"IN-006 object.json:0",
		"IN-001 tool-text.json:1",
		"IN-001 wrapped.json:3",
	}
	if got := rel(dir, b.Findings); !slices.Equal(got, want) {
		t.Errorf("walk findings\n got %q\nwant %q", got, want)
	}
	// Named on the command line, mail in an unknown shape is the same
	// finding, word for word.
	walked := map[string]diag.Finding{}
	for _, f := range b.Findings {
		if f.Rule == "IN-001" {
			walked[f.Pos.File] = f
		}
	}
	for file, wf := range walked {
		nb := scanT(t, filepath.FromSlash(file))
		if len(nb.Findings) != 1 || nb.Findings[0] != wf {
			t.Errorf("%s named: %v, walked: %v", file, nb.Findings, wf)
		}
	}
}

// TestEmptyExport: an export with no messages is named, in a walk and
// when named, so that it is never taken for "nothing found".
func TestEmptyExport(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "thread.json"), `{"project": "/p", "thread_id": "E", "messages": []}`)
	write(t, filepath.Join(dir, "inbox.json"), `{"result": []}`)
	write(t, filepath.Join(dir, "list.json"), "[]")
	write(t, filepath.Join(dir, "lines.jsonl"), "[]\n[]\n")
	want := []string{"IN-006 inbox.json:0", "IN-006 lines.jsonl:0", "IN-006 list.json:0", "IN-006 thread.json:0"}
	b := scanT(t, dir)
	if got := rel(dir, b.Findings); !slices.Equal(got, want) {
		t.Errorf("walk: %v, want %v", got, want)
	}
	b = scanT(t, filepath.Join(dir, "thread.json"))
	if got := rel(dir, b.Findings); !slices.Equal(got, want[3:]) || !strings.Contains(b.Findings[0].Message, "no messages") {
		t.Errorf("named: %v", b.Findings)
	}
}

// TestLinkNamedIsNotFollowed: a link named on the command line is named
// at its own path, as a walk names it, and is not read.
func TestLinkNamedIsNotFollowed(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "real", "t.json"), threadJSON(1, "REAL"))
	if err := os.Symlink(filepath.Join("real", "t.json"), filepath.Join(dir, "link.json")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	if err := os.Symlink("real", filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"link.json", "linkdir"} {
		b := scanT(t, filepath.Join(dir, p))
		if len(b.Threads) != 0 {
			t.Errorf("%s: the link was followed: threads %v", p, keys(b))
		}
		if got := rel(dir, b.Findings); !slices.Equal(got, []string{"IN-006 " + p + ":0"}) {
			t.Errorf("%s: findings %v", p, got)
		}
	}
}

// TestWalkJoinsAsFilepathJoin: a walk's paths are filepath.Join's of the
// folder as named and each entry's name, whether the folder was named
// clean ("sub", an absolute path) or not (".", "sub/", "./sub/../sub/"): the
// walk joins a clean folder's names without cleaning them.
func TestWalkJoinsAsFilepathJoin(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "sub", "a.json"), threadJSON(1, "A"))
	write(t, filepath.Join(dir, "sub", "deeper", "b.json"), threadJSON(2, "B"))
	write(t, filepath.Join(dir, "top.json"), threadJSON(3, "TOP"))
	t.Chdir(dir)
	for _, c := range []struct{ named, sub string }{
		{"sub", ""}, {"sub/", ""}, {"./sub/../sub/", ""}, {filepath.Join(dir, "sub"), ""}, {dir + "/sub/", ""},
		{".", "sub"}, {"./", "sub"}, {dir, "sub"},
	} {
		in, err := List([]string{c.named}, ScanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for _, f := range in.files {
			got = append(got, f.osPath+" "+f.disp)
		}
		for _, p := range []string{filepath.Join(c.named, c.sub, "a.json"), filepath.Join(c.named, c.sub, "deeper", "b.json")} {
			want = append(want, p+" "+filepath.ToSlash(p))
		}
		if c.sub != "" {
			p := filepath.Join(c.named, "top.json")
			want = append(want, p+" "+filepath.ToSlash(p))
		}
		if !slices.Equal(got, want) {
			t.Errorf("List(%q): files\n%q\nwant\n%q", c.named, got, want)
		}
	}
}
