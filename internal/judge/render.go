package judge

// Render fills the template's placeholders with the request's values, each sandboxed.
// Substitution is one pass over the template, so a value that itself contains
// "{{candidate_answer}}" is inserted as text and never expanded.
func (t *Template) Render(r Request) string {
	values := map[string]string{
		PlaceholderTask:            r.Task,
		PlaceholderReferenceAnswer: r.ReferenceAnswer,
		PlaceholderProvidedContext: r.ProvidedContext,
		PlaceholderCandidateAnswer: r.CandidateAnswer,
	}
	return placeholderRE.ReplaceAllStringFunc(t.Text, func(m string) string {
		name := placeholderRE.FindStringSubmatch(m)[1]
		return Sandbox(name, values[name])
	})
}
