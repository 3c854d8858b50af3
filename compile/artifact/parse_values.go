package artifact

import (
	"regexp"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
)

// The value codec: how the text of a field reads back as a payload value.
// It is the inverse of render.go's value rendering, up to the losses listed
// in each function.

var brRE = regexp.MustCompile(`(?i)<br\s*/?>`)

// brToNL turns <br>, <br/> and <br /> into line breaks (render.go's text()
// writes a string's line breaks as <br>).
func brToNL(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	return brRE.ReplaceAllString(s, "\n")
}

// decodeJSON parses t as one JSON value; ok is false when t is not JSON.
func decodeJSON(t string) (*jsonv.Value, bool) {
	if t == "" {
		return nil, false
	}
	switch c := t[0]; {
	case c == '{' || c == '[' || c == '"' || c == '-' || (c >= '0' && c <= '9'):
	case t == "true" || t == "false" || t == "null":
	default:
		return nil, false
	}
	v, err := jsonv.ParseString(t)
	if err != nil {
		return nil, false
	}
	clearOffsets(v)
	return v, true
}

// clearOffsets zeroes the byte offsets of a decoded value (they point into
// the field's text, not into the artifact).
func clearOffsets(v *jsonv.Value) {
	if v == nil {
		return
	}
	v.Off, v.End = 0, 0
	v.ClearKeyOffsets()
	for _, e := range v.Arr() {
		clearOffsets(e)
	}
	for _, e := range v.Vals() {
		clearOffsets(e)
	}
}

// decodeText reads an inline value: compact JSON for a number, boolean,
// object or array (render.go writes non-string values as compact JSON);
// anything else is a string with <br> read as a line break. A JSON string
// literal or null stays text ("null" is a string: render.go never writes a
// null value).
func decodeText(t string) *jsonv.Value {
	if v, ok := decodeJSON(t); ok && v.Kind != jsonv.String && v.Kind != jsonv.Null {
		return v
	}
	return jsonv.NewString(brToNL(t))
}

// decodeScalarText reads an inline value where render.go never writes an
// object or array inline (unknown keys, outline fields, flags: objects
// and arrays are rendered as "- " lists or joined lists there): numbers and
// booleans are values; everything else, JSON-looking text included, is a
// string.
func decodeScalarText(t string) *jsonv.Value {
	if v, ok := decodeJSON(t); ok && (v.Kind == jsonv.Number || v.Kind == jsonv.Bool) {
		return v
	}
	return jsonv.NewString(brToNL(t))
}

// inlineJSON reports whether render.go writes field key of section sec as
// inline text whatever its value (compact JSON for objects and arrays):
// the known text fields, and a prediction's condition and cells.
func inlineJSON(sec, key string) bool {
	if sec == delta.PredictionsTable && (key == "condition" || key == "predictions") {
		return true
	}
	for _, fs := range known[sec] {
		if fs.Key == key {
			return fs.Kind == kText
		}
	}
	return false
}

// decodeAny reads a value that render.go writes as JSON when it is not an
// object-valued score part: any JSON value (strings included), else text.
func decodeAny(t string) *jsonv.Value {
	if v, ok := decodeJSON(t); ok {
		return v
	}
	return jsonv.NewString(brToNL(t))
}

