package accesslog

import "strings"

// botMarks are what bots put in their User-Agent and browsers do not:
// a bot's name, a contact URL or address, a tool's name.
var botMarks = []string{"bot", "crawl", "spider", "slurp", "scrap", "fetch", "http:", "https:", "www.", "@",
	"headless", "python", "curl", "wget", "java/", "go-http", "okhttp", "libwww", "preview", "archiv", "monitor"}

// LooksLikeBrowser reports whether a User-Agent header looks like a web
// browser's: it starts with Mozilla/ or Opera/ and carries none of the
// marks bots add (a name such as …Bot or …crawler, a contact URL or
// e-mail address, a library's or headless browser's name). An empty
// header, or "-", does not.
func LooksLikeBrowser(ua string) bool {
	if !strings.HasPrefix(ua, "Mozilla/") && !strings.HasPrefix(ua, "Opera/") {
		return false
	}
	low := strings.ToLower(ua)
	for _, m := range botMarks {
		if strings.Contains(low, m) {
			return false
		}
	}
	return true
}
