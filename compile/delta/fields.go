package delta

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/schema"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

// reqField is a required payload field of an ADD.
type reqField struct {
	name string
	// lenient reports whether a missing field is only a warning (the block
	// stays valid); see docs/divergences.md §3.
	lenient func(p *jsonv.Value) bool
	def     string // value filled in when a lenient field is missing ("" = none)
}

func always(*jsonv.Value) bool { return true }

func thirdAlternative(p *jsonv.Value) bool {
	t := p.Get("third_alternative")
	return t != nil && t.Kind == jsonv.Bool && t.Bool
}

// required lists each section's required ADD fields (delta_output_format_v0.1.md,
// Failure Mode 5), with the leniency brenner-ci applies, from the schema.
var required = func() map[string][]reqField {
	m := map[string][]reqField{}
	for _, sec := range schema.Sections {
		for _, f := range sec.Fields {
			r := reqField{name: f.Key, def: f.Default}
			switch f.Required {
			case schema.Optional:
				continue
			case schema.Lenient:
				r.lenient = always
			case schema.LenientForThirdAlternative:
				r.lenient = thirdAlternative
			}
			m[sec.ID] = append(m[sec.ID], r)
		}
	}
	return m
}()

// synonyms maps payload keys agents use instead of a required field, by
// section, to that field (they are mentioned in DL-005 messages).
var synonyms = func() map[string]map[string]string {
	m := map[string]map[string]string{}
	for _, sec := range schema.Sections {
		for _, f := range sec.Fields {
			for _, syn := range f.Synonyms {
				if m[sec.ID] == nil {
					m[sec.ID] = map[string]string{}
				}
				m[sec.ID][syn] = f.Key
			}
		}
	}
	return m
}()

// RequiredFields returns the payload fields the spec requires on an ADD to sec.
func RequiredFields(sec string) []string {
	var out []string
	for _, r := range required[sec] {
		out = append(out, r.name)
	}
	return out
}

// required checks an ADD's required fields (DL-005) and returns the fields it
// filled in with defaults.
func (c *checker) required(sec string, pv *jsonv.Value) []string {
	var hard, soft, defaulted []string
	for _, r := range required[sec] {
		if !pv.Get(r.name).IsBlank() {
			continue
		}
		if r.lenient != nil && r.lenient(pv) {
			if r.def != "" {
				pv.Set(r.name, &jsonv.Value{Kind: jsonv.String, Str: r.def, Off: pv.End - 1, End: pv.End - 1})
				defaulted = append(defaulted, r.name)
			} else {
				soft = append(soft, r.name)
			}
			continue
		}
		hard = append(hard, r.name)
	}
	if len(hard) == 0 && len(soft) == 0 && len(defaulted) == 0 {
		return nil
	}
	all := strings.Join(RequiredFields(sec), ", ")
	hint := fmt.Sprintf("An ADD to %s needs %s (delta_output_format_v0.1.md, Failure Mode 5: required payload fields by section).", sec, all)
	if len(hard) > 0 {
		what := "is missing required payload field"
		if len(hard) > 1 {
			what += "s"
		}
		if len(pv.Keys()) == 0 {
			what = "has an empty payload; it needs"
		}
		var seen []string
		for _, k := range pv.Keys() {
			if f := synonyms[sec][k]; f != "" && contains(hard, f) {
				seen = append(seen, fmt.Sprintf("%q instead of %q", k, f))
			}
		}
		also := ""
		if len(seen) > 0 {
			also = " It has " + strings.Join(seen, ", ") + "."
		}
		c.at(ruleid.DL005, diag.Error, pv, fmt.Sprintf("ADD to %s %s %s; the block is rejected (failure mode 5: empty or incomplete payload on ADD).%s",
			sec, what, strings.Join(hard, ", "), also), hint, nil)
	}
	for _, name := range defaulted {
		def := ""
		for _, r := range required[sec] {
			if r.name == name {
				def = r.def
			}
		}
		c.at(ruleid.DL009, diag.Warning, pv, fmt.Sprintf("ADD to %s has no %s; the item is added with %s %q.", sec, name, name, def), hint, nil)
	}
	if len(soft) > 0 {
		them := "them"
		if len(soft) == 1 {
			them = "it"
		}
		why := "the item is added without " + them
		if sec == HypothesisSlate {
			why = "a third alternative is added without " + them + " (it needs only name and claim)"
		}
		c.at(ruleid.DL009, diag.Warning, pv, fmt.Sprintf("ADD to %s has no %s; %s.", sec, strings.Join(soft, " or "), why), hint, nil)
	}
	return defaulted
}

