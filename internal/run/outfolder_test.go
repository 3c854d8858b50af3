package run

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// listFiles returns dir's entries as "name=content" (folders as "name/").
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		if e.IsDir() {
			got = append(got, e.Name()+"/")
			continue
		}
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		got = append(got, e.Name()+"="+string(b))
	}
	sort.Strings(got)
	return got
}

// TestNewFolderClaims: of two threads whose file names are one name in
// lower case, the one that claims it (in thread order) has its file in the
// folder, whichever placed it first; a file whose thread's result is not
// taken is removed, and its thread's later result written; a file placed
// and never committed is not put in place.
func TestNewFolderClaims(t *testing.T) {
	out := t.TempDir()
	m := newFolders(out, "artifacts")
	nf, name := folderOf(m, "artifacts/RS-1-case.md")
	if nf == nil || name != "RS-1-case.md" {
		t.Fatalf("folderOf: %v %q", nf, name)
	}
	place := func(key, name, content string) bool {
		t.Helper()
		ok, err := nf.place(key, name, []byte(content))
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	// The later thread (in key order) places first.
	if !place("RS-1-case", "RS-1-case.md", "lower") || place("RS-1-CASE", "RS-1-CASE.md", "upper") {
		t.Fatal("the second name in another case was placed too")
	}
	// A result dropped after the scan, then written again.
	place("RS-2", "RS-2.md", "early")
	nf.unplace("RS-2", "RS-2.md")
	// A result never taken.
	place("RS-3", "RS-3.md", "lost")

	claims := nameClaims{}
	for _, c := range []struct {
		key, name, content string
		placed             bool
	}{
		{"RS-1-CASE", "RS-1-CASE.md", "upper", false},
		{"RS-1-case", "RS-1-case.md", "", true},
		{"RS-2", "RS-2.md", "late", false},
	} {
		if err := claims.claim("artifacts/"+c.name, c.key); err != nil {
			nf.unplace(c.key, c.name) // as writeFiles does
			continue
		}
		var b []byte
		if !c.placed {
			b = []byte(c.content)
		}
		if err := nf.commit(c.key, c.name, b); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Lstat(filepath.Join(out, "artifacts")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("artifacts/ is there before finish: %v", err)
	}
	if errs := nf.finish(out); errs != nil {
		t.Fatal(errs)
	}
	want := []string{"RS-1-CASE.md=upper", "RS-2.md=late"}
	if got := listFiles(t, filepath.Join(out, "artifacts")); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("artifacts/: %q, want %q", got, want)
	}
	if got := listFiles(t, out); strings.Join(got, " ") != "artifacts/" {
		t.Errorf("out: %q, want only artifacts/", got)
	}
}

// TestNewFolderNothingCommitted: a folder none of whose files was
// committed is not put in place, and nothing is left of it.
func TestNewFolderNothingCommitted(t *testing.T) {
	out := t.TempDir()
	nf := newFolders(out, "artifacts")["artifacts"]
	if _, err := nf.place("RS-1", "RS-1.md", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if errs := nf.finish(out); errs != nil {
		t.Fatal(errs)
	}
	if got := listFiles(t, out); len(got) != 0 {
		t.Errorf("left: %q", got)
	}
}

// TestNewFolderTaken: when the folder's name is taken during the run, its
// files are written one by one into what took it (when it is a folder) or
// reported (when it is a link), and nothing of the hidden folder is left.
func TestNewFolderTaken(t *testing.T) {
	for _, link := range []bool{false, true} {
		out, elsewhere := t.TempDir(), t.TempDir()
		nf := newFolders(out, "artifacts")["artifacts"]
		for _, k := range []string{"RS-1", "RS-2"} {
			if _, err := nf.place(k, k+".md", []byte("new "+k)); err != nil {
				t.Fatal(err)
			}
			if err := nf.commit(k, k+".md", nil); err != nil {
				t.Fatal(err)
			}
		}
		target := filepath.Join(out, "artifacts")
		if link {
			if err := os.Symlink(elsewhere, target); err != nil {
				t.Skip(err)
			}
		} else {
			os.Mkdir(target, 0o755)
			os.WriteFile(filepath.Join(target, "other.md"), []byte("someone else's"), 0o644)
		}
		errs := nf.finish(out)
		if link {
			if len(errs) != 2 || !strings.Contains(errs[0], "symbolic link") {
				t.Errorf("into a link: %q, want two refusals", errs)
			}
			if got := listFiles(t, elsewhere); len(got) != 0 {
				t.Errorf("written through the link: %q", got)
			}
		} else {
			if errs != nil {
				t.Fatal(errs)
			}
			want := []string{"RS-1.md=new RS-1", "RS-2.md=new RS-2", "other.md=someone else's"}
			if got := listFiles(t, target); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("artifacts/: %q, want %q", got, want)
			}
		}
		if es, _ := os.ReadDir(out); len(es) != 1 || es[0].Name() != "artifacts" {
			t.Errorf("link %v: out holds %v, want only artifacts", link, es)
		}
	}
}
