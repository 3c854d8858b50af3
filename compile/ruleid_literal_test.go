package compile

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ruleIDLiteral matches a Go string literal that is exactly a rule id
// ("IN-001", `DL-004`, "EM-P01").
var ruleIDLiteral = regexp.MustCompile("^[\"`][A-Z]{2}-[A-Z]?[0-9]{2,3}[\"`]$")

// TestNoRuleIDLiterals: the compiler names the rules it reports with the
// constants of package rules/ruleid, never with a string literal, so a
// renamed or retired rule id cannot live on in compile/ unnoticed (issue 22).
// Test files may spell ids out.
func TestNoRuleIDLiterals(t *testing.T) {
	n := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		fset := token.NewFileSet()
		var s scanner.Scanner
		s.Init(fset.AddFile(path, -1, len(src)), src, nil, 0)
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok == token.STRING && ruleIDLiteral.MatchString(lit) {
				t.Errorf("%s: rule id literal %s; use the constant of package rules/ruleid", fset.Position(pos), lit)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Fatalf("scanned only %d files under compile/", n)
	}
}
