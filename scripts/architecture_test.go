package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

const module = "github.com/brenner-ci/brenner-ci"

// packages lists every package of the module with its (non-test) imports,
// relative to the module ("" for the root).
func packages(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}|{{join .Imports " "}}`, "./...")
	cmd.Dir = testutil.ModuleRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, imports, _ := strings.Cut(line, "|")
		rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		pkgs[rel] = strings.Fields(imports)
	}
	return pkgs
}

// TestImportRules holds the layering ARCHITECTURE.md describes: rules are
// only rules (no os, nothing internal), the compiler imports nothing
// internal, and the command line goes through internal/run.
func TestImportRules(t *testing.T) {
	for pkg, imports := range packages(t) {
		for _, imp := range imports {
			internal := strings.HasPrefix(imp, module+"/internal/")
			switch {
			case pkg == "rules" && (imp == "os" || internal):
				t.Errorf("rules imports %s: the engine reads through rules.Files and knows no internal package", imp)
			case strings.HasPrefix(pkg, "compile") && internal:
				t.Errorf("%s imports %s: compile/... imports nothing under internal/", pkg, imp)
			case pkg == "internal/cli" && (imp == module+"/compile/mailbox" || imp == module+"/pipeline"):
				t.Errorf("internal/cli imports %s: commands go through internal/run", imp)
			case pkg == "rules/ruleid" && strings.HasPrefix(imp, module):
				t.Errorf("rules/ruleid imports %s: it is a leaf package", imp)
			}
		}
	}
}

// TestArchitectureNamesEveryPackage: ARCHITECTURE.md has a word for every
// package of the module.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(t), "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range packages(t) {
		name := pkg
		if name == "" {
			name = "brennerci"
		}
		// Every package by its full path (the root by its package name).
		if !strings.Contains(string(doc), "`"+name+"`") {
			t.Errorf("ARCHITECTURE.md does not name package %s", name)
		}
	}
}
