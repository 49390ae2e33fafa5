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
// single quotes (a single quote inside written as '\”).
func Quote(s string) string {
	if safe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Flag is "--flag value" with the value quoted for the shell.
func Flag(flag, value string) string { return flag + " " + Quote(value) }
