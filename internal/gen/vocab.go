package gen

// The generator's vocabulary: research domains with their readouts,
// perturbations and candidate mechanisms, agent names and canned phrases.
// Threads combine them by seeded choice, so that no two threads are equal.

type mechanism struct{ name, clause string }

type domain struct {
	slug, title, system, question, context string
	readouts, perturbations                []string
	mechanisms                             []mechanism
	unit                                   string // what one sample is ("animals", "runs")
}

var domains = []domain{
	{
		slug: "cell-fate", title: "Cell fate choice in the early embryo", system: "the eight-cell embryo",
		question: "What decides whether a blastomere adopts an anterior or a posterior fate?",
		context:  "Fate maps are reproducible to the cell, yet isolated blastomeres sometimes switch fate.",
		readouts: []string{"fate marker intensity", "division timing", "lineage ratio"}, unit: "embryos",
		perturbations: []string{"blastomere isolation", "Wnt inhibitor", "cold shock"},
		mechanisms: []mechanism{
			{"Lineage clock", "an intrinsic division counter sets the fate"},
			{"Morphogen gradient", "a posterior signal read as a concentration sets the fate"},
			{"Contact signalling", "neighbour contacts at the four-cell stage set the fate"},
			{"Maternal mRNA asymmetry", "asymmetrically inherited transcripts set the fate"},
			{"Mechanical polarity", "cortical flow polarises the cell before division"},
			{"Stochastic switch", "a bistable circuit flips at random and is then reinforced"},
		},
	},
	{
		slug: "proteostasis", title: "Age-dependent protein aggregation", system: "nematode body-wall muscle",
		question: "What sets the age at which a soluble protein starts to aggregate?",
		context:  "Dietary restriction delays onset by days; it is unclear whether aggregates protect or harm.",
		readouts: []string{"onset age", "aggregate count", "soluble fraction"}, unit: "animals",
		perturbations: []string{"dietary restriction", "chaperone overexpression", "proteasome inhibitor"},
		mechanisms: []mechanism{
			{"Proteasome saturation", "the proteasome saturates past a load threshold"},
			{"Chaperone decline", "chaperone levels fall with age below a critical ratio"},
			{"Translation errors", "mistranslated proteins nucleate aggregation"},
			{"Autophagy failure", "autophagic clearance of aggregates stops"},
			{"Phase-separation seeding", "condensates seed aggregates"},
			{"Oxidative damage", "oxidised residues expose sticky patches"},
		},
	},
	{
		slug: "ci-flakiness", title: "Sources of end-to-end flakiness in CI", system: "the browser test suite",
		question: "Why do the same end-to-end specs fail on some runs and pass on others?",
		context:  "Failures cluster on busy runners and after dependency bumps; reruns pass most of the time.",
		readouts: []string{"failure rate per 100 runs", "failing spec identity", "time to first paint"}, unit: "runs",
		perturbations: []string{"pinned runner size", "network throttling", "serial execution"},
		mechanisms: []mechanism{
			{"Runner contention", "CPU contention on shared runners stretches timeouts"},
			{"Shared fixtures", "fixtures leak state between specs that share a worker"},
			{"Clock skew", "the test clock drifts from the server clock"},
			{"Animation races", "assertions run before transitions settle"},
			{"Cache poisoning", "a stale build cache serves mismatched assets"},
			{"DNS latency", "slow name resolution delays the first request"},
		},
	},
	{
		slug: "circadian", title: "Robustness of the circadian period", system: "cultured fibroblasts",
		question: "Why does the circadian period stay near 24 hours across temperatures?",
		context:  "The period barely changes between 30 and 37 degrees although most reactions speed up.",
		readouts: []string{"period length", "phase of peak expression", "amplitude"}, unit: "dishes",
		perturbations: []string{"temperature step", "kinase inhibitor", "serum shock"},
		mechanisms: []mechanism{
			{"Opposing kinases", "two kinases with opposite temperature slopes cancel out"},
			{"Transcriptional buffering", "a repressor's feedback gain falls as rates rise"},
			{"Phosphoswitch", "a phosphorylation switch changes the repressor's half-life"},
			{"Coupling", "cell-to-cell coupling averages out individual periods"},
			{"Metabolic gating", "an NAD+ cycle gates the transcriptional loop"},
			{"Splicing compensation", "temperature-dependent splicing retunes a clock gene"},
		},
	},
	{
		slug: "quorum-timing", title: "Timing of quorum-sensing onset", system: "a bacterial colony",
		question: "What sets the density at which the colony switches on quorum-sensing genes?",
		context:  "The switch happens at similar densities in rich and poor media, but later in flow cells.",
		readouts: []string{"switch density", "reporter fluorescence", "autoinducer level"}, unit: "colonies",
		perturbations: []string{"flow rate", "autoinducer spike", "receptor knockdown"},
		mechanisms: []mechanism{
			{"Threshold accumulation", "autoinducer accumulates to a fixed threshold"},
			{"Diffusion sensing", "cells measure mass transfer rather than density"},
			{"Positive feedback", "autoinducer synthesis is itself induced"},
			{"Nutrient gating", "a starvation signal licenses the response"},
			{"Receptor titration", "a decoy receptor soaks up signal below a density"},
			{"Efflux control", "a pump sets the internal concentration"},
		},
	},
	{
		slug: "cache-latency", title: "Tail latency of the read cache", system: "the read-through cache tier",
		question: "What produces the p99.9 latency spikes of cached reads?",
		context:  "Spikes appear every few minutes and are worse after deploys; the hit rate stays above 98%.",
		readouts: []string{"p99.9 latency", "eviction rate", "GC pause length"}, unit: "hosts",
		perturbations: []string{"larger heap", "pinned CPU affinity", "eviction policy change"},
		mechanisms: []mechanism{
			{"Garbage collection", "stop-the-world pauses block request threads"},
			{"Thundering herd", "synchronised expiry sends misses to the backend"},
			{"Lock convoy", "a global lock serialises evictions"},
			{"NUMA misplacement", "memory allocated on the far socket slows hot keys"},
			{"Compaction storms", "background compaction saturates the disk"},
			{"Connection churn", "pools reconnect after idle timeouts"},
		},
	},
}

