package cli

import (
	"testing"

	"github.com/evalgate/evalgate/internal/report"
)

func TestTerminalFor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		env      map[string]string
		tty      bool
		ttyWidth int
		want     report.Terminal
	}{
		{"a pipe: unwrapped, no colour", nil, false, 0, report.Terminal{Width: report.Unwrapped}},
		{"a terminal of unknown size: 80 columns", nil, true, 0, report.Terminal{Width: 80, Color: true}},
		{"COLUMNS in a pipe", map[string]string{"COLUMNS": "100"}, false, 0, report.Terminal{Width: 100}},
		{"COLUMNS wins over the terminal", map[string]string{"COLUMNS": "120"}, true, 200, report.Terminal{Width: 120, Color: true}},
		{"the terminal's width", nil, true, 132, report.Terminal{Width: 132, Color: true}},
		{"COLUMNS not a number", map[string]string{"COLUMNS": "wide"}, false, 0, report.Terminal{Width: report.Unwrapped}},
		{"NO_COLOR on a terminal", map[string]string{"NO_COLOR": "1"}, true, 100, report.Terminal{Width: 100}},
		{"NO_COLOR empty is unset", map[string]string{"NO_COLOR": ""}, true, 100, report.Terminal{Width: 100, Color: true}},
		{"CLICOLOR_FORCE in a pipe", map[string]string{"CLICOLOR_FORCE": "1"}, false, 0, report.Terminal{Width: report.Unwrapped, Color: true}},
		{"CLICOLOR_FORCE=0", map[string]string{"CLICOLOR_FORCE": "0"}, false, 0, report.Terminal{Width: report.Unwrapped}},
		{"NO_COLOR beats CLICOLOR_FORCE", map[string]string{"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}, false, 0, report.Terminal{Width: report.Unwrapped}},
	}
	for _, tt := range tests {
		got := terminalFor(func(k string) string { return tt.env[k] }, tt.tty, tt.ttyWidth)
		if got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
