package cli

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// finiteFloat is a float flag that refuses NaN and the infinities when parsed, with
// exit 2: flag's Float64 takes them, and a NaN compares false with everything, so a
// check such as `cost > max` would never stop. Ranges are each flag's own check.
type finiteFloat float64

func (f *finiteFloat) String() string { return strconv.FormatFloat(float64(*f), 'g', -1, 64) }

func (f *finiteFloat) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%q is not a finite number", s)
	}
	*f = finiteFloat(v)
	return nil
}

// floatVar defines a float flag as fs.Float64Var does, refusing NaN and infinities.
func floatVar(fs *flag.FlagSet, p *float64, name string, value float64, usage string) {
	*p = value
	fs.Var((*finiteFloat)(p), name, usage)
}
