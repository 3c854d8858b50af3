package rules

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
)

// EvidencePack is an evidence pack (evidence_pack_v0.1.md) read from the
// evidence.json beside an artifact: the record ids and their excerpt anchors.
type EvidencePack struct {
	File    string
	Records map[string]map[string]bool // "EV-001" → {"E1": true, …}
	// Verified holds the records whose "verified" is true.
	Verified map[string]bool
	// ThreadID is the pack's thread_id ("" when absent), at ThreadPos.
	ThreadID  string
	ThreadPos diag.Pos
	// Unusable is set when the pack could not be read or parsed, or has no
	// records array (EV-002): Records is then empty and citations are not
	// checked against it.
	Unusable bool
	// Problems are what is wrong with the pack, positioned in File:
	// EV-002 (unusable) and EV-003 (breaks the pack's validation rules).
	Problems []EvidenceProblem
}

// EvidenceProblem is one problem of an evidence pack.
type EvidenceProblem struct {
	Rule    string // "EV-002" or "EV-003"
	Pos     diag.Pos
	Message string
	Hint    string
	Anchor  string
}

// EvidencePath returns where the evidence pack of an artifact lives:
// artifacts/<id>/evidence.json beside artifacts/<id>/artifact.md, or
// artifacts/<id>/evidence.json for artifacts/<id>.md (slash separated).
func EvidencePath(artifactPath string) string {
	p := filepath.ToSlash(artifactPath)
	dir, base := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	join := func(elem ...string) string {
		if dir == "" {
			return path.Join(elem...)
		}
		return path.Join(append([]string{dir}, elem...)...)
	}
	stem := base
	for _, ext := range []string{".md", ".markdown", ".json"} {
		if strings.HasSuffix(strings.ToLower(stem), ext) {
			stem = stem[:len(stem)-len(ext)]
			break
		}
	}
	if stem == "artifact" {
		return join("evidence.json")
	}
	return join(stem, "evidence.json")
}

// LoadEvidence finds and reads the evidence pack beside an artifact
// (artifacts/<id>/evidence.json next to artifact.md, or
// artifacts/<id>/evidence.json next to artifacts/<id>.md). It returns nil and
// no finding when there is none. A pack that cannot be used is returned with
// Unusable set and its problems, which the EV-002 and EV-003 rules report;
// the finding result is always nil (the rules respect configuration).
func LoadEvidence(files Files, artifactPath string, lim limits.Parse) (*EvidencePack, *diag.Finding) {
	file := EvidencePath(artifactPath)
	fi, err := files.Stat(filepath.FromSlash(file))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	pack := &EvidencePack{File: file, Records: map[string]map[string]bool{}, Verified: map[string]bool{}}
	whole := diag.Pos{File: file, Line: 1, Col: 1}
	if err == nil && fi.IsDir() {
		err = errors.New("it is a directory")
	}
	var data []byte
	if err == nil {
		data, err = files.ReadFile(filepath.FromSlash(file))
	}
	if err != nil {
		pack.unusable(whole, fmt.Sprintf("The evidence pack cannot be read: %v.", mailbox.PlainErr(err)),
			"Make evidence.json a readable file, or remove it.", "read")
		return pack, nil
	}
	pack.parse(data, lim)
	return pack, nil
}

// evKind names a JSON kind with its article ("an object", "a string").
func evKind(k jsonv.Kind) string {
	switch k {
	case jsonv.Object, jsonv.Array:
		return "an " + k.String()
	}
	return "a " + k.String()
}

func (e *EvidencePack) unusable(pos diag.Pos, msg, hint, anchor string) {
	e.Unusable = true
	e.Records = map[string]map[string]bool{}
	e.Verified = map[string]bool{}
	e.Problems = append(e.Problems, EvidenceProblem{Rule: "EV-002", Pos: pos, Message: msg, Hint: hint, Anchor: "EV-002 " + anchor})
}

func (e *EvidencePack) invalid(pos diag.Pos, msg, hint, anchor string) {
	e.Problems = append(e.Problems, EvidenceProblem{Rule: "EV-003", Pos: pos, Message: msg, Hint: hint, Anchor: "EV-003 " + anchor})
}

var (
	evRecordIDRE = regexp.MustCompile(`^EV-\d{3,}$`)
	evAnchorRE   = regexp.MustCompile(`^E\d+$`)
	evVersionRE  = regexp.MustCompile(`^\d+(?:\.\d+)*$`)
)

// evRequired are the fields every record must have (evidence_pack_v0.1.md,
// Validation Rules), with the JSON kind each must be.
var evRequired = []struct {
	Key  string
	Kind jsonv.Kind
}{
	{"id", jsonv.String}, {"type", jsonv.String}, {"title", jsonv.String}, {"source", jsonv.String},
	{"relevance", jsonv.String}, {"key_findings", jsonv.Array}, {"verified", jsonv.Bool}, {"excerpts", jsonv.Array},
}

