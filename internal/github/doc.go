// Package github publishes a finished evalgate result on GitHub: one sticky pull-request
// comment per suite, a check run with annotations, and the pull-request reads the action
// needs (labels, changed files, files at the base commit). It also opens the release
// baseline-refresh pull request.
//
// It is the only evalgate package that imports go-github, and it imports no other evalgate
// package but the leaf originauth, which keeps the token on the API's origin: callers
// hand it plain data (Publication, paths, bytes). Every write that the
// token may not make (fork pull requests, a read-only token) fails with an error that
// matches ErrReadOnly, so the caller can fall back to the job summary and log annotations.
package github
