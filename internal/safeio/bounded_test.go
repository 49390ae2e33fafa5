package safeio

import (
	"errors"
	"io"
	"strings"
	"testing"
)

var errOver = errors.New("over")

// A stream of exactly the limit reads whole and ends; one byte more fails, after the
// bytes within the limit have been returned.
func TestBounded(t *testing.T) {
	over := func() error { return errOver }
	b, err := io.ReadAll(Bounded(strings.NewReader("12345"), 5, over))
	if err != nil || string(b) != "12345" {
		t.Errorf("exactly the limit: %q, %v; want 12345, nil", b, err)
	}
	b, err = io.ReadAll(Bounded(strings.NewReader("123456"), 5, over))
	if !errors.Is(err, errOver) || string(b) != "12345" {
		t.Errorf("one byte over: %q, %v; want 12345 and the over error", b, err)
	}
	// A reader handing out one byte at a time: the bound holds across reads.
	b, err = io.ReadAll(Bounded(io.MultiReader(strings.NewReader("12"), strings.NewReader("34"), strings.NewReader("5")), 4, over))
	if !errors.Is(err, errOver) || string(b) != "1234" {
		t.Errorf("across reads: %q, %v; want 1234 and the over error", b, err)
	}
}
