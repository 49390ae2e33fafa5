package settle

import (
	"slices"
	"testing"
)

func TestExpand(t *testing.T) {
	for _, c := range []struct {
		tool      string
		cmd       Command
		selectors []string
		want      []string
	}{
		{ToolPromptfoo, Command{"promptfoo", "eval", "--filter-pattern", "{ids}", "-o", "{out}"}, []string{"refund window", "a.b (c)"},
			[]string{"promptfoo", "eval", "--filter-pattern", `^(?:refund window|a\.b \(c\))$`, "-o", "out/r1.json"}},
		{ToolInspect, Command{"inspect", "eval", "task.py", "--sample-id", "{ids}", "--log-dir", "{out}"}, []string{"7", "s-2"},
			[]string{"inspect", "eval", "task.py", "--sample-id", "7,s-2", "--log-dir", "out/r1.json"}},
		{ToolLMEval, Command{"lm_eval", "--samples", "{ids}", "--output_path", "{out}"}, []string{"arc:3", "arc:1", "gsm8k:10"},
			[]string{"lm_eval", "--samples", `{"arc":[1,3],"gsm8k":[10]}`, "--output_path", "out/r1.json"}},
		// Any other tool: a whole {ids} argument is one argument per id (spaces and
		// shell characters stay inside it); inside an argument they join with commas.
		{"evalgate", Command{"./rerun.sh", "{ids}", "--out={out}", "--list={ids}"}, []string{"a b", "$(rm -rf x)"},
			[]string{"./rerun.sh", "a b", "$(rm -rf x)", "--out=out/r1.json", "--list=a b,$(rm -rf x)"}},
	} {
		got, err := Expand(c.cmd, c.tool, c.selectors, "out/r1.json")
		if err != nil {
			t.Errorf("%s: %v", c.tool, err)
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.tool, got, c.want)
		}
	}
	if _, err := Expand(Command{"x", "{ids}", "{out}"}, ToolLMEval, []string{"no-doc-id"}, "o"); err == nil {
		t.Error("an lm-eval id without :doc_id: no error")
	}
	if _, err := Expand(Command{"x", "{ids}", "{out}"}, ToolInspect, []string{"a,b"}, "o"); err == nil {
		t.Error("an Inspect sample id with a comma: no error")
	}
}

func TestSplit(t *testing.T) {
	for in, want := range map[string][]string{
		`promptfoo eval -c promptfooconfig.yaml --filter-pattern {ids} -o {out}`: {"promptfoo", "eval", "-c", "promptfooconfig.yaml", "--filter-pattern", "{ids}", "-o", "{out}"},
		`a 'b c' "d \"e\"" f\ g`: {"a", "b c", `d "e"`, "f g"},
		`  x   y  `:              {"x", "y"},
		`$HOME *.json | rm`:      {"$HOME", "*.json", "|", "rm"},
	} {
		got, err := Split(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Split(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`a 'b`, `a "b`} {
		if _, err := Split(bad); err == nil {
			t.Errorf("Split(%q): no error for an unclosed quote", bad)
		}
	}
}

// FuzzSplit: Split never panics, and what it returns, quoted back, splits the same.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{`promptfoo eval --filter-pattern {ids} -o {out}`, `a 'b c' "d \"e\"" f\ g`, `"`, `'`, `\`, "a\tb\nc", ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args, err := Split(s)
		if err != nil {
			return
		}
		var q []byte
		for _, a := range args {
			q = append(q, '\'')
			for i := 0; i < len(a); i++ {
				if a[i] == '\'' {
					q = append(q, `'\''`...)
				} else {
					q = append(q, a[i])
				}
			}
			q = append(q, '\'', ' ')
		}
		again, err := Split(string(q))
		if err != nil || !slices.Equal(again, args) {
			t.Fatalf("Split(%q) = %q; quoted back %q splits to %q, %v", s, args, q, again, err)
		}
	})
}

func TestCommandValidate(t *testing.T) {
	if err := (Command{"x", "{ids}"}).validate(); err == nil {
		t.Error("a command without {out}: no error")
	}
	if err := (Command{"x", "--f={ids}", "-o", "{out}"}).validate(); err != nil {
		t.Errorf("a valid command: %v", err)
	}
}
