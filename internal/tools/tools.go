//go:build tools

// Package tools pins the modules evalgate's packages import, so go.mod keeps them while
// the packages that use them are written. Remove once every module is imported for real.
package tools

import (
	_ "github.com/goccy/go-yaml"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/google/go-github/v60/github"
	_ "github.com/olekukonko/tablewriter"
	_ "github.com/openai/openai-go/v3"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "github.com/schollz/progressbar/v3"
	_ "github.com/sethvargo/go-githubactions"
	_ "golang.org/x/sync/errgroup"
	_ "golang.org/x/time/rate"
)
