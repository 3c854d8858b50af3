package mailbox

import (
	"fmt"
	"path/filepath"
	"slices"
)

// Entry is one entry of a listing (Inputs), as another version of the
// same tree needs to know it (Inputs.Overlay).
type Entry struct {
	Disp string // as reported
	Abs  string // absolute, slash separated ("" for an entry the walk names without reading it)
	// Note is true for an entry named and not read (IN-006): a link, a
	// hidden, ignored or output file or folder, a special file.
	Note bool
	// Archive is true for an entry whose meaning depends on its place in
	// an Agent Mail archive (a profile, a message file, a copy, a digest,
	// a project's metadata or one of its special folders): its neighbours,
	// not its bytes alone, decide how it is read.
	Archive bool
	// Output is true for brenner-ci's own output (ScanOptions.Exclude),
	// named and not read.
	Output bool
	// Broken is true for a folder that could not be listed.
	Broken bool
}

// The notes of the run's own output (walker.skipped makes them).
var outputFileNote, outputFolderNote = fmt.Sprintf(noteOutput, "file"), fmt.Sprintf(noteOutput, "folder")

// Entries lists the entries of in, in its order.
func (in *Inputs) Entries() []Entry {
	out := make([]Entry, len(in.files))
	for i := range in.files {
		f := &in.files[i]
		out[i] = Entry{Disp: f.disp, Abs: f.abs, Note: f.skip != "", Broken: f.dirErr != nil,
			Output: f.skip == outputFileNote || f.skip == outputFolderNote,
			Archive: f.role != roleAny || f.copyOf != "" ||
				f.skip == noteAttach || f.skip == noteReserve || f.skip == noteDigests}
	}
	return out
}

// Then is what became of one entry of a listing in another version of the
// tree.
type Then struct {
	Gone bool // not there: the other version has no such entry
	// At, when set, is a file that holds the entry's bytes in the other
	// version (a regular file the listing read), reported under that name.
	At string
}

// Added is a regular file the other version of the tree has and in's
// listing does not (deleted since): read from At and reported under that
// name, at Abs in the tree (where its place decides how it is read, as
// for an entry of the listing), listed just before entry Before of in
// (the listing's length: after the last).
type Added struct {
	Before  int
	At, Abs string
}

// Overlay returns the listing of another version of the tree in, once
// scanned: each entry as it is in in, except for those then names (by
// index) — gone, or read from elsewhere — and with the files of added put
// in. An entry left alone holds the same bytes in both, and keeps the id
// by which in's scan keyed it, so its threads key alike (ThreadRef.Digest)
// without being read to be keyed; after KeepScans, its scan is in's, not
// read again.
// The caller makes sure the listing of the other version would be this
// one: the added files where a walk of it would list them, no entry whose
// treatment depends on what changed (Entry.Archive). It has no scan cache.
// Scan in first.
func (in *Inputs) Overlay(then map[int]Then, added []Added) *Inputs {
	if in.sums == nil {
		panic("mailbox: Overlay of inputs not scanned")
	}
	opt := in.opt
	opt.Cache, opt.Known = nil, nil
	out := &Inputs{opt: opt, jobs: in.jobs, files: make([]inFile, 0, len(in.files)+len(added))}
	added = slices.Clone(added)
	slices.SortStableFunc(added, func(a, b Added) int { return a.Before - b.Before })
	maxBytes := opt.maxFileBytes()
	add := func(before int) {
		for len(added) > 0 && added[0].Before <= before {
			a := added[0]
			added = added[1:]
			f := newInFile(a.At, filepath.ToSlash(a.At), a.Abs, false)
			f.maxBytes, f.maxDepth = maxBytes, opt.JSONDepth
			out.files = append(out.files, f)
		}
	}
	for i, f := range in.files {
		add(i)
		t, changed := then[i]
		switch {
		case t.Gone:
			continue
		case changed && t.At != "":
			f.disp = filepath.ToSlash(t.At)
			f.osPath, f.sum = t.At, ""
		default:
			f.sum = in.sums[i]
			if in.kept != nil {
				f.kept = &in.kept[i]
			}
		}
		f.st = preStat{}
		out.files = append(out.files, f)
	}
	add(len(in.files))
	return out
}

// again is a copy of a file's scan, as kept (Inputs.kept), for another
// merge: merge takes a result's records, and findings are changed in
// place once reported, so both are the copy's own (the packed records
// they point to are never written after the scan).
func (r *fileResult) again() *fileResult {
	cp := *r
	cp.refs, cp.keys = slices.Clone(r.refs), slices.Clone(r.keys)
	cp.findings = slices.Clone(r.findings)
	for i := range cp.findings {
		if fx := cp.findings[i].Fix; fx != nil {
			own := *fx
			cp.findings[i].Fix = &own
		}
	}
	return &cp
}
