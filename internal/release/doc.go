// Package release tests evalgate's release tooling, which lives outside Go because it
// runs where Go may not be installed: the setup action's install script
// (setup/install.sh, run against a fake release on loopback) and the release workflow's
// action.yml pinning script (scripts/pin-action-image.sh).
package release
