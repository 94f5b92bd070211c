// Package result holds reptest's one result document: what a run, a
// differential run, a crawl or an audit found, as the producers (package
// cases' runner, diff, crawl, accesslog) record it and as package report
// renders it. It decides only what every producer must decide alike: the
// summary of a parser's results (Summarize) and the merge of the
// documents of a sharded run (Merge). It imports no other package of
// reptest, so that every producer and renderer can use it.
package result
