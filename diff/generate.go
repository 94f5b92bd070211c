package diff

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Generate returns n robots.txt files made from a grammar of realistic
// and hostile content, named "gen/SEED/I". File I depends only on the seed
// and I, so the same seed gives the same files on every machine and a
// shard of the files is the same whatever the other shards hold. Their
// probes are left to DeriveProbes.
func Generate(seed uint64, n int) []File {
	files := make([]File, n)
	for i := range files {
		files[i] = File{Name: fmt.Sprintf("gen/%d/%d", seed, i), Robots: GenerateFile(seed, i)}
	}
	return files
}

// GenerateFile returns file i of seed: groups of user-agent lines and
// rules with merges, wildcards, "$", percent escapes, non-ASCII octets,
// a byte order mark, CR and CRLF line ends, long lines, misspelt and
// oddly cased record names, missing colons, comments, blank lines,
// sitemaps, crawl-delays, unknown records and garbage.
func GenerateFile(seed uint64, i int) []byte {
	g := &gen{r: rand.New(rand.NewPCG(seed, uint64(i)))}
	return g.file()
}

type gen struct {
	r   *rand.Rand
	b   strings.Builder
	eol string // "" means a random line end per line
}

// chance reports true with probability p percent.
func (g *gen) chance(p int) bool { return g.r.IntN(100) < p }

func (g *gen) pick(s []string) string { return s[g.r.IntN(len(s))] }

func (g *gen) line(s string) {
	g.b.WriteString(s)
	switch eol := g.eol; eol {
	case "":
		g.b.WriteString(g.pick([]string{"\n", "\r\n", "\r", "\n"}))
	default:
		g.b.WriteString(eol)
	}
}

func (g *gen) file() []byte {
	switch n := g.r.IntN(100); {
	case n < 70:
		g.eol = "\n"
	case n < 82:
		g.eol = "\r\n"
	case n < 88:
		g.eol = "\r"
	default:
		g.eol = ""
	}
	switch n := g.r.IntN(100); {
	case n < 5:
		g.b.WriteString("\xEF\xBB\xBF")
	case n < 7:
		g.b.WriteString("\xEF\xBB")
	}
	if g.chance(15) {
		g.line("# robots.txt for " + g.pick([]string{"example.com", "www.exämple.org", "our site"}))
	}
	if g.chance(8) {
		g.line(g.rule())
	}
	groups := 1 + g.r.IntN(4)
	for k := 0; k < groups; k++ {
		g.group()
		if g.chance(60) {
			g.line("")
		}
	}
	if g.chance(25) {
		g.line("Sitemap: https://example.com/sitemap" + g.pick([]string{"", "_index", "-ü"}) + ".xml")
	}
	if g.chance(10) {
		g.b.WriteString(g.other()) // no final line end
	}
	return []byte(g.b.String())
}

var genAgents = []string{
	"*", "*", "*", "FooBot", "foobot", "FOOBOT", "BarBot", "Foo", "FooBot/2.1", "FooBot Images",
	"foo-bot", "Foo_Bot", "* foo", "BazCrawler", "Googlebot", "Googlebot-Image", "googlebot-news",
	"bingbot", "*bot", "ReptestBot", "Fööbot", "Foo Bot", "  FooBot  ",
}

func (g *gen) group() {
	uas := 1 + g.r.IntN(3)
	if g.chance(60) {
		uas = 1
	}
	for k := 0; k < uas; k++ {
		g.line(g.key("user-agent") + g.sep() + g.pick(genAgents) + g.tail())
		if g.chance(5) {
			g.line("")
		}
	}
	rules := g.r.IntN(7)
	for k := 0; k < rules; k++ {
		switch n := g.r.IntN(100); {
		case n < 80:
			g.line(g.rule())
		case n < 85:
			g.line("")
		case n < 90:
			g.line("# " + g.pick([]string{"private area", "keep out", "ツ", "Disallow: /commented"}))
		default:
			g.line(g.other())
		}
	}
}

// key writes a record name, usually as the RFC spells it.
func (g *gen) key(name string) string {
	var variants []string
	switch name {
	case "user-agent":
		variants = []string{"User-agent", "user-agent", "USER-AGENT", "User-Agent", "useragent", "user agent", " User-agent", "User-agent "}
	case "disallow":
		variants = []string{"Disallow", "disallow", "DISALLOW", "dissallow", "disalow", "Disallowed", "\tDisallow", "Disallow "}
	case "allow":
		variants = []string{"Allow", "allow", "ALLOW", "Allow "}
	}
	if g.chance(75) {
		return variants[0]
	}
	return g.pick(variants)
}

// sep writes the colon and the white space around it.
func (g *gen) sep() string {
	if g.chance(80) {
		return ": "
	}
	return g.pick([]string{":", ":\t", " : ", ":   ", " "})
}

// tail writes what may follow a value: usually nothing.
func (g *gen) tail() string {
	switch n := g.r.IntN(100); {
	case n < 8:
		return " # " + g.pick([]string{"note", "ü", "#"})
	case n < 12:
		return g.pick([]string{" ", "\t", "  \t"})
	}
	return ""
}

func (g *gen) rule() string {
	k := "disallow"
	if g.chance(35) {
		k = "allow"
	}
	return g.key(k) + g.sep() + g.path() + g.tail()
}

var genSegments = []string{
	"a", "b", "fish", "private", "admin", "Admin", "search", "cgi-bin", "index.html", "page.htm",
	"file.pdf", "x.gif", "日本", "ツ", "café", "%E3%83%84", "%e3%83%84", "%2F", "%2f", "%61", "%7E",
	"%7e", "%20", "%25", "%", "a%2Ab", "a%24b", "*", "*.pdf", "**", "a b", "a+b", "~user", "a;b",
	"%C3%A9", "%c3%a9", "é", "%41%42", "%zz", "$", "a$b", ".", "..", "", "%2a",
}

// path writes a rule's value.
func (g *gen) path() string {
	switch n := g.r.IntN(100); {
	case n < 3:
		return ""
	case n < 5:
		return "/" + strings.Repeat(g.pick([]string{"a", "ab/", "%41", "*a"}), 500+g.r.IntN(4000))
	}
	var b strings.Builder
	if !g.chance(5) {
		b.WriteByte('/')
	}
	segs := g.r.IntN(4)
	if g.chance(20) {
		segs = 0
	}
	for k := 0; k < segs; k++ {
		if k > 0 {
			b.WriteByte('/')
		}
		b.WriteString(g.pick(genSegments))
	}
	if segs > 0 && g.chance(25) {
		b.WriteByte('/')
	}
	if g.chance(10) {
		b.WriteString(g.pick([]string{"?", "?id=", "?*session=", "?q=%41", "*?"}))
	}
	if g.chance(15) {
		b.WriteByte('*')
	}
	if g.chance(15) {
		b.WriteByte('$')
	}
	return b.String()
}

// other writes a line that is not a group record.
func (g *gen) other() string {
	return g.pick([]string{
		"Sitemap: https://example.com/sitemap.xml",
		"Crawl-delay: 10",
		"Crawl-delay: 0.5",
		"Crawl-delay: soon",
		"Crawl-delay: -1",
		"Host: example.com",
		"Clean-param: ref /articles/",
		"Noindex: /secret",
		"this line is not a record",
		"<html><body>Not Found</body></html>",
		":",
		"Disallow",
		"User-agent",
		"ünïcödé: välüe",
		"Disallow: /a\x00b",
		"Request-rate: 1/5",
		"# " + strings.Repeat("long comment ", 1500),
	})
}
