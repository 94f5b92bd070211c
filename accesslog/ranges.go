package accesslog

import (
	"encoding/json"
	"fmt"
	"io"
	"net/netip"
	"strings"
)

// Ranges are the address ranges crawlers publish for their bots (Google's
// googlebot.json and the files in its shape: {"prefixes": [{"ipv4Prefix":
// "66.249.64.0/27"}, {"ipv6Prefix": "2001:4860:4801:10::/64"}]}). A
// request from inside them is verified; one that only names the bot in
// its User-Agent is claimed.
type Ranges struct {
	// byBits holds the prefixes by length, so that a lookup masks the
	// address once per length in use rather than scanning every prefix.
	byBits map[int]map[netip.Prefix]string
	n      int
}

// Len is the number of prefixes.
func (rs *Ranges) Len() int { return rs.n }

// Add reads one range file; label names it in the reports.
func (rs *Ranges) Add(r io.Reader, label string) error {
	var doc struct {
		Prefixes []struct {
			IPv4 string `json:"ipv4Prefix"`
			IPv6 string `json:"ipv6Prefix"`
		} `json:"prefixes"`
	}
	if err := json.NewDecoder(io.LimitReader(r, 64<<20)).Decode(&doc); err != nil {
		return fmt.Errorf("%s: not a range file ({\"prefixes\": [{\"ipv4Prefix\": ...}]}): %w", label, err)
	}
	if len(doc.Prefixes) == 0 {
		return fmt.Errorf("%s: no prefixes", label)
	}
	if rs.byBits == nil {
		rs.byBits = map[int]map[netip.Prefix]string{}
	}
	for i, p := range doc.Prefixes {
		text := p.IPv4 + p.IPv6
		if p.IPv4 != "" && p.IPv6 != "" || text == "" {
			return fmt.Errorf("%s: prefix %d: want one of ipv4Prefix and ipv6Prefix", label, i+1)
		}
		pfx, err := netip.ParsePrefix(text)
		if err != nil {
			return fmt.Errorf("%s: prefix %d: %w", label, i+1, err)
		}
		if pfx.Addr().Is4() != (p.IPv4 != "") {
			return fmt.Errorf("%s: prefix %d: %s is not an %s prefix", label, i+1, text, map[bool]string{true: "IPv4", false: "IPv6"}[p.IPv4 != ""])
		}
		pfx = pfx.Masked()
		if rs.byBits[pfx.Bits()] == nil {
			rs.byBits[pfx.Bits()] = map[netip.Prefix]string{}
		}
		rs.byBits[pfx.Bits()][pfx] = label
		rs.n++
	}
	return nil
}

// Lookup returns the label of the file whose ranges hold addr, and
// whether one does. An address that does not parse is in none.
func (rs *Ranges) Lookup(addr string) (string, bool) {
	ip, err := netip.ParseAddr(strings.Trim(addr, "[]"))
	if err != nil {
		return "", false
	}
	ip = ip.Unmap()
	for bits, m := range rs.byBits {
		if bits > ip.BitLen() {
			continue
		}
		p, err := ip.Prefix(bits)
		if err != nil {
			continue
		}
		if label, ok := m[p]; ok {
			return label, true
		}
	}
	return "", false
}
