package cli

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/pipeline"
	"github.com/brenner-ci/brenner-ci/reporters"
	"github.com/brenner-ci/brenner-ci/reporters/github"
	"github.com/brenner-ci/brenner-ci/reporters/jsonreport"
	"github.com/brenner-ci/brenner-ci/reporters/junit"
	"github.com/brenner-ci/brenner-ci/reporters/markdown"
	"github.com/brenner-ci/brenner-ci/reporters/sarif"
	"github.com/brenner-ci/brenner-ci/reporters/text"
	"github.com/brenner-ci/brenner-ci/rules"
)

const (
	homeURL = "https://github.com/brenner-ci/brenner-ci"
	docsURL = homeURL + "/blob/main/docs/rules.md"
)

type checkCmd struct {
	Paths         []string `arg:"" optional:"" name:"path" help:"Files or directories to check (default .)."`
	Config        string   `help:"Configuration file (default: .brenner-ci.yaml found from the first path upward to the repository root)." placeholder:"FILE"`
	FailOn        string   `help:"Lowest severity that fails the run: error, warning, note or none (default error, or the config's fail-on)." placeholder:"LEVEL"`
	Jobs          int      `help:"Threads checked in parallel (default: number of CPUs)." default:"0"`
	Out           string   `help:"Write every report (brenner-ci.sarif, .junit.xml, .md, .json) and compiled artifacts/<thread_id>.md into DIR." placeholder:"DIR"`
	Format        string   `help:"Standard output format: text, github, json, sarif, junit or markdown." enum:"text,github,json,sarif,junit,markdown" default:"text"`
	Sarif         string   `help:"Write a SARIF 2.1.0 report to FILE." placeholder:"FILE"`
	Junit         string   `help:"Write a JUnit XML report to FILE." placeholder:"FILE"`
	Markdown      string   `help:"Write a markdown report to FILE (default $GITHUB_STEP_SUMMARY when GITHUB_ACTIONS=true)." placeholder:"FILE"`
	JSON          string   `name:"json" help:"Write a JSON report to FILE." placeholder:"FILE"`
	MarkdownMax   int      `help:"Maximum characters of the markdown report." default:"65000"`
	Category      string   `help:"SARIF automationDetails.id." default:"brenner-ci/"`
	RepoRoot      string   `help:"Repository root for report paths (default: git top level of the current directory)." placeholder:"DIR"`
	Baseline      string   `help:"Only findings not in this baseline (a JSON report, SARIF file or fingerprint list) gate the exit code." placeholder:"FILE"`
	WriteBaseline string   `help:"Write the fingerprints of this run's findings to FILE." placeholder:"FILE"`
	Fix           bool     `help:"With --out: also write every persisted artifact among the inputs, recompiled from its thread, to DIR/fixed/<its path>. Nothing is rewritten in place."`
}

