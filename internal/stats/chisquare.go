package stats

import "math"

// ChiSquareQuantile is the p-quantile of the chi-square distribution with nu degrees
// of freedom, by bisection on its distribution function.
func ChiSquareQuantile(p, nu float64) float64 {
	lo, hi := 0.0, math.Max(1, nu)
	for ChiSquareCDF(hi, nu) < p {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if ChiSquareCDF(mid, nu) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// ChiSquareCDF is the chi-square distribution function with nu degrees of freedom:
// the regularized lower incomplete gamma P(nu/2, x/2).
func ChiSquareCDF(x, nu float64) float64 {
	if x <= 0 {
		return 0
	}
	return regLowerGamma(nu/2, x/2)
}

// regLowerGamma is P(a, x), by its series for x < a + 1 and its continued fraction
// (Lentz's method) beyond.
func regLowerGamma(a, x float64) float64 {
	lg, _ := math.Lgamma(a)
	if x < a+1 {
		sum, term := 1/a, 1/a
		for n := 1; n < 1000; n++ {
			term *= x / (a + float64(n))
			sum += term
			if math.Abs(term) < math.Abs(sum)*1e-15 {
				break
			}
		}
		return sum * math.Exp(-x+a*math.Log(x)-lg)
	}
	const tiny = 1e-300
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 1000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return 1 - math.Exp(-x+a*math.Log(x)-lg)*h
}
