package cli

import (
	"fmt"
	"os"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/pathglob"
)

// resultsPaths are the results files of a check: --results when given, else the
// config's `results:` (relative to the config). Each entry may be a pattern with the
// action's syntax ("runs/*.jsonl", "runs/**/*.jsonl"); a pattern expands to its files,
// sorted, and one that matches nothing is an error. A pattern's match that is already
// listed is not added again; a file named twice by hand is read twice (as asked).
func resultsPaths(flagged []string, cfg *config.Config) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	expand := func(p string, where func(msg string) error) error {
		if _, err := os.Stat(p); err == nil || !pathglob.HasMeta(p) { // a file, even one named "a[1].jsonl"
			seen[p] = true
			out = append(out, p)
			return nil
		}
		matches, err := pathglob.Glob(p)
		if err != nil {
			return where(fmt.Sprintf("results pattern %q is not valid: %v", p, err))
		}
		if len(matches) == 0 {
			return where(fmt.Sprintf("results pattern %q matches no file", p))
		}
		for _, m := range matches {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
		return nil
	}
	if len(flagged) > 0 {
		for _, p := range flagged {
			if err := expand(p, func(msg string) error { return fmt.Errorf("--results: %s", msg) }); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	for _, p := range cfg.Results {
		if err := expand(cfg.Path(p), func(msg string) error { return eval.Errorf(cfg.File, 0, "", "%s", msg) }); err != nil {
			return nil, err
		}
	}
	return out, nil
}
