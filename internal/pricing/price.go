package pricing

// UnmarshalYAML reads a price, noting a rate left out (checkModels refuses it): a
// missing input or output rate would price those tokens at $0, less than the truth (a
// free model says 0).
func (p *Price) UnmarshalYAML(unmarshal func(any) error) error {
	type plain Price
	if err := unmarshal((*plain)(p)); err != nil {
		return err
	}
	var keys map[string]any
	if err := unmarshal(&keys); err != nil {
		return err
	}
	for _, k := range []string{"input", "output"} {
		if _, ok := keys[k]; !ok && p.missing == "" {
			p.missing = k
		}
	}
	return nil
}
