package judge

// Request is one candidate answer to judge, with the item inputs the template shows
// beside it. Every value is untrusted and is sandboxed when inserted.
type Request struct {
	// ID is the suite item's id, used in error messages and progress only; it is not
	// part of the cache key, so identical content under another id is not re-judged.
	ID              string
	Task            string
	ReferenceAnswer string
	ProvidedContext string
	CandidateAnswer string
	// Draw is 0 for an output of a full run. A re-run of some items (check --rerun,
	// settle's rounds) sets it to the run's place, so the same output met again there
	// is judged afresh (a draw of its own) instead of repeating a cached verdict; the
	// verdict is then cached under that draw, so every later look reads the same one.
	Draw int
}

// Evaluator error values of Judgment.EvaluatorError.
const (
	// ErrorParse: two replies in a row broke the template's parse rules (seed 001
	// §2.2). Cached like a verdict: at temperature 0 a rerun would say the same.
	ErrorParse = "parse_error"
	// ErrorTimeout: every attempt ran past the per-call timeout. Not cached.
	ErrorTimeout = "timeout"
	// ErrorAPI: the endpoint kept refusing (429/5xx after the retries, or a 4xx about
	// this request such as a prompt over the context window). Not cached.
	ErrorAPI = "api_error"
)

// Judgment is the judge's answer for one Request.
type Judgment struct {
	// Scores has one entry per template key: the raw integer score, or nil (JSON
	// null) when the judge gave none usable. A nil score counts as 0 and failing.
	Scores map[string]*float64 `json:"scores"`
	// Rationale is the judge's justification.
	Rationale string `json:"rationale,omitempty"`
	// EvaluatorError is "" or one of ErrorParse, ErrorTimeout, ErrorAPI.
	EvaluatorError string `json:"evaluator_error,omitempty"`
	// ErrorDetail says what went wrong, e.g. `missing key "accuracy_score"`.
	ErrorDetail string `json:"error_detail,omitempty"`
	// Model is the model the server reported (resp.model), which may be more precise
	// than the configured id; ModelVersion is its system_fingerprint, if any.
	Model        string `json:"model,omitempty"`
	ModelVersion string `json:"model_version,omitempty"`
	// Calls is the number of HTTP calls that produced this verdict (2 after a parse
	// retry; more with 429/5xx retries).
	Calls int `json:"calls"`
	// Usage is the judge tokens those calls spent.
	Usage Usage `json:"usage"`
	// Cached reports that the verdict came from the cache (or from an identical
	// request earlier in the same batch) and cost nothing this time.
	Cached bool `json:"-"`
}

// Usage counts judge tokens, kept apart from the system under test's tokens.
type Usage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	// CachedPromptTokens is the part of PromptTokens the provider served from its
	// prompt cache (usage.prompt_tokens_details.cached_tokens), billed lower.
	CachedPromptTokens int64 `json:"cached_prompt_tokens,omitempty"`
}

// Stats sums up one Evaluate call.
type Stats struct {
	// Requests is len(reqs).
	Requests int `json:"requests"`
	// Calls is the number of HTTP calls made, retries included.
	Calls int `json:"calls"`
	// CacheHits is the number of requests answered without a call.
	CacheHits int `json:"cache_hits"`
	// ParseErrors and Errors count verdicts with ErrorParse and with the other errors.
	ParseErrors int `json:"parse_errors"`
	Errors      int `json:"errors"`
	// PromptTokens and CompletionTokens are judge tokens spent by this call (cached
	// verdicts cost none).
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	// CachedPromptTokens is the part of PromptTokens served from the provider's
	// prompt cache.
	CachedPromptTokens int64 `json:"cached_prompt_tokens,omitempty"`
	// HitUsage is what the cache hits' verdicts spent when they were made: the tokens
	// their cache entries recorded (none for a verdict recorded without a model). It
	// prices the judging as if every verdict were paid, so the cost a gate compares
	// does not depend on how warm the cache was.
	HitUsage Usage `json:"hit_usage"`
}

// nullScores returns a Scores map with every key null.
func nullScores(t *Template) map[string]*float64 {
	m := make(map[string]*float64, len(t.Keys))
	for _, k := range t.Keys {
		m[k.Name] = nil
	}
	return m
}

// clone returns a copy of v whose Scores map is its own.
func (v Judgment) clone() Judgment {
	m := make(map[string]*float64, len(v.Scores))
	for k, p := range v.Scores {
		if p != nil {
			x := *p
			p = &x
		}
		m[k] = p
	}
	v.Scores = m
	return v
}
