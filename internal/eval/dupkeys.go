package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// checkDuplicateKeys refuses an object that repeats a key at its top level:
// encoding/json would keep the last value silently.
func checkDuplicateKeys(obj []byte) error {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil { // '{'
		return err
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if seen[key] {
			return fmt.Errorf("key %q appears twice in the record", key)
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
	}
	return nil
}

// topLevelKeys counts the keys of a JSON object's top level by scanning its bytes (the
// object is known to be valid JSON): a string at depth 1 followed by ':' is a key.
func topLevelKeys(obj []byte) int {
	depth, n := 0, 0
	for i := 0; i < len(obj); i++ {
		switch obj[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			j := i + 1
			for j < len(obj) && obj[j] != '"' {
				if obj[j] == '\\' {
					j++
				}
				j++
			}
			if depth == 1 {
				k := j + 1
				for k < len(obj) && (obj[k] == ' ' || obj[k] == '\t' || obj[k] == '\n' || obj[k] == '\r') {
					k++
				}
				if k < len(obj) && obj[k] == ':' {
					n++
				}
			}
			i = j
		}
	}
	return n
}
