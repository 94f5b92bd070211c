package report

import "github.com/reptest/reptest/result"

// The document report renders is package result's: report reads it and
// decides nothing. These names keep the renderers reading as before.

// Tool is the value of Document.Tool.
const Tool = result.Tool

// Document is a run's results as one JSON object (result.Document).
type Document = result.Document

// The parts of a Document.
type (
	Selection       = result.Selection
	CaseInfo        = result.CaseInfo
	Served          = result.Served
	StepInfo        = result.StepInfo
	CheckInfo       = result.CheckInfo
	Body            = result.Body
	ExpectedFailure = result.ExpectedFailure
	UnexpectedPass  = result.UnexpectedPass
	CrawlRun        = result.CrawlRun
	CrawlRequest    = result.CrawlRequest
	resultKey       = result.Key
)

func keyOf(r result.Result) result.Key { return result.KeyOf(r) }
