package artifact

// ParseMarkdown reads a persisted artifact (YAML front matter + the seven
// sections). It never panics; problems become Parsed.Findings.
func ParseMarkdown(src []byte, file string) *Parsed {
	return &Parsed{File: file, Src: src, Art: New(""), ByID: map[string][]*ParsedItem{}}
}

// ParseJSONObject reads a JSON artifact object {metadata, sections} (the
// upstream linter's input) through its markdown rendering.
func ParseJSONObject(src []byte, file string) *Parsed {
	p := ParseMarkdown(nil, file)
	p.FromJSON, p.Origin = true, file
	return p
}
