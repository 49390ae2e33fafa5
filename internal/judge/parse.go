package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/safeio"
)

// ParseError says why a judge reply was refused (seed 001 §2.2).
type ParseError struct {
	Reason string
}

func (e *ParseError) Error() string { return "judge reply refused: " + e.Reason }

func parseErrorf(format string, args ...any) error {
	return &ParseError{Reason: fmt.Sprintf(format, args...)}
}

// Parsed is an accepted judge reply.
type Parsed struct {
	Scores    map[string]int
	Rationale string
}

// intLiteral is a JSON integer as written: "2", not "2.0" or "2e0". Seed 001 asks for
// an int, and a judge that answers 1.5 has not followed the rubric.
var intLiteral = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// ParseVerdict applies the template's parse rules to a reply: the whole reply (spaces
// aside) is one JSON object; every key is present as an integer within its range; the
// rationale, when the template has one, is a non-empty string within its word limit.
// Other keys are ignored. Any failure is a *ParseError.
func ParseVerdict(t *Template, reply string) (Parsed, error) {
	if err := safeio.CheckJSONDepth("reply", []byte(reply), 1); err != nil {
		return Parsed{}, parseErrorf("nested more than %d levels deep", safeio.MaxDepth)
	}
	dec := json.NewDecoder(strings.NewReader(reply))
	dec.UseNumber()
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil {
		return Parsed{}, parseErrorf("not a JSON object: %v", err)
	}
	if obj == nil {
		return Parsed{}, parseErrorf("not a JSON object: null")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Parsed{}, parseErrorf("text after the JSON object")
	}
	p := Parsed{Scores: make(map[string]int, len(t.Keys))}
	for _, k := range t.Keys {
		raw, ok := obj[k.Name]
		if !ok {
			return Parsed{}, parseErrorf("missing key %q", k.Name)
		}
		lit := string(bytes.TrimSpace(raw))
		if !intLiteral.MatchString(lit) {
			return Parsed{}, parseErrorf("key %q is %s; want an integer in %d..%d", k.Name, clip(lit), k.Min, k.Max)
		}
		v, err := strconv.Atoi(lit)
		if err != nil || v < k.Min || v > k.Max {
			return Parsed{}, parseErrorf("key %q is %s; want an integer in %d..%d", k.Name, clip(lit), k.Min, k.Max)
		}
		p.Scores[k.Name] = v
	}
	if r := t.Rationale; r.Key != "" {
		raw, ok := obj[r.Key]
		if !ok {
			return Parsed{}, parseErrorf("missing key %q", r.Key)
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return Parsed{}, parseErrorf("key %q is not a string", r.Key)
		}
		words := len(strings.Fields(s))
		switch {
		case words == 0:
			return Parsed{}, parseErrorf("key %q is empty", r.Key)
		case r.MaxWords > 0 && words > r.MaxWords:
			return Parsed{}, parseErrorf("key %q has %d words; at most %d allowed", r.Key, words, r.MaxWords)
		}
		p.Rationale = s
	}
	return p, nil
}

// clip shortens a value quoted in an error message.
func clip(s string) string {
	const n = 40
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
