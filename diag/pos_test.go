package diag

import "testing"

func TestLineCol(t *testing.T) {
	src := []byte("ab\nçd\n\nxyz")
	li := NewLineIndex(src)
	for _, c := range []struct{ off, line, col int }{
		{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {5, 2, 2}, {6, 2, 3}, {7, 3, 1}, {8, 4, 1}, {11, 4, 4}, {99, 4, 4},
	} {
		l, col := li.LineCol(c.off)
		if l != c.line || col != c.col {
			t.Errorf("LineCol(%d) = %d:%d, want %d:%d", c.off, l, col, c.line, c.col)
		}
	}
	p := li.Span("f", 3, 6)
	if p != (Pos{File: "f", Line: 2, Col: 1, EndLine: 2, EndCol: 3}) {
		t.Errorf("Span = %+v", p)
	}
	if n := (Pos{File: "f", Line: 3}).Normalize(); n.Col != 1 || n.EndLine != 3 || n.EndCol != 1 {
		t.Errorf("Normalize = %+v", n)
	}
}
