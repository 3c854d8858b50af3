package delta

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

// Relations are the valid cross-session reference relations.
var Relations = []string{"extends", "refines", "refutes", "informed_by", "supersedes", "replicates"}

// Spec remediation, quoted in hints.
const (
	hintJSON = "Make the block strict JSON: double quotes only, no trailing commas, no comments, quoted keys " +
		"(delta_output_format_v0.1.md, Failure Mode 4: validate JSON before submitting)."
	hintOp      = `Use exactly "ADD", "EDIT" or "KILL" (upper case) as the operation (delta_output_format_v0.1.md, Field Definitions).`
	hintSection = `Use the exact section id: hypothesis_slate (not "hypotheses" or "hypothesis"), predictions_table (not "predictions"), ` +
		`discriminative_tests (not "tests"), assumption_ledger (not "assumptions"), anomaly_register (not "anomalies"), ` +
		`adversarial_critique (not "critiques"), research_thread (EDIT only) (delta_output_format_v0.1.md, Failure Mode 2).`
	hintObject = "A ```delta block holds exactly one delta object: " +
		`{"operation": …, "section": …, "target_id": …, "payload": {…}, "rationale": …}.`
	hintRT    = `The research_thread section only supports EDIT, with "target_id": "RT" (delta_output_format_v0.1.md, Valid Section Values).`
	hintKill  = `A KILL carries its reason in the payload: "payload": {"reason": "why this item is being killed"} (delta_output_format_v0.1.md, KILL payload).`
	hintAddID = "Set \"target_id\": null on ADD; the merge assigns the next id of the section (artifact_delta_spec_v0.1.md, ADD: target_id MUST be null)."
	hintRefs  = `Each reference is {"session": "RS-…", "item": "H2", "relation": "refines"} with relation one of extends, refines, refutes, informed_by, supersedes, replicates (delta_output_format_v0.1.md, Reference Relation Types).`
	hintFence = "Wrap each delta in a fenced code block with the delta language tag: ```delta on its own line, the JSON, then ``` " +
		"(delta_output_format_v0.1.md, Failure Mode 1 and Parsing Rules)."
)

func hintTarget(sec string) string {
	id := "H2"
	if p := Prefix[sec]; p != "" && p != "RT" {
		id = p + "1"
	}
	return fmt.Sprintf(`Always specify target_id for EDIT and KILL, e.g. "target_id": %q (delta_output_format_v0.1.md, Failure Mode 3: missing target_id on EDIT/KILL).`, id)
}

// checker collects the problems of one block.
type checker struct {
	b      *Block
	anchor string
	probs  []diag.Local
	bad    bool   // an error-level problem was reported
	da     *Arena // where its Delta is made
}

// report records a problem at Raw offsets [start, end).
func (c *checker) report(rule string, sev diag.Severity, start, end int, msg, hint string, fix *diag.LocalFix) {
	s := c.b.BodyOffset(start)
	e := s
	if end > start {
		e = c.b.BodyOffset(end-1) + 1
	}
	c.probs = append(c.probs, diag.Local{Rule: rule, Severity: sev, Message: msg, Hint: hint,
		Anchor: c.anchor, Start: s, End: e, Fix: fix})
	if sev == diag.Error {
		c.bad = true
	}
}

func (c *checker) at(rule string, sev diag.Severity, v *jsonv.Value, msg, hint string, fix *diag.LocalFix) {
	c.report(rule, sev, v.Off, v.End, msg, hint, fix)
}

// replace returns a fix replacing Raw[start:end) by text, or nil when the
// region does not map to one contiguous stretch of the body.
func (c *checker) replace(start, end int, text, desc string) *diag.LocalFix {
	if c.b.Fence.Segs != nil && strings.ContainsRune(c.b.Raw[start:end], '\n') {
		return nil
	}
	s := c.b.BodyOffset(start)
	e := s
	if end > start {
		e = c.b.BodyOffset(end-1) + 1
	}
	return &diag.LocalFix{Description: desc, Start: s, End: e, Text: text}
}

