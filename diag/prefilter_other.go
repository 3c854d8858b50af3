//go:build !amd64

package diag

const anchorBlock = 32

// vectorised: the vectorised search is written for amd64 only.
func vectorised() bool { return false }

// anchors is never called where vectorised is false.
func anchors(s string, i int) (int, uint32) {
	panic("diag: no vectorised anchor search on this architecture")
}
