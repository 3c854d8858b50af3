package config

import (
	"errors"
	"strings"
	"testing"
)

// knownIDs is a rule registry of a few ids, for suggestions.
func knownIDs(id string) bool {
	switch id {
	case "MB-001", "MB-002", "MB-009", "MB-019", "TH-005", "EP-P01":
		return true
	}
	return false
}

// TestUnknownKeysAtAnyDepth: a key the file format does not have is an
// error at the key's line and column wherever it is, with the known key it
// is closest to (MB-001's enable: false used to be accepted and ignored).
func TestUnknownKeysAtAnyDepth(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"rules: {MB-001: {enable: false}}\n", `c.yaml:1:18: unknown key "enable" in rules.MB-001; did you mean "enabled"?`},
		{"rules:\n  MB-001:\n    enable: false\n", `c.yaml:3:5: unknown key "enable" in rules.MB-001; did you mean "enabled"?`},
		{"rules:\n  MB-001: {severty: note}\n", `c.yaml:2:12: unknown key "severty" in rules.MB-001; did you mean "severity"?`},
		{"fail-on: error\nbogus: 1\n", `c.yaml:2:1: unknown key "bogus"`},
		{"fail_on: warning\n", `c.yaml:1:1: unknown key "fail_on"; did you mean "fail-on"?`},
		{"override:\n  - paths: [a]\n", `c.yaml:1:1: unknown key "override"; did you mean "overrides"?`},
		{"limits:\n  file-bytes: 10\n  json_depth: 3\n", `c.yaml:3:3: unknown key "json_depth" in limits; did you mean "json-depth"?`},
		{"overrides:\n  - paths: [a]\n    rule: {MB-001: off}\n", `c.yaml:3:5: unknown key "rule" in overrides[0]; did you mean "rules"?`},
		{"overrides:\n  - paths: [a]\n  - paths: [b]\n    rules: {MB-001: {enable: false}}\n", `c.yaml:4:22: unknown key "enable" in overrides[1].rules.MB-001; did you mean "enabled"?`},
		{"suppress:\n  - {rule: MB-002, thread: x, mesage: \"1\"}\n", `c.yaml:2:31: unknown key "mesage" in suppress[0]; did you mean "message"?`},
		{"ignore: [a]\nzzz: 1\n", `c.yaml:2:1: unknown key "zzz"`},
	} {
		_, err := Parse("c.yaml", []byte(tc.src), knownIDs)
		var ce *Error
		if !errors.As(err, &ce) || err.Error() != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.src, err, tc.want)
		}
	}
}

// TestEveryUnknownKeyIsListed: all the unknown keys of a file are errors,
// in the file's order; the error reads as the first one.
func TestEveryUnknownKeyIsListed(t *testing.T) {
	_, err := Parse("c.yaml", []byte("rules:\n  MB-001: {enable: false}\nlimit:\n  file-bytes: 3\n"), knownIDs)
	var list Errors
	if !errors.As(err, &list) || len(list) != 2 {
		t.Fatalf("error %v, want two", err)
	}
	if list[0].Line != 2 || list[1].Line != 3 || !strings.Contains(list[1].Msg, `did you mean "limits"?`) {
		t.Errorf("errors %v", list)
	}
	if !strings.HasPrefix(err.Error(), list[0].Error()) {
		t.Errorf("the error reads %q", err)
	}
}

// TestRuleIDErrorsHavePositionsAndSuggestions: an unknown rule id is an
// error at its key, under rules: and under overrides (which used to have
// no position at all), with the known ids one edit away.
func TestRuleIDErrorsHavePositionsAndSuggestions(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"rules:\n  MB-01: off\n", `c.yaml:2:3: unknown rule id "MB-01"; did you mean "MB-001"?`},
		{"rules:\n  mb-002: off\n", `c.yaml:2:3: unknown rule id "mb-002"; did you mean "MB-002"?`},
		{"rules:\n  TH005: off\n", `c.yaml:2:3: unknown rule id "TH005"; did you mean "TH-005"?`},
		{"rules:\n  MB-099: off\n", `c.yaml:2:3: unknown rule id "MB-099"; did you mean "MB-009" or "MB-019"?`},
		{"rules:\n  XX-123: off\n", `c.yaml:2:3: unknown rule id "XX-123"`},
		{"overrides:\n  - paths: [a]\n    rules:\n      MB-01: off\n", `c.yaml:4:7: unknown rule id "MB-01" in overrides[0]; did you mean "MB-001"?`},
		{"overrides:\n  - paths: [a]\n    rules: {MB-001: loud}\n", `c.yaml:3:21: rule MB-001: severity "loud" is not one of error, warning, note, off`},
		{"suppress:\n  - {rule: EP-01, thread: x}\n", `c.yaml:2:12: suppress: unknown rule id "EP-01"; did you mean "EP-P01"?`},
	} {
		_, err := Parse("c.yaml", []byte(tc.src), knownIDs)
		var ce *Error
		if !errors.As(err, &ce) || err.Error() != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.src, err, tc.want)
		}
	}
}

// TestYAMLErrorColumns: a value of the wrong type is an error at its own
// line and column; a syntax error, for which yaml.v3 gives a line only, is
// not given a made-up column.
func TestYAMLErrorColumns(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"limits:\n  file-bytes: lots\n", "c.yaml:2:15: limits.file-bytes: cannot unmarshal !!str `lots` into int64"},
		{"agents: [A, [B]]\n", "c.yaml:1:13: agents[1]: cannot unmarshal !!seq into string"},
		{"rules:\n  MB-001: off\n  MB-001: note\n", `c.yaml:3:3: key "MB-001" in rules is already set at line 2`},
		{"rules: [\n", "c.yaml:1: did not find expected node content"},
		{"fail-on: error\n\tbad: 1\n", "c.yaml:2: found a tab character that violates indentation"},
	} {
		_, err := Parse("c.yaml", []byte(tc.src), knownIDs)
		var ce *Error
		if !errors.As(err, &ce) || err.Error() != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.src, err, tc.want)
		}
	}
}
