package jsonenc

// AppendFloat appends f as encoding/json writes a float64; ok is false (dst unchanged)
// for NaN and infinities, which encoding/json refuses.
func AppendFloat(dst []byte, f float64) (out []byte, ok bool) { return appendFloat(dst, f) }
