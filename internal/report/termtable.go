package report

import (
	"strings"
)

// fit says how a terminal table's column gives way when the table is wider than the
// terminal. Borders are never cut, and neither are keep columns (item ids, numbers,
// statuses): a reader must be able to find the item.
type fit int

const (
	keep    fit = iota // never narrowed
	wrap               // wrapped onto at most maxWrapLines lines
	cut                // cut to one line, marked with "…"
	cutLeft            // cut from the left ("…/suite.yaml:94"): a path's end names the place
)

// maxWrapLines bounds a wrapped cell; the rest is cut, marked with "…".
const maxWrapLines = 3

// minColumn is the narrowest a column that gives way becomes.
const minColumn = 8

// column is one column of a terminal table.
type column struct {
	head string
	fit  fit
	// optional columns are left out when the table does not fit even with every other
	// column at its narrowest (the model output preview, for instance).
	optional bool
	// wholeWords keeps the column at least as wide as its longest word (up to
	// maxWholeWord), so names such as latency_e2e_p50_ms are not broken.
	wholeWords bool
}

// maxWholeWord bounds the width a wholeWords column insists on.
const maxWholeWord = 28

// termTable writes a bordered table with head as its columns, at their natural widths
// (the history and compare tables); fitTable fits a table to a width.
func termTable(b *strings.Builder, head []string, rows [][]string) {
	cols := make([]column, len(head))
	for i, h := range head {
		cols[i] = column{head: h}
	}
	fitTable(b, cols, rows, 0)
}

// fitTable writes a bordered table that fits in width display columns when its
// columns allow it: the widest column that may give way is narrowed first.
func fitTable(b *strings.Builder, cols []column, rows [][]string, width int) {
	cols, rows = dropOptional(cols, rows, width)
	widths := fitWidths(cols, rows, width)
	sep := separator(widths)
	b.WriteString(sep)
	heads := make([]string, len(cols))
	headCols := make([]column, len(cols))
	for i, c := range cols {
		heads[i] = c.head
		headCols[i] = column{head: c.head, fit: wrap} // a heading wraps, never cut
	}
	writeRow(b, headCols, widths, heads)
	b.WriteString(sep)
	for _, row := range rows {
		writeRow(b, cols, widths, row)
	}
	b.WriteString(sep)
}

// tableWidth is the width of a table whose columns are ws wide: "| " + cell + " " per
// column, and the closing "|".
func tableWidth(ws []int) int {
	total := 1
	for _, w := range ws {
		total += w + 3
	}
	return total
}

func naturalWidths(cols []column, rows [][]string) []int {
	ws := make([]int, len(cols))
	for i, c := range cols {
		ws[i] = displayWidth(c.head)
		for _, row := range rows {
			if i < len(row) {
				ws[i] = max(ws[i], displayWidth(row[i]))
			}
		}
	}
	return ws
}

// minWidths are the narrowest each column may become.
func minWidths(cols []column, natural []int, rows [][]string) []int {
	ws := make([]int, len(cols))
	for i, c := range cols {
		ws[i] = natural[i]
		if c.fit != keep {
			floor := max(minColumn, longestWord(c.head))
			if c.wholeWords {
				for _, row := range rows {
					if i < len(row) {
						floor = max(floor, min(maxWholeWord, longestWord(row[i])))
					}
				}
			}
			ws[i] = min(natural[i], floor)
		}
	}
	return ws
}

func longestWord(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		n = max(n, displayWidth(w))
	}
	return n
}

// dropOptional leaves out optional columns, last first, while the table cannot fit.
func dropOptional(cols []column, rows [][]string, width int) ([]column, [][]string) {
	for {
		if tableWidth(minWidths(cols, naturalWidths(cols, rows), rows)) <= width {
			return cols, rows
		}
		drop := -1
		for i, c := range cols {
			if c.optional {
				drop = i
			}
		}
		if drop < 0 {
			return cols, rows
		}
		cols = append(cols[:drop:drop], cols[drop+1:]...)
		out := make([][]string, len(rows))
		for j, row := range rows {
			if drop < len(row) {
				row = append(row[:drop:drop], row[drop+1:]...)
			}
			out[j] = row
		}
		rows = out
	}
}

// giveOrder is the order in which columns give way: paths first (their end names the
// place), then previews and wrapped text together.
var giveOrder = map[fit]int{cutLeft: 0, cut: 1, wrap: 1}

// comfortable is how narrow a column becomes before the others give way too: a path
// keeps its file name and line, a text a few words per line.
var comfortable = map[fit]int{cut: 16, wrap: 16, cutLeft: 24}

// fitWidths narrows columns one column at a time until the table fits: first down to
// a comfortable width, then to the narrowest. Each step narrows, among the columns that
// give way first, the one whose cells grow by the fewest lines (the widest on a tie).
func fitWidths(cols []column, rows [][]string, width int) []int {
	ws := naturalWidths(cols, rows)
	hard := minWidths(cols, ws, rows)
	soft := make([]int, len(ws))
	for i, c := range cols {
		soft[i] = max(hard[i], min(ws[i], comfortable[c.fit]))
	}
	for _, floor := range [][]int{soft, hard} {
		for tableWidth(ws) > width {
			pick, pickCost := -1, 0
			for i, c := range cols {
				if c.fit == keep || ws[i] <= floor[i] {
					continue
				}
				cost := columnHeight(c, rows, i, ws[i]-1) - columnHeight(c, rows, i, ws[i])
				switch {
				case pick < 0, giveOrder[c.fit] < giveOrder[cols[pick].fit]:
				case giveOrder[c.fit] > giveOrder[cols[pick].fit]:
					continue
				case cost > pickCost, cost == pickCost && ws[i] <= ws[pick]:
					continue
				}
				pick, pickCost = i, cost
			}
			if pick < 0 {
				break
			}
			ws[pick]--
		}
	}
	return ws
}

// columnHeight is the number of lines column i's cells (and head) take at width w.
func columnHeight(c column, rows [][]string, i, w int) int {
	lines := len(fitCell(column{fit: wrap}, c.head, w))
	for _, row := range rows {
		if i < len(row) {
			lines += len(fitCell(c, row[i], w))
		}
	}
	return lines
}

// fitCell is a cell's text in a column w wide: wrapped, cut, or as it is.
func fitCell(c column, text string, w int) []string {
	switch {
	case displayWidth(text) <= w:
		return []string{text}
	case c.fit == wrap:
		return wrapWidth(text, w, maxWrapLines)
	case c.fit == cutLeft:
		return []string{cutLeftWidth(text, w)}
	case c.fit == cut:
		return []string{cutWidth(text, w)}
	}
	return []string{text}
}

func separator(ws []int) string {
	var b strings.Builder
	b.WriteString("+")
	for _, w := range ws {
		b.WriteString(strings.Repeat("-", w+2) + "+")
	}
	return b.String() + "\n"
}

// writeRow writes one row, its cells fitted to their columns; a wrapped cell makes the
// row several lines high.
func writeRow(b *strings.Builder, cols []column, ws []int, row []string) {
	cells := make([][]string, len(cols))
	height := 1
	for i, c := range cols {
		text := ""
		if i < len(row) {
			text = row[i]
		}
		cells[i] = fitCell(c, text, ws[i])
		height = max(height, len(cells[i]))
	}
	for l := 0; l < height; l++ {
		b.WriteString("|")
		for i := range cols {
			text := ""
			if l < len(cells[i]) {
				text = cells[i][l]
			}
			b.WriteString(" " + text + strings.Repeat(" ", max(0, ws[i]-displayWidth(text))) + " |")
		}
		b.WriteString("\n")
	}
}
