module github.com/reptest/reptest

go 1.24

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/jimsmart/grobotstxt v1.0.3 // indirect
	github.com/temoto/robotstxt v1.1.2 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
