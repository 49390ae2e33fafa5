package settle

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The placeholders of a `rerun:` command.
const (
	PlaceholderIDs = "{ids}"
	PlaceholderOut = "{out}"
)

// Tools whose selectors Expand knows; any other gets the generic form.
const (
	ToolPromptfoo = "promptfoo"
	ToolInspect   = "inspect"
	ToolLMEval    = "lm-eval"
)

func containsPlaceholder(arg, p string) bool { return strings.Contains(arg, p) }

// Expand fills a `rerun:` command for one round: {out} becomes out and {ids} the
// selectors, in the form the tool reads them:
//   - promptfoo (--filter-pattern, a regular expression over test descriptions): one
//     argument matching exactly those descriptions, ^(?:a|b)$, each quoted;
//   - Inspect (--sample-id): one argument, the sample ids joined by commas
//     (InspectSampleID: an id Inspect cannot read back is a *CannotRerun);
//   - lm-eval (--samples, JSON by task): {"task":[doc ids]} from selectors "task:doc";
//   - any other tool: one argument per selector when {ids} is a whole argument, else
//     the selectors joined by commas.
//
// Every placeholder stays inside its own argument: nothing is split or read by a shell.
func Expand(cmd Command, tool string, selectors []string, out string) ([]string, error) {
	if len(selectors) == 0 {
		return nil, errors.New("rerun: no items to re-run")
	}
	joined, err := joinSelectors(tool, selectors)
	if err != nil {
		return nil, err
	}
	var args []string
	for _, a := range cmd {
		if a == PlaceholderIDs && joined == "" {
			args = append(args, selectors...)
			continue
		}
		ids := joined
		if ids == "" {
			ids = strings.Join(selectors, ",")
		}
		a = strings.ReplaceAll(a, PlaceholderOut, out)
		args = append(args, strings.ReplaceAll(a, PlaceholderIDs, ids))
	}
	return args, nil
}

// joinSelectors is the one argument a tool reads its selectors from ("" for the
// generic form).
func joinSelectors(tool string, selectors []string) (string, error) {
	switch tool {
	case ToolPromptfoo:
		q := make([]string, len(selectors))
		for i, s := range selectors {
			q[i] = regexp.QuoteMeta(s)
		}
		return "^(?:" + strings.Join(q, "|") + ")$", nil
	case ToolInspect:
		q := make([]string, len(selectors))
		for i, s := range selectors {
			var err error
			if q[i], err = InspectSampleID(s); err != nil {
				return "", err
			}
		}
		return strings.Join(q, ","), nil
	case ToolLMEval:
		byTask := map[string][]int{}
		for _, s := range selectors {
			i := strings.LastIndex(s, ":")
			doc, err := strconv.Atoi(s[i+1:])
			if i <= 0 || err != nil || doc < 0 {
				return "", fmt.Errorf("rerun: lm-eval item %q is not task:doc_id", s)
			}
			byTask[s[:i]] = append(byTask[s[:i]], doc)
		}
		for _, docs := range byTask {
			sort.Ints(docs)
		}
		b, err := json.Marshal(byTask) // map keys sorted: the same ids give the same argument
		return string(b), err
	}
	return "", nil
}

// Split splits a command line into arguments at spaces and tabs; single or double
// quotes group (a backslash escapes the next character inside double quotes and
// outside quotes). Nothing else is interpreted: no variables, globs or pipes.
func Split(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inArg := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed ' at byte %d of %q", i, s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inArg = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unclosed \" in %q", s)
			}
			inArg = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inArg = true
		default:
			cur.WriteByte(c)
			inArg = true
		}
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args, nil
}
