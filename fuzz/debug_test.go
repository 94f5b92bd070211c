package fuzz

import (
	"fmt"
	"os"
	"time"
)

func debugSlow(start time.Time, body []byte, agent, url string) {
	if d := time.Since(start); d > 300*time.Millisecond {
		f, _ := os.OpenFile("/tmp/scratch/slow.txt", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		fmt.Fprintf(f, "%v len=%d agent=%q urllen=%d body[:200]=%q url[:200]=%q\n", d, len(body), agent, len(url), body[:min(200, len(body))], url[:min(200, len(url))])
		f.Close()
	}
}
