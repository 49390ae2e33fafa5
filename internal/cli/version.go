package cli

import "runtime/debug"

// Version is the release version stamped at build time with
// -ldflags "-X github.com/evalgate/evalgate/internal/cli.Version=v1.2.3" (GoReleaser, the
// Dockerfile, scripts/podman-build.sh). Unstamped builds leave it "dev" and take their
// version from the module's build info instead (see EvalgateVersion).
var Version = "dev"

// EvalgateVersion is the version evalgate reports (--version, every report): the stamp
// when there is one, else the module version the Go toolchain recorded (`go install
// github.com/evalgate/evalgate/cmd/evalgate@v1.2.3` records v1.2.3; a build in a git
// checkout records a pseudo-version), else "dev".
func EvalgateVersion() string {
	return versionFrom(Version, debug.ReadBuildInfo)
}

func versionFrom(stamp string, read func() (*debug.BuildInfo, bool)) string {
	if stamp != "" && stamp != "dev" {
		return stamp
	}
	if bi, ok := read(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
