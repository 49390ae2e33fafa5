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
