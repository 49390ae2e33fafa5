package baseline

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/evalgate/evalgate/internal/safeio"
)

// Ext is the extension of the baseline files evalgate writes: a baseline is JSON Lines
// (a header line, then one line per item), which JSON tools and editors reject as
// .json. OldExt is the name earlier versions wrote; both are read.
const (
	Ext    = ".jsonl"
	OldExt = ".json"
)

// FileName is the name a baseline meant for path is written under: X.json becomes
// X.jsonl; any other name is kept.
func FileName(path string) string {
	if strings.HasSuffix(path, OldExt) {
		return path + "l"
	}
	return path
}

// OtherName is the other name of the same baseline: X.json ↔ X.jsonl; "" for another
// name.
func OtherName(path string) string {
	switch {
	case strings.HasSuffix(path, Ext):
		return strings.TrimSuffix(path, Ext) + OldExt
	case strings.HasSuffix(path, OldExt):
		return path + "l"
	}
	return ""
}

// stem is a baseline's file name without its .jsonl or .json extension: the name its
// outputs file and history are kept under.
func stem(path string) string {
	base := filepath.Base(path)
	if s, ok := strings.CutSuffix(base, Ext); ok {
		return s
	}
	return strings.TrimSuffix(base, OldExt)
}

// Find is the file to read for the baseline a config names at path. A refreshed
// baseline is written as X.jsonl while an older config may still name X.json (or a
// config names X.jsonl while the repository still holds X.json), so a name that does
// not exist falls back to the other one, and notice says so; X.jsonl, the name
// `evalgate baseline` writes, is read when both exist. Without either, found is path
// (the caller reports it missing).
func Find(path string) (found, notice string) {
	other := OtherName(path)
	if other == "" {
		return path, ""
	}
	_, errPath := os.Stat(path)
	_, errOther := os.Stat(other)
	switch {
	case errOther != nil:
		return path, ""
	case errPath == nil && strings.HasSuffix(path, Ext):
		return path, "" // the new name, with a stale old file beside it
	case errPath == nil:
		return other, "baseline " + path + " has a newer name, " + other + " (baselines are JSON Lines, written as .jsonl): reading it; delete " + path + " and set `baseline: " + filepath.Base(other) + "` in the config"
	case errors.Is(errPath, fs.ErrNotExist) && strings.HasSuffix(path, OldExt):
		return other, "baseline " + path + " is now " + other + " (baselines are JSON Lines, written as .jsonl): reading it; set `baseline: " + filepath.Base(other) + "` in the config"
	case errors.Is(errPath, fs.ErrNotExist):
		return other, "baseline " + path + " does not exist; reading " + other + ", its name before baselines were written as .jsonl"
	}
	return path, ""
}

// OldFile is the baseline file that writing a baseline at path (a name from FileName)
// replaces: X.json beside X.jsonl, when it exists and is a baseline by its header; ""
// otherwise.
func OldFile(path string) string {
	old := OtherName(path)
	if old == "" || !strings.HasSuffix(path, Ext) {
		return ""
	}
	if ok, err := IsBaselineFile(old); err != nil || !ok {
		return ""
	}
	return old
}

// sniffBytes bounds how much of a file IsBaselineFile reads: a header's first fields
// are in its first line, or the first lines of a version 1 file.
const sniffBytes = 64 << 10

// IsBaselineFile reports whether the file at path is a baseline, by its header (never
// by its name): a JSON object whose leading keys are all baseline fields and include
// schema_version, suite, scoringSystem and source, as every baseline version writes
// them. A report (whose first keys are the same but then come notices or metadata), a
// results file, a history file or anything else is not one. It reads at most 64 KiB.
// err is an error opening or reading the file.
func IsBaselineFile(path string) (bool, error) {
	f, err := safeio.Open(path, "baseline")
	if err != nil {
		return false, err
	}
	defer f.Close()
	head, err := io.ReadAll(io.LimitReader(f, sniffBytes))
	if err != nil {
		return false, err
	}
	return looksLikeBaseline(head), nil
}

// headerKeys are the JSON keys of a baseline header (version 2's first line, or a
// version 1 object).
var headerKeys = func() map[string]bool {
	keys := map[string]bool{}
	for _, t := range []reflect.Type{reflect.TypeFor[Baseline](), reflect.TypeFor[header]()} {
		for f := range t.Fields() {
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
				keys[name] = true
			}
		}
	}
	return keys
}()

// looksLikeBaseline reads the leading keys of the JSON object that starts data, until
// it has seen the four every baseline starts with, or a key no baseline has.
func looksLikeBaseline(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	need := map[string]bool{"schema_version": true, "suite": true, "scoringSystem": true, "source": true}
	for len(need) > 0 {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok || !headerKeys[key] {
			return false
		}
		delete(need, key)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return false
		}
	}
	return true
}
