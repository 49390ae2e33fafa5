package rubric

import (
	"fmt"

	"github.com/evalgate/evalgate/internal/reliability"
)

// Fingerprints are the identities of the judges the scoring system uses, one per judge
// (a panel's reviewers each count as one), in the order Evaluators lists them. Served
// is filled from the verdicts given so far.
func (s *System) Fingerprints() []reliability.Fingerprint {
	var out []reliability.Fingerprint
	for _, e := range s.Evaluators() {
		md := e.Metadata
		p := md.Params
		out = append(out, reliability.Fingerprint{
			Judge:        e.Name,
			Model:        md.EvaluatorModelID,
			Served:       md.EvaluatorModelVersion,
			TemplateHash: md.TemplateHash,
			Params:       fmt.Sprintf("temperature=%g top_p=%g max_tokens=%d seed=%d", p.Temperature, p.TopP, p.MaxTokens, p.Seed),
		})
	}
	return out
}