// splitList splits a comma-separated list. Commas inside parentheses,
// brackets, braces and double quotes (straight or curly) do not split, so
// `§150 ("a, b"), §161` is two anchors. Elements are trimmed; empty ones are
// dropped.
func splitList(t string) []string {
	var out []string
	depth := 0
	quote := rune(0)
	start := 0
	esc := false
	for i, r := range t {
		if esc {
			esc = false
			continue
		}
		switch {
		case quote == '"' && r == '\\':
			esc = true
		case quote != 0:
			if (quote == '"' && r == '"') || (quote == '“' && r == '”') {
				quote = 0
			}
		case r == '"' || r == '“':
			quote = r
		case r == '(' || r == '[' || r == '{':
			depth++
		case r == ')' || r == ']' || r == '}':
			if depth > 0 {
				depth--
			}
		case r == ',' && depth == 0:
			if s := strings.TrimSpace(t[start:i]); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if quote != 0 || depth != 0 {
		// Unbalanced: plain commas split the rest.
		for _, s := range strings.Split(t[start:], ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	if s := strings.TrimSpace(t[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// stringList reads anchors / conflicts_with: a list of strings.
func stringList(t string) *jsonv.Value {
	out := jsonv.NewArray([]*jsonv.Value{})
	for _, s := range splitList(t) {
		out.Append(jsonv.NewString(brToNL(s)))
	}
	return out
}

var refRE = regexp.MustCompile(`^([^\s/(),]+)/([^\s/(),]+)(?: \(([^()]*)\))?$`)

// parseRefs reads cross-session references: "session/item (relation)"
// elements become {session, item, relation} objects; other elements are
// read like inline values.
func parseRefs(t string) *jsonv.Value {
	out := jsonv.NewArray([]*jsonv.Value{})
	for _, s := range splitList(t) {
		if m := refRE.FindStringSubmatch(s); m != nil {
			o := jsonv.NewObject()
			o.Set("session", jsonv.NewString(m[1]))
			o.Set("item", jsonv.NewString(m[2]))
			if strings.Contains(s, " (") {
				o.Set("relation", jsonv.NewString(brToNL(m[3])))
			}
			out.Append(o)
			continue
		}
		out.Append(decodeText(s))
	}
	return out
}

// scoreKey maps a score part label to its key ("" when it is not one).
func scoreKey(label string) string {
	switch strings.ToLower(diag.CollapseSpace(strings.Trim(label, "*_ "))) {
	case "lr", "likelihood ratio", "likelihood_ratio", "likelihood-ratio":
		return "likelihood_ratio"
	case "cost":
		return "cost"
	case "speed":
		return "speed"
	case "ambiguity":
		return "ambiguity"
	}
	return ""
}

// parseScoreInline reads an evidence-per-week score line: JSON (render.go
// writes a non-object score as JSON), else "LR=3, Cost=2, Speed=2,
// Ambiguity=3" (with any extra "key=value" parts), else text.
func parseScoreInline(t string) *jsonv.Value {
	if v, ok := decodeJSON(t); ok {
		return v
	}
	parts := splitList(t)
	if len(parts) == 0 {
		return decodeText(t)
	}
	o := jsonv.NewObject()
	for _, p := range parts {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return decodeText(t)
		}
		k = strings.TrimSpace(k)
		if sk := scoreKey(k); sk != "" {
			k = sk
		}
		o.Set(k, decodeAny(strings.TrimSpace(v)))
	}
	return o
}

var leadNum = regexp.MustCompile(`^-?[0-9]+(?:\.[0-9]+)?`)

// parseScoreList reads the schema's list form of a score
// ("- Likelihood ratio: 3 (>100:1 …)"): the leading number of each part.
// ok is false when an item is not "<part>: <value>".
func parseScoreList(items []string) (*jsonv.Value, bool) {
	o := jsonv.NewObject()
	for _, it := range items {
		k, v, ok := strings.Cut(it, ":")
		if !ok {
			return nil, false
		}
		sk := scoreKey(k)
		if sk == "" {
			return nil, false
		}
		v = strings.TrimSpace(v)
		if n := leadNum.FindString(v); n != "" {
			if jv, ok := decodeJSON(n); ok {
				o.Set(sk, jv)
				continue
			}
		}
		o.Set(sk, decodeText(v))
	}
	return o, len(o.Keys()) > 0
}

// isPair reports whether an outline item is "key: value" (or "key:").
func isPair(s string) bool {
	if s != "" && (s[0] == '{' || s[0] == '[') {
		if _, ok := decodeJSON(s); ok {
			return false
		}
	}
	return strings.Contains(s, ": ") || strings.HasSuffix(s, ":")
}

func cutPair(s string) (string, string) {
	if k, v, ok := strings.Cut(s, ": "); ok {
		return strings.TrimSpace(k), strings.TrimSpace(v)
	}
	return strings.TrimSpace(strings.TrimSuffix(s, ":")), ""
}

// decodeOutline reads the "- …" items under a label: an object when every
// item is "key: value", else an array of inline values (items of a killed
// item have had their strikethrough removed by the scanner).
// expected_outcomes keys lose a leading "If " ("- If H1: …").
func decodeOutline(key string, items []string) *jsonv.Value {
	all := len(items) > 0
	for _, it := range items {
		if !isPair(it) {
			all = false
			break
		}
	}
	if all {
		o := jsonv.NewObject()
		for _, it := range items {
			k, v := cutPair(it)
			k = stripBold(k)
			if key == "expected_outcomes" && len(k) > 3 && strings.EqualFold(k[:3], "if ") {
				k = strings.TrimSpace(k[3:])
			}
			o.Set(k, decodeText(v))
		}
		return o
	}
	arr := jsonv.NewArray([]*jsonv.Value{})
	for _, it := range items {
		arr.Append(decodeText(it))
	}
	return arr
}

// stripBold removes a ** or __ wrapper ("**H1**" → "H1").
func stripBold(s string) string {
	for _, w := range []string{"**", "__"} {
		if len(s) > 4 && strings.HasPrefix(s, w) && strings.HasSuffix(s, w) {
			return strings.TrimSpace(s[2 : len(s)-2])
		}
	}
	return s
}

// unstrike removes one ~~…~~ wrapper.
func unstrike(s string) string {
	if len(s) >= 4 && strings.HasPrefix(s, "~~") && strings.HasSuffix(s, "~~") {
		return s[2 : len(s)-2]
	}
	return s
}

// decodeInline reads the inline value t of field key in section sec.
func decodeInline(sec, key, t string) *jsonv.Value {
	switch {
	case key == "anchors" || key == "conflicts_with":
		return stringList(t)
	case key == "references":
		return parseRefs(t)
	case key == "score" && sec == delta.DiscriminativeTests:
		return parseScoreInline(t)
	case inlineJSON(sec, key):
		return decodeText(t)
	}
	return decodeScalarText(t)
}

// snakeKey turns an unknown label into a payload key: lower case, runs of
// white space as "_" ("Key prediction" → "key_prediction"). It inverts
// render.go's labelOf up to letter case and "-" (written as a space).
func snakeKey(label string) string {
	return strings.Join(strings.Fields(strings.ToLower(label)), "_")
}
