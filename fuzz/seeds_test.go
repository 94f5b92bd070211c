package fuzz

import (
	"fmt"
	"strings"
)

// This file lists the seed inputs of the targets. The f.Add calls are in
// seeds_add_test.go, which the OSS-Fuzz build leaves out (its f.Add does
// nothing, and FuzzX runs once per input there, so building large seeds
// would cost every execution); TestWriteOSSFuzzSeeds writes the same seeds
// as files for OSS-Fuzz.

// docSeed is a (robots.txt, agent, URL) seed of FuzzParse and
// FuzzDifferential.
type docSeed struct {
	name  string // for the reader: f.Add takes no names
	body  []byte
	agent string
	url   string
}

// matchSeed is a (pattern, path) seed of FuzzMatch.
type matchSeed struct {
	name    string // for the reader
	pattern string
	path    string
}

// hostileSizes are the sizes of the hostile seeds: full for the seed pass
// of a plain "go test", small while fuzzing. Every input the fuzzer finds
// interesting is minimised (by default for up to a minute, one octet at a
// time), so megabyte seeds would keep the workers minimising instead of
// fuzzing; the small sizes keep each structure and cross the limits that
// matter (the Google line cap of 16,663 bytes, for one).
type hostileSizes struct {
	as, stars, rules, line, nuls int
}

func sizes(small bool) hostileSizes {
	if small {
		return hostileSizes{as: 100, stars: 1000, rules: 200, line: 17000, nuls: 1024}
	}
	return hostileSizes{as: 400, stars: 16000, rules: 20000, line: 1 << 20, nuls: 1 << 16}
}

// hostile returns inputs meant to hurt: backtracking, long runs of "*",
// very many rules, a line longer than every limit, NULs and invalid UTF-8.
func hostile(small bool) []docSeed {
	sz := sizes(small)
	var rules strings.Builder
	rules.WriteString("User-agent: *\n")
	for i := range sz.rules {
		fmt.Fprintf(&rules, "Disallow: /*%d*x*$\n", i)
	}
	return []docSeed{
		{"backtrack", []byte("User-agent: *\nDisallow: /" + strings.Repeat("*a", sz.as) + "*b\n"), "FooBot", "/" + strings.Repeat("a", 5*sz.as)},
		{"stars-26", []byte("User-agent: *\nDisallow: /" + strings.Repeat("*", 26) + "x\nAllow: /" + strings.Repeat("*", 26) + "\n"), "FooBot", "/ax"},
		{"stars-many", []byte("User-agent: *\nDisallow: /" + strings.Repeat("*", sz.stars) + "$\n"), "FooBot", "/anything"},
		{"wildcard-rules", []byte(rules.String()), "FooBot", "/12345x"},
		{"long-line", []byte("User-agent: *\nDisallow: /" + strings.Repeat("a", sz.line) + "\nDisallow: /late\n"), "FooBot", "/late"},
		{"nuls", make([]byte, sz.nuls), "FooBot", "/"},
		// Bare CR line ends, which the reference's size estimate does not
		// count, and Google's derived index.html rules: the most allocation
		// per input byte known (about 22 bytes per byte).
		{"cr-rules", []byte("user-agent:*\r" + strings.Repeat("allow:/\r", 3*sz.rules)), "FooBot", "/x"},
		{"cr-index-html", []byte("user-agent:*\r" + strings.Repeat("allow:/index.htm\r", 3*sz.rules/2)), "FooBot", "/"},
		// Lines of 65 bytes with bare CR line ends: a search for LF from
		// each line start reads the rest of the file every time.
		{"cr-long-lines", []byte("user-agent:*\r" + strings.Repeat("disallow:/"+strings.Repeat("a", 54)+"\r", 2*sz.rules/5)), "FooBot", "/x"},
		{"invalid-utf8", []byte("\xef\xbbUser-agent: *\nDisallow: /\xff\xfe\xc3(\nAllow: /\xe2\x82\n#\xc0\xaf\n"), "FooBot", "/\xff\xfe\xc3("},
	}
}

