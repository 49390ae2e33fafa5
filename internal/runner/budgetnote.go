package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/evalgate/evalgate/internal/safeio"
)

// BudgetNote records, beside a results file, that the run writing it was cut by its
// budget, so `evalgate check` can say so in its headline: the items it never ran are
// missing from the file, and missing items fail. A run that completes the file (a
// --resume with a larger budget) removes the note.
type BudgetNote struct {
	MaxCostUSD float64 `json:"max_cost_usd"`
	SpentUSD   float64 `json:"spent_usd"`
	NotRun     int     `json:"not_run"`
	Items      int     `json:"items"`
}

// maxNote bounds a note read back.
const maxNote = 4096

// BudgetNoteFile is the note's path for the results file at path.
func BudgetNoteFile(path string) string { return path + ".budget.json" }

// WriteBudgetNote writes the note beside the results file at path.
func WriteBudgetNote(path string, n BudgetNote) error {
	data, err := json.Marshal(n)
	if err != nil {
		return err
	}
	if err := os.WriteFile(BudgetNoteFile(path), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("runner: %w", err)
	}
	return nil
}

// RemoveBudgetNote removes the note of the results file at path, if there is one.
func RemoveBudgetNote(path string) error {
	if err := os.Remove(BudgetNoteFile(path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("runner: %w", err)
	}
	return nil
}

// ReadBudgetNote reads the note of the results file at path; nil when there is none.
func ReadBudgetNote(path string) (*BudgetNote, error) {
	data, err := safeio.ReadFileIfExists(BudgetNoteFile(path), "budget note", maxNote)
	if data == nil || err != nil {
		return nil, err
	}
	var n BudgetNote
	if json.Unmarshal(data, &n) != nil {
		return nil, fmt.Errorf("%s: not a budget note written by evalgate run; remove it", BudgetNoteFile(path))
	}
	return &n, nil
}
