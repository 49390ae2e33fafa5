package diagnose_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diagnose"
	"github.com/evalgate/evalgate/internal/testdata/evaltest"
)

// A tag whose items fail several dimensions is one finding naming them all, and a suite
// of many such tags names the first five and counts the rest in one more finding. Eight
// tags t1…t8 of 3 items each, every output wrong: both dimensions (a contains and an
// exact match) are 0 on every item of every tag. systematic_miss is off, so the tag
// rule speaks: before, 8 tags × 2 dimensions = 16 findings (a 10,000-item suite with
// 250 such tags and 20 dimensions printed 5,000 lines of diagnosis); now 5 + 1.
func TestTagFailureOneFindingPerTagAndACount(t *testing.T) {
	cfg := evaltest.Config(t, `name: tags
suite: suite.yaml
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: has, weight: 0.5, scorer: contains}
    - {name: same, weight: 0.5, scorer: exact, expected: answer}
grading: {version: gradingSystem/1.0.0}
diagnose: {systematic_miss: {enabled: false}}
`)
	var suite, results strings.Builder
	suite.WriteString("items:\n")
	for tg := 1; tg <= 8; tg++ {
		for k := 1; k <= 3; k++ {
			fmt.Fprintf(&suite, "  - {id: t%d-%d, prompt: p, expected_contains: [yes], answer: yes, tags: [t%d]}\n", tg, k, tg)
			fmt.Fprintf(&results, "{\"id\": \"t%d-%d\", \"output\": \"no\"}\n", tg, k)
		}
	}
	fs := diagnose.Run(cfg.Diagnose, diagnose.Input{Scored: evaltest.Score(t, cfg, suite.String(), results.String())})
	var tagged []diagnose.Finding
	for _, f := range fs {
		if f.Rule == diagnose.RuleTagFailure {
			tagged = append(tagged, f)
		}
	}
	if len(tagged) != 6 {
		t.Fatalf("%d tag findings %v; want 6 (five tags, then a count of three more)", len(tagged), rules(fs))
	}
	if f := tagged[0]; f.Tag != "t1" || f.Dimension != "" || len(f.Items) != 3 ||
		f.Message != "all 3 `t1` items fail `has` and `same`: check the data and the prompt for that tag." {
		t.Errorf("first finding %+v", f)
	}
	if f := tagged[5]; f.Tag != "" || f.Message != "3 more tags whose items all fail a dimension: `t6`, `t7` and `t8`; the tag table has each." {
		t.Errorf("last finding %+v", f)
	}
}
