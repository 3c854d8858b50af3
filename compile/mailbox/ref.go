package mailbox

// ThreadRef is a thread found by Scan: message metadata and the location of
// every message's bytes, without bodies.
type ThreadRef struct {
	Key  string
	Msgs []*Message // metadata only (Body empty), in protocol order
}
