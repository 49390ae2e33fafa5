//go:build !profile

package main

// startProfile does nothing: profiling is built in with `-tags profile` (profile.go),
// which keeps runtime/pprof out of the shipped binary and its image.
func startProfile() func() { return func() {} }