// everyday returns ordinary files that reach the parser's main paths.
func everyday() []docSeed {
	return []docSeed{
		{"basic", []byte("User-agent: *\nDisallow: /private/\nAllow: /private/ok\n"), "FooBot", "https://example.com/private/x"},
		{"named-group", []byte("User-agent: FooBot\nUser-agent: BarBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n"), "foobot", "/b"},
		{"longest-match", []byte("user-agent: *\nallow: /page\ndisallow: /*.htm\n"), "FooBot", "/page.htm"},
		{"anchor", []byte("User-agent: *\nDisallow: /*.pdf$\n"), "FooBot", "/a.pdf?x=1"},
		{"percent", []byte("User-agent: *\nDisallow: /foo/bar/%62%61%7a\nDisallow: /ツ\n"), "FooBot", "/foo/bar/baz"},
		{"literal-star", []byte("User-agent: *\nDisallow: /file-%2A.html\nDisallow: /a$b\n"), "FooBot", "/file-*.html"},
		{"google-typos", []byte("useragent: FooBot\ndissallow: /x\nDisallow /y\n* bar\n"), "FooBot", "/x"},
		{"google-agent", []byte("User-agent: FooBot/2.1\nDisallow: /\nUser-agent: Foo.Bot\nAllow: /\n"), "FooBot", "/x"},
		{"index-html", []byte("User-agent: *\nDisallow: /\nAllow: /dir/index.html\n"), "FooBot", "/dir/"},
		{"crlf-cr", []byte("User-agent: *\r\nDisallow: /a\rAllow: /a/b\r\r\nDisallow: /c"), "FooBot", "/a/c"},
		{"bom", []byte("\xef\xbb\xbfUser-agent: *\nDisallow: /bom\n"), "FooBot", "/bom"},
		{"orphan", []byte("Disallow: /x\nUser-agent: *\nAllow: /\n"), "FooBot", "/x"},
		{"robots-txt", []byte("User-agent: *\nDisallow: /\n"), "FooBot", "/robots.txt?x"},
		{"comments", []byte("User-agent: * # all\nDisallow: /a # b\nSitemap: https://x/s.xml\nCrawl-delay: 5\n"), "FooBot", "/a"},
		{"prefix-agent", []byte("User-agent: Foo\nDisallow: /\n"), "FooBot", "/x"},
		{"spaces", []byte("User-agent: *\nDisallow: /a b\n  Disallow\t:\t/c  \n"), "FooBot", "/a%20b"},
		{"bad-agent", []byte("User-agent: *\nDisallow: /\n"), "Foo Bot/1.0", "/x"},
		{"empty-disallow", []byte("User-agent: FooBot\nDisallow:\n\nUser-agent: *\nDisallow: /\n"), "FooBot", "/x"},
		{"query-fragment", []byte("User-agent: *\nDisallow: /*?session=\n"), "FooBot", "http://h:8080/a?session=1#top"},
		{"url-space", []byte("User-agent: *\nDisallow: /a%20b\n"), "FooBot", "/a b"},
	}
}

// docSeeds returns the seeds of FuzzParse (small false) or of
// FuzzDifferential (small true).
func docSeeds(small bool) []docSeed {
	return append(everyday(), hostile(small)...)
}

// matchSeeds returns the seeds of FuzzMatch; small as for hostile.
func matchSeeds(small bool) []matchSeed {
	sz := sizes(small)
	return []matchSeed{
		{"backtrack", "/" + strings.Repeat("*a", sz.as) + "*b", "/" + strings.Repeat("a", 5*sz.as)},
		{"stars-26", "/" + strings.Repeat("*", 26) + "x$", "/abcx"},
		{"stars-many", "/" + strings.Repeat("*", sz.stars), "/x"},
		{"plain", "/fish", "/fish.html"},
		{"anchored", "/*.php$", "/index.php?x"},
		{"mid-dollar", "/a$b", "/a$b"},
		{"escape-star", "/a%2Ab", "/a*b"},
		{"escape-case", "/%7ex%2f", "/~x%2F"},
		{"unreserved", "/%41%2D%5F", "/A-_"},
		{"non-ascii", "/ツ", "/%E3%83%84"},
		{"lone-percent", "/100%", "/100%25"},
		{"star-in-escape", "/a*2F", "/a%2F"},
		{"robots", "/", "/robots.txt"},
		{"controls", "/a\x01\x7f", "/a%01%7F"},
		{"no-slash", "*.gif$", "/x.gif"},
		{"empty", "", "/"},
	}
}

// invariantSeeds returns generator inputs for FuzzInvariants.
func invariantSeeds() [][]byte {
	return [][]byte{
		nil,
		[]byte("\x03\x01\x02\x05\x07\x11\x13\x17\x1d\x1f"),
		[]byte("robots.txt metamorphic seed with enough bytes to drive several groups and rules"),
		{0xff, 0xfe, 0x80, 0x7f, 0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01, 0x00, 0x33, 0x99, 0xaa, 0x55},
		[]byte(strings.Repeat("\x02\x04\x06\x08\x0a\x0c", 40)),
	}
}

// costlyForPeers reports whether a hostile seed is one the peers of
// FuzzDifferential take 10 to 1,000 times as long to decide as an everyday
// file (about 15 ms for wildcard-rules, where temoto compiles a regular
// expression per rule, against 10–40 µs): in the mutation loop each
// mutant and each minimisation step would cost as much. They test the
// reference's bounds, which FuzzParse fuzzes; FuzzDifferential keeps them
// in its seed pass.
func costlyForPeers(name string) bool {
	switch name {
	case "backtrack", "stars-many", "wildcard-rules", "long-line", "cr-rules", "cr-index-html", "cr-long-lines":
		return true
	}
	return false
}

// mutationSeeds returns the seeds FuzzDifferential mutates: seeds without
// the ones costlyForPeers names, and with one seed per (body, agent) of
// the others. Every seed costs the fuzzing engine one round trip of its
// coverage map before fuzzing starts, a few milliseconds whatever the
// input; the checks of one corpus body differ in their URL, which the
// fuzzer mutates.
func mutationSeeds(seeds []docSeed) []docSeed {
	type key struct{ body, agent string }
	seen := map[key]bool{}
	var out []docSeed
	for _, s := range seeds {
		k := key{string(s.body), s.agent}
		if costlyForPeers(s.name) || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, s)
	}
	return out
}
