package report

// excerpt chooses which of n numbered lines (1..n) a listing shows: the
// result holds the shown line numbers in order, with a 0 where shown lines
// skip some; trailingGap says lines past the last shown one were skipped.
// HTML and text listings share it so that they cut bodies the same way.
func excerpt(n int, show func(line int) bool) (nums []int, trailingGap bool) {
	gap := false
	for line := 1; line <= n; line++ {
		if !show(line) {
			gap = true
			continue
		}
		if gap {
			nums = append(nums, 0)
			gap = false
		}
		nums = append(nums, line)
	}
	return nums, gap
}
