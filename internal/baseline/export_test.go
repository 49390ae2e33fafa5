package baseline

// NewMemReader serves b, held in memory under the name file, as Open serves a file: the
// one comparison (Compare) reads it as it reads a file.
func NewMemReader(b *Baseline, file string) *Reader {
	v := *b
	head := v
	head.Items, head.Outputs = nil, nil
	return &Reader{path: file, v1: &v, head: &head, count: len(v.Items), outs: v.Outputs}
}

// Load reads a baseline file whole, its recorded outputs (inline or beside it) included.
func Load(path string) (*Baseline, error) { return load(path, true) }
