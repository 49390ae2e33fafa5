package cli

import (
	"bytes"
	"flag"
	"strings"
	"testing"
)

// TestHelpValueNames renders every command's --help and checks what the flag package
// makes of each usage string: a bool flag shows no value name (a back-quoted word in its
// usage would read as one, `-settle rerun:`), a value name is one placeholder word (not
// flag.Func's stand-in "value"), and no back quote is left in the text.
func TestHelpValueNames(t *testing.T) {
	var sets []*flag.FlagSet
	flagSetMade = func(fs *flag.FlagSet) { sets = append(sets, fs) }
	defer func() { flagSetMade = nil }()
	for _, cmd := range commands() {
		if cmd.name == "action" {
			continue // reads INPUT_* variables, no flags
		}
		var out bytes.Buffer
		c := &CLI{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}
		before := len(sets)
		if code := c.Main([]string{"evalgate", cmd.name, "-h"}); code != ExitPass {
			t.Errorf("%s -h: exit %d\n%s", cmd.name, code, out.String())
		}
		if len(sets) == before {
			t.Errorf("%s -h printed no flags:\n%s", cmd.name, out.String())
			continue
		}
		fs := sets[len(sets)-1]
		fs.VisitAll(func(f *flag.Flag) {
			name, usage := flag.UnquoteUsage(f)
			if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() && name != "" {
				t.Errorf("%s -%s is a bool flag but its help shows a value name %q", cmd.name, f.Name, name)
			}
			if name == "value" { // flag.Func's stand-in: the usage names no `placeholder`
				t.Errorf("%s -%s: its help shows the value name %q; name it with a back-quoted word in its usage", cmd.name, f.Name, name)
			}
			if strings.ContainsAny(name, " :()") {
				t.Errorf("%s -%s: value name %q is not one placeholder word", cmd.name, f.Name, name)
			}
			if strings.Contains(usage, "`") {
				t.Errorf("%s -%s: a back quote is left in its help: %s", cmd.name, f.Name, usage)
			}
		})
	}
}

// TestHelpSaysWhatTheCommandDoes checks that every command's -h says, under its usage
// line, what the command does: a sentence, not only the note on results arguments or
// the flags.
func TestHelpSaysWhatTheCommandDoes(t *testing.T) {
	for _, cmd := range commands() {
		help := helpOf(t, cmd.name, "-h")
		lines := strings.Split(help, "\n")
		if len(lines) < 3 || !strings.HasPrefix(lines[0], "Usage: evalgate "+cmd.name) || lines[1] != "" {
			t.Errorf("%s -h does not open with its usage line and a blank line:\n%s", cmd.name, help)
			continue
		}
		if about := lines[2]; about == "" || strings.HasPrefix(about, "  -") || strings.HasPrefix(about, "Results files may also") {
			t.Errorf("%s -h says nothing of what the command does under its usage line:\n%s", cmd.name, help)
		}
	}
}

// helpOf runs evalgate with args (a help flag among them) and returns what it printed,
// stdout and stderr together; an exit other than 0 is an error.
func helpOf(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	c := &CLI{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}
	if code := c.Main(append([]string{"evalgate"}, args...)); code != ExitPass {
		t.Errorf("evalgate %s: exit %d", strings.Join(args, " "), code)
	}
	return out.String()
}
