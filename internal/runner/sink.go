package runner

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
)

// sink writes Results as JSON lines, one Write per line, so a line is either whole in
// the file or absent, and nothing waits in a buffer when the run is interrupted.
type sink struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *sink) write(r Result) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("runner: item %q: %w", r.ID, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("runner: writing results: %w", err)
	}
	return nil
}
