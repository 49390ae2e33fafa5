package safeio

import "io"

// Bounded reads at most limit bytes from r; a read past them fails with over(), after
// returning the bytes within the limit. One byte past the limit is asked for, so a
// stream of exactly limit bytes ends with io.EOF and a longer one fails. For answers
// from the network (GitHub's API, a judge's or model's reply), whose size the sender
// decides.
func Bounded(r io.Reader, limit int64, over func() error) io.Reader {
	return &bounded{r: r, left: limit, over: over}
}

type bounded struct {
	r    io.Reader
	left int64
	over func() error
}

func (b *bounded) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, b.over()
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.r.Read(p)
	if b.left -= int64(n); b.left < 0 {
		return n + int(b.left), b.over()
	}
	return n, err
}
