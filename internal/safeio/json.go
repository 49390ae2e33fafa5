package safeio

import (
	"bytes"
	"fmt"
)

// CheckJSONDepth refuses JSON nested more than MaxDepth levels, before a decoder builds
// it. It scans bytes (strings skipped) and does not validate: the decoder does that.
// line is the 1-based line data starts on; the error names the line the limit is
// passed on.
func CheckJSONDepth(path string, data []byte, line int) error {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
			if depth > MaxDepth {
				return &InputError{File: path, Line: line + bytes.Count(data[:i], []byte("\n")),
					Msg: fmt.Sprintf("JSON nested more than %d levels deep; the limit is %d", MaxDepth, MaxDepth)}
			}
		case '}', ']':
			depth--
		}
	}
	return nil
}
