package cli

import "github.com/evalgate/evalgate/internal/shellword"

// shellQuote and shellFlag quote the arguments of the commands cli prints
// (package shellword says why).
func shellQuote(s string) string { return shellword.Quote(s) }

func shellFlag(flag, value string) string { return shellword.Flag(flag, value) }
