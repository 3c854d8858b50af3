package delta

import (
	"fmt"
	"sort"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/chunk"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

// Analyze extracts and validates the delta blocks of a DELTA message body.
// Call it for DELTA messages only: a body without blocks is an error (MB-004).
//
// blocks are the body's delta blocks, validated; each carries its own
// problems (MB-005, DL-001…DL-008, RF-003). problems are the message-level
// problems only, never a block's: MB-004, and DL-008 notes for delta-shaped
// JSON the compiler ignores (in a ```json, untagged or ```Delta fence, or
// inline). Report both lists; nothing appears in both. problems are in body
// order. Block JSON nested deeper than lim.Depth() is a syntax error.
func Analyze(doc *body.Doc, lim limits.Parse) (blocks []Block, problems []diag.Local) {
	return AnalyzeIn(nil, nil, doc, lim)
}

// AnalyzeIn is Analyze with the blocks' JSON values parsed into values, and
// the blocks and their Deltas made in da (nil: the heap); they are valid
// until the arenas are reset.
func AnalyzeIn(values *jsonv.Arena, da *Arena, doc *body.Doc, lim limits.Parse) (blocks []Block, problems []diag.Local) {
	da = da.orHeap()
	blocks = extractIn(da, doc)
	for i := range blocks {
		validate(&blocks[i], lim, values, da)
	}
	var ignored []*body.Fence
	for i := range doc.Fences {
		f := &doc.Fences[i]
		if f.Lang == "delta" || !ignoredDelta(f) {
			continue
		}
		ignored = append(ignored, f)
		if len(blocks) > 0 {
			problems = append(problems, ignoredFenceNote(f))
		}
	}
	inline := findInline(doc)
	if len(blocks) == 0 {
		problems = append(problems, noBlocks(doc, ignored, inline))
		// The MB-004 finding already explains the first ignored fence or
		// inline object; note any others.
		if len(ignored) > 0 {
			for _, f := range ignored[1:] {
				problems = append(problems, ignoredFenceNote(f))
			}
			for _, in := range inline {
				problems = append(problems, inlineNote(doc, in))
			}
		} else if len(inline) > 1 {
			for _, in := range inline[1:] {
				problems = append(problems, inlineNote(doc, in))
			}
		}
	} else {
		for _, in := range inline {
			problems = append(problems, inlineNote(doc, in))
		}
	}
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].Start < problems[j].Start })
	return blocks, problems
}

// ignoredDelta reports whether a non-delta fence holds what is meant as a
// delta: a delta-like tag (Delta, DELTA, deltas, delta-v1, …) or a JSON,
// JavaScript or untagged fence, holding JSON with "operation" and "section".
func ignoredDelta(f *body.Fence) bool {
	l := strings.ToLower(f.Lang)
	switch {
	case strings.HasPrefix(l, "delta"):
		return strings.Contains(f.Content, "operation")
	case l == "" || l == "json" || l == "jsonc" || l == "json5" || l == "javascript" || l == "js":
		return deltaShaped(f.Content)
	}
	return false
}

// deltaShaped reports whether text looks like delta JSON.
func deltaShaped(s string) bool {
	return (strings.Contains(s, `"operation"`) && strings.Contains(s, `"section"`)) ||
		(strings.Contains(s, `'operation'`) && strings.Contains(s, `'section'`))
}

// fenceName describes how a fence is tagged, e.g. "```json", "an untagged ``` fence".
func fenceName(f *body.Fence) string {
	open := strings.Repeat(string(f.Char), f.FenceLen)
	if f.Lang == "" {
		return "an untagged " + open + " fence"
	}
	return "a " + open + f.Lang + " fence"
}

// tagFix replaces the fence's language tag by "delta".
func tagFix(f *body.Fence) *diag.LocalFix {
	if f.Char == ':' {
		return nil
	}
	return &diag.LocalFix{Description: "Tag the fence as delta", Start: f.InfoStart, End: f.InfoStart + len(f.Lang), Text: "delta"}
}

func whyIgnored(f *body.Fence) string {
	l := f.Lang
	switch {
	case strings.EqualFold(l, "delta"):
		return fmt.Sprintf("the language tag %q is not exactly \"delta\" (tags are case-sensitive)", l)
	case strings.HasPrefix(strings.ToLower(l), "delta"):
		return fmt.Sprintf("the language tag %q is not \"delta\"", l)
	}
	return "only fences tagged delta are delta blocks"
}

