package cli

import (
	"fmt"
	"io"
)

// docsRepo is where the pages a command's help names live; the paths are the
// repository's (README.md, docs/run.md).
const docsRepo = "https://github.com/evalgate/evalgate"

// printDocs ends a command's help with the pages that document it (the command's
// docs in commands()); nothing for a command without one.
func printDocs(w io.Writer, name string) {
	for _, cmd := range commands() {
		if cmd.name == name && cmd.docs != "" {
			fmt.Fprintf(w, "\nDocs (in %s): %s\n", docsRepo, cmd.docs)
		}
	}
}
