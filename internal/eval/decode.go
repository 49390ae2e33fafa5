package eval

import gojson "github.com/goccy/go-json"

// decodeFast decodes a results or suite record. github.com/goccy/go-json decodes a
// record into map[string]any in about half of encoding/json's time and gives the same
// values (differential test and fuzz target in decode_test.go; the measurements behind
// the choice are in docs/benchmarks.md, "JSON decoder"). A line it refuses is decoded
// again by encoding/json, whose error messages are the ones users see.
func decodeFast(data []byte, fields *map[string]any) error {
	return gojson.Unmarshal(data, fields)
}
