package github

import (
	"strings"
	"unicode/utf8"
)

// GitHub's size limits. Lengths are measured in bytes, which is never less than
// GitHub's count of characters, so a text that fits here fits there.
const (
	// maxCommentLength: an issue comment body must be shorter than this
	// ("body is too long (maximum is 65536 characters)").
	// https://docs.github.com/rest/issues/comments#create-an-issue-comment
	maxCommentLength = 65536
	// maxCheckOutputLength: a check run's output.summary and output.text hold at most
	// this many characters each.
	// https://docs.github.com/rest/checks/runs#update-a-check-run
	maxCheckOutputLength = 65535
)

// TruncationNote ends a comment or check summary that did not fit GitHub's limits.
const TruncationNote = "\n\n---\n:warning: **Truncated** to fit GitHub's size limit. " +
	"The full report is in the job summary and in the report file " +
	"(see [docs/action.md](https://github.com/evalgate/evalgate/blob/main/docs/action.md#size-limits)).\n"

// Truncate returns s if it is at most limit bytes long; otherwise the longest prefix
// that fits with note appended, cut at a line end where one is near, with open code
// fences and <details> blocks closed so the note renders.
func Truncate(s string, limit int, note string) string {
	if len(s) <= limit {
		return s
	}
	if len(note) >= limit {
		return note[:max(limit, 0)]
	}
	cut := limit - len(note)
	for {
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		// A whole line reads better than half a table row, if little is lost.
		if nl := strings.LastIndexByte(s[:cut], '\n'); nl >= 0 && cut-nl < 4096 {
			cut = nl
		}
		closers := closeBlocks(s[:cut])
		if over := cut + len(closers) + len(note) - limit; over > 0 {
			cut = max(cut-over, 0)
			continue
		}
		return s[:cut] + closers + note
	}
}

// closeBlocks returns what closes the code fence and <details> blocks md leaves open.
func closeBlocks(md string) string {
	var b strings.Builder
	if strings.Count(md, "```")%2 == 1 {
		b.WriteString("\n```")
	}
	for range strings.Count(md, "<details") - strings.Count(md, "</details>") {
		b.WriteString("\n</details>")
	}
	return b.String()
}
