package settle

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// inspectParse is how Inspect reads --sample-id's value (inspect_ai's
// parse_sample_id: [id.strip() for id in sample_id.split(",")]), Python's strip as
// pySpace.
func inspectParse(v string) []string {
	parts := strings.Split(v, ",")
	for i, p := range parts {
		parts[i] = strings.TrimFunc(p, pySpace)
	}
	return parts
}

// Inspect's --sample-id reads back each id that InspectSampleID lets through, however
// it is spelt inside (spaces, quotes, shell characters: the command runs without a
// shell); an id it would read as other ids (a comma, whitespace at an end, nothing) is
// a *CannotRerun naming it, so settle stops ("cannot settle") instead of re-running
// other samples, or failing the check. Before, an id with a space at an end was
// passed through and stripped by Inspect, and a comma failed the check.
func TestInspectSampleID(t *testing.T) {
	ok := []string{"refund window 03", `say "hi"`, "it's", "$(rm -rf x)", "7", "a:b/c"}
	args, err := Expand(Command{"inspect", "eval", "--sample-id", "{ids}"}, ToolInspect, ok, "o")
	if err != nil {
		t.Fatal(err)
	}
	if got := inspectParse(args[3]); !slices.Equal(got, ok) {
		t.Errorf("Inspect reads %q back as %q; want %q", args[3], got, ok)
	}
	for _, bad := range []string{"a,b", " padded", "trailing\t", "x\x1f", ""} {
		_, err := Expand(Command{"inspect", "eval", "--sample-id", "{ids}"}, ToolInspect, []string{"fine", bad}, "o")
		var cannot *CannotRerun
		if !errors.As(err, &cannot) || !strings.Contains(cannot.Why, "Inspect cannot select sample") {
			t.Errorf("id %q: %v; want a CannotRerun naming the sample", bad, err)
		}
	}
	if _, err := InspectSampleID("a`b,c"); err == nil || strings.Contains(err.Error(), "`") {
		t.Errorf("an id with a backtick: %v; want its backtick escaped for the report", err)
	}
}

// FuzzInspectSampleID: for any ids, either InspectSampleID refuses one, or Inspect reads
// the joined selectors back as exactly those ids.
func FuzzInspectSampleID(f *testing.F) {
	for _, s := range []string{"a", "refund window 03", "a,b", " x", `q"uote`, "\x1c", "é ", "\u00a0x"} {
		f.Add(s, "other")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		args, err := Expand(Command{"{ids}"}, ToolInspect, []string{a, b}, "o")
		if err != nil {
			var cannot *CannotRerun
			if !errors.As(err, &cannot) {
				t.Fatalf("ids %q, %q: %v; want a CannotRerun", a, b, err)
			}
			return
		}
		if got := inspectParse(args[0]); !slices.Equal(got, []string{a, b}) {
			t.Fatalf("ids %q, %q: Inspect reads %q back as %q", a, b, args[0], got)
		}
	})
}