func (c *checkCmd) Run(e *env) error {
	paths := c.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return usagef("%v", err)
		}
	}
	if c.Fix && c.Out == "" {
		return usagef("--fix writes corrected artifacts to --out DIR only; give --out")
	}
	ep, err := epoch()
	if err != nil {
		return err
	}
	cfg, err := loadConfig(c.Config, paths)
	if err != nil {
		// A broken configuration is a usage error (exit 2), but every
		// report is still written, carrying the problem as a run-level
		// notification, so a CI job's artifacts always exist.
		c.writeReports(e, c.report(nil, nil, nil, []diag.Notification{{Level: diag.Error, Message: "configuration error: " + err.Error()}}, diag.Error, time.Time{}))
		return err
	}
	failOn := diag.Error
	fo := c.FailOn
	if fo == "" && cfg != nil {
		fo = cfg.FailOn
	}
	if fo != "" {
		var ok bool
		if failOn, ok = config.ParseFailOn(fo); !ok {
			return usagef("--fail-on %q is not one of error, warning, note, none", fo)
		}
	}
	repoRoot, err := c.repoRoot()
	if err != nil {
		return err
	}
	var baseline map[string]bool
	if c.Baseline != "" {
		f, err := os.Open(c.Baseline)
		if err != nil {
			return usagef("--baseline: %v", err)
		}
		baseline, err = jsonreport.Fingerprints(f)
		f.Close()
		if err != nil {
			return usagef("--baseline %s: %v", c.Baseline, err)
		}
	}

	batch, err := mailbox.Scan(paths, mailbox.ScanOptions{Jobs: c.Jobs})
	if err != nil {
		return usagef("%v", err)
	}
	var agents []string
	if cfg != nil {
		agents = cfg.Agents
	}
	opt := compile.Options{Agents: agents, ArchiveAgents: batch.Agents, Epoch: ep}
	persistedPaths := map[string][]string{}
	for _, p := range batch.Markdown {
		id := persistedID(p)
		persistedPaths[id] = append(persistedPaths[id], p)
	}
	eng := rules.NewEngine(cfg)
	var notes []diag.Notification
	var last time.Time
	type out struct {
		art  []byte
		id   string
		last time.Time
	}
	res := eng.Run(batch, rules.RunOptions{
		Compile: opt,
		Jobs:    c.Jobs,
		OnThread: func(t *compile.Thread) any {
			o := out{}
			if n := len(t.Msgs); n > 0 {
				o.last = t.Msgs[n-1].Created
			}
			if c.Out != "" {
				o.id = t.ThreadID
				if o.id == "" {
					o.id = t.Key
				}
				o.art = t.Current.Render()
			}
			return o
		},
		Collect: func(ref *mailbox.ThreadRef, v any) {
			o := v.(out)
			if o.last.After(last) {
				last = o.last
			}
			if o.art == nil {
				return
			}
			name, err := artifactName(o.id)
			if err == nil {
				err = writeUnder(c.Out, "artifacts/"+name, bytesWriter(o.art))
				if err == nil && c.Fix {
					for _, p := range persistedPaths[o.id] {
						if rel, ok := relInside(repoRoot, p); ok {
							err = writeUnder(filepath.Join(c.Out, "fixed"), rel, bytesWriter(o.art))
						} else {
							err = fmt.Errorf("persisted artifact %s is outside the repository root; its fixed copy is only in %s", p, filepath.Join(c.Out, "artifacts"))
						}
					}
				}
			}
			if err != nil {
				notes = append(notes, diag.Notification{Level: diag.Warning, Message: fmt.Sprintf("artifact of thread %s not written: %v", ref.Key, err)})
			}
		},
	})
	notes = append(notes, res.Notifications...)
	internal := res.Internal
	enabled := map[string]bool{}
	for _, id := range eng.Enabled() {
		enabled[id] = true
	}
	findings := pipeline.Run(&pipeline.Input{Findings: res.Findings, Comments: res.Comments, Config: cfg, Baseline: baseline,
		Ran: func(id string) bool { return enabled[id] }})

	r := c.report(res.Threads, findings, baseline, notes, failOn, last)
	if !ep.IsZero() {
		r.Time = ep
	}
	r.Internal = internal
	r.RepoRoot = repoRoot
	// Every report file is written before the exit code is chosen.
	werrs := c.writeReports(e, r)
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "brenner-ci: %s: %s\n", n.Level, n.Message)
	}
	for _, w := range werrs {
		fmt.Fprintf(e.stderr, "brenner-ci: %s\n", w)
	}
	if internal || len(werrs) > 0 {
		return &exitError{ExitInternal}
	}
	if failOn != diag.Off {
		for i := range r.Findings {
			if r.Findings[i].Severity.AtLeast(failOn) && r.IsNew(i) {
				return &exitError{ExitFindings}
			}
		}
	}
	return nil
}

