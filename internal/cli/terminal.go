package cli

import (
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"

	"github.com/evalgate/evalgate/internal/report"
)

// terminal says how a table report is shown on w (stdout, or stderr for the headline
// of a report written to a file).
func (c *CLI) terminal(w io.Writer) report.Terminal {
	isTTY, ttyWidth := false, 0
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		isTTY = true
		if w, _, err := term.GetSize(int(f.Fd())); err == nil {
			ttyWidth = w
		}
	}
	return terminalFor(c.Getenv, isTTY, ttyWidth)
}

// terminalFor decides the width and colours: the width is $COLUMNS, else the
// terminal's, else report.DefaultWidth on a terminal whose size is unknown; when stdout
// is not a terminal (a CI log, a pipe, a file), lines are left unwrapped. Colours are on when stdout is a terminal or
// CLICOLOR_FORCE is set (to anything but 0), and off whenever NO_COLOR is set and not
// empty (https://no-color.org).
func terminalFor(getenv func(string) string, isTTY bool, ttyWidth int) report.Terminal {
	t := report.Terminal{Width: report.DefaultWidth}
	if n, err := strconv.Atoi(strings.TrimSpace(getenv("COLUMNS"))); err == nil && n > 0 {
		t.Width = n
	} else if isTTY && ttyWidth > 0 {
		t.Width = ttyWidth
	} else if !isTTY {
		t.Width = report.Unwrapped
	}
	force := getenv("CLICOLOR_FORCE")
	t.Color = (isTTY || (force != "" && force != "0")) && getenv("NO_COLOR") == ""
	return t
}
