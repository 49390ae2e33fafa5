package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/evalgate/evalgate/internal/safeio"
)

// cacheVersion is part of every key; bump it when the entry format or the meaning of
// a verdict changes, and every old entry becomes a miss.
const cacheVersion = 1

// cacheKey is the content address of a verdict: SHA-256 over the model, the template
// hash, the generation parameters and every input the prompt is made of. The base URL
// is left out on purpose, so a replay cache made against one endpoint answers in a CI
// job that has none. A re-run's draw (Request.Draw) is part of the key; a full run's
// (0) is left out, so its keys are those of earlier versions.
func cacheKey(model, templateHash string, p Params, r Request) string {
	b, _ := json.Marshal(struct {
		Version         int    `json:"v"`
		Model           string `json:"model"`
		Template        string `json:"template"`
		Params          Params `json:"params"`
		Task            string `json:"task"`
		ReferenceAnswer string `json:"reference_answer"`
		ProvidedContext string `json:"provided_context"`
		CandidateAnswer string `json:"candidate_answer"`
		Draw            int    `json:"draw,omitempty"`
	}{cacheVersion, model, templateHash, p, r.Task, r.ReferenceAnswer, r.ProvidedContext, r.CandidateAnswer, r.Draw})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// cacheEntry is one file of the cache. Item and Template are there for people reading
// the cache, not for lookup.
type cacheEntry struct {
	Key      string   `json:"key"`
	Item     string   `json:"item"`
	Template string   `json:"template"`
	Model    string   `json:"model"`
	Judgment Judgment `json:"verdict"`
}

// diskCache stores one JSON file per key under dir/ab/abcdef….json; the two-letter
// directories keep any one directory small.
type diskCache struct {
	dir string
}

func (c *diskCache) path(key string) string {
	return filepath.Join(c.dir, key[:2], key+".json")
}

// get returns the cached verdict for key. A missing file is a miss; an unreadable or
// corrupt one is an error, since silently re-judging would hide a broken cache.
func (c *diskCache) get(key string) (Judgment, bool, error) {
	if _, err := os.Stat(c.path(key)); errors.Is(err, fs.ErrNotExist) {
		return Judgment{}, false, nil
	}
	data, err := safeio.ReadFile(c.path(key), "judge cache", safeio.MaxSmallFileBytes)
	if err != nil {
		return Judgment{}, false, fmt.Errorf("judge cache: %w", err)
	}
	if err := safeio.CheckJSONDepth(c.path(key), data, 1); err != nil {
		return Judgment{}, false, fmt.Errorf("judge cache: %w", err)
	}
	var e cacheEntry
	if err := json.Unmarshal(data, &e); err != nil || e.Key != key {
		return Judgment{}, false, fmt.Errorf("judge cache: %s is corrupt (delete it to re-judge): %v", c.path(key), err)
	}
	return e.Judgment, true, nil
}

// put writes an entry atomically: a temporary file in the same directory, renamed over
// the final name, so a reader or a killed run never sees half a file.
func (c *diskCache) put(e cacheEntry) error {
	p := c.path(e.Key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("judge cache: %w", err)
	}
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return fmt.Errorf("judge cache: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return fmt.Errorf("judge cache: %w", err)
	}
	_, werr := f.Write(append(data, '\n'))
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("judge cache: %w", err)
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("judge cache: %w", err)
	}
	return nil
}
