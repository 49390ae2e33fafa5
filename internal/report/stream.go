package report

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
)

// KeepAllItems is the suite size up to which a streamed report keeps every item in
// memory for the table and markdown renderers. Above it the JSON report still lists
// every item (streamed from a temporary file) and the renderers get the failing items,
// at most MaxKeptFailing of them, worst first.
const KeepAllItems = 10000

// MaxKeptFailing bounds the failing items kept in memory for a large suite.
const MaxKeptFailing = 10000

// ItemStream holds a streamed report's items outside memory: what each item's first
// sample said (prompt, reference, output, per-sample fields, notes) is written to a
// temporary file while the output is still in memory, and each finished item's JSON
// to another. The JSON writer copies them into the report; nothing else is held but
// offsets and the failing items the renderers list.
type ItemStream struct {
	sys    *rubric.System
	detail *os.File // first-sample fragments, by offset
	off    []int64
	size   []int32
	dw     *bufio.Writer
	dpos   int64
	items  *os.File // the finished items, indented for the report
	iw     *bufio.Writer
	count  int
	buf    bytes.Buffer
}

// NewItemStream opens the temporary files (removed at once; they live while open).
func NewItemStream(sys *rubric.System) (*ItemStream, error) {
	d, err := tempFile()
	if err != nil {
		return nil, err
	}
	it, err := tempFile()
	if err != nil {
		d.Close()
		return nil, err
	}
	return &ItemStream{sys: sys, detail: d, dw: bufio.NewWriterSize(d, 1<<20), items: it, iw: bufio.NewWriterSize(it, 1<<20)}, nil
}

func tempFile() (*os.File, error) {
	f, err := os.CreateTemp("", "evalgate-items-*")
	if err != nil {
		return nil, fmt.Errorf("report: temporary file for the items: %w", err)
	}
	os.Remove(f.Name())
	return f, nil
}

// Close releases the temporary files.
func (s *ItemStream) Close() error {
	s.detail.Close()
	return s.items.Close()
}

// detailParts are the pre-rendered JSON of what an item's first sample said.
type detailParts struct {
	prompt, expected, got json.RawMessage
	sample                []KV // values are json.RawMessage
	notes                 json.RawMessage
}

// First records item i's first sample (sm nil: no run has a result for it). It is a
// rubric.ScoreOptions.OnFirst.
func (s *ItemStream) First(i int, it *eval.Item, sm *rubric.Sample) error {
	var d Item
	d.Prompt, d.Expected = it.Prompt, expectedOf(it, s.sys)
	if sm != nil {
		if sm.Result != nil {
			d.Got = sm.Result.Output
			d.Sample = sampleFields(sm.Result)
		}
		for k, dim := range s.sys.Dimensions {
			if k < len(sm.Values) && sm.Values[k].Note != "" {
				if d.Notes == nil {
					d.Notes = map[string]string{}
				}
				d.Notes[dim.Name] = sm.Values[k].Note
			}
		}
	}
	b := &s.buf
	b.Reset()
	// Layout: a JSON array [prompt, expected, got, {sample fields in order as [k, v] pairs}, notes].
	b.WriteByte('[')
	for _, v := range []any{d.Prompt, d.Expected, d.Got} {
		vb, err := marshal(v)
		if err != nil {
			return err
		}
		b.Write(vb)
		b.WriteByte(',')
	}
	b.WriteByte('[')
	for k, kv := range d.Sample {
		if k > 0 {
			b.WriteByte(',')
		}
		kb, _ := marshal(kv.Key)
		vb, err := marshal(kv.Value)
		if err != nil {
			return err
		}
		b.WriteByte('[')
		b.Write(kb)
		b.WriteByte(',')
		b.Write(vb)
		b.WriteByte(']')
	}
	b.WriteString("],")
	nb, err := marshal(d.Notes)
	if err != nil {
		return err
	}
	b.Write(nb)
	b.WriteByte(']')
	for len(s.off) <= i {
		s.off = append(s.off, -1)
		s.size = append(s.size, 0)
	}
	s.off[i], s.size[i] = s.dpos, int32(b.Len())
	n, err := s.dw.Write(b.Bytes())
	s.dpos += int64(n)
	if err != nil {
		return fmt.Errorf("report: writing the items: %w", err)
	}
	return nil
}