// stringFields are the fields whose value must be a string, by section
// (delta_output_format_v0.1.md, Payload Schemas), from the schema.
var stringFields = func() map[secField]bool {
	m := map[secField]bool{}
	for _, sec := range schema.Sections {
		for _, f := range sec.Fields {
			if f.String {
				m[secField{sec.ID, f.Key}] = true
			}
		}
	}
	return m
}()

// secField is a payload field of a section.
type secField struct{ sec, key string }

// schemaHints are the DL-006 hints, by section (built once, not per block).
var schemaHints = func() map[string]string {
	m := map[string]string{}
	for _, sec := range schema.Sections {
		m[sec.ID] = schemaHint(sec.ID)
	}
	return m
}()

func schemaHint(sec string) string {
	return "See the " + sec + " payload schema (delta_output_format_v0.1.md, Payload Schemas by Section)."
}

var boolFields = map[string]bool{"third_alternative": true, "scale_check": true, "real_third_alternative": true, "anchors_replace": true, "replace": true}

var statusValues = func() map[string][]string {
	m := map[string][]string{}
	for _, sec := range schema.Sections {
		if sec.Statuses != nil {
			m[sec.ID] = sec.Statuses
		}
	}
	return m
}()

// fields checks payload field values (DL-006).
func (c *checker) fields(sec string, pv *jsonv.Value) {
	hintSchema, ok := schemaHints[sec]
	if !ok {
		hintSchema = schemaHint(sec)
	}
	vals := pv.Vals()
	for i, k := range pv.Keys() {
		f := vals[i]
		if f.Kind == jsonv.Null {
			continue
		}
		switch {
		case stringFields[secField{sec, k}]:
			if f.Kind != jsonv.String {
				c.at(ruleid.DL006, diag.Warning, f, fmt.Sprintf("payload.%s is %s, not a string.", k, f.Kind.Phrase()), hintSchema, nil)
			}
		case boolFields[k] || strings.HasSuffix(k, "_replace"):
			if f.Kind != jsonv.Bool {
				var fix *diag.LocalFix
				if f.Kind == jsonv.String && (f.Str == "true" || f.Str == "false") {
					fix = c.replaceValue(f, f.Str, "Use the JSON boolean "+f.Str)
				}
				c.at(ruleid.DL006, diag.Warning, f, fmt.Sprintf("payload.%s is %s, not a boolean (true or false).", k, f.Kind.Phrase()), hintSchema, fix)
			}
		case k == "anchors":
			c.anchors(f)
		case k == "score" && sec == DiscriminativeTests:
			c.score(f)
		case k == "status" && statusValues[sec] != nil:
			c.status(sec, f)
		case (k == "predictions" && sec == PredictionsTable) || (k == "expected_outcomes" && sec == DiscriminativeTests):
			c.byHypothesis(k, f, hintSchema)
		case k == "conflicts_with" && sec == AnomalyRegister:
			c.idList(k, f, hintSchema)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

const hintAnchors = `Anchors are transcript sections "§n" or ranges "§n-§m", evidence refs "EV-001" or "EV-001#E1", optionally followed by " [inference]", or the literal "inference" (artifact_schema_v0.1.md, Anchors Field Contract).`

const mojibake = "\u00ac\u00df" // "¬ß": UTF-8 "§" (C2 A7) decoded as Mac Roman

var reAnchor = regexp.MustCompile(`(?i)^(?:(?:§ ?\d+(?:\s*-\s*(?:§ ?)?\d+)?|EV-\d+(?:#E\d+)?)(?:\s*\[inference\])?|inference|\[inference\])$`)

// ValidAnchor reports whether s is one anchor of the anchors field contract.
func ValidAnchor(s string) bool {
	s = strings.TrimSpace(s)
	// Most anchors are "§n": no need for the pattern.
	if d, ok := strings.CutPrefix(s, "§"); ok && d != "" && allDigits(d) {
		return true
	}
	return reAnchor.MatchString(s)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (c *checker) anchors(f *jsonv.Value) {
	if f.Kind == jsonv.String {
		parts := strings.Split(f.Str, ",")
		q := make([]string, 0, len(parts))
		for _, p := range parts {
			if p = strings.TrimSpace(p); p != "" {
				q = append(q, strconv.Quote(p))
			}
		}
		c.at(ruleid.DL006, diag.Warning, f, "payload.anchors is a string, not an array of anchors.", hintAnchors,
			c.replaceValue(f, "["+strings.Join(q, ", ")+"]", "Make anchors an array"))
		return
	}
	if f.Kind != jsonv.Array {
		c.at(ruleid.DL006, diag.Warning, f, fmt.Sprintf("payload.anchors is %s, not an array of anchors.", f.Kind.Phrase()), hintAnchors, nil)
		return
	}
	for i, e := range f.Arr() {
		if e.Kind != jsonv.String {
			c.at(ruleid.DL006, diag.Warning, e, fmt.Sprintf("payload.anchors[%d] is %s, not an anchor string.", i, e.Kind.Phrase()), hintAnchors, nil)
			continue
		}
		s := e.Str
		switch {
		case strings.Contains(s, mojibake):
			fixed := strings.ReplaceAll(s, mojibake, "§")
			c.at(ruleid.DL006, diag.Warning, e, fmt.Sprintf(`payload.anchors[%d] %q contains "¬ß", a known mojibake of "§" (UTF-8 read as Mac Roman); it is not a valid anchor.`, i, s),
				hintAnchors, c.replaceValue(e, strconv.Quote(fixed), `Replace "¬ß" by "§"`))
		case ValidAnchor(s):
		case strings.Contains(s, ",") && allAnchors(strings.Split(s, ",")):
			c.at(ruleid.DL006, diag.Warning, e, fmt.Sprintf("payload.anchors[%d] %q holds several anchors in one entry.", i, s),
				"Put each anchor in its own array entry. "+hintAnchors, nil)
		default:
			c.at(ruleid.DL006, diag.Warning, e, fmt.Sprintf("payload.anchors[%d] %q is not an anchor.", i, s), hintAnchors, nil)
		}
	}
}

func allAnchors(parts []string) bool {
	for _, p := range parts {
		if !ValidAnchor(p) {
			return false
		}
	}
	return true
}

var scoreParts = []struct{ name, rubric string }{
	{"likelihood_ratio", "0 = <2:1, 1 = 2-10:1, 2 = 10-100:1, 3 = >100:1"},
	{"cost", "0 = >$100K, 1 = $10K-$100K, 2 = $1K-$10K, 3 = <$1K"},
	{"speed", "0 = >1 year, 1 = 1-6 months, 2 = 1 week-1 month, 3 = <1 week"},
	{"ambiguity", "0 = many confounds, 1 = some confounds, 2 = few confounds, 3 = digital readout"},
}

const hintScore = "Score each part on the evidence-per-week rubric, an integer 0-3 (artifact_schema_v0.1.md, Scoring Rubric; delta_output_format_v0.1.md, discriminative_tests schema)."

func (c *checker) score(f *jsonv.Value) {
	if f.Kind != jsonv.Object {
		c.at(ruleid.DL006, diag.Warning, f, fmt.Sprintf("payload.score is %s, not an object of likelihood_ratio, cost, speed and ambiguity.", f.Kind.Phrase()), hintScore, nil)
		return
	}
	for _, p := range scoreParts {
		v := f.Get(p.name)
		if v == nil || v.Kind == jsonv.Null {
			continue
		}
		if v.Kind != jsonv.Number {
			var fix *diag.LocalFix
			if n, err := strconv.Atoi(strings.TrimSpace(v.Str)); v.Kind == jsonv.String && err == nil && n >= 0 && n <= 3 {
				fix = c.replaceValue(v, strconv.Itoa(n), "Use the number "+strconv.Itoa(n))
			}
			c.at(ruleid.DL006, diag.Warning, v, fmt.Sprintf("score.%s is %s, not an integer 0-3 (rubric: %s).", p.name, v.Kind.Phrase(), p.rubric), hintScore, fix)
			continue
		}
		x, _ := v.Float()
		if x == math.Trunc(x) && x >= 0 && x <= 3 {
			continue
		}
		msg := fmt.Sprintf("score.%s is %s, out of range: score parts are integers 0-3 (rubric: %s).", p.name, v.Num, p.rubric)
		if p.name == "likelihood_ratio" && x > 3 {
			msg += fmt.Sprintf(" If you meant a ratio of %s:1, that scores %d.", v.Num, lrScore(x))
		}
		c.at(ruleid.DL006, diag.Warning, v, msg, hintScore, nil)
	}
}

// lrScore maps a likelihood ratio r:1 to its rubric score.
func lrScore(r float64) int {
	switch {
	case r < 2:
		return 0
	case r <= 10:
		return 1
	case r <= 100:
		return 2
	}
	return 3
}

func (c *checker) status(sec string, f *jsonv.Value) {
	vals := statusValues[sec]
	if f.Kind == jsonv.String && contains(vals, f.Str) {
		return
	}
	hint := fmt.Sprintf("Use one of %s (artifact_delta_spec_v0.1.md, Section-Specific Rules).", strings.Join(vals, ", "))
	if f.Kind != jsonv.String {
		c.at(ruleid.DL006, diag.Warning, f, fmt.Sprintf("payload.status is %s, not one of %s.", f.Kind.Phrase(), strings.Join(vals, ", ")), hint, nil)
		return
	}
	var fix *diag.LocalFix
	msg := fmt.Sprintf("payload.status %q is not one of %s.", f.Str, strings.Join(vals, ", "))
	if l := strings.ToLower(strings.TrimSpace(f.Str)); contains(vals, l) {
		fix = c.replaceValue(f, strconv.Quote(l), "Use status "+l)
		msg = fmt.Sprintf("payload.status %q is not one of %s (statuses are lower case).", f.Str, strings.Join(vals, ", "))
	}
	c.at(ruleid.DL006, diag.Warning, f, msg, hint, fix)
}

// isHypID reports whether s is a hypothesis id: H, then a number without
// a leading zero (^H[1-9][0-9]*$, which TestIsHypID holds it to). It is
// asked of every key of every predictions and expected_outcomes object.
func isHypID(s string) bool {
	if len(s) < 2 || s[0] != 'H' || s[1] < '1' || s[1] > '9' {
		return false
	}
	for i := 2; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// byHypothesis checks an object keyed by hypothesis id (predictions,
// expected_outcomes).
func (c *checker) byHypothesis(k string, f *jsonv.Value, hint string) {
	if f.Kind != jsonv.Object {
		c.at(ruleid.DL006, diag.Warning, f, fmt.Sprintf("payload.%s is %s, not an object keyed by hypothesis id (H1, H2, …).", k, f.Kind.Phrase()), hint, nil)
		return
	}
	vals := f.Vals()
	for i, key := range f.Keys() {
		e := vals[i]
		if !isHypID(key) {
			var fix *diag.LocalFix
			ko, _ := f.KeyOffset(key)
			up := strings.ToUpper(strings.TrimSpace(key))
			msg := fmt.Sprintf("payload.%s key %q is not a hypothesis id (H<n>).", k, key)
			if isHypID(up) {
				msg = fmt.Sprintf("payload.%s key %q is not a hypothesis id; did you mean %q?", k, key, up)
				fix = c.replace(ko, ko+len(strconv.Quote(key)), strconv.Quote(up), "Use key "+up)
			}
			c.report(ruleid.DL006, diag.Warning, ko, ko+len(strconv.Quote(key)), msg, hint, fix)
		}
		if e.Kind != jsonv.String && e.Kind != jsonv.Null {
			c.at(ruleid.DL006, diag.Warning, e, fmt.Sprintf("payload.%s[%q] is %s, not a string.", k, key, e.Kind.Phrase()), hint, nil)
		}
	}
}

func (c *checker) idList(k string, f *jsonv.Value, hint string) {
	if f.Kind == jsonv.String {
		c.at(ruleid.DL006, diag.Warning, f, fmt.Sprintf("payload.%s is a string, not an array of item ids.", k), hint,
			c.replaceValue(f, "["+f.Text()+"]", "Make "+k+" an array"))
		return
	}
	if f.Kind != jsonv.Array {
		c.at(ruleid.DL006, diag.Warning, f, fmt.Sprintf("payload.%s is %s, not an array of item ids.", k, f.Kind.Phrase()), hint, nil)
		return
	}
	for i, e := range f.Arr() {
		if e.Kind != jsonv.String {
			c.at(ruleid.DL006, diag.Warning, e, fmt.Sprintf("payload.%s[%d] is %s, not an item id string.", k, i, e.Kind.Phrase()), hint, nil)
		}
	}
}

// references checks payload.references (RF-003) and returns the well-formed entries.
func (c *checker) references(pv *jsonv.Value) []Reference {
	rv := pv.Get("references")
	if rv == nil || rv.Kind == jsonv.Null {
		return nil
	}
	if rv.Kind != jsonv.Array {
		c.at(ruleid.RF003, diag.Warning, rv, fmt.Sprintf("payload.references is %s, not an array of {session, item, relation} objects; it is ignored.", rv.Kind.Phrase()), hintRefs, nil)
		return nil
	}
	var out []Reference
	for i, e := range rv.Arr() {
		if e.Kind != jsonv.Object {
			c.at(ruleid.RF003, diag.Warning, e, fmt.Sprintf("payload.references[%d] is %s, not a {session, item, relation} object.", i, e.Kind.Phrase()), hintRefs, nil)
			continue
		}
		str := func(k string) (string, bool) {
			s, ok := e.Get(k).AsString()
			return s, ok && strings.TrimSpace(s) != ""
		}
		session, okS := str("session")
		item, okI := str("item")
		var miss []string
		if !okS {
			miss = append(miss, "session")
		}
		if !okI {
			miss = append(miss, "item")
		}
		if len(miss) > 0 {
			c.at(ruleid.RF003, diag.Warning, e, fmt.Sprintf("payload.references[%d] has no %s.", i, strings.Join(miss, " or ")), hintRefs, nil)
		}
		rel := ""
		switch r := e.Get("relation"); {
		case r == nil || r.Kind == jsonv.Null:
			c.at(ruleid.RF003, diag.Warning, e, fmt.Sprintf("payload.references[%d] has no relation; it must be one of %s.", i, strings.Join(Relations, ", ")), hintRefs, nil)
		case r.Kind != jsonv.String:
			c.at(ruleid.RF003, diag.Warning, r, fmt.Sprintf("payload.references[%d].relation is %s, not one of %s.", i, r.Kind.Phrase(), strings.Join(Relations, ", ")), hintRefs, nil)
		default:
			rel = r.Str
			if !contains(Relations, rel) {
				msg := fmt.Sprintf("payload.references[%d] has relation %q, which is not one of %s.", i, rel, strings.Join(Relations, ", "))
				var fix *diag.LocalFix
				if s := suggestRelation(rel); s != "" {
					msg = fmt.Sprintf("payload.references[%d] has relation %q, which is not one of %s; did you mean %q?", i, rel, strings.Join(Relations, ", "), s)
					fix = c.replaceValue(r, strconv.Quote(s), "Use relation "+s)
				}
				c.at(ruleid.RF003, diag.Warning, r, msg, hintRefs, fix)
			}
		}
		if okS && okI {
			out = append(out, Reference{Session: session, Item: item, Relation: rel, Off: c.b.BodyOffset(e.Off)})
		}
	}
	return out
}
