module github.com/reptest/reptest

go 1.24

require (
	github.com/google/go-cmp v0.7.0
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/temoto/robotstxt v1.1.2
	gopkg.in/yaml.v3 v3.0.1
)

require github.com/klauspost/compress v1.19.2
