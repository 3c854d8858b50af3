package diag

// Genealogy is the reference graph of a run's sessions (delta_output_format
// "Track reference chains for hypothesis genealogy visualization"): every
// item that references or is referenced by another, grouped by session,
// and the references as labelled edges. Sessions and items are sorted;
// edges are in thread order.
type Genealogy struct {
	Sessions []GenSession `json:"sessions"`
	Edges    []GenEdge    `json:"edges"`
}

// GenSession is one session (thread) of the graph. Input is false for a
// session that is referenced but not among the inputs.
type GenSession struct {
	Key   string    `json:"key"`
	Input bool      `json:"input"`
	Items []GenItem `json:"items"`
}

// GenItem is one item of a session. Known is false when the session is not
// among the inputs or has no such item.
type GenItem struct {
	ID     string `json:"id"`
	Name   string `json:"name,omitempty"`
	Killed bool   `json:"killed,omitempty"`
	Known  bool   `json:"known"`
}

// GenEdge is one reference: From (an item of FromSession) Relation To (an
// item of ToSession). Artifact is the persisted artifact it was read from,
// "" when a thread's delta made it.
type GenEdge struct {
	FromSession string `json:"from_session"`
	From        string `json:"from"`
	ToSession   string `json:"to_session"`
	To          string `json:"to"`
	Relation    string `json:"relation"`
	Artifact    string `json:"artifact,omitempty"`
}