func (c *checker) replaceValue(v *jsonv.Value, text, desc string) *diag.LocalFix {
	return c.replace(v.Off, v.End, text, desc)
}

// Validate fills b.Delta when the block is a valid delta, and b.Problems with
// every problem found. A block with an error-level problem is rejected (Delta
// stays nil). Problems are ordered errors first, in upstream's check order (so
// Problems[0] is the error upstream would report), then warnings, then notes.
// JSON nested deeper than lim.Depth() is a syntax error.
func Validate(b *Block, lim limits.Parse) { validate(b, lim, nil, heapArena) }

// validate is Validate with the block's values parsed into a and its Delta
// made in da.
func validate(b *Block, lim limits.Parse, a *jsonv.Arena, da *Arena) {
	b.Delta = nil
	c := &checker{b: b, anchor: strings.TrimSpace(b.Raw), da: da}
	c.fenceForm()
	v, err := jsonv.ParseStringIn(a, b.Raw, lim.Depth())
	if err != nil {
		c.syntax(err)
	} else {
		c.duplicateKeys(v)
		c.check(v)
	}
	if len(c.probs) > 1 { // most blocks have none: no sorter to build
		sort.SliceStable(c.probs, func(i, j int) bool { return c.probs[i].Severity < c.probs[j].Severity })
	}
	b.Problems = c.probs
	if c.bad {
		b.Delta = nil
	}
}

// fenceForm notes blocks that are accepted but are not the spec's ```delta fence.
func (c *checker) fenceForm() {
	f := &c.b.Fence
	whole := func() *diag.LocalFix {
		if f.Segs != nil || f.Nested || !f.Closed {
			return nil
		}
		content := f.Content
		if content != "" && !strings.HasSuffix(content, "\n") {
			content += "\n"
		}
		fence := backtickFence(content)
		return &diag.LocalFix{Description: "Rewrite the block as a " + fence + "delta fence", Start: f.Start, End: f.End,
			Text: fence + f.Info + "\n" + content + fence}
	}
	note := func(msg string, fix *diag.LocalFix) {
		c.probs = append(c.probs, diag.Local{Rule: ruleid.DL008, Severity: diag.Note, Message: msg,
			Hint: hintFence, Anchor: c.anchor, Start: f.Start, End: f.End, Fix: fix})
	}
	switch f.Char {
	case ':':
		note("Delta block uses upstream's :::delta form, not the spec's ```delta fence; brenner-ci accepts it, but other tools may not.", whole())
	case '~':
		note("Delta block uses a ~~~delta fence, not the spec's ```delta fence; brenner-ci accepts it (CommonMark), but upstream's parser ignores tilde fences.", whole())
	}
	if !f.Closed {
		var fix *diag.LocalFix
		if !f.Nested {
			closer := strings.Repeat(string(f.Char), f.FenceLen)
			fix = &diag.LocalFix{Description: "Close the fence", Start: f.End, End: f.End, Text: "\n" + closer}
		}
		note("Delta fence is never closed, so the block runs to the end of the body (or of its quote or list item); upstream's parser drops unclosed fences.", fix)
	}
}

// backtickFence returns a backtick fence longer than any backtick run at the
// start of a line of content (at least three).
func backtickFence(content string) string {
	n := 3
	for _, line := range strings.Split(content, "\n") {
		t := strings.TrimLeft(line, " \t")
		k := 0
		for k < len(t) && t[k] == '`' {
			k++
		}
		if k >= n {
			n = k + 1
		}
	}
	return strings.Repeat("`", n)
}

// lineCol returns the 1-based line and column (in characters) of off in s.
func lineCol(s string, off int) (int, int) {
	if off > len(s) {
		off = len(s)
	}
	line := 1 + strings.Count(s[:off], "\n")
	ls := strings.LastIndexByte(s[:off], '\n') + 1
	return line, 1 + utf8.RuneCountInString(s[ls:off])
}

