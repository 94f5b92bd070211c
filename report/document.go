package report

import "github.com/reptest/reptest/result"

func keyOf(r result.Result) result.Key { return result.KeyOf(r) }
