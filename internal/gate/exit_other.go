//go:build !unix

package gate

// isPathShape: on other systems every path error other than a missing path counts as
// could not run.
func isPathShape(error) bool { return false }
