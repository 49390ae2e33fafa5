package github

import (
	"errors"
	"fmt"
	"net/http"

	gh "github.com/google/go-github/v60/github"
)

// ErrReadOnly matches errors from writes the token may not make: a pull request from a
// fork (GitHub gives its workflows a read-only token) or a 403 answer. The caller should
// fall back to the job summary and log annotations, and still enforce the verdict.
var ErrReadOnly = errors.New("github: the token cannot write to this repository")

// ErrNotFound matches errors for things GitHub says do not exist (or that the token
// cannot see): a pull request, a file at a ref, a branch.
var ErrNotFound = errors.New("github: not found")

// status returns the HTTP status of a go-github API error, or 0.
func status(err error) int {
	var e *gh.ErrorResponse
	if errors.As(err, &e) && e.Response != nil {
		return e.Response.StatusCode
	}
	return 0
}

// classify wraps err from op so that errors.Is finds ErrReadOnly for a 403 and
// ErrNotFound for a 404. Rate-limit 403s keep their go-github type and are not
// read-only errors: the retrying transport already waited for them.
func classify(err error, op string) error {
	if err == nil {
		return nil
	}
	var rl *gh.RateLimitError
	var abuse *gh.AbuseRateLimitError
	if errors.As(err, &rl) || errors.As(err, &abuse) {
		return fmt.Errorf("%s: %w", op, err)
	}
	switch status(err) {
	case http.StatusForbidden:
		return fmt.Errorf("%s: %w: %w", op, ErrReadOnly, err)
	case http.StatusNotFound:
		return fmt.Errorf("%s: %w: %w", op, ErrNotFound, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}
