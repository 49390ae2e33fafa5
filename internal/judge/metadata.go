package judge

import (
	"slices"
	"strings"
)

// Metadata is what seed 001 §4.3 asks a run to record about its evaluator.
type Metadata struct {
	// EvaluatorModelID is the configured model.
	EvaluatorModelID string `json:"evaluator_model_id"`
	// EvaluatorModelVersion is what the server reported: "model" or
	// "model@system_fingerprint", several joined by ", " when they differ between
	// calls (a provider rolling out a new build mid-run), empty when no verdict says.
	EvaluatorModelVersion string `json:"evaluator_model_version"`
	// TemplateID is "accuracy-faithfulness", "rubric-1-10" or a custom template's id.
	TemplateID string `json:"evaluator_prompt_template_id"`
	// TemplateHash is Template.Hash: "sha256:…".
	TemplateHash string `json:"evaluator_prompt_template_version_or_hash"`
	// Params are the generation parameters sent to the judge.
	Params Params `json:"evaluator_generation_params"`
}

// Metadata describes the judge and, from verdicts, the model versions that answered.
func (j *Judge) Metadata(verdicts []Judgment) Metadata {
	var versions []string
	for _, v := range verdicts {
		if v.Model == "" {
			continue
		}
		s := v.Model
		if v.ModelVersion != "" {
			s += "@" + v.ModelVersion
		}
		if !slices.Contains(versions, s) {
			versions = append(versions, s)
		}
	}
	slices.Sort(versions)
	return Metadata{
		EvaluatorModelID:      j.cfg.Model,
		EvaluatorModelVersion: strings.Join(versions, ", "),
		TemplateID:            j.tmpl.ID,
		TemplateHash:          j.hash,
		Params:                j.params,
	}
}
