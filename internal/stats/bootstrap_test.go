package stats

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPairedBootstrapIsReproducible: identical input gives an identical interval, bit
// for bit, and the seed is really used (another seed moves the ends).
func TestPairedBootstrapIsReproducible(t *testing.T) {
	t.Parallel()
	d := benchDiffs(300)
	keep := slices.Clone(d)
	first, err := PairedBootstrap(d, ResampleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	again, err := PairedBootstrap(d, ResampleOptions{Resamples: 10000, Level: 0.95, Seed1: 42, Seed2: 42})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first, again); diff != "" {
		t.Errorf("defaults and explicit (10000, 0.95, 42, 42) differ (-first +again):\n%s", diff)
	}
	other, err := PairedBootstrap(d, ResampleOptions{Seed1: 1, Seed2: 2})
	if err != nil {
		t.Fatal(err)
	}
	if other == first {
		t.Errorf("seed (1, 2) gave the same interval as (42, 42): %+v", first)
	}
	if diff := cmp.Diff(keep, d); diff != "" {
		t.Errorf("PairedBootstrap modified its input (-want +got):\n%s", diff)
	}
}

// TestPairedBootstrapDrawsWithUintN ties the bootstrap's inlined draw to uintN: one
// resample of 3 items from seed (42, 42) must be the mean of the three items uintN picks.
func TestPairedBootstrapDrawsWithUintN(t *testing.T) {
	t.Parallel()
	d := []float64{1, 10, 100}
	rng := newPCG(42, 42)
	var sum float64
	for range 3 {
		sum += d[uintN(&rng, 3)]
	}
	got, err := PairedBootstrap(d, ResampleOptions{Resamples: 1})
	if err != nil {
		t.Fatal(err)
	}
	// With one resample both ends are that resample's mean. The values 1, 10, 100 make
	// every multiset of three draws give a different sum.
	if want := sum / 3; got.Lo != want || got.Hi != want {
		t.Errorf("one resample gave [%v, %v]; uintN's draws give %v", got.Lo, got.Hi, want)
	}
}

func TestPairedBootstrapOneItem(t *testing.T) {
	t.Parallel()
	// Every resample of one item is that item: the interval collapses onto it.
	got, err := PairedBootstrap([]float64{-0.25}, ResampleOptions{Resamples: 50})
	if err != nil {
		t.Fatal(err)
	}
	if got != (Interval{Lo: -0.25, Hi: -0.25, Level: 0.95, Resamples: 50}) {
		t.Errorf("got %+v", got)
	}
}

func TestResamplingErrors(t *testing.T) {
	t.Parallel()
	one := []float64{0.1}
	tests := []struct {
		name    string
		run     func() error
		wantErr string
	}{
		{"bootstrap empty", func() error { _, err := PairedBootstrap(nil, ResampleOptions{}); return err }, "no paired differences"},
		{"bootstrap negative resamples", func() error { _, err := PairedBootstrap(one, ResampleOptions{Resamples: -1}); return err }, "resamples is -1"},
		{"bootstrap level 1", func() error { _, err := PairedBootstrap(one, ResampleOptions{Level: 1}); return err }, "confidence level is 1"},
		{"bootstrap level 95", func() error { _, err := PairedBootstrap(one, ResampleOptions{Level: 95}); return err }, "such as 0.95"},
		{"exact empty", func() error { _, err := ExactBootstrapCI(nil, 0.95); return err }, "no paired differences"},
		{"exact too big", func() error { _, err := ExactBootstrapCI(make([]float64, 8), 0.95); return err }, "8^8"},
		{"exact bad level", func() error { _, err := ExactBootstrapCI(one, 0); return err }, "confidence level is 0"},
		{"normal one value", func() error { _, err := NormalCI(one, 0.95); return err }, "at least two"},
		{"sign flip empty", func() error { _, err := SignFlipTest(nil, ResampleOptions{}); return err }, "no paired differences"},
	}
	for _, tt := range tests {
		err := tt.run()
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: error %v; want one containing %q", tt.name, err, tt.wantErr)
		}
	}
}
