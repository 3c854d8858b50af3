package artifact

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/schema"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// The round trip: for an artifact a the merge produced,
// ParseMarkdown(a.Render()).Art equals normalized(a).
//
// normalized(a) is a as its rendering shows it. It is computed from the
// model with render.go's own value-to-text helpers (inlineValue, joinList,
// refsList, scoreLine, title) and the parser's text-to-value codec
// (decodeText, decodeInline, decodeOutline; unit-tested on their own in
// parse_test.go). The document-level reading (front matter, sections,
// headings, kill state, tables, details lists, label → key, item order) is
// what the round trip checks. The normalizations, each a loss of the
// rendering:
//
//   - Empty values (null, blank strings, empty lists and objects, false
//     flags) are not rendered, so they are absent.
//   - Strings are trimmed and their line breaks read back as "\n" (\r\n and
//     \r included); a literal "<br>" in a string reads back as "\n".
//   - A string that is the compact JSON of a number or boolean reads back
//     as that value; one that is the compact JSON of an object or array
//     does too in the fields render.go writes inline whatever the value
//     (known text fields, prediction cells, outline values), and stays a
//     string elsewhere (unknown keys, outline fields, flags: there objects
//     and arrays are rendered as lists).
//   - anchors and conflicts_with read back as arrays of strings, split on
//     commas outside quotes and brackets; references "session/item
//     (relation)" read back as objects.
//   - Outlines ("- key: value" lines) read back as objects when every line
//     is "key: value", else as arrays.
//   - An object score reads back with every part present (a missing or
//     null part is 0) and extra parts as "key=value" text; a non-object
//     score as its JSON.
//   - Names are titles: one line, a repeated id prefix removed; a
//     hypothesis name ending " (Third Alternative)" reads back as the name
//     without it and third_alternative: true; a boolean third_alternative
//     that the heading does not show (the name already says "third
//     alternative", or false) is absent; an empty name with the flag reads
//     back as "Third Alternative".
//   - Unknown payload keys read back in snake case of their label
//     ("notes", "attack_type"; "Notes" → "notes", "a-b" → "a_b"). A key
//     whose label is an alias of a standard field the item lacks reads back
//     as that field ("statement" of a hypothesis without a claim → claim).
//   - Anomaly quarantine_status reads back as status when status is absent.
//   - Predictions: a cell for a killed hypothesis reads "N/A"; keys are
//     matched to hypotheses as Artifact.Cell does (a key in another letter
//     case reads back as the hypothesis id, a second key for the same
//     hypothesis is lost); a condition or cell "—" is absent.
//   - Kill state: killed_by "" reads back as "unknown"; times in UTC.
//   - The research thread with nothing to show reads back as nil.
//   - Contributors keep only their names; items keep no AddedBy/AddedAt.
//   - Heading text is kept verbatim (a trailing "##" is part of a name).
//   - Items are in id order (tests are rendered by rank).
func normalized(a *Artifact) *Artifact {
	n := New(a.SessionID)
	n.Version, n.CompiledAt, n.CompiledBy, n.MessageID = a.Version, a.CompiledAt, a.CompiledBy, a.MessageID
	n.CreatedAt, n.UpdatedAt, n.Status = a.CreatedAt, a.UpdatedAt, a.Status
	for _, c := range a.Contributors {
		n.Contributors = append(n.Contributors, &Contributor{Agent: c.Agent})
	}
	if a.RT != nil {
		rt := normItem(a, a.RT)
		if len(rt.Fields.Keys()) > 0 || rt.Killed {
			n.RT = rt
		}
	}
	for _, s := range delta.Sections {
		if s == delta.ResearchThread {
			continue
		}
		for _, it := range a.Items[s] {
			n.Items[s] = append(n.Items[s], normItem(a, it))
		}
	}
	return n
}

