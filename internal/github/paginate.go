package github

import (
	"context"

	gh "github.com/google/go-github/v60/github"
)

// perPage is the largest page GitHub serves on the list endpoints used here.
const perPage = 100

// listAll fetches every page of a list endpoint, following the Link header. It stops
// when the header does not move forward, so a misbehaving server cannot keep it
// looping.
func listAll[T any](ctx context.Context, fetch func(context.Context, gh.ListOptions) ([]T, *gh.Response, error)) ([]T, error) {
	var all []T
	opts := gh.ListOptions{PerPage: perPage, Page: 1}
	for {
		page, resp, err := fetch(ctx, opts)
		if err != nil {
			return nil, err
		}
		all = append(all, page...)
		if resp.NextPage <= opts.Page {
			return all, nil
		}
		opts.Page = resp.NextPage
	}
}
