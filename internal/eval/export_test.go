package eval

// DecodeResultFast is the decoder of a results record's known keys: the Result of one
// line with only the top-level keys keep names decoded into Fields (all when keep is
// nil), or false where the line takes the full path.
func DecodeResultFast(line []byte, keep func(key string) bool) (*Result, bool) {
	var d jsonScan
	return decodeResultFast("", 1, line, &d, keep)
}

// Missing lists the suite items the run has no result for, in suite order.
func (r *Run) Missing(s *Suite) []string {
	var out []string
	for i := range s.Len() {
		if id := s.ID(i); r.byID[id] == nil {
			out = append(out, id)
		}
	}
	return out
}
