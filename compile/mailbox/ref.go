package mailbox

import "github.com/brenner-ci/brenner-ci/diag"

// ThreadRef is a thread found by Scan: message metadata and the location of
// every message's bytes, without bodies.
type ThreadRef struct {
	Key  string
	Msgs []*Message // metadata only (Body empty), in protocol order

	threadID string         // first non-empty thread_id in protocol order
	project  string         // first non-empty project in protocol order
	findings []diag.Finding // IN-002 … IN-005, computed by Scan
}

// Findings returns the thread's input findings (IN-002 … IN-005) without
// loading it; Load returns the same findings in Thread.Findings.
func (r *ThreadRef) Findings() []diag.Finding {
	return append([]diag.Finding(nil), r.findings...)
}

// ThreadID is the thread's thread_id ("" when its messages name none).
func (r *ThreadRef) ThreadID() string { return r.threadID }

// Release drops the thread's message metadata once it has been loaded and
// checked, so that a batch of many threads does not keep every message's
// metadata to the end of the run. Key, ThreadID and Findings stay.
func (r *ThreadRef) Release() { r.Msgs = nil }
