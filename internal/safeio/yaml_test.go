package safeio

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// laughs is an anchor chain: level i is a list of ten aliases of level i-1, so the
// last level expands to 10^levels scalars.
func laughs(levels int) string {
	var b strings.Builder
	b.WriteString("a0: &a0 [lol]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

func wantInputError(t *testing.T, err error, pattern string) {
	t.Helper()
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v (%T); want *InputError matching %q", err, err, pattern)
	}
	if !regexp.MustCompile(pattern).MatchString(ie.Error()) {
		t.Errorf("error %q; want it to match %q", ie.Error(), pattern)
	}
}

func TestParseYAMLRefusesBillionLaughs(t *testing.T) {
	start := time.Now()
	_, err := ParseYAML("suite.yaml", []byte(laughs(10)))
	// Level 0 is a list and a scalar: 2 nodes; level i is a list of 10 aliases of level
	// i-1: 1 + 10×size(i-1), so 21, 211, 2111, 21111. The first alias of level 4 (*a4,
	// on line 6, inside a5) passes the limit.
	wantInputError(t, err, `^suite\.yaml:6:\d+: alias \*a4 expands to 21111 nodes; the limit is 10000 per alias`)
	// The error says where the limit stopped it; the time only catches an expansion
	// that runs away (ten levels of ten aliases: 10¹⁰ nodes), whatever the load.
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestParseYAMLKeepsAnchorReuse(t *testing.T) {
	// Level 3 expands to 2111 nodes (see above); 400 aliases of it add 844,400, under
	// the 1,000,000 floor of the budget (the chain itself adds 20+210+2110).
	src := laughs(3) + "uses:\n" + strings.Repeat("  - *a3\n", 400)
	if _, err := ParseYAML("ok.yaml", []byte(src)); err != nil {
		t.Fatalf("legitimate reuse refused: %v", err)
	}
	var v struct {
		Uses [][]any `yaml:"uses"`
	}
	if err := UnmarshalYAML("ok.yaml", []byte(src), &v); err != nil || len(v.Uses) != 400 || len(v.Uses[0]) != 10 {
		t.Fatalf("decoded %d uses, err %v", len(v.Uses), err)
	}
	// A merge key reused by every item: the common case.
	src = "defaults: &d {lang: en, max_words: 30}\nitems:\n" + strings.Repeat("  - {<<: *d, id: x}\n", 1000)
	if _, err := ParseYAML("ok.yaml", []byte(src)); err != nil {
		t.Fatalf("merge key reuse refused: %v", err)
	}
}

func TestParseYAMLAliasExactLimit(t *testing.T) {
	// A flow list of 9,999 scalars is 10,000 nodes: at the limit, accepted; one more
	// scalar passes it.
	mk := func(n int) string {
		return "a: &a [" + strings.TrimSuffix(strings.Repeat("x, ", n), ", ") + "]\nb: *a\n"
	}
	if _, err := ParseYAML("ok.yaml", []byte(mk(9999))); err != nil {
		t.Fatalf("alias of exactly 10000 nodes refused: %v", err)
	}
	_, err := ParseYAML("big.yaml", []byte(mk(10000)))
	wantInputError(t, err, `^big\.yaml:2:\d+: alias \*a expands to 10001 nodes`)
}

func TestParseYAMLAliasBudgetInAll(t *testing.T) {
	// 200 aliases of a 9,999-node anchor (each under the per-alias limit) expand to
	// 2,000,000 nodes, twice the 1,000,000 floor; the document itself has ~10,200.
	src := "a: &a [" + strings.TrimSuffix(strings.Repeat("x, ", 9998), ", ") + "]\nb:\n" + strings.Repeat("  - *a\n", 200)
	_, err := ParseYAML("many.yaml", []byte(src))
	wantInputError(t, err, `^many\.yaml:\d+: YAML aliases expand to more than 1000000 nodes in all`)
}

func TestParseYAMLDepth(t *testing.T) {
	flow := func(n int) string { return "a: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n" }
	// "a:" opens one block level, so 999 brackets make 1000 levels.
	if _, err := ParseYAML("ok.yaml", []byte(flow(MaxDepth-1))); err != nil {
		t.Fatalf("depth 1000 refused: %v", err)
	}
	_, err := ParseYAML("deep.yaml", []byte(flow(MaxDepth)))
	wantInputError(t, err, `^deep\.yaml:1:\d+: YAML nested more than 1000 levels deep`)

	start := time.Now()
	_, err = ParseYAML("deep.yaml", []byte(flow(200_000)))
	wantInputError(t, err, `nested more than 1000 levels`)
	if d := time.Since(start); d > 30*time.Second { // a hang guard, generous for any load
		t.Errorf("200k levels took %v", d)
	}

	block := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(strings.Repeat(" ", i) + "k:\n")
		}
		return b.String() + strings.Repeat(" ", n) + "v\n"
	}
	if _, err := ParseYAML("ok.yaml", []byte(block(MaxDepth))); err != nil {
		t.Fatalf("block depth 1000 refused: %v", err)
	}
	_, err = ParseYAML("deep.yaml", []byte(block(MaxDepth+1)))
	wantInputError(t, err, `^deep\.yaml:1001:\d+: YAML nested more than 1000 levels deep`)

	// Block sequences written compactly (- - - x) nest too.
	_, err = ParseYAML("deep.yaml", []byte(strings.Repeat("- ", MaxDepth+1)+"x\n"))
	wantInputError(t, err, `^deep\.yaml:1:\d+: YAML nested`)
	// Siblings do not nest: a long list of mappings is two levels.
	if _, err := ParseYAML("ok.yaml", []byte(strings.Repeat("- a: 1\n  b: [1, {c: 2}]\n", 5000))); err != nil {
		t.Fatalf("wide document refused: %v", err)
	}
}

func TestJSONDepth(t *testing.T) {
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if err := CheckJSONDepth("r.jsonl", []byte(ok), 3); err != nil {
		t.Fatalf("depth 1000 refused: %v", err)
	}
	// Brackets inside strings, escaped quotes included, do not count.
	s := `{"a": "` + strings.Repeat(`[\"`, 2000) + `"}`
	if err := CheckJSONDepth("r.jsonl", []byte(s), 1); err != nil {
		t.Fatalf("brackets in a string counted: %v", err)
	}
	deep := "{\"a\":\n" + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + "}"
	wantInputError(t, CheckJSONDepth("b.json", []byte(deep), 1), `^b\.json:2: JSON nested more than 1000 levels deep`)
}
