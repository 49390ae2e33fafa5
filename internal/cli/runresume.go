package cli

import (
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/config"
)

// resumeCommand is the command that goes on with the run o asked for where it stopped:
// its own flags that choose what runs and where (--config, --only, --only-from,
// --shard, --runs and --out-dir, or --out), then --resume; each quoted for a shell, so
// a folder or an id with spaces pastes as printed.
func resumeCommand(o runOptions) string {
	parts := []string{"evalgate run"}
	if o.Config != config.DefaultFile {
		parts = append(parts, shellFlag("--config", o.Config))
	}
	for _, ids := range o.Only {
		parts = append(parts, shellFlag("--only", ids))
	}
	if o.OnlyFrom != "" {
		parts = append(parts, shellFlag("--only-from", o.OnlyFrom))
	}
	if o.Shard != "" {
		parts = append(parts, shellFlag("--shard", o.Shard))
	}
	switch {
	case o.OutDir != "":
		parts = append(parts, shellFlag("--runs", strconv.Itoa(o.Runs)), shellFlag("--out-dir", o.OutDir))
	case o.Out != "":
		parts = append(parts, shellFlag("--out", o.Out))
	}
	return strings.Join(append(parts, "--resume"), " ")
}
