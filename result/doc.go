// Package result holds reptest's one results document (Document;
// docs/FORMAT.md §5): what a run, a differential run, a crawl or an
// audit found, as the producers record it: package cases' runner (results
// and case info), diff.Run (findings, their summary and groups, the run's
// description), crawl (results and request timelines), accesslog (the
// audit: counts per agent and tier, quoted and judged requests, time
// bins), and package diagnose (the diagnosis). Package report renders it
// and decides nothing again.
//
// It decides only what every producer must decide alike, once: the
// summary of a parser's results (Summarize), the findings' groups
// (GroupFindings, and each group's sources, Group.Sources) and summary
// (SummarizeFindings), the failures an expected-failure file covers
// (MarkExpected; package expect reads the file), the merge of the
// documents of a sharded run (Merge, after CheckShards), the upgrade of
// documents written by earlier versions (ReadJSON), and the time grid the
// audit's timelines are drawn on (Audit.Grid). The requirement table is a
// value (Table) that producers are given and documents carry. The
// package imports no other package of reptest, so that every producer and
// renderer can use it.
package result
