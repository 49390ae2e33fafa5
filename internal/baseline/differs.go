package baseline

// Differs says the candidate differs from the baseline: the mean score or a dimension's
// moved, or an item flipped. No comparison (nil) counts as changed, since nothing says
// it is the same.
func (c *Comparison) Differs() bool {
	if c == nil {
		return true
	}
	changed := c.Delta != 0 || len(c.NewlyFailing)+len(c.NewlyPassing) > 0
	for _, d := range c.Dimensions {
		changed = changed || d.Delta != 0
	}
	return changed
}
