// Package shellword quotes the arguments of the commands evalgate prints (the reproduce
// line, the settle hint, the baseline hints): each is pasted into a shell by someone,
// so an argument that the shell would split or expand (a glob, an id with a space, a
// quote) is quoted for POSIX sh.
package shellword

import (
	"regexp"
	"strings"
)

// safe matches the arguments a POSIX shell leaves as they are.
var safe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// Quote is s as one POSIX shell word: as it is when nothing in it is special, else in
// single quotes. A single quote inside closes them, is written escaped, and reopens
// them. A backtick inside is written as the output of printf '\140' in double quotes,
// so the word holds no backtick: the reports print commands in code spans, which a
// backtick would end (an item id may hold one).
func Quote(s string) string {
	if safe.MatchString(s) {
		return s
	}
	q := strings.ReplaceAll(s, "'", `'\''`)
	q = strings.ReplaceAll(q, "`", `'"$(printf '\140')"'`)
	return "'" + q + "'"
}

// Flag is "--flag value" with the value quoted for the shell.
func Flag(flag, value string) string { return flag + " " + Quote(value) }
