package rules

import (
	"fmt"
	"sort"
)

// threadCheck checks one compiled thread.
type threadCheck func(c *Ctx)

// checks lists the rules implemented in this package, by id. Rules whose
// Meta.Source is "compile" have no entry: their findings come from ingest
// and compilation and are routed through the registry for configuration.
// Adding a rule: its Meta in meta.go, its check in the family's file, one
// line here.
var checks = map[string]threadCheck{
	"MB-001": checkSubjectPrefix,
	"MB-002": checkKickoffQuestion,
	"MB-003": checkKickoffContext,
	"MB-006": checkCritiqueTarget,
	"MB-007": checkCritiqueAttack,
	"MB-008": checkHandoffAgents,
	"MB-009": checkAckFlag("MB-009"),
	"MB-010": checkAckFlag("MB-010"),
	"MB-011": checkAckFlag("MB-011"),
	"MB-012": checkAckFlag("MB-012"),
	"AP-001": checkCompiledSubject,
	"AP-002": checkCompiledVersionOrder,
	"AP-003": checkCompiledThreadID,
	"AP-004": checkCompiledContributors,
	"AP-005": checkCompiledArtifactPath,
	"AP-006": checkCompiledSection("AP-006"),
	"AP-007": checkCompiledSection("AP-007"),
	"AP-008": checkCompiledSection("AP-008"),
	"AP-009": checkVersionReferences,
	"TH-001": checkThreadID("TH-001"),
	"TH-002": checkThreadID("TH-002"),
	"TH-003": checkThreadID("TH-003"),
	"TH-004": checkSubjectDescription,
	"TH-005": checkSubjectLength,
	"TH-006": checkUnsafeThreadID,
}

// batchRules are evaluated across the whole batch (see batch.go).
var batchRules = map[string]bool{"RF-001": true, "RF-002": true, "AP-010": true, "SP-001": true, "SP-002": true, "DR-001": true}

// metas is every rule's metadata in registry order: the protocol rules,
// then the artifact linter rules.
var metas = append(append([]Meta{}, protocolMetas...), artifactMetas...)

var byID = func() map[string]*Meta {
	m := make(map[string]*Meta, len(metas))
	for i := range metas {
		if _, dup := m[metas[i].ID]; dup {
			panic("duplicate rule id " + metas[i].ID)
		}
		m[metas[i].ID] = &metas[i]
	}
	for id := range checks {
		if m[id] == nil {
			panic("check without metadata: " + id)
		}
	}
	for id := range artifactChecks {
		if m[id] == nil {
			panic("artifact check without metadata: " + id)
		}
	}
	return m
}()

// All returns every rule's metadata in registry order.
func All() []*Meta {
	out := make([]*Meta, len(metas))
	for i := range metas {
		out[i] = &metas[i]
	}
	return out
}

// Lookup returns the metadata of rule id, or nil.
func Lookup(id string) *Meta { return byID[id] }

// Families returns the rule families in registry order.
func Families() []string {
	var fams []string
	seen := map[string]bool{}
	for i := range metas {
		if !seen[metas[i].Family] {
			seen[metas[i].Family] = true
			fams = append(fams, metas[i].Family)
		}
	}
	return fams
}

// validate is run by tests: every rule has complete metadata.
func validate() error {
	ids := make([]string, 0, len(metas))
	for i := range metas {
		m := &metas[i]
		ids = append(ids, m.ID)
		if m.Short == "" || m.Full == "" || m.Spec == "" || m.Code == "" || m.Name() == "" {
			return fmt.Errorf("%s: incomplete metadata", m.ID)
		}
		if m.Bad == "" || m.Good == "" {
			return fmt.Errorf("%s: help needs a bad and a fixed example", m.ID)
		}
		_, isCheck := checks[m.ID]
		switch m.Source {
		case "compile":
			if isCheck {
				return fmt.Errorf("%s: compile rule has a check", m.ID)
			}
		case "rule":
			if !isCheck && !batchRules[m.ID] {
				return fmt.Errorf("%s: rule has no check", m.ID)
			}
		case "artifact":
			if _, ok := artifactChecks[m.ID]; !ok && !batchRules[m.ID] {
				return fmt.Errorf("%s: artifact rule has no check", m.ID)
			}
		default:
			return fmt.Errorf("%s: unknown source %q", m.ID, m.Source)
		}
	}
	if !sort.StringsAreSorted(ids) {
		// Registry order is family order, not alphabetical; only require
		// ids to be unique (checked in byID).
		_ = ids
	}
	return nil
}