var (
	reOpText  = regexp.MustCompile(`"operation"\s*:\s*"([^"\\\n]*)"`)
	reSecText = regexp.MustCompile(`"section"\s*:\s*"([^"\\\n]*)"`)
)

// syntax reports invalid JSON (MB-005), then checks the operation and section
// values by text, since they do not depend on the rest of the JSON.
func (c *checker) syntax(err error) {
	raw := c.b.Raw
	var se *jsonv.SyntaxError
	if !errors.As(err, &se) {
		se = &jsonv.SyntaxError{Msg: err.Error()}
	}
	start := se.Off
	end := start + 1
	// A truncated block is reported just after its last character, not on
	// the closing fence line.
	if trimmed := len(strings.TrimRight(raw, " \t\r\n")); start >= trimmed {
		start, end = trimmed, trimmed
	} else if r, n := utf8.DecodeRuneInString(raw[start:]); r != utf8.RuneError {
		end = start + n
	}
	var fix *diag.LocalFix
	if strings.HasPrefix(se.Cause, "trailing comma") {
		i := start - 1
		for i >= 0 && strings.IndexByte(" \t\r\n", raw[i]) >= 0 {
			i--
		}
		if i >= 0 && raw[i] == ',' {
			start, end = i, i+1
			fix = c.replace(i, i+1, "", "Remove the trailing comma")
		}
	}
	line, col := lineCol(raw, start)
	msg := fmt.Sprintf("Delta block is not valid JSON at line %d, column %d of the block: %s.", line, col, se.Error())
	msg += " The block is rejected; brenner-ci does not repair JSON."
	c.report(ruleid.MB005, diag.Error, start, end, msg, hintJSON, fix)

	if m := reOpText.FindStringSubmatchIndex(raw); m != nil {
		op := raw[m[2]:m[3]]
		if !isOp(op) {
			v := &jsonv.Value{Kind: jsonv.String, Str: op, Off: m[2] - 1, End: m[3] + 1}
			c.badOp(v)
		}
	}
	if m := reSecText.FindStringSubmatchIndex(raw); m != nil {
		sec := raw[m[2]:m[3]]
		if !isSection(sec) {
			v := &jsonv.Value{Kind: jsonv.String, Str: sec, Off: m[2] - 1, End: m[3] + 1}
			c.badSection(v)
		}
	}
}

func isOp(s string) bool { return s == OpAdd || s == OpEdit || s == OpKill }

func isSection(s string) bool {
	for _, id := range Sections {
		if s == id {
			return true
		}
	}
	return false
}