// normItem is an item as its rendering reads back.
func normItem(a *Artifact, it *Item) *Item {
	out := &Item{ID: it.ID, Section: it.Section, Fields: jsonv.NewObject(), Killed: it.Killed}
	if it.Killed {
		out.KilledBy = diag.CollapseSpace(it.KilledBy)
		if out.KilledBy == "" {
			out.KilledBy = "unknown"
		}
		out.KilledAt = it.KilledAt
		out.KillReason = brToNL(text(it.KillReason))
	}
	sec := it.Section
	f := it.Fields
	has := map[string]bool{}
	thirdAlt := false
	// Heading.
	if sec != delta.ResearchThread && sec != delta.PredictionsTable {
		name := title(it)
		switch sec {
		case delta.HypothesisSlate:
			if v := f.Get("third_alternative"); v != nil && v.Kind == jsonv.Bool && v.Bool {
				if !thirdAltName.MatchString(name) {
					if name == "" {
						name = "Third Alternative"
					} else {
						thirdAlt = true
					}
				}
			}
			if len(name) > len(thirdAltSuf) && strings.HasSuffix(name, thirdAltSuf) {
				name = strings.TrimSpace(name[:len(name)-len(thirdAltSuf)])
				thirdAlt = true
			}
		}
		if name != "" {
			out.Fields.Set("name", jsonv.NewString(name))
			has["name"] = true
		}
	}
	// The predictions table row.
	if sec == delta.PredictionsTable {
		if c := inlineValue(f.Get("condition")); c != "" && c != "—" {
			out.Fields.Set("condition", nText(c))
			has["condition"] = true
		}
		preds := jsonv.NewObject()
		for _, h := range a.Items[delta.HypothesisSlate] {
			v, na := a.Cell(it, h.ID)
			switch {
			case v == nil:
				continue
			case na: // render.go checks N/A before emptiness
				preds.Set(h.ID, jsonv.NewString("N/A"))
				continue
			case empty(v):
				continue
			}
			if c := inlineValue(v); c != "—" {
				preds.Set(h.ID, nText(c))
			}
		}
		pr := f.Get("predictions")
		if pr != nil && pr.Kind == jsonv.Object {
			for _, k := range pr.Keys() {
				if a.resolveHyp(k) == "" && !empty(pr.Get(k)) {
					preds.Set(diag.CollapseSpace(k), nText(inlineValue(pr.Get(k))))
				}
			}
		}
		if len(preds.Keys()) > 0 {
			out.Fields.Set("predictions", preds)
			has["predictions"] = true
		} else if pr != nil && pr.Kind != jsonv.Object && !pr.IsNull() {
			if t := inlineValue(pr); t != "" {
				out.Fields.Set("predictions", nText(t))
				has["predictions"] = true
			}
		}
	}
	// Fields, in rendering order.
	type rf struct {
		label   string
		inline  string
		items   []string
		outline bool
	}
	var fields []rf
	seen := map[string]bool{}
	add := func(label string, v *jsonv.Value, kind schema.Render) {
		if empty(v) {
			return
		}
		switch kind {
		case kJoin:
			fields = append(fields, rf{label: label, inline: joinListPlain(v)})
		case kRefs:
			fields = append(fields, rf{label: label, inline: refsList(v)})
		case kOutline:
			switch v.Kind {
			case jsonv.Object:
				var items []string
				for _, k := range v.Keys() {
					items = append(items, strings.TrimSpace(diag.CollapseSpace(k)+": "+inlineValue(v.Get(k))))
				}
				fields = append(fields, rf{label: label, items: items, outline: true})
				return
			case jsonv.Array:
				var items []string
				for _, e := range v.Arr() {
					if !empty(e) {
						items = append(items, inlineValue(e))
					}
				}
				fields = append(fields, rf{label: label, items: items, outline: true})
				return
			}
			fields = append(fields, rf{label: label, inline: inlineValue(v)})
		default:
			fields = append(fields, rf{label: label, inline: inlineValue(v)})
		}
	}
	if f != nil {
		for _, fs := range known[sec] {
			seen[fs.Key] = true
			v := f.Get(fs.Key)
			kind := fs.Kind
			if kind == kFlag || kind == kHeadFlag {
				if v != nil && v.Kind == jsonv.Bool {
					if v.Bool && kind == kFlag {
						fields = append(fields, rf{label: fs.Label, inline: "true"})
					}
					continue
				}
				kind = genericKind(v)
			}
			if kind != kSkip {
				add(fs.Label, v, kind)
			}
			if sec == delta.DiscriminativeTests && fs.Key == "feasibility" {
				plain := *it
				plain.Killed = false
				if g := scoreLinePlain(&plain); g != "" {
					fields = append(fields, rf{label: "Evidence-per-week score", inline: strings.TrimPrefix(g, "**Evidence-per-week score**: ")})
				}
			}
		}
		for _, k := range f.Keys() {
			if !seen[k] {
				add(labelOf(k), f.Get(k), genericKind(f.Get(k)))
			}
		}
	}
	// Label → key, as the parser resolves it.
	keys := make([]string, len(fields))
	alias := make([]bool, len(fields))
	vals := make([]*jsonv.Value, len(fields))
	decode := func(i int, key string) *jsonv.Value {
		r := fields[i]
		var v *jsonv.Value
		if r.outline {
			v = decodeOutline(key, r.items)
		} else {
			v = nInline(sec, key, r.inline)
		}
		if empty(v) {
			return nil
		}
		return v
	}
	quarantine := false
	for i, r := range fields {
		li, ok := lookupLabel(sec, r.label)
		switch {
		case !ok:
		case li.alias:
			alias[i] = true
			continue
		default:
			keys[i] = li.key
			if sec == delta.AnomalyRegister && normLabel(r.label) == "quarantine status" {
				if quarantine {
					keys[i] = "quarantine_status"
				}
				quarantine = true
			}
			if !has[keys[i]] {
				if v := decode(i, keys[i]); v != nil {
					vals[i] = v
					has[keys[i]] = true
				}
			}
		}
	}
	for i, r := range fields {
		if !alias[i] {
			continue
		}
		li, _ := lookupLabel(sec, r.label)
		if has[li.key] {
			continue
		}
		keys[i] = li.key
		vals[i] = decode(i, li.key)
		has[li.key] = true
	}
	for i, r := range fields {
		if keys[i] != "" {
			continue
		}
		k := snakeKey(r.label)
		if k == "" || has[k] || systemKey(k) {
			continue
		}
		if v := decode(i, k); v != nil {
			vals[i] = v
			keys[i] = k
			has[k] = true
		}
	}
	for i := range fields {
		if vals[i] != nil {
			out.Fields.Set(keys[i], vals[i])
		}
	}
	if thirdAlt && !out.Fields.Has("third_alternative") {
		out.Fields.Set("third_alternative", &jsonv.Value{Kind: jsonv.Bool, Bool: true})
	}
	return out
}

