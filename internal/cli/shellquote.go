package cli

import (
	"regexp"
	"strings"
)

// Every command evalgate prints (the reproduce line, the settle hint, the baseline
// hints) is pasted into a shell by someone; each argument that the shell would split or
// expand (a glob, an id with a space, a quote) is quoted for POSIX sh.

// shellSafe matches the arguments a POSIX shell leaves as they are.
var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// shellQuote is s as one POSIX shell word: as it is when nothing in it is special,
// else in single quotes (a single quote inside written as '\”).
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellFlag is "--flag value" with the value quoted for the shell.
func shellFlag(flag, value string) string { return flag + " " + shellQuote(value) }