func ignoredFenceNote(f *body.Fence) diag.Local {
	return diag.Local{Rule: ruleid.DL008, Severity: diag.Note,
		Message: fmt.Sprintf("Delta JSON in %s is ignored: %s.", fenceName(f), whyIgnored(f)),
		Hint:    hintFence, Anchor: strings.TrimSpace(f.Content), Start: f.Start, End: f.End, Fix: tagFix(f)}
}

// inlineJSON is delta-shaped JSON outside any code block: [Start, End) is the
// object, or just the "operation" key when no balanced object was found.
type inlineJSON struct {
	Start, End int
	Object     bool
}

// findInline finds delta objects written as prose: an object holding
// "operation" and "section" that is not in a code block or comment.
func findInline(doc *body.Doc) []inlineJSON {
	src := doc.Src
	var out []inlineJSON
	for i := 0; i < len(src); {
		k := strings.Index(src[i:], `"operation"`)
		if k < 0 {
			break
		}
		occ := i + k
		i = occ + len(`"operation"`)
		if end, in := doc.CodeEnd(occ); in {
			i = max(i, end) // a delta block's key: nothing to find in the rest of it
			continue
		}
		if doc.InComment(occ) {
			continue
		}
		open, end := enclosingObject(src, occ)
		if open < 0 {
			// No balanced object (cut off, or an unclosed brace): JSON only
			// when both names are keys — prose that names them ("the
			// "operation" and "section" fields") is prose.
			if isKey(src, occ+len(`"operation"`)) && keyWithin(src[occ:min(len(src), occ+2000)], `"section"`) {
				out = append(out, inlineJSON{Start: occ, End: occ + len(`"operation"`)})
			}
			continue
		}
		if doc.InCode(open) || !strings.Contains(src[open:end], `"section"`) {
			continue
		}
		out = append(out, inlineJSON{Start: open, End: end, Object: true})
		i = end
	}
	return out
}

// isKey reports whether a quoted name ending at offset end of src is a
// JSON key: a colon follows it, after blanks.
func isKey(src string, end int) bool {
	rest := strings.TrimLeft(src[end:], " \t\r\n")
	return strings.HasPrefix(rest, ":")
}

// keyWithin reports whether s holds name as a JSON key.
func keyWithin(s, name string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], name)
		if k < 0 {
			return false
		}
		i += k + len(name)
		if isKey(s, i) {
			return true
		}
	}
}

// enclosingObject finds the innermost balanced {…} around offset occ, within
// a bounded window; it returns -1 when there is none.
func enclosingObject(src string, occ int) (int, int) {
	lo := max(0, occ-4096)
	for p := occ - 1; p >= lo; p-- {
		if src[p] != '{' {
			continue
		}
		if e := matchBrace(src, p); e > occ {
			return p, e
		}
	}
	return -1, -1
}