// parts reads back item i's first-sample fragments.
func (s *ItemStream) parts(i int) (detailParts, error) {
	var p detailParts
	if i >= len(s.off) || s.off[i] < 0 {
		return p, fmt.Errorf("report: item %d has no recorded sample", i)
	}
	raw := make([]byte, s.size[i])
	if _, err := s.detail.ReadAt(raw, s.off[i]); err != nil {
		return p, fmt.Errorf("report: reading the items back: %w", err)
	}
	var arr []json.RawMessage
	if err := json.Unmarshal(raw, &arr); err != nil || len(arr) != 5 {
		return p, fmt.Errorf("report: item %d: bad fragment", i)
	}
	p.prompt, p.expected, p.got, p.notes = arr[0], arr[1], arr[2], arr[4]
	var pairs [][2]json.RawMessage
	if err := json.Unmarshal(arr[3], &pairs); err != nil {
		return p, fmt.Errorf("report: item %d: bad fragment", i)
	}
	for _, kv := range pairs {
		var k string
		_ = json.Unmarshal(kv[0], &k)
		p.sample = append(p.sample, KV{k, kv[1]})
	}
	return p, nil
}

// streamed is what Build takes from an ItemStream: counts, kept items, the items' JSON.
type streamed struct {
	passed           int
	missing, pending []string
	kept             []Item
	stream           *ItemStream
}

// build renders every item of sc to the items file, in suite order, and keeps the
// items the renderers need.
func (s *ItemStream) build(sc *rubric.Scored) (*streamed, error) {
	if err := s.dw.Flush(); err != nil {
		return nil, fmt.Errorf("report: writing the items: %w", err)
	}
	out := &streamed{stream: s, missing: []string{}}
	keepAll := sc.NumItems() <= KeepAllItems
	var worst failHeap
	var line bytes.Buffer
	err := sc.EachItem(func(i int, is *rubric.ItemScore) error {
		p, err := s.parts(i)
		if err != nil {
			return err
		}
		it := buildItem(sc, is, nil)
		it.pre = &p
		if it.Pass {
			out.passed++
		}
		if it.Missing {
			out.missing = append(out.missing, it.ID)
		}
		if it.Pending {
			out.pending = append(out.pending, it.ID)
		}
		js, err := it.MarshalJSON()
		if err != nil {
			return err
		}
		line.Reset()
		if s.count > 0 {
			line.WriteString(",\n    ")
		}
		if err := json.Indent(&line, js, "    ", "  "); err != nil {
			return err
		}
		if _, err := s.iw.Write(line.Bytes()); err != nil {
			return fmt.Errorf("report: writing the items: %w", err)
		}
		s.count++
		switch {
		case keepAll:
			out.kept = append(out.kept, it.materialize())
		case !it.Pass:
			heap.Push(&worst, ranked{it.materialize(), i})
			if worst.Len() > MaxKeptFailing {
				heap.Pop(&worst)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := s.iw.Flush(); err != nil {
		return nil, fmt.Errorf("report: writing the items: %w", err)
	}
	if !keepAll {
		sort.Slice(worst, func(a, b int) bool { return worst[a].idx < worst[b].idx })
		for _, r := range worst {
			out.kept = append(out.kept, r.item)
		}
	}
	return out, nil
}

// writeItems copies the items' JSON into w.
func (s *ItemStream) writeItems(w io.Writer) error {
	if _, err := s.items.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w, s.items)
	return err
}

// materialize decodes the pre-rendered parts an in-memory renderer reads.
func (it Item) materialize() Item {
	p := it.pre
	if p == nil {
		return it
	}
	_ = json.Unmarshal(p.prompt, &it.Prompt)
	_ = json.Unmarshal(p.expected, &it.Expected)
	_ = json.Unmarshal(p.got, &it.Got)
	_ = json.Unmarshal(p.notes, &it.Notes)
	for _, kv := range p.sample {
		var v any
		_ = json.Unmarshal(kv.Value.(json.RawMessage), &v)
		it.Sample = append(it.Sample, KV{kv.Key, v})
	}
	it.pre = nil
	return it
}

// ranked is a failing item and its suite position; failHeap keeps the lowest scores
// (the heap's top is the best of the kept, dropped first; ties keep the earlier item).
type ranked struct {
	item Item
	idx  int
}

type failHeap []ranked

func (h failHeap) Len() int { return len(h) }
func (h failHeap) Less(a, b int) bool {
	if h[a].item.Score != h[b].item.Score {
		return h[a].item.Score > h[b].item.Score
	}
	return h[a].idx > h[b].idx
}
func (h failHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *failHeap) Push(x any)   { *h = append(*h, x.(ranked)) }
func (h *failHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
