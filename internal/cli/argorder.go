package cli

import (
	"flag"
	"strings"
)

// interspersed reorders args so the flags come first and the positional arguments
// after them, as the README writes commands (`evalgate import FILE --out-dir DIR`):
// Go's flag package stops at the first positional argument. A flag that takes a value
// ("--out-dir DIR") keeps its value beside it; "-" alone (standard input) is positional;
// everything after "--" stays positional, in order. Unknown flags stay flags, so the
// flag set names them in its error.
func interspersed(fs *flag.FlagSet, args []string) []string {
	var flags, positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		if takesValue(fs, a) && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	if len(positional) == 0 {
		return flags
	}
	return append(append(flags, "--"), positional...)
}

// takesValue says whether the flag argument a ("-name" or "--name", without "=value")
// is followed by its value: a known flag that is not boolean.
func takesValue(fs *flag.FlagSet, a string) bool {
	name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
	if name == "" || strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return false
	}
	return true
}