var nBR = regexp.MustCompile(`(?i)<br\s*/?>`)

// nText is how a rendered inline text reads back, written independently of
// the parser's decodeText: JSON numbers, booleans, objects and arrays are
// values; anything else is a string with <br> as a line break.
func nText(t string) *jsonv.Value { return nTextK(t, true) }

// nTextK is nText where compound (objects and arrays) says whether inline
// JSON objects and arrays are values: render.go writes them inline only in
// the known text fields and the prediction cells.
func nTextK(t string, compound bool) *jsonv.Value {
	if v, err := jsonv.Parse([]byte(t)); err == nil {
		switch v.Kind {
		case jsonv.Number, jsonv.Bool:
			return v
		case jsonv.Object, jsonv.Array:
			if compound {
				return v
			}
		}
	}
	return jsonv.NewString(nBR.ReplaceAllString(t, "\n"))
}

// textField reports whether render.go writes key of sec as inline text
// whatever the value (written here from render.go's known table).
func textField(sec, key string) bool {
	if sec == delta.PredictionsTable {
		return key == "condition" || key == "predictions"
	}
	for _, fs := range known[sec] {
		if fs.Key == key {
			return fs.Kind == kText
		}
	}
	return false
}

// nInline is how the inline text of field key reads back: lists, references
// and scores by the parser's codec (tested on their own), the rest by nText.
func nInline(sec, key, t string) *jsonv.Value {
	switch {
	case key == "anchors" || key == "conflicts_with":
		return stringList(t)
	case key == "references":
		return parseRefs(t)
	case key == "score" && sec == delta.DiscriminativeTests:
		return parseScoreInline(t)
	}
	return nTextK(t, textField(sec, key))
}