// check validates a parsed block.
func (c *checker) check(v *jsonv.Value) {
	if v.Kind != jsonv.Object {
		msg := fmt.Sprintf("Delta block is %s, not an object; the block is rejected.", v.Kind.Phrase())
		hint := hintObject
		if elems := v.Arr(); len(elems) > 0 && elems[0].Kind == jsonv.Object {
			hint = "Put each delta of the array in its own ```delta block; " + hintObject
		}
		c.at(ruleid.DL004, diag.Error, v, msg, hint, nil)
		return
	}
	// 1. operation
	op := ""
	opV := v.Get("operation")
	switch {
	case !v.Has("operation"):
		c.report(ruleid.DL001, diag.Error, v.Off, v.Off+1, `Delta block has no "operation"; it must be "ADD", "EDIT" or "KILL". The block is rejected.`+
			c.keyHint(v, "operation", "op", "action", "operation_type", "type"), hintOp, nil)
	case opV.Kind != jsonv.String:
		c.at(ruleid.DL001, diag.Error, opV, fmt.Sprintf(`Delta operation is %s, not "ADD", "EDIT" or "KILL"; the block is rejected.`, opV.Kind.Phrase()), hintOp, nil)
	case !isOp(opV.Str):
		c.badOp(opV)
	default:
		op = opV.Str
	}
	// 2. section
	sec := ""
	secV := v.Get("section")
	switch {
	case !v.Has("section"):
		c.report(ruleid.DL002, diag.Error, v.Off, v.Off+1, `Delta block has no "section"; the block is rejected.`+
			c.keyHint(v, "section", "sec", "section_id", "target_section"), hintSection, nil)
	case secV.Kind != jsonv.String:
		c.at(ruleid.DL002, diag.Error, secV, fmt.Sprintf("Delta section is %s, not a section id; the block is rejected.", secV.Kind.Phrase()), hintSection, nil)
	case !isSection(secV.Str):
		c.badSection(secV)
	default:
		sec = secV.Str
	}
	// 3. target_id
	target := c.target(v, op, sec, opV)
	// 4. payload
	pv := v.Get("payload")
	c.payload(v, pv, op, sec)

	rationale := ""
	if rv := v.Get("rationale"); rv != nil {
		switch rv.Kind {
		case jsonv.String:
			rationale = rv.Str
		case jsonv.Null:
		default:
			c.at(ruleid.DL006, diag.Warning, rv, fmt.Sprintf("Delta rationale is %s, not a string; it is ignored.", rv.Kind.Phrase()),
				`Write the rationale as a string: "rationale": "why this change is being made".`, nil)
		}
	}
	if rv := v.Get("references"); rv != nil {
		ko, _ := v.KeyOffset("references")
		c.report(ruleid.RF003, diag.Warning, ko, rv.End,
			`Delta block has "references" at the top level, where it is ignored; references belong inside "payload".`, hintRefs, nil)
	}

	var refs []Reference
	var defaulted []string
	if pv != nil && pv.Kind == jsonv.Object && sec != "" && (op == OpAdd || op == OpEdit) {
		if op == OpAdd {
			defaulted = c.required(sec, pv)
		}
		c.fields(sec, pv)
		c.forbiddenKeys(pv)
		refs = c.references(pv)
	}
	if c.bad || op == "" || sec == "" {
		return
	}
	d := c.da.newDelta()
	*d = Delta{Op: op, Section: sec, Target: target, Payload: pv, Rationale: rationale, Value: v,
		References: refs, Defaulted: defaulted}
	c.b.Delta = d
}

// ForbiddenKeys are payload keys the merge drops from every ADD and EDIT
// (compile/artifact): in the JavaScript tools that read the same deltas
// they reach an object's prototype, so they are never stored.
var ForbiddenKeys = []string{"__proto__", "constructor", "prototype"}

// ForbiddenKey reports whether k is one of ForbiddenKeys (the merge asks
// for every key of every payload).
func ForbiddenKey(k string) bool { return slices.Contains(ForbiddenKeys, k) }

// forbiddenKeys reports each top-level payload key that the merge drops
// (DL-012), at the key.
func (c *checker) forbiddenKeys(pv *jsonv.Value) {
	for _, k := range pv.Keys() {
		if !ForbiddenKey(k) {
			continue
		}
		ko, ok := pv.KeyOffset(k)
		if !ok {
			continue
		}
		c.report(ruleid.DL012, diag.Warning, ko, stringEnd(c.b.Raw, ko),
			fmt.Sprintf("Payload key %q is dropped when the delta is applied: it names no field, and in JavaScript tools it reaches the object's prototype.", k),
			fmt.Sprintf("Remove %q from the payload; if it was meant as a field, give it another name.", k), nil)
	}
}

