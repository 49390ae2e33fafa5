package importer

// SetMaxDecompressed lowers the bound on a compressed file's content for a test; the
// returned func restores it.
func SetMaxDecompressed(n int64) func() {
	prev := maxDecompressed
	maxDecompressed = n
	return func() { maxDecompressed = prev }
}
