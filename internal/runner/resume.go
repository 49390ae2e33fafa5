package runner

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/evalgate/evalgate/internal/safeio"
)

// Completed returns the ids in a results file written by Run, so a rerun after an
// interruption can skip them. A last line cut short by a kill is ignored, as is any
// line that is not a result.
func Completed(r io.Reader) (map[string]bool, error) {
	done := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), safeio.MaxLineBytes) // the results loader's bound for one record
	for sc.Scan() {
		var rec struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.ID != "" {
			done[rec.ID] = true
		}
	}
	return done, sc.Err()
}

// OpenResume opens (or creates) a results file to continue an interrupted run: it
// returns the ids already done and the file positioned at its end for appending. A
// last line without its newline (the run was killed mid-write) is cut off first, so
// the next line does not glue onto it.
func OpenResume(path string) (*os.File, map[string]bool, error) {
	f, err := safeio.OpenReadWrite(path, "results")
	if err != nil {
		return nil, nil, err
	}
	data, err := safeio.ReadAll(f, path, "results", safeio.MaxFileBytes)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	keep := int64(bytes.LastIndexByte(data, '\n') + 1)
	if keep != int64(len(data)) {
		if err := f.Truncate(keep); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("runner: %w", err)
		}
	}
	if _, err := f.Seek(keep, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("runner: %w", err)
	}
	done, err := Completed(bytes.NewReader(data[:keep]))
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("runner: %s: %w", path, err)
	}
	return f, done, nil
}

// CompletedFile is Completed on the file at path; a missing file has nothing done.
func CompletedFile(path string) (map[string]bool, error) {
	f, err := safeio.OpenIfExists(path, "results")
	if err != nil {
		return nil, err
	}
	if f == nil {
		return map[string]bool{}, nil
	}
	defer f.Close()
	done, err := Completed(f)
	if err != nil {
		return nil, fmt.Errorf("runner: %s: %w", path, err)
	}
	return done, nil
}
