// Command toolconv writes another tool's results file (promptfoo, Inspect, lm-eval) as the
// evalgate JSONL that `evalgate check` reads it as: the records of its first run, with
// their suite fields. bench/imported.sh times evalgate on both, side by side.
//
//	toolconv TOOL-FILE OUT.jsonl
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"github.com/evalgate/evalgate/internal/importer"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: toolconv TOOL-FILE OUT.jsonl")
		os.Exit(2)
	}
	if p := os.Getenv("CPUPROFILE"); p != "" { // where the conversion's CPU profile goes
		f, err := os.Create(p)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	if err := convert(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "toolconv:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

func convert(in, out string) error {
	c, err := importer.Convert(in, importer.Options{}, "")
	if err != nil {
		return err
	}
	defer c.Remove()
	src, err := os.Open(c.Runs[0])
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.Create(out)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
