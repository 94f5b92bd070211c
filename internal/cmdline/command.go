// Package cmdline provides what reptest needs to run a program named by a
// user's command line: splitting the line into words without a shell, and
// running the program in a process group of its own so that everything it
// starts can be killed with it. The parser adapters (package parsers) and
// the crawl runner (package crawl) both start such programs.
package cmdline

import (
	"errors"
	"strings"
)

// Split splits a command line into words with the quoting rules of a POSIX
// shell: blanks (space, tab, newline) separate words; inside single quotes
// every character is literal; inside double quotes a backslash escapes only
// $ ` " \ and newline; elsewhere a backslash escapes the next character,
// and a backslash before a newline joins the lines. Nothing else is
// special: no variables, globs, pipes or redirections. It returns an error
// for an unterminated quote or a backslash at the end.
func Split(s string) ([]string, error) {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
	)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case ch == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case ch == '"':
			inWord = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
					i++
					if s[i] == '\n' {
						continue
					}
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("unterminated double quote")
			}
		case ch == '\\':
			if i+1 >= len(s) {
				return nil, errors.New("backslash at the end")
			}
			i++
			if s[i] == '\n' {
				continue
			}
			inWord = true
			cur.WriteByte(s[i])
		default:
			inWord = true
			cur.WriteByte(ch)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
