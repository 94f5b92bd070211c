package fuzz

import (
	"testing"

	"github.com/jimsmart/grobotstxt"
	"github.com/reptest/reptest/reference"
)

func BenchmarkZZDiff(b *testing.B) {
	seeds := everyday()
	for i := 0; i < b.N; i++ {
		s := seeds[i%len(seeds)]
		agent := diffAgent(s.agent)
		reference.Parse(s.body, reference.Google()).Allowed(agent, s.url)
		grobotstxt.AgentAllowed(string(s.body), agent, s.url)
		reference.Parse(s.body, reference.RFC()).Allowed(agent, s.url)
		temotoVerdict(s.body, agent, s.url)
	}
}
func BenchmarkZZRef(b *testing.B) {
	seeds := everyday()
	for i := 0; i < b.N; i++ {
		s := seeds[i%len(seeds)]
		reference.Parse(s.body, reference.Google()).Allowed(s.agent, s.url)
	}
}
func BenchmarkZZGrobot(b *testing.B) {
	seeds := everyday()
	for i := 0; i < b.N; i++ {
		s := seeds[i%len(seeds)]
		grobotstxt.AgentAllowed(string(s.body), s.agent, s.url)
	}
}
func BenchmarkZZTemoto(b *testing.B) {
	seeds := everyday()
	for i := 0; i < b.N; i++ {
		s := seeds[i%len(seeds)]
		temotoVerdict(s.body, s.agent, s.url)
	}
}
