//go:build profile

package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfile profiles the whole run for measuring evalgate itself (docs/benchmarks.md),
// in a binary built with `-tags profile` (runtime/pprof stays out of the shipped one):
// a CPU profile to the file EVALGATE_CPUPROFILE names, an allocation profile (every
// allocation's bytes and count since the start) to EVALGATE_MEMPROFILE's. It does nothing
// when neither is set. The returned function ends the profiles.
func startProfile() func() {
	cpu, mem := os.Getenv("EVALGATE_CPUPROFILE"), os.Getenv("EVALGATE_MEMPROFILE")
	var f *os.File
	if cpu != "" {
		var err error
		if f, err = os.Create(cpu); err == nil {
			if err = pprof.StartCPUProfile(f); err != nil {
				f.Close()
				f = nil
			}
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "evalgate: EVALGATE_CPUPROFILE: %v\n", err)
		}
	}
	if mem != "" {
		runtime.MemProfileRate = 64 << 10
	}
	return func() {
		if f != nil {
			pprof.StopCPUProfile()
			f.Close()
		}
		if mem != "" {
			m, err := os.Create(mem)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(m, 0)
				if cerr := m.Close(); err == nil {
					err = cerr
				}
			}
			if err != nil {
				fmt.Fprintf(os.Stderr, "evalgate: EVALGATE_MEMPROFILE: %v\n", err)
			}
		}
	}
}