// parse reads the pack's JSON and validates it.
func (e *EvidencePack) parse(data []byte, lim limits.Parse) {
	li := diag.NewLineIndex(data)
	at := func(v *jsonv.Value) diag.Pos {
		if v == nil {
			return diag.Pos{File: e.File, Line: 1, Col: 1}
		}
		end := v.End
		if nl := bytes.IndexByte(data[v.Off:min(v.End, len(data))], '\n'); nl >= 0 {
			end = v.Off + nl
		}
		return li.Span(e.File, v.Off, end)
	}
	root, err := jsonv.ParseDepth(data, lim.Depth())
	if err != nil {
		var se *jsonv.SyntaxError
		off := 0
		if errors.As(err, &se) {
			off = se.Off
		}
		l, c := li.LineCol(off)
		e.unusable(li.Span(e.File, off, off), fmt.Sprintf("The evidence pack is not valid JSON at line %d, column %d: %v.", l, c, err),
			"Fix the JSON syntax (strict JSON: double quotes, no trailing commas, no comments).", "syntax")
		return
	}
	if root.Kind != jsonv.Object {
		e.unusable(at(root), fmt.Sprintf("The evidence pack is %s, not a JSON object.", evKind(root.Kind)),
			"Write the pack as {\"version\": \"0.1\", \"thread_id\": …, \"records\": […]} (evidence_pack_v0.1.md).", "shape")
		return
	}
	recs := root.Get("records")
	if recs == nil || recs.Kind != jsonv.Array {
		what := "has no \"records\" array"
		if recs != nil {
			what = fmt.Sprintf("has \"records\" as %s, not an array", evKind(recs.Kind))
		}
		pos := at(root)
		if recs != nil {
			pos = at(recs)
		}
		e.unusable(pos, fmt.Sprintf("The evidence pack %s, so no citation can be resolved.", what),
			"Put the evidence records in a \"records\" array.", "records")
		return
	}
	if v := root.Get("version"); v == nil {
		e.invalid(at(root), "The evidence pack has no version.", "Add \"version\": \"0.1\".", "version")
	} else if s, ok := v.AsString(); !ok || !evVersionRE.MatchString(s) {
		e.invalid(at(v), fmt.Sprintf("The evidence pack version %s is not a version string such as \"0.1\".", alClip(v.Text(), 30)),
			"Write \"version\": \"0.1\" (a string).", "version")
	}
	if v := root.Get("thread_id"); v != nil {
		if s, ok := v.AsString(); ok {
			e.ThreadID, e.ThreadPos = s, at(v)
		}
	}
	for i, r := range recs.Arr() {
		e.record(i, r, at)
	}
}

// record validates evidence record i and indexes its id and excerpt anchors.
func (e *EvidencePack) record(i int, r *jsonv.Value, at func(*jsonv.Value) diag.Pos) {
	if r.Kind != jsonv.Object {
		e.invalid(at(r), fmt.Sprintf("Evidence record %d is %s, not a JSON object.", i+1, evKind(r.Kind)), "Make every record an object with an \"id\" such as \"EV-001\".", fmt.Sprintf("record %d", i+1))
		return
	}
	id, _ := r.Get("id").AsString()
	name := id
	if name == "" {
		name = fmt.Sprintf("record %d", i+1)
	}
	for _, req := range evRequired {
		v := r.Get(req.Key)
		switch {
		case v == nil || v.IsNull():
			e.invalid(at(r), fmt.Sprintf("Evidence record %s has no %q.", name, req.Key),
				"Give every record id, type, title, source, relevance, key_findings, verified and excerpts (evidence_pack_v0.1.md, Validation Rules).", name+" "+req.Key)
		case v.Kind != req.Kind:
			e.invalid(at(v), fmt.Sprintf("Evidence record %s has %q as %s, not %s.", name, req.Key, evKind(v.Kind), evKind(req.Kind)),
				fmt.Sprintf("Write %q as %s.", req.Key, evKind(req.Kind)), name+" "+req.Key+" type")
		}
	}
	if id == "" {
		return
	}
	if !evRecordIDRE.MatchString(id) {
		e.invalid(at(r.Get("id")), fmt.Sprintf("Evidence record id %q does not follow the EV-NNN format.", alClip(id, 30)),
			"Use zero-padded ids EV-001, EV-002 … (evidence_pack_v0.1.md, ID Format).", id+" format")
	}
	if _, dup := e.Records[id]; dup {
		e.invalid(at(r.Get("id")), fmt.Sprintf("Evidence record id %s is used twice.", id), "Give every record its own id; ids are never reused.", id+" duplicate")
		return
	}
	anchors := map[string]bool{}
	e.Records[id] = anchors
	if v := r.Get("verified"); v != nil && v.Kind == jsonv.Bool && v.Bool {
		e.Verified[id] = true
	}
	if ex := r.Get("excerpts"); ex != nil && ex.Kind == jsonv.Array {
		for j, x := range ex.Arr() {
			a, ok := x.Get("anchor").AsString()
			switch {
			case !ok:
				e.invalid(at(x), fmt.Sprintf("Excerpt %d of %s has no string \"anchor\".", j+1, id), "Give every excerpt an anchor E1, E2 …", fmt.Sprintf("%s excerpt %d", id, j+1))
				continue
			case !evAnchorRE.MatchString(a):
				e.invalid(at(x.Get("anchor")), fmt.Sprintf("Excerpt anchor %q of %s does not follow the E{N} format.", alClip(a, 20), id),
					"Use excerpt anchors E1, E2 … (evidence_pack_v0.1.md, Anchor Scheme).", id+" "+a+" format")
			case anchors[a]:
				e.invalid(at(x.Get("anchor")), fmt.Sprintf("Excerpt anchor %s#%s is used twice.", id, a), "Give every excerpt of a record its own anchor.", id+" "+a+" duplicate")
			}
			anchors[a] = true
		}
	}
}
