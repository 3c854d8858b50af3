module github.com/brenner-ci/brenner-ci

go 1.24

require (
	github.com/alecthomas/kong v1.17.0 // indirect
	github.com/owenrumney/go-sarif/v2 v2.3.3 // indirect
	github.com/sourcegraph/conc v0.3.0 // indirect
	github.com/yuin/goldmark v1.8.7 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
