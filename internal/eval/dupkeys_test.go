package eval

import (
	"encoding/json"
	"testing"
)

func TestTopLevelKeys(t *testing.T) {
	cases := map[string]int{
		`{}`:                                     0,
		`{"a":1}`:                                1,
		`{"a":1,"b":{"c":2,"d":[{"e":3}]}}`:      2,
		`{"a":"x:\"y\",\"z\":","b" : 2}`:         2,
		`{"a":"\\","b":"}{"}`:                    2,
		`{"a":1,"a":2}`:                          2,
		`{"out":"{\"english\":\"x\"}","id":"q"}`: 2,
	}
	for in, want := range cases {
		if !json.Valid([]byte(in)) {
			t.Fatalf("test input %s is not JSON", in)
		}
		if got := topLevelKeys([]byte(in)); got != want {
			t.Errorf("topLevelKeys(%s) = %d; want %d", in, got, want)
		}
	}
}