// stringEnd returns the offset just past the JSON string that starts at
// off in raw (the key as written, escapes included).
func stringEnd(raw string, off int) int {
	for i := off + 1; i < len(raw); i++ {
		switch raw[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(raw)
}

// keyHint mentions a key of obj that looks like a misspelling of want.
func (c *checker) keyHint(obj *jsonv.Value, want string, aliases ...string) string {
	nw := normKey(want)
	for _, k := range obj.Keys() {
		nk := normKey(k)
		ok := nk == nw
		for _, a := range aliases {
			ok = ok || nk == normKey(a)
		}
		if !ok && len(nw) > 4 && diag.EditDistance(nk, nw) <= 2 {
			ok = true
		}
		if ok {
			return fmt.Sprintf(` The block has %q: did you mean %q?`, k, want)
		}
	}
	return ""
}

func normKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r != '_' && r != '-' && r != ' ' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

var opAlias = map[string]string{
	"CREATE": OpAdd, "NEW": OpAdd, "INSERT": OpAdd, "APPEND": OpAdd, "PROPOSE": OpAdd,
	"UPDATE": OpEdit, "MODIFY": OpEdit, "CHANGE": OpEdit, "PATCH": OpEdit, "REVISE": OpEdit, "AMEND": OpEdit, "REPLACE": OpEdit,
	"DELETE": OpKill, "REMOVE": OpKill, "DROP": OpKill, "RETRACT": OpKill, "RETIRE": OpKill,
}

func (c *checker) badOp(v *jsonv.Value) {
	up := strings.ToUpper(strings.TrimSpace(v.Str))
	sugg, why := "", ""
	switch {
	case isOp(up):
		sugg, why = up, " (operations are upper case)"
	case opAlias[up] != "":
		sugg = opAlias[up]
	}
	msg := fmt.Sprintf(`Delta operation %q is not "ADD", "EDIT" or "KILL"%s`, v.Str, why)
	var fix *diag.LocalFix
	if sugg != "" {
		msg += fmt.Sprintf(`; did you mean %q?`, sugg)
		fix = c.replaceValue(v, strconv.Quote(sugg), "Use operation "+sugg)
	} else {
		msg += "."
	}
	c.at(ruleid.DL001, diag.Error, v, msg+" The block is rejected.", hintOp, fix)
}

// sectionAlias maps common wrong section names (normalized: lower case, '_'
// for '-' and ' ') to the section id they mean.
var sectionAlias = func() map[string]string {
	m := map[string]string{}
	for id, names := range map[string][]string{
		HypothesisSlate:     {"hypotheses", "hypothesis", "hypothese", "slate", "hypothesis_list", "hypotheses_slate"},
		PredictionsTable:    {"predictions", "prediction", "prediction_table"},
		DiscriminativeTests: {"tests", "test", "experiments", "experiment", "discriminative_test"},
		AssumptionLedger:    {"assumptions", "assumption", "assumptions_ledger"},
		AnomalyRegister:     {"anomalies", "anomaly", "anomalies_register"},
		AdversarialCritique: {"critiques", "critique", "critic", "adversarial_critiques", "adversarial"},
		ResearchThread:      {"research", "thread", "rt", "research_question"},
	} {
		for _, n := range names {
			m[n] = id
		}
	}
	return m
}()

// SuggestSection returns the section id a wrong section name most likely
// means, or "".
func SuggestSection(s string) string {
	n := strings.ToLower(strings.TrimSpace(s))
	n = strings.NewReplacer("-", "_", " ", "_").Replace(n)
	if isSection(n) {
		return n
	}
	if a, ok := sectionAlias[n]; ok {
		return a
	}
	best, bd := "", 1<<30
	for _, id := range Sections {
		if d := diag.EditDistance(n, id); d < bd {
			best, bd = id, d
		}
	}
	if bd <= 3 {
		return best
	}
	if len(n) >= 4 {
		for _, id := range Sections {
			if strings.HasPrefix(id, n) {
				return id
			}
		}
	}
	return ""
}

func (c *checker) badSection(v *jsonv.Value) {
	sugg := SuggestSection(v.Str)
	msg := fmt.Sprintf("Delta section %q is not a section id", v.Str)
	var fix *diag.LocalFix
	if sugg != "" {
		msg += fmt.Sprintf("; did you mean %q?", sugg)
		fix = c.replaceValue(v, strconv.Quote(sugg), "Use section "+sugg)
	} else {
		msg += "."
	}
	c.at(ruleid.DL002, diag.Error, v, msg+" The block is rejected (failure mode 2: wrong section name).", hintSection, fix)
}

// target checks target_id and returns the normalized target.
func (c *checker) target(v *jsonv.Value, op, sec string, opV *jsonv.Value) string {
	tv := v.Get("target_id")
	switch op {
	case OpAdd:
		if tv != nil && tv.Kind != jsonv.Null {
			c.at(ruleid.DL007, diag.Warning, tv, fmt.Sprintf("ADD has target_id %s; the merge assigns ADD ids, so it is ignored.", tv.Text()),
				hintAddID, c.replaceValue(tv, "null", "Set target_id to null"))
		}
		if sec == ResearchThread {
			c.at(ruleid.DL004, diag.Error, opV, "ADD on research_thread: the research_thread section only supports EDIT; the block is rejected.", hintRT, nil)
		}
		return ""
	case OpEdit, OpKill:
	default:
		return ""
	}
	if sec == ResearchThread {
		if op == OpKill {
			c.at(ruleid.DL004, diag.Error, opV, "KILL on research_thread: the research_thread section only supports EDIT; the block is rejected.", hintRT, nil)
			return ""
		}
		switch {
		case tv == nil || tv.Kind == jsonv.Null:
			return "RT"
		case tv.Kind != jsonv.String:
			c.at(ruleid.DL003, diag.Error, tv, fmt.Sprintf(`research_thread target_id is %s; it must be "RT" (or null). The block is rejected.`, tv.Kind.Phrase()), hintRT, nil)
		case tv.Str != "RT":
			var fix *diag.LocalFix
			if strings.EqualFold(strings.TrimSpace(tv.Str), "RT") {
				fix = c.replaceValue(tv, `"RT"`, `Use target_id "RT"`)
			}
			c.at(ruleid.DL003, diag.Error, tv, fmt.Sprintf(`research_thread target_id must be "RT" (got %q); the block is rejected.`, tv.Str), hintRT, fix)
		}
		return "RT"
	}
	var where string // " on <section>" in the findings below
	if sec != "" && (tv == nil || tv.Kind != jsonv.String || strings.TrimSpace(tv.Str) == "") {
		where = " on " + sec
	}
	const fm3 = " EDIT and KILL must name the item they change (failure mode 3: missing target_id on EDIT/KILL). The block is rejected."
	switch {
	case tv == nil:
		c.at(ruleid.DL003, diag.Error, opV, fmt.Sprintf("%s%s has no target_id.%s", op, where, fm3)+
			c.keyHint(v, "target_id", "target", "id", "item", "item_id", "targetid"), hintTarget(sec), nil)
	case tv.Kind == jsonv.Null:
		c.at(ruleid.DL003, diag.Error, tv, fmt.Sprintf("%s%s has target_id null.%s", op, where, fm3), hintTarget(sec), nil)
	case tv.Kind != jsonv.String:
		c.at(ruleid.DL003, diag.Error, tv, fmt.Sprintf("%s%s has %s target_id (%s), not an item id string.%s", op, where, tv.Kind.Phrase(), tv.Text(), fm3), hintTarget(sec), nil)
	case strings.TrimSpace(tv.Str) == "":
		c.at(ruleid.DL003, diag.Error, tv, fmt.Sprintf("%s%s has an empty target_id.%s", op, where, fm3), hintTarget(sec), nil)
	default:
		return tv.Str
	}
	return ""
}

// payload checks the payload's shape (DL-004).
func (c *checker) payload(v, pv *jsonv.Value, op, sec string) {
	switch op {
	case OpAdd, OpEdit:
		if pv != nil && pv.Kind == jsonv.Object {
			return
		}
		hint := fmt.Sprintf(`%s needs "payload": {…} holding the item's fields (delta_output_format_v0.1.md, Field Definitions).`, op)
		if pv == nil {
			if moved := fieldKeysAtTop(v, sec); len(moved) > 0 {
				hint = fmt.Sprintf("Move %s into \"payload\": {…}.", strings.Join(moved, ", "))
			}
			c.report(ruleid.DL004, diag.Error, v.Off, v.Off+1, fmt.Sprintf("%s has no payload object; the block is rejected.", op), hint, nil)
			return
		}
		c.at(ruleid.DL004, diag.Error, pv, fmt.Sprintf("%s payload is %s, not an object; the block is rejected.", op, pv.Kind.Phrase()), hint, nil)
	case OpKill:
		// "payload | ADD/EDIT: Yes, KILL: Optional" (artifact_delta_spec_v0.1.md):
		// a KILL without a reason is applied, with a warning (DL-011).
		const applied = "; the KILL is applied and the item is rendered with \"no reason given\"."
		switch {
		case pv == nil || pv.Kind == jsonv.Null:
			hint := hintKill
			if r := v.Get("reason"); r != nil {
				hint = `Move "reason" into the payload: "payload": {"reason": "…"}.`
			}
			anchor := pv
			if anchor == nil {
				anchor = &jsonv.Value{Off: v.Off, End: v.Off + 1}
			}
			c.at(ruleid.DL011, diag.Warning, anchor, "KILL has no payload with a reason"+applied, hint, nil)
		case pv.Kind != jsonv.Object:
			c.at(ruleid.DL004, diag.Error, pv, fmt.Sprintf("KILL payload is %s, not an object with a reason; the block is rejected.", pv.Kind.Phrase()), hintKill, nil)
		default:
			r := pv.Get("reason")
			switch {
			case r == nil || r.Kind == jsonv.Null:
				c.at(ruleid.DL011, diag.Warning, pv, "KILL payload has no reason"+applied, hintKill, nil)
			case r.Kind != jsonv.String:
				c.at(ruleid.DL004, diag.Error, r, fmt.Sprintf("KILL reason is %s, not a string; the block is rejected.", r.Kind.Phrase()), hintKill, nil)
			case strings.TrimSpace(r.Str) == "":
				c.at(ruleid.DL011, diag.Warning, r, "KILL reason is empty"+applied, hintKill, nil)
			}
		}
	default:
		if pv != nil && pv.Kind != jsonv.Object && pv.Kind != jsonv.Null {
			c.at(ruleid.DL004, diag.Error, pv, fmt.Sprintf("Delta payload is %s, not an object; the block is rejected.", pv.Kind.Phrase()),
				`The payload is an object: "payload": {…} (delta_output_format_v0.1.md, Field Definitions).`, nil)
		}
	}
}

// fieldKeysAtTop lists top-level keys that belong in the payload.
func fieldKeysAtTop(v *jsonv.Value, sec string) []string {
	var out []string
	for _, k := range v.Keys() {
		switch k {
		case "operation", "section", "target_id", "payload", "rationale", "delta_id", "timestamp", "agent":
			continue
		}
		for _, r := range required[sec] {
			if r.name == k {
				out = append(out, k)
			}
		}
	}
	return out
}

func suggestRelation(s string) string {
	n := normKey(s)
	for _, r := range Relations {
		nr := normKey(r)
		if n == nr || n+"s" == nr || diag.EditDistance(n, nr) <= 1 {
			return r
		}
	}
	return ""
}

// duplicateKeys reports every repeated key of every object in the block
// (DL-010): a reader sees the first value, a JSON parser may take the last,
// so the block is ambiguous and rejected.
func (c *checker) duplicateKeys(root *jsonv.Value) {
	stack := append(make([]*jsonv.Value, 0, 64), root)
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range v.Dups() {
			c.report(ruleid.DL010, diag.Error, d.Off, d.Off+len(d.Key)+2, fmt.Sprintf("Key %q appears twice in one object of the delta block; the block is rejected, because readers and tools may not take the same value.", d.Key),
				"Keep one of the two entries.", nil)
		}
		stack = append(stack, v.Vals()...)
		stack = append(stack, v.Arr()...)
	}
}