// report assembles the report model (findings nil: none).
func (c *checkCmd) report(threads []diag.Thread, findings *pipeline.Result, baseline map[string]bool, notes []diag.Notification, failOn diag.Severity, last time.Time) *diag.Report {
	r := &diag.Report{
		Tool:          diag.Tool{Name: "brenner-ci", Version: Version, InfoURI: homeURL, DocsURL: docsURL},
		Baseline:      baseline,
		Notifications: notes,
		Category:      c.Category,
		FailOn:        failOn,
		GitHub:        diag.GitHub{ServerURL: os.Getenv("GITHUB_SERVER_URL"), Repository: os.Getenv("GITHUB_REPOSITORY"), SHA: os.Getenv("GITHUB_SHA")},
		Inputs:        c.Paths,
		Time:          last.UTC(),
	}
	r.Threads = threads
	if findings != nil {
		r.Findings, r.Fingerprints = findings.Findings, findings.Fingerprints
	}
	if ep, err := epoch(); err == nil && !ep.IsZero() {
		r.Time = ep
	}
	if root, err := c.repoRoot(); err == nil {
		r.RepoRoot = root
	}
	for _, m := range rules.All() {
		r.Rules = append(r.Rules, m.Report(docsURL))
	}
	return r
}

// writeReports writes every requested report file and standard output; it
// returns the write errors.
func (c *checkCmd) writeReports(e *env, r *diag.Report) []string {
	var werrs []string
	write := func(path string, fn func(io.Writer) error) {
		if path == "" {
			return
		}
		if err := reporters.WriteFileAtomic(path, fn); err != nil {
			werrs = append(werrs, err.Error())
		}
	}
	sarifPath, junitPath, mdPath, jsonPath := c.Sarif, c.Junit, c.Markdown, c.JSON
	if c.Out != "" {
		def := func(p *string, name string) {
			if *p == "" {
				*p = filepath.Join(c.Out, name)
			}
		}
		def(&sarifPath, "brenner-ci.sarif")
		def(&junitPath, "brenner-ci.junit.xml")
		def(&mdPath, "brenner-ci.md")
		def(&jsonPath, "brenner-ci.json")
	}
	if mdPath == "" && os.Getenv("GITHUB_ACTIONS") == "true" {
		mdPath = os.Getenv("GITHUB_STEP_SUMMARY")
	}
	write(sarifPath, func(w io.Writer) error { return sarif.Write(w, r) })
	write(junitPath, func(w io.Writer) error { return junit.Write(w, r) })
	write(mdPath, func(w io.Writer) error { return markdown.Write(w, r, c.MarkdownMax) })
	write(jsonPath, func(w io.Writer) error { return jsonreport.Write(w, r) })
	write(c.WriteBaseline, func(w io.Writer) error { return jsonreport.Write(w, r) })

	var err error
	switch c.Format {
	case "github":
		err = github.Write(e.stdout, r)
	case "json":
		err = jsonreport.Write(e.stdout, r)
	case "sarif":
		err = sarif.Write(e.stdout, r)
	case "junit":
		err = junit.Write(e.stdout, r)
	case "markdown":
		err = markdown.Write(e.stdout, r, c.MarkdownMax)
	default:
		err = text.Write(e.stdout, r)
	}
	if err != nil {
		werrs = append(werrs, err.Error())
	}
	return werrs
}

func (c *checkCmd) repoRoot() (string, error) { return repoRoot(c.RepoRoot) }

// repoRoot is the repository root that report paths are relative to: flag
// when given, else git's top level of the working directory, else the
// working directory.
func repoRoot(flag string) (string, error) {
	if flag != "" {
		abs, err := filepath.Abs(flag)
		if err != nil {
			return "", usagef("--repo-root: %v", err)
		}
		return abs, nil
	}
	if out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output(); err == nil {
		if s := strings.TrimSpace(string(out)); s != "" {
			return s, nil
		}
	}
	return os.Getwd()
}

// persistedID is the thread id a persisted artifact's path names:
// artifacts/<id>.md or artifacts/<id>/artifact.md.
func persistedID(p string) string {
	base := strings.TrimSuffix(filepath.Base(p), ".md")
	if base == "artifact" {
		base = filepath.Base(filepath.Dir(p))
	}
	return base
}

// relInside returns p relative to root when it stays inside it.
func relInside(root, p string) (string, bool) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// loadConfig loads the configuration file given with --config, or the one
// found from the first path upward; nil when there is none.
func loadConfig(flag string, paths []string) (*config.Config, error) {
	path := flag
	if path == "" {
		path = config.Find(paths[0])
	}
	if path == "" {
		return nil, nil
	}
	cfg, err := config.Load(path, rules.Known)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return cfg, nil
}
