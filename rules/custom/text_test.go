package custom

import (
	"cel.dev/cel-go/cel"
	"testing"
)

// TestTextOfLists: a message part shows a string as it is and a list as its
// elements joined by commas.
func TestTextOfLists(t *testing.T) {
	env, _ := envFor("message")
	for src, want := range map[string]string{`message.to`: "B, C", `["x", 1, true]`: "x, 1, true", `"s"`: "s", `3`: "3"} {
		ast, iss := env.Compile(src)
		if iss.Err() != nil {
			t.Fatal(iss.Err())
		}
		prg, _ := env.Program(ast, cel.EvalOptions(cel.OptOptimize))
		v, _, err := prg.Eval(&vars{message: &Message{To: []string{"B", "C"}}})
		if err != nil {
			t.Fatal(err)
		}
		if got := text(v); got != want {
			t.Errorf("%s: %q, want %q", src, got, want)
		}
	}
}
