// Command evalgate gates pull requests on the quality of an LLM system: it scores a
// regression set with a weighted rubric, compares with a stored baseline, decides hard
// and soft gates, and reports to the terminal or to GitHub.
package main

import (
	"os"

	"github.com/evalgate/evalgate/internal/cli"
)

func main() {
	stop := startProfile()
	code := cli.New().Main(os.Args)
	stop()
	os.Exit(code)
}