// artDiff lists the differences between two artifacts (nil when equal).
func artDiff(want, got *Artifact) []string {
	var d []string
	add := func(f string, args ...any) { d = append(d, fmt.Sprintf(f, args...)) }
	if want.SessionID != got.SessionID {
		add("session_id %q, got %q", want.SessionID, got.SessionID)
	}
	if want.Version != got.Version {
		add("version %d, got %d", want.Version, got.Version)
	}
	for _, x := range []struct {
		name string
		w, g time.Time
	}{{"compiled_at", want.CompiledAt, got.CompiledAt}, {"created_at", want.CreatedAt, got.CreatedAt}, {"updated_at", want.UpdatedAt, got.UpdatedAt}} {
		if !x.w.Equal(x.g) {
			add("%s %v, got %v", x.name, x.w, x.g)
		}
	}
	if want.CompiledBy != got.CompiledBy || want.MessageID != got.MessageID || want.Status != got.Status {
		add("compiled_by/message id/status %q/%q/%q, got %q/%q/%q", want.CompiledBy, want.MessageID, want.Status, got.CompiledBy, got.MessageID, got.Status)
	}
	var wc, gc []string
	for _, c := range want.Contributors {
		wc = append(wc, c.Agent)
	}
	for _, c := range got.Contributors {
		gc = append(gc, c.Agent)
	}
	if strings.Join(wc, "\x00") != strings.Join(gc, "\x00") {
		add("contributors %q, got %q", wc, gc)
	}
	for _, s := range delta.Sections {
		w, g := want.Section(s), got.Section(s)
		var wi, gi []string
		for _, it := range w {
			wi = append(wi, it.ID)
		}
		for _, it := range g {
			gi = append(gi, it.ID)
		}
		if strings.Join(wi, ",") != strings.Join(gi, ",") {
			add("%s ids %v, got %v", s, wi, gi)
			continue
		}
		for i := range w {
			a, b := w[i], g[i]
			if a.Killed != b.Killed || a.KilledBy != b.KilledBy || !a.KilledAt.Equal(b.KilledAt) || a.KillReason != b.KillReason {
				add("%s kill state %t %q %v %q, got %t %q %v %q", a.ID, a.Killed, a.KilledBy, a.KilledAt, a.KillReason, b.Killed, b.KilledBy, b.KilledAt, b.KillReason)
			}
			if !jsonv.Equal(a.Fields, b.Fields) {
				add("%s fields\n   want %s\n   got  %s", a.ID, a.Fields.Text(), b.Fields.Text())
			}
		}
	}
	return d
}

// checkRoundTrip renders a, parses the rendering and compares. With strict,
// the parse must also be a fixed point of the rendering (aliases aside);
// otherwise its rendering must equal the normalized artifact's.
func checkRoundTrip(t *testing.T, a *Artifact, name string, strict bool) {
	t.Helper()
	md := a.Render()
	p := ParseMarkdown(md, name)
	for _, f := range p.Findings {
		t.Errorf("%s: finding %s", name, f.String())
	}
	if d := artDiff(normalized(a), p.Art); len(d) > 0 {
		t.Errorf("%s: round trip differs:\n  %s\n--- rendering:\n%s", name, strings.Join(d, "\n  "), md)
	}
	// Rendering what was read gives the same bytes: the parse is a fixed
	// point of the rendering (aliases aside: a hypothesis "statement"
	// without a claim reads back as the claim and renders as **Claim**).
	aliased := false
	for _, it := range p.Items {
		for _, f := range it.Fields {
			aliased = aliased || f.Alias
		}
	}
	again := p.Art.Render()
	if strict && string(again) != string(md) && !aliased {
		t.Errorf("%s: rendering the parsed artifact differs from the rendering:\n%s", name, testutil.FirstDiff(md, again))
	}
	if want := normalized(a).Render(); string(again) != string(want) {
		t.Errorf("%s: rendering the parsed artifact differs from rendering the normalized one:\n%s", name, testutil.FirstDiff(want, again))
	}
}

func TestRoundTripGolden(t *testing.T) {
	dir := filepath.Join(testutil.ModuleRoot(t), "testdata", "artifact")
	cases, err := filepath.Glob(filepath.Join(dir, "*", "deltas.json"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, c := range cases {
		name := filepath.Base(filepath.Dir(c))
		t.Run(name, func(t *testing.T) {
			steps := loadSteps(t, c)
			r := runCase(t, steps, "TEST-"+strings.ToUpper(strings.ReplaceAll(name, "_", "-")))
			checkRoundTrip(t, r.final, name+".md", true)
			// Every intermediate state too: replay the steps one by one.
			a := New("STEP")
			for i, s := range steps {
				if s.Compile {
					continue
				}
				a.Apply(Applied{Delta: s.Delta, Agent: s.Agent, At: s.At, Msg: s.Msg, Block: s.Block})
				checkRoundTrip(t, a, name+"-step"+strconv.Itoa(i)+".md", true)
			}
		})
	}
}

func TestReadBack(t *testing.T) {
	g := &rtGen{r: rand.New(rand.NewSource(42))}
	a := g.artifact()
	if d := artDiff(normalized(a), ReadBack(a)); len(d) > 0 {
		t.Errorf("ReadBack differs from the normalized artifact: %v", d)
	}
}
