package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
)

// The promptfoo example reads promptfoo's test score (`key: score`) as dimension
// pf_score. Its value is not written beside the item's own "score" (a JSON object with
// a key twice reads as whichever comes last): it is in the item's raw, under pf_score.
func TestReportItemHoldsEachKeyOnce(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	c := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" },
		Now: func() time.Time { return time.Unix(0, 0) }, GitSHA: func() string { return "" }}
	if code := c.Main([]string{"evalgate", "score", "--config", "../../examples/promptfoo/evalgate.yaml", "--format", "json"}); code != cli.ExitPass {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if err := noDuplicateKeys(json.NewDecoder(bytes.NewReader(stdout.Bytes())), "$"); err != nil {
		t.Fatal(err)
	}
	var r struct {
		Items []struct {
			Score float64            `json:"score"`
			Raw   map[string]float64 `json:"raw"`
		} `json:"items"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Items) == 0 {
		t.Fatal("no items")
	}
	for i, it := range r.Items {
		if _, ok := it.Raw["pf_score"]; !ok {
			t.Errorf("item %d: raw has no pf_score: %v", i, it.Raw)
		}
	}
}

// noDuplicateKeys walks one JSON value and fails on an object holding a key twice.
func noDuplicateKeys(dec *json.Decoder, at string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			key := k.(string)
			if seen[key] {
				return fmt.Errorf("%s: key %q appears twice", at, key)
			}
			seen[key] = true
			if err := noDuplicateKeys(dec, at+"."+key); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := noDuplicateKeys(dec, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	}
	if err == io.EOF {
		return nil
	}
	return err
}
