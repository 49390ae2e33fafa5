package ghaction

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/evalgate/evalgate/internal/safeio"
)

// gateInputs are the inputs of an evalgate step that decide which gate applies: the
// config, the directory it is relative to, and the baseline input.
type gateInputs struct {
	Config, WorkingDirectory, Baseline string
}

// configRepoPath is the config's path relative to the repository root, or an error when
// it leaves the repository.
func (g gateInputs) configRepoPath() (string, error) {
	return repoJoin(g.WorkingDirectory, g.Config)
}

// baselineRepoPath is the baseline input's path relative to the repository root; ""
// when the input is empty.
func (g gateInputs) baselineRepoPath() (string, error) {
	if g.Baseline == "" {
		return "", nil
	}
	return repoJoin(g.WorkingDirectory, g.Baseline)
}

// repoJoin joins p to the working directory wd, both relative to the repository root,
// and refuses a result outside it.
func repoJoin(wd, p string) (string, error) {
	if path.IsAbs(p) || path.IsAbs(wd) {
		return "", fmt.Errorf("%s is an absolute path; the workflow's paths are relative to the repository", path.Join(wd, p))
	}
	j := path.Clean(path.Join(wd, p))
	if j == ".." || strings.HasPrefix(j, "../") {
		return "", fmt.Errorf("%s leaves the repository", path.Join(wd, p))
	}
	return j, nil
}

// workflowFile is the repository path of the running workflow's file, from
// GITHUB_WORKFLOW_REF ("owner/repo/.github/workflows/gate.yml@refs/pull/2/merge"), and
// the repository ("owner/repo") it belongs to; both "" when the variable is unset or
// malformed.
func workflowFile(ref string) (file, repo string) {
	f, _, ok := strings.Cut(ref, "@")
	if !ok {
		return "", ""
	}
	parts := strings.SplitN(f, "/", 3)
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || !strings.HasPrefix(parts[2], ".github/workflows/") {
		return "", ""
	}
	return parts[2], parts[0] + "/" + parts[1]
}

// workflowDoc is the part of a workflow file findGateStep reads.
type workflowDoc struct {
	Jobs map[string]struct {
		Steps []struct {
			ID   string         `yaml:"id"`
			Uses string         `yaml:"uses"`
			With map[string]any `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// maxWorkflowBytes bounds the workflow file read from the base commit.
const maxWorkflowBytes = 1 << 20

// findGateStep finds, in a workflow file, the evalgate check step (isEvalgateAction,
// self being the action's own repository) whose check-name (action.yml's default when
// unset) is checkName, and returns its gate inputs with action.yml's defaults filled
// in. ok is false when the workflow has no such step. A step whose config, working-directory or baseline is an expression
// (${{ ... }}) cannot be read: that is an error, since the gate would then be chosen by
// what the running workflow says.
func findGateStep(data []byte, checkName, self string) (g gateInputs, ok bool, err error) {
	if len(data) > maxWorkflowBytes {
		return g, false, fmt.Errorf("the workflow file is over %d bytes", maxWorkflowBytes)
	}
	var doc workflowDoc
	if err := safeio.DecodeYAML("workflow", data, &doc); err != nil {
		msg := err.Error()
		if ie := (*safeio.InputError)(nil); errors.As(err, &ie) { // the caller names the file
			msg = strings.TrimPrefix(fmt.Sprintf("line %d: %s", ie.Line, ie.Msg), "line 0: ")
		}
		return g, false, fmt.Errorf("the workflow file is not valid YAML: %s", msg)
	}
	type found struct {
		where string
		in    gateInputs
		named bool // its check-name is checkName
	}
	var steps []found
	jobs := make([]string, 0, len(doc.Jobs))
	for name := range doc.Jobs {
		jobs = append(jobs, name)
	}
	sort.Strings(jobs)
	for _, job := range jobs {
		for i, st := range doc.Jobs[job].Steps {
			if !isEvalgateAction(st.Uses, self) {
				continue
			}
			get := func(k string) (string, error) {
				v, ok := st.With[k]
				s := fmt.Sprint(v)
				if !ok || v == nil || s == "" {
					return inputDefaults[k], nil // an empty input takes action.yml's default
				}
				if strings.Contains(s, "${{") {
					return "", fmt.Errorf("jobs.%s.steps[%d] sets %s with an expression (%q): the gate's inputs must be literal for evalgate to read them from the base commit", job, i, k, s)
				}
				return s, nil
			}
			mode, err := get("mode")
			if err != nil || mode != string(ModeCheck) {
				continue // a baseline step, or a mode chosen at run time
			}
			name, err := get("check-name")
			if err != nil {
				return g, false, err
			}
			var in gateInputs
			for k, dst := range map[string]*string{"config": &in.Config, "working-directory": &in.WorkingDirectory, "baseline": &in.Baseline} {
				if *dst, err = get(k); err != nil {
					return g, false, err
				}
			}
			steps = append(steps, found{where: fmt.Sprintf("jobs.%s.steps[%d]", job, i), in: in, named: name == checkName})
		}
	}
	var named []found
	for _, s := range steps {
		if s.named {
			named = append(named, s)
		}
	}
	if len(named) == 0 {
		return g, false, nil
	}
	for _, s := range named[1:] {
		if s.in != named[0].in {
			return g, false, fmt.Errorf("%s and %s both run the check %q with different configs: give each its own check-name", named[0].where, s.where, checkName)
		}
	}
	return named[0].in, true, nil
}

// isEvalgateAction reports whether a step's uses: runs the evalgate action (not its
// setup action): evalgate/evalgate@v1, a fork or mirror named evalgate, the repository
// this very action runs from (self, GITHUB_ACTION_REPOSITORY: a mirror of another
// name), or a local path.
func isEvalgateAction(uses, self string) bool {
	u := strings.ToLower(uses)
	name, _, _ := strings.Cut(u, "@")
	if self != "" && name == strings.ToLower(self) {
		return true
	}
	if strings.HasPrefix(u, "docker://") {
		return strings.Contains(u, "evalgate")
	}
	if strings.HasPrefix(name, "./") {
		return name == "./" || name == "." || strings.Contains(name, "evalgate")
	}
	parts := strings.Split(name, "/")
	return len(parts) == 2 && parts[1] == "evalgate"
}
