package mailbox

import (
	"path/filepath"
	"testing"
)

// TestThreadsKeyedByProject: a file from another project that reuses a
// thread id does not join the thread (its KILL of H1 would apply); each
// project's messages form a thread of their own, each reported (IN-014).
func TestThreadsKeyedByProject(t *testing.T) {
	b, err := Scan([]string{filepath.Join("..", "..", "testdata", "rules", "IN-014", "fail")}, ScanOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Threads) != 2 {
		t.Fatalf("%d threads, want 2 (one per project)", len(b.Threads))
	}
	want := map[string]int{
		"RS-20260301-quorum-timing@data-projects-quorum":       0,
		"RS-20260301-quorum-timing@data-projects-someone-else": 1,
	}
	for _, ref := range b.Threads {
		n, ok := want[ref.Key]
		if !ok {
			t.Errorf("unexpected thread key %q", ref.Key)
			continue
		}
		if n == 1 && len(ref.Messages()) != 1 {
			t.Errorf("%s holds %d messages, want only the intruder's", ref.Key, len(ref.Messages()))
		}
		for _, m := range ref.Messages() {
			if n == 0 && m.ID == "900" {
				t.Errorf("the other project's KILL joined %s", ref.Key)
			}
		}
		th, err := ref.Load()
		if err != nil {
			t.Fatal(err)
		}
		if th.ThreadID != "RS-20260301-quorum-timing" {
			t.Errorf("%s: thread id %q", ref.Key, th.ThreadID)
		}
		found := false
		for _, f := range th.Findings {
			found = found || f.Rule == "IN-014"
		}
		if !found {
			t.Errorf("%s has no IN-014 finding", ref.Key)
		}
	}
}

func TestProjectSlug(t *testing.T) {
	for in, want := range map[string]string{
		"/data/projects/brenner_bot":                         "data-projects-brenner-bot",
		"[project path redacted: data-projects-brenner-bot]": "data-projects-brenner-bot",
		"":                               "",
		"  /Data/Projects/Brenner Bot/ ": "data-projects-brenner-bot",
	} {
		if got := projectSlug(in); got != want {
			t.Errorf("projectSlug(%q) = %q, want %q", in, got, want)
		}
	}
}
