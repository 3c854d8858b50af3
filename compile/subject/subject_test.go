package subject

import "testing"

func TestParse(t *testing.T) {
	cases := []struct {
		in      string
		kind    Kind
		role    string
		desc    string
		strict  bool
		version int
		sv      bool
	}{
		{"KICKOFF: Cell fate (RS-20251230-cell-fate)", Kickoff, "", "Cell fate (RS-20251230-cell-fate)", true, 0, false},
		{"DELTA[gpt]: Added H4", Delta, "gpt", "Added H4", true, 0, false},
		{"DELTA[codex_cli]: [E2E] Hypotheses", Delta, "codex_cli", "[E2E] Hypotheses", false, 0, false},
		{"DELTA[GPT]: x", Delta, "GPT", "x", false, 0, false},
		{"delta[gpt]: x", Delta, "gpt", "x", false, 0, false},
		{"COMPILED: v3 artifact", Compiled, "", "v3 artifact", true, 3, true},
		{"COMPILED: v12", Compiled, "", "v12", true, 12, true},
		{"COMPILED: RS-1 artifact v2", Compiled, "", "RS-1 artifact v2", true, 2, false},
		{"COMPILED: latest, version one", Compiled, "", "latest, version one", true, 0, false},
		{"ACK:", Ack, "", "", true, 0, false},
		{"ACK:   ", Ack, "", "", true, 0, false},
		{"Re: KICKOFF: x", Unknown, "", "", false, 0, false},
		{"Delta: Refinements", Unknown, "", "", false, 0, false},
		{"FYI: something", Unknown, "", "", false, 0, false},
		{"QUESTION: which?", Question, "", "which?", true, 0, false},
		{"kickoff: x", Kickoff, "", "x", false, 0, false},
		{"HANDOFF: brenner_bot-5so.3 to BlueDog", Handoff, "", "brenner_bot-5so.3 to BlueDog", true, 0, false},
		{"INFO x", Unknown, "", "", false, 0, false},
	}
	for _, c := range cases {
		s := Parse(c.in)
		if s.Kind != c.kind || s.Role != c.role || s.Desc != c.desc || s.Strict != c.strict || s.Version != c.version || s.StrictVersion != c.sv {
			t.Errorf("Parse(%q) = kind %v role %q desc %q strict %v v%d/%v; want %v %q %q %v v%d/%v",
				c.in, s.Kind, s.Role, s.Desc, s.Strict, s.Version, s.StrictVersion, c.kind, c.role, c.desc, c.strict, c.version, c.sv)
		}
		if s.Desc != "" && c.in[s.DescOff:s.DescOff+len(s.Desc)] != s.Desc {
			t.Errorf("Parse(%q): DescOff %d does not point at the description", c.in, s.DescOff)
		}
	}
}

// FuzzParseFast holds Parse's byte reader to the patterns that define it.
func FuzzParseFast(f *testing.F) {
	for _, s := range []string{
		"KICKOFF: x", "DELTA[gpt]: H1", "delta[ ]\t: x", "DELTA[a]b]: x", "  ack\n: y",
		"COMPILED: v3 x", "COMPILED: V3", "COMPILED: x v12b v7", "COMPILED: v99999999999999999999",
		"COMPILED: _v2 v3", "COMPILED: év4", "\u212aICKOFF: kelvin", "AC\u212a: kelvin", "QUE\u017fTION: long s",
		"INFO x: y", "Re: ACK: x", "DELTA[]: x", "DELTA[x]:", "\xffACK: x", "CLAIM\f:x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Parse(s), parseRegexp(s); got != want {
			t.Fatalf("Parse(%q) = %+v; the patterns give %+v", s, got, want)
		}
	})
}

// TestParseFastDecides: the byte reader decides ASCII subjects itself and
// leaves the ones a Kelvin sign might open to the patterns.
func TestParseFastDecides(t *testing.T) {
	for s, want := range map[string]bool{
		"KICKOFF: x": true, "Hello: world": true, "no colon é": true, "ACK: é": true,
		"\u212aICKOFF: x": false, "é: x": false,
	} {
		if _, ok := parseFast(s); ok != want {
			t.Errorf("parseFast(%q) decided %v, want %v", s, ok, want)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	subs := []string{"KICKOFF: Cell fate (RS-20251230-cell-fate)", "DELTA[gpt]: Added H4", "COMPILED: v3 artifact",
		"CRITIQUE: weak test", "Re: KICKOFF: x", "ACK: thanks"}
	for _, fn := range []struct {
		name string
		f    func(string) Subject
	}{{"fast", Parse}, {"regexp", parseRegexp}} {
		b.Run(fn.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				fn.f(subs[i%len(subs)])
			}
		})
	}
}