var adjectives = []string{"Teal", "Cobalt", "Rusty", "Olive", "Frosty", "Amber", "Crimson", "Silver",
	"Misty", "Golden", "Quiet", "Brisk", "Sable", "Ivory", "Copper", "Lunar", "Sunny", "Stormy", "Mossy", "Coral"}
var animals = []string{"Falcon", "Heron", "Canyon", "Otter", "Dog", "Lynx", "Badger", "Finch",
	"Marmot", "Raven", "Hare", "Pike", "Wren", "Stoat", "Ibis", "Newt", "Crane", "Moose", "Gecko", "Vole"}

// roles are the three delta authors of a research session.
var roles = []string{"gpt", "opus", "gemini"}

var excerpts = []string{
	"Write down the predictions before you look at the data.",
	"Every assumption you cannot test is a place where you can be fooled.",
	"The dichotomy you are offered is usually false.",
	"Choose the experiment that can embarrass your favourite idea.",
	"A control that cannot fail tells you nothing.",
	"Measure the scale before you argue about the mechanism.",
	"Anomalies are data you have not yet explained, not noise.",
	"The cheapest decisive test beats the most elegant inconclusive one.",
}

var critiqueAttacks = []string{
	"%s may move because of %s itself rather than any mechanism on the slate.",
	"Both %s and %s could act at different times; the slate treats them as exclusive.",
	"The readout may saturate before %s takes effect, hiding any difference.",
	"Batch effects could mimic %s if scoring is not blinded.",
}

var statuses = []string{"unchecked", "verified", "unchecked"}
var severities = []string{"Minor", "Major", "Minor"}
