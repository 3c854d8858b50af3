package shard

import (
	"fmt"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
)

func TestKey(t *testing.T) {
	for _, c := range []struct{ key, id, want string }{
		{"RS-1", "RS-1", "rs-1"},
		{"S1", "msg:S1", "msg:s1"}, // the id, not the key
		{"42", "", "42"},           // no thread id: the key
	} {
		if got := Key(c.key, c.id); got != c.want {
			t.Errorf("Key(%q, %q) = %q, want %q", c.key, c.id, got, c.want)
		}
	}
}

// TestEarly: shard i's early check leaves every thread of another shard
// (by Key) to that shard, takes its own to the check, and changes nothing
// else of the check.
func TestEarly(t *testing.T) {
	if Early(nil, 0, 3) != nil {
		t.Error("Early(nil) is not nil")
	}
	owned := func(string) bool { return false }
	e := &mailbox.Early{Check: func(*mailbox.Thread) (any, bool) { return "checked", true }, Owned: owned}
	if Early(e, 0, 1) != e {
		t.Error("one shard: the early check changed")
	}
	const n = 4
	mine := map[int]int{}
	for i := range n {
		se := Early(e, i, n)
		if se == e || e.Elsewhere != nil {
			t.Fatal("Early changed the check it was given")
		}
		if r, ok := se.Check(nil); r != "checked" || !ok {
			t.Errorf("shard %d: the check is not the one given", i)
		}
		if se.Owned == nil || se.Owned("x") {
			t.Errorf("shard %d: Owned is not the one given", i)
		}
		for k := range 40 {
			key, id := fmt.Sprintf("K%d", k), ""
			if k%2 == 0 {
				id = fmt.Sprintf("msg:Id%d", k)
			}
			r := se.Elsewhere(key, id)
			switch own := Of(Key(key, id), n) == i; {
			case own && r != nil:
				t.Errorf("shard %d: its own thread %s (%q) is left elsewhere", i, key, id)
			case !own && r != (OtherShard{}):
				t.Errorf("shard %d: thread %s (%q) of shard %d: %v, want OtherShard", i, key, id, Of(Key(key, id), n), r)
			case own:
				mine[k]++
			}
		}
	}
	for k := range 40 {
		if mine[k] != 1 {
			t.Errorf("thread K%d is checked by %d shards", k, mine[k])
		}
	}
}