// matchBrace returns the offset just after the '}' matching the '{' at p,
// skipping JSON strings, or -1.
func matchBrace(s string, p int) int {
	depth := 0
	limit := min(len(s), p+65536)
	for i := p; i < limit; i++ {
		switch s[i] {
		case '"':
			for i++; i < limit && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// wrapFix wraps an inline object in a ```delta fence, when the object is not
// inside a block quote.
func wrapFix(src string, in inlineJSON) *diag.LocalFix {
	if !in.Object {
		return nil
	}
	ls := strings.LastIndexByte(src[:in.Start], '\n') + 1
	prefix := strings.TrimLeft(src[ls:in.Start], " \t")
	if strings.HasPrefix(prefix, ">") {
		return nil
	}
	pre := ""
	if prefix != "" {
		pre = "\n"
	}
	le := strings.IndexByte(src[in.End:], '\n')
	if le < 0 {
		le = len(src) - in.End
	}
	post := ""
	if strings.TrimSpace(src[in.End:in.End+le]) != "" {
		post = "\n"
	}
	json := src[in.Start:in.End]
	fence := backtickFence(json)
	return &diag.LocalFix{Description: "Wrap the inline delta JSON in a " + fence + "delta fence", Start: in.Start, End: in.End,
		Text: pre + fence + "delta\n" + json + "\n" + fence + post}
}

func inlineNote(doc *body.Doc, in inlineJSON) diag.Local {
	return diag.Local{Rule: ruleid.DL008, Severity: diag.Note,
		Message: "Delta JSON written inline (not in a ```delta fence) is ignored: the compiler reads fenced delta blocks only.",
		Hint:    hintFence, Anchor: strings.TrimSpace(doc.Src[in.Start:in.End]), Start: in.Start, End: in.End,
		Fix: wrapFix(doc.Src, in)}
}

// noBlocks explains a DELTA body without delta blocks (MB-004).
func noBlocks(doc *body.Doc, ignored []*body.Fence, inline []inlineJSON) diag.Local {
	p := diag.Local{Rule: ruleid.MB004, Severity: diag.Error,
		Hint: hintFence + " If you posted inline JSON, resend the message with proper fencing."}
	src := doc.Src
	firstLine := strings.TrimSpace(src)
	if i := strings.IndexByte(firstLine, '\n'); i >= 0 {
		firstLine = strings.TrimSpace(firstLine[:i])
	}
	p.Anchor = firstLine
	switch {
	case strings.TrimSpace(src) == "":
		p.Message = "DELTA message body is empty; it has no ```delta block, so it contributes nothing to the artifact."
		p.Anchor = "empty DELTA body"
	case len(ignored) > 0:
		f := ignored[0]
		p.Message = fmt.Sprintf("DELTA message has no ```delta block; its delta JSON is in %s, which the compiler ignores (%s).", fenceName(f), whyIgnored(f))
		p.Start, p.End = f.Start, f.End
		p.Anchor = strings.TrimSpace(f.Content)
		p.Fix = tagFix(f)
	case len(inline) > 0:
		in := inline[0]
		p.Message = "DELTA message has no ```delta block; its delta JSON is inline (not fenced), so the compiler drops it (failure mode 1: inline JSON)."
		if len(inline) > 1 {
			p.Message = fmt.Sprintf("DELTA message has no ```delta block; its %d delta JSON objects are inline (not fenced), so the compiler drops them (failure mode 1: inline JSON).", len(inline))
		}
		p.Start, p.End = in.Start, in.End
		p.Anchor = strings.TrimSpace(src[in.Start:in.End])
		p.Fix = wrapFix(src, in)
	default:
		for i := range doc.Fences {
			f := &doc.Fences[i]
			if f.Lang == "delta" {
				p.Message = "DELTA message has no delta block: its " + fenceName(f)[2:] + " is empty."
				p.Start, p.End = f.Start, f.End
				return p
			}
		}
		for i := range doc.Fences {
			f := &doc.Fences[i]
			if strings.Contains(f.Content, "```delta") || strings.Contains(f.Content, "~~~delta") {
				p.Message = fmt.Sprintf("DELTA message has no ```delta block; its delta blocks are inside %s, so they are content of that fence (examples), not deltas.", fenceName(f))
				p.Start, p.End = f.Start, f.End
				return p
			}
		}
		for i := 0; i < len(src); {
			k := strings.Index(src[i:], "DELTA[")
			if k < 0 {
				break
			}
			i += k
			if (i == 0 || src[i-1] == '\n') && !doc.InCode(i) {
				le := strings.IndexByte(src[i:], '\n')
				if le < 0 {
					le = len(src) - i
				}
				p.Message = "DELTA message has no ```delta block; its DELTA[…]: lines are prose, not delta blocks, so the compiler drops them."
				p.Start, p.End = i, i+le
				p.Anchor = strings.TrimSpace(src[i : i+le])
				return p
			}
			i++
		}
		p.Message = "DELTA message has no ```delta block, so it contributes nothing to the artifact."
	}
	return p
}

// Extract returns the delta blocks of a body: its fences whose language is
// exactly "delta" (```, ~~~ or :::), in document order, skipping blocks whose
// content is empty or white space. Blocks are not validated.
func Extract(doc *body.Doc) []Block { return extractIn(heapArena, doc) }

// extractIn is Extract with the blocks made in a.
func extractIn(a *Arena, doc *body.Doc) []Block {
	n := 0
	for i := range doc.Fences {
		if isBlock(&doc.Fences[i]) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := chunk.Take(&a.blocks, n, a.heap)[:0] // a Block is 200 bytes: no growing copies
	for _, f := range doc.Fences {
		if isBlock(&f) {
			out = append(out, Block{Index: len(out), Fence: f, Raw: f.Content})
		}
	}
	return out
}

// isBlock reports whether a fence is a delta block Extract returns.
func isBlock(f *body.Fence) bool {
	return f.Lang == "delta" && strings.TrimSpace(f.Content) != ""
}
