//go:build !race

package rubric

// raceEnabled: see race_on_test.go.
const raceEnabled = false
