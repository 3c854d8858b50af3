package bench

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/internal/cli"
	"github.com/brenner-ci/brenner-ci/internal/memlimit"
)

// tenRules are ten typical custom rules: a few conditions of each scope,
// string and regular-expression tests, list macros, map reads, times and
// message parts (docs/custom-rules.md). Typical also in what they find: a
// team's rules hold on most of its threads, so they report a few dozen
// findings on 1,000 generated threads (40), not one per item: that would
// measure the reporters.
const tenRules = `custom-rules:
  - {id: LAB-001, name: delta-cites-transcript, scope: message, severity: warning, short: s,
     when: 'message.type == "DELTA" && message.deltas == 0 && !message.body.contains("§")', message: "DELTA from {{ message.from }} cites no section."}
  - {id: LAB-002, name: kickoff-has-question, scope: message, severity: note, short: s,
     when: 'message.type == "KICKOFF" && !("research question" in message.sections)', message: "{{ message.id }}: no question section."}
  - {id: LAB-003, name: critique-late, scope: message, severity: note, short: s,
     when: 'message.type == "CRITIQUE" && message.created - thread.started > duration("3h")', message: "late critique {{ message.id }}"}
  - {id: LAB-004, name: ack-addressed, scope: message, severity: note, short: s,
     when: 'message.type == "ACK" && size(message.to) == 0', message: "ACK {{ message.id }} has no recipient."}
  - {id: LAB-005, name: compile-before-twelve, scope: thread, severity: warning, short: s,
     when: 'size(thread.messages) > 12 && !("COMPILED" in thread.types)', message: "{{ thread.id }}: no COMPILED after 12 messages."}
  - {id: LAB-006, name: two-contributors, scope: thread, severity: note, short: s,
     when: 'thread.applied > 0 && size(thread.contributors) < 2', message: "{{ thread.id }}: one contributor."}
  - {id: LAB-007, name: organism, scope: item, severity: warning, short: s,
     when: 'item.section == "hypothesis_slate" && item.status == "active" && has(item.fields.claim) && item.fields.claim.matches("(?i)\\b(todo|tbd|fixme)\\b")',
     message: "{{ item.id }} is a placeholder."}
  - {id: LAB-008, name: anchored, scope: item, severity: note, short: s,
     when: 'item.status == "active" && size(item.anchors) > 0 && item.anchors.all(a, a == "inference")', message: "{{ item.id }} rests on inference only."}
  - {id: LAB-009, name: kill-reason-length, scope: item, severity: note, short: s,
     when: 'item.status == "killed" && size(item.kill_reason) > 500', message: "{{ item.id }}: a kill reason to shorten."}
  - {id: LAB-010, name: few-references, scope: item, severity: note, short: s,
     when: 'item.status == "active" && size(item.references) > 3 && item.references.exists(r, r.relation == "refutes")', message: "{{ item.id }} refutes much."}
`

// BenchmarkCustomRules: BenchmarkCheck/jobs=2 without and with ten typical
// custom rules, alternated in every iteration so that both see the same
// machine (run one after the other, the second ran on a heap and a page
// cache the first had warmed). It reports each one's seconds per run and
// their ratio (the goal: ten/none at most 1.15).
func BenchmarkCustomRules(b *testing.B) {
	cfgDir := b.TempDir()
	none, ten := filepath.Join(cfgDir, "none.yaml"), filepath.Join(cfgDir, "ten.yaml")
	if err := os.WriteFile(none, []byte("fail-on: none\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(ten, []byte("fail-on: none\n"+tenRules), 0o644); err != nil {
		b.Fatal(err)
	}
	each(b, func(b *testing.B, c *corpus) {
		out := b.TempDir()
		args := func(cfg string) []string {
			return append([]string{"check", c.dir, "--jobs", "2", "--repo-root", c.dir, "--config", cfg}, fourReports(out)...)
		}
		runs := [2][]string{args(none), args(ten)}
		defer memlimit.Start()()
		var took [2]time.Duration
		loopRuns(b, c, 2, func() {
			for i, a := range runs {
				t0 := time.Now()
				if code := cli.Main(a, io.Discard, io.Discard); code != 0 {
					b.Fatalf("check exited %d", code)
				}
				took[i] += time.Since(t0)
			}
		})
		b.ReportMetric(took[0].Seconds()/float64(b.N), "none-s/op")
		b.ReportMetric(took[1].Seconds()/float64(b.N), "ten-s/op")
		b.ReportMetric(took[1].Seconds()/took[0].Seconds(), "ten/none")
	})
}
