package diagnose

import "github.com/reptest/reptest/result"

// The fitter's account is part of the one result document (package
// result); these names keep the fitter's code reading as before.

// Diagnosis is the fitter's account of one parser or crawler
// (result.Diagnosis).
type Diagnosis = result.Diagnosis

// Behaviour is one misreading found in a parser (result.Behaviour).
type Behaviour = result.Behaviour

// Example is a short piece of evidence (result.Example).
type Example = result.Example
