package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/safeio"
)

// onlyItems narrows the suite to the items `run --only IDS` or `run --only-from REPORT`
// names: a re-run of the items that carried an inconclusive verdict. It returns the
// suite unchanged when neither is given. Unknown ids are refused with the list.
func onlyItems(suite *eval.Suite, only []string, onlyFrom string) (*eval.Suite, error) {
	if len(only) == 0 && onlyFrom == "" {
		return suite, nil
	}
	if len(only) > 0 && onlyFrom != "" {
		return nil, fmt.Errorf("--only and --only-from both given: keep one")
	}
	var ids []string
	split := false // some --only value was read as a comma-separated list
	if len(only) > 0 {
		for _, v := range only {
			if _, ok := suite.Item(v); ok {
				ids = append(ids, v) // an id whole, commas and all
				continue
			}
			split = split || strings.Contains(v, ",")
			for _, id := range strings.Split(v, ",") {
				if id = strings.TrimSpace(id); id != "" {
					ids = append(ids, id)
				}
			}
		}
		if len(ids) == 0 {
			return nil, fmt.Errorf("--only %q names no item; want item ids (comma-separated, or one --only each)", strings.Join(only, ","))
		}
	} else {
		var err error
		if ids, err = evidenceIDs(onlyFrom); err != nil {
			return nil, err
		}
	}
	sub := eval.NewSuite(suite.File)
	sub.Name, sub.Hash = suite.Name, suite.Hash
	seen := map[string]bool{}
	var unknown []string
	for _, id := range ids {
		it, ok := suite.Item(id)
		switch {
		case !ok:
			unknown = append(unknown, id)
		case !seen[id]:
			seen[id] = true
			c := *it
			if err := sub.AddItem(&c); err != nil {
				return nil, err
			}
		}
	}
	if len(unknown) > 0 {
		msg := "no item %s in the suite (--only names items by id)"
		if split {
			msg = "no item %s in the suite (--only names items by id; a value that is no id whole is split at its commas: give an id that holds a comma as one --only of its own)"
		}
		return nil, eval.Errorf(suite.File, 0, "", msg, quoteList(unknown))
	}
	return sub, nil
}

// evidenceIDs reads the items a saved JSON report names as the regression decision's
// evidence (report.regression.evidence, and each dimension's).
func evidenceIDs(path string) ([]string, error) {
	data, err := safeio.ReadFile(path, "report", safeio.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	if err := safeio.CheckJSONDepth(path, data, 1); err != nil {
		return nil, err
	}
	type decision struct {
		Evidence []struct {
			ID string `json:"id"`
		} `json:"evidence"`
	}
	var r struct {
		SchemaVersion int `json:"schema_version"`
		Regression    *struct {
			decision
			Dimensions []decision `json:"dimensions"`
		} `json:"regression"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, eval.Errorf(path, 0, "", "not a JSON report (evalgate check --format json): %v", err)
	}
	if r.Regression == nil {
		return nil, eval.Errorf(path, 0, "", "the report has no regression decision (no baseline was compared): nothing to re-run")
	}
	var ids []string
	seen := map[string]bool{}
	for _, d := range append([]decision{r.Regression.decision}, r.Regression.Dimensions...) {
		for _, e := range d.Evidence {
			if !seen[e.ID] {
				seen[e.ID] = true
				ids = append(ids, e.ID)
			}
		}
	}
	if len(ids) == 0 {
		return nil, eval.Errorf(path, 0, "", "the report's regression decision names no evidence items (it passed, or the method was plain): nothing to re-run")
	}
	return ids, nil
}

func quoteList(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}
