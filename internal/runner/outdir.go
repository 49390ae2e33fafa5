package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"github.com/evalgate/evalgate/internal/safeio"
)

// ManifestFile is the file in an --out-dir directory that records how many runs it was
// started with, so --resume can refuse a different count. It is hidden so that a glob
// such as `runs/*` or an uploaded artifact holds only the results.
const ManifestFile = ".evalgate-runs.json"

// maxManifest bounds the manifest read back: it holds one small object.
const maxManifest = 64 << 10

var runFileRE = regexp.MustCompile(`^run([1-9][0-9]*)\.jsonl$`)

// RunFile is the results file of run k (1-based) in dir: run1.jsonl, run2.jsonl, ...
func RunFile(dir string, k int) string {
	return filepath.Join(dir, "run"+strconv.Itoa(k)+".jsonl")
}

// Manifest is what ManifestFile holds.
type Manifest struct {
	// Runs is the --runs the directory was started with.
	Runs int `json:"runs"`
}

// PrepareOutDir readies dir for runs results files. Without resume it starts over: it
// removes every runK.jsonl already there (returned, for the log) so a glob over the
// directory never picks up a run from an earlier, longer series, and records runs. With
// resume it keeps the files and refuses a runs that differs from the one the directory
// was started with.
func PrepareOutDir(dir string, runs int, resume bool) (removed []string, err error) {
	if runs < 1 {
		return nil, fmt.Errorf("--runs is %d; want 1 or more", runs)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("out dir: %w", err)
	}
	existing, err := runFiles(dir)
	if err != nil {
		return nil, err
	}
	if resume {
		m, err := readManifest(dir)
		switch {
		case err != nil:
			return nil, err
		case m != nil && m.Runs != runs:
			return nil, fmt.Errorf("%s was started with --runs %d; this asks for --runs %d. Resume with --runs %d, or start over without --resume (that rewrites every run file)", dir, m.Runs, runs, m.Runs)
		case m == nil && len(existing) > 0 && existing[len(existing)-1] > runs:
			k := existing[len(existing)-1]
			return nil, fmt.Errorf("%s holds %s, from a series of at least %d runs; this asks for --runs %d. Resume with --runs %d or more, or start over without --resume", dir, filepath.Base(RunFile(dir, k)), k, runs, k)
		}
	} else {
		for _, k := range existing {
			p := RunFile(dir, k)
			if err := os.Remove(p); err != nil {
				return nil, fmt.Errorf("out dir: %w", err)
			}
			removed = append(removed, p)
		}
	}
	return removed, writeManifest(dir, Manifest{Runs: runs})
}

// runFiles lists the k of every runK.jsonl in dir, ascending.
func runFiles(dir string) ([]int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("out dir: %w", err)
	}
	var ks []int
	for _, e := range entries {
		m := runFileRE.FindStringSubmatch(e.Name())
		if m == nil || !e.Type().IsRegular() {
			continue
		}
		k, err := strconv.Atoi(m[1])
		if err != nil { // more digits than an int holds: not one of ours
			continue
		}
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks, nil
}

func readManifest(dir string) (*Manifest, error) {
	p := filepath.Join(dir, ManifestFile)
	data, err := safeio.ReadFileIfExists(p, "run manifest", maxManifest)
	if data == nil || err != nil {
		return nil, err
	}
	var m Manifest
	if json.Unmarshal(data, &m) != nil || m.Runs < 1 {
		return nil, fmt.Errorf("%s: not a run manifest written by evalgate run; remove it, or start over without --resume", p)
	}
	return &m, nil
}

func writeManifest(dir string, m Manifest) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	p := filepath.Join(dir, ManifestFile)
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("out dir: %w", err)
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("out dir: %w", err)
	}
	return nil
}
