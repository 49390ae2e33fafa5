package stats

// Unstable reports whether an item with this pass rate over several runs is unstable:
// it passed in some runs and failed in others (0 < passRate < 1). Items unstable in the
// baseline are shown apart and never counted as newly failing; MethodStable weights
// items unstable on either side by UnstableWeight.
func Unstable(passRate float64) bool { return passRate > 0 && passRate < 1 }
