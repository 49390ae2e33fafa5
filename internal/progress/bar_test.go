package progress

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPlainLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		total int
		adds  []int
		want  []string
	}{
		{
			// 25 tasks: a line every ceil(25/10) = 3 tasks, then the final line.
			name:  "one at a time",
			total: 25,
			adds:  repeat(1, 25),
			want: []string{
				"judge: 3/25 (12%)", "judge: 6/25 (24%)", "judge: 9/25 (36%)",
				"judge: 12/25 (48%)", "judge: 15/25 (60%)", "judge: 18/25 (72%)",
				"judge: 21/25 (84%)", "judge: 24/25 (96%)", "judge: 25/25 (100%)",
			},
		},
		{
			// A jump over several steps prints one line, not one per step crossed.
			name:  "big jumps",
			total: 10,
			adds:  []int{7, 3},
			want:  []string{"judge: 7/10 (70%)", "judge: 10/10 (100%)"},
		},
		{
			name:  "nothing to do",
			total: 0,
			want:  []string{"judge: 0/0 (100%)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			p := NewBar(&buf, func() bool { return false }, "judge", tt.total)
			for _, n := range tt.adds {
				p.Add(n)
			}
			p.Finish()
			p.Finish() // a second Finish must not print again
			got := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTerminalDrawsBar(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	p := NewBar(&buf, func() bool { return true }, "judge", 4)
	p.Add(4)
	p.Finish()
	// The bar shows the count as "4/4"; plain mode would print "(100%)" instead.
	if out := buf.String(); !strings.Contains(out, "4/4") || strings.Contains(out, "(100%)") {
		t.Errorf("terminal output = %q; want a progress bar showing 4/4", out)
	}
}

func TestNilIsSilent(t *testing.T) {
	t.Parallel()
	var p *Bar
	p.Add(1) // must not panic
	p.Finish()
}

func repeat(v, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}
