package cli

import (
	"runtime/debug"
	"testing"
)

func TestVersionFrom(t *testing.T) {
	t.Parallel()
	info := func(v string) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Path: "github.com/evalgate/evalgate", Version: v}}, true
		}
	}
	none := func() (*debug.BuildInfo, bool) { return nil, false }
	tests := []struct {
		name, stamp string
		read        func() (*debug.BuildInfo, bool)
		want        string
	}{
		{"the stamp wins", "v1.4.0", info("v1.3.0"), "v1.4.0"},
		{"go install module@version", "dev", info("v1.3.0"), "v1.3.0"},
		{"a build in a git checkout", "dev", info("v0.0.0-20261123082000-a1f6d09abcde+dirty"), "v0.0.0-20261123082000-a1f6d09abcde+dirty"},
		{"a build without version control", "dev", info("(devel)"), "dev"},
		{"no build info", "dev", none, "dev"},
	}
	for _, tt := range tests {
		if got := versionFrom(tt.stamp, tt.read); got != tt.want {
			t.Errorf("%s: versionFrom(%q) = %q; want %q", tt.name, tt.stamp, got, tt.want)
		}
	}
}
