package report

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/topk"
)

// KeepAllItems is the suite size up to which a streamed report keeps every item in
// memory for the table and markdown renderers. Above it the JSON report still lists
// every item (rendered as it is written) and the renderers get the failing items,
// at most MaxKeptFailing of them, worst first.
const KeepAllItems = 10000

// MaxKeptFailing bounds the failing items kept in memory for a large suite.
const MaxKeptFailing = 10000

// ItemStream holds a streamed report's items outside memory: what each item's first
// sample said (prompt, reference, output, per-sample fields, notes) is written to a
// temporary file while the output is still in memory. The JSON writer renders each
// item from its scores and those parts straight into the report; nothing else is held
// but offsets and the failing items the renderers list.
type ItemStream struct {
	sys    *rubric.System
	detail *os.File // first-sample fragments, by offset
	off    []int64
	size   []int32
	// failing holds, for an item whose first sample passed, its first failing sample's
	// parts (PutFailingCaptured): what the report shows of the item when it fails.
	failing map[int]span
	dw      *bufio.Writer
	dpos    int64
	sc      *rubric.Scored // the scores, once built
	// first and fail read the captured parts back: the first samples' parts and the
	// failing ones' were written each in suite order, so each reader goes forward.
	first, fail partReader
}

// partReader reads captured parts back from the temporary file, forward.
type partReader struct {
	rd  *bufio.Reader
	pos int64
}

// read reads the parts at at into raw (of their size); end is the file's size.
func (p *partReader) read(f *os.File, end int64, raw []byte, at span) ([]byte, error) {
	if gap := at.off - p.pos; p.rd != nil && gap > 0 && gap <= int64(p.rd.Buffered()) {
		_, _ = p.rd.Discard(int(gap)) // within the buffer: skip ahead, no new read
		p.pos = at.off
	}
	if p.rd == nil || p.pos != at.off {
		sr := io.NewSectionReader(f, at.off, end-at.off)
		if p.rd == nil {
			p.rd = bufio.NewReaderSize(sr, 1<<16)
		} else {
			p.rd.Reset(sr) // keeps its buffer
		}
		p.pos = at.off
	}
	if _, err := io.ReadFull(p.rd, raw); err != nil {
		return nil, fmt.Errorf("report: reading the items back: %w", err)
	}
	p.pos += int64(len(raw))
	return raw, nil
}

// NewItemStream opens the temporary file (removed at once; it lives while open).
func NewItemStream(sys *rubric.System) (*ItemStream, error) {
	d, err := tempFile()
	if err != nil {
		return nil, err
	}
	return &ItemStream{sys: sys, detail: d, dw: bufio.NewWriterSize(d, 1<<16)}, nil
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
	return s.detail.Close()
}

// detailParts are the pre-rendered JSON of what an item's first sample said.
type detailParts struct {
	prompt, expected, got json.RawMessage
	sample                []KV // values are json.RawMessage
	notes                 json.RawMessage
}

// Capture renders what the report needs of an item's first sample (sm nil: no run has
// a result for it): its prompt, reference, output, per-sample fields and notes. It is
// rubric.ScoreOptions.Capture and safe to call in parallel.
func (s *ItemStream) Capture(it *eval.Item, sm *rubric.Sample) ([]byte, error) {
	var d Item
	var res *eval.Result
	if sm != nil {
		res = sm.Result
	}
	d.Prompt, d.Expected = it.Prompt, expectedOf(it, res, s.sys)
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
	// Layout: uvarint-prefixed prompt, expected, got and notes JSON, then the number of
	// sample fields and each key and value JSON.
	b := getBuf(len(d.Prompt) + len(d.Got) + len(d.Got)/8 + 256) // room for escapes and the rest
	var err error
	for _, v := range []any{d.Prompt, d.Expected, d.Got} {
		if b, err = appendPart(b, v); err != nil {
			return nil, err
		}
	}
	if d.Notes == nil {
		b = binary.AppendUvarint(b, 0)
	} else if b, err = appendPart(b, d.Notes); err != nil {
		return nil, err
	}
	b = binary.AppendUvarint(b, uint64(len(d.Sample)))
	for _, kv := range d.Sample {
		b = binary.AppendUvarint(b, uint64(len(kv.Key)))
		b = append(b, kv.Key...)
		if b, err = appendPart(b, kv.Value); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// Put stores item i's captured parts (rubric.ScoreOptions.OnFirst), in any order.
func (s *ItemStream) Put(i int, b []byte) error {
	for len(s.off) <= i {
		s.off = append(s.off, -1)
		s.size = append(s.size, 0)
	}
	s.off[i], s.size[i] = s.dpos, int32(len(b))
	n, err := s.dw.Write(b)
	s.dpos += int64(n)
	if err != nil {
		return fmt.Errorf("report: writing the items: %w", err)
	}
	return nil
}

// span is where an item's captured parts are in the temporary file.
type span struct {
	off     int64
	size    int32
	failing bool // a failing sample's parts (PutFailingCaptured)
}

// PutFailingCaptured stores item i's first failing sample's parts, captured after a
// first sample that passed (rubric.ScoreOptions.OnFirstFailing), and recycles them: a
// failing item shows a run that failed (its output, its notes), not a passing one.
func (s *ItemStream) PutFailingCaptured(i int, b []byte) error {
	defer putBuf(b)
	if s.failing == nil {
		s.failing = map[int]span{}
	}
	s.failing[i] = span{s.dpos, int32(len(b)), true}
	n, err := s.dw.Write(b)
	s.dpos += int64(n)
	if err != nil {
		return fmt.Errorf("report: writing the items: %w", err)
	}
	return nil
}

// at is where item i's parts to show are: its first failing sample's when it has one
// and the item fails over its runs, else its first sample's.
func (s *ItemStream) at(i int) (span, bool) {
	if i >= len(s.off) || s.off[i] < 0 {
		return span{}, false
	}
	if f, ok := s.failing[i]; ok && s.sc != nil {
		if pass, _, _, _ := s.sc.ItemStatus(i); !pass {
			return f, true
		}
	}
	return span{s.off[i], s.size[i], false}, true
}

// PutCaptured is Put for the bytes Capture returned, which it then recycles (the
// caller keeps no reference to them): rubric.ScoreOptions.OnFirst beside Capture.
func (s *ItemStream) PutCaptured(i int, b []byte) error {
	err := s.Put(i, b)
	putBuf(b)
	return err
}

// freeBufs recycles the byte buffers an item passes through: captured parts from
// Capture to PutCaptured, a chunk's parts read back and its rendered JSON. A short
// list under a lock, not a sync.Pool: putting a slice into a Pool allocates its
// header, once per item.
var freeBufs struct {
	sync.Mutex
	list [][]byte
}

// getBuf is an empty buffer of at least n bytes' capacity.
func getBuf(n int) []byte {
	freeBufs.Lock()
	defer freeBufs.Unlock()
	l := freeBufs.list
	for k := len(l) - 1; k >= 0; k-- { // the latest one that fits
		if b := l[k]; cap(b) >= n {
			l[k] = l[len(l)-1]
			l[len(l)-1] = nil
			freeBufs.list = l[:len(l)-1]
			return b[:0]
		}
	}
	size := 1 << 10 // capacities in powers of two, so that buffers fit the next request
	for size < n {
		size *= 2
	}
	return make([]byte, 0, size)
}

// putBuf recycles b (a huge one is left to the collector, and so are buffers past
// the few the pipeline has in flight).
func putBuf(b []byte) {
	if cap(b) == 0 || cap(b) > 4<<20 {
		return
	}
	freeBufs.Lock()
	if len(freeBufs.list) < 1024 {
		freeBufs.list = append(freeBufs.list, b)
	}
	freeBufs.Unlock()
}

// partBufs are scratch buffers for appendPart, which runs on the scoring workers.
var partBufs = sync.Pool{New: func() any { return new([]byte) }}

// appendPart appends v's JSON after its length.
func appendPart(b []byte, v any) ([]byte, error) {
	buf := partBufs.Get().(*[]byte)
	defer partBufs.Put(buf)
	vb, err := appendValue((*buf)[:0], v)
	if err != nil {
		return nil, err
	}
	if cap(vb) <= 1<<20 {
		*buf = vb // keep the grown buffer, not a huge one
	}
	b = binary.AppendUvarint(b, uint64(len(vb)))
	return append(b, vb...), nil
}

// readRaw reads back item i's captured bytes (a copy), in suite order mostly, so the
// reads are sequential.
func (s *ItemStream) readRaw(i int) ([]byte, error) {
	at, ok := s.at(i)
	if !ok {
		return nil, fmt.Errorf("report: item %d has no recorded sample", i)
	}
	return s.readRawTo(make([]byte, at.size), at)
}

// readRawTo reads the captured bytes at at into raw (of their size).
func (s *ItemStream) readRawTo(raw []byte, at span) ([]byte, error) {
	if at.failing {
		return s.fail.read(s.detail, s.dpos, raw, at)
	}
	return s.first.read(s.detail, s.dpos, raw, at)
}

// readChunk reads back the captured bytes of items [start, start+n) into one buffer.
func (s *ItemStream) readChunk(c *buildChunk) error {
	size := 0
	spans := make([]span, c.n)
	for k := range c.n {
		sp, ok := s.at(c.start + k)
		if !ok {
			return fmt.Errorf("report: item %d has no recorded sample", c.start+k)
		}
		spans[k] = sp
		size += int(sp.size)
	}
	c.rawBuf = getBuf(size)[:size]
	at := 0
	for _, sp := range spans {
		raw, err := s.readRawTo(c.rawBuf[at:at+int(sp.size):at+int(sp.size)], sp)
		if err != nil {
			return err
		}
		at += len(raw)
		c.raws = append(c.raws, raw)
	}
	return nil
}

// parseParts splits captured bytes (Capture's layout) into their parts.
func parseParts(i int, raw []byte) (detailParts, error) {
	var p detailParts
	bad := fmt.Errorf("report: item %d: bad captured parts", i)
	next := func() (json.RawMessage, bool) {
		l, k := binary.Uvarint(raw)
		if k <= 0 || uint64(len(raw)-k) < l {
			return nil, false
		}
		part := raw[k : k+int(l)]
		raw = raw[k+int(l):]
		return part, true
	}
	var ok bool
	for _, dst := range []*json.RawMessage{&p.prompt, &p.expected, &p.got, &p.notes} {
		if *dst, ok = next(); !ok {
			return p, bad
		}
	}
	count, k := binary.Uvarint(raw)
	if k <= 0 {
		return p, bad
	}
	raw = raw[k:]
	for range count {
		key, ok1 := next()
		val, ok2 := next()
		if !ok1 || !ok2 {
			return p, bad
		}
		p.sample = append(p.sample, KV{string(key), val})
	}
	return p, nil
}

// streamed is what Build takes from an ItemStream: counts and kept items.
type streamed struct {
	passed           int
	missing, pending []string
	kept             []Item
}

// buildChunk is a run of consecutive items handled by one worker.
type buildChunk struct {
	start, n int
	raws     [][]byte // the items' captured parts, when the pass reads them
	rawBuf   []byte   // holds raws
	out      []byte   // the items' indented JSON, each after ",\n    " but the report's first
	passed   int
	missing  []string
	pending  []string
	items    []Item // the failing items (all items when every item is kept), materialized
	idx      []int
	err      error
	done     chan struct{}
}

const buildChunkItems = 128

// passMode says what a pass over the items does besides counting them.
type passMode struct {
	keep, keepAll bool // keep the items the in-memory renderers list (keepAll: every one)
	write         bool // render each item's JSON
}

// build counts the items of sc (passed, missing, pending) and keeps the ones the
// renderers need (keep): the report's header then is known before its items are
// written, so WriteJSON renders them straight into the report.
func (s *ItemStream) build(sc *rubric.Scored, keep bool) (*streamed, error) {
	if err := s.dw.Flush(); err != nil {
		return nil, fmt.Errorf("report: writing the items: %w", err)
	}
	s.sc = sc
	out := &streamed{missing: []string{}}
	mode := passMode{keep: keep, keepAll: keep && sc.NumItems() <= KeepAllItems}
	worst := topk.New(MaxKeptFailing, failsWorse)
	err := s.pass(sc, mode, func(c *buildChunk) error {
		out.passed += c.passed
		out.missing = append(out.missing, c.missing...)
		out.pending = append(out.pending, c.pending...)
		if mode.keepAll {
			out.kept = append(out.kept, c.items...)
			return nil
		}
		for k, it := range c.items {
			worst.Offer(ranked{it, c.idx[k]})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if keep && !mode.keepAll {
		for _, r := range worst.Kept(func(a, b ranked) int { return a.idx - b.idx }) {
			out.kept = append(out.kept, r.item)
		}
	}
	return out, nil
}

// writeItems renders every item's JSON into w, in suite order.
func (s *ItemStream) writeItems(w io.Writer) error {
	return s.pass(s.sc, passMode{write: true}, func(c *buildChunk) error {
		if _, err := w.Write(c.out); err != nil {
			return fmt.Errorf("report: writing the items: %w", err)
		}
		return nil
	})
}

// pass handles every item of sc in chunks on the machine's cores and hands each chunk
// to fn in suite order.
func (s *ItemStream) pass(sc *rubric.Scored, mode passMode, fn func(*buildChunk) error) error {
	n := sc.NumItems()
	parts := mode.write || mode.keep // the captured parts are read back
	workers := max(runtime.GOMAXPROCS(0), 1)
	work := make(chan *buildChunk, workers)
	ordered := make(chan *buildChunk, 2*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				c.render(sc, mode)
				close(c.done)
			}
		}()
	}
	stop := make(chan struct{})
	readErr := make(chan error, 1)
	go func() { // reads the captured parts in order, hands out chunks
		defer close(ordered)
		defer close(work)
		for start := 0; start < n; start += buildChunkItems {
			c := &buildChunk{start: start, n: min(buildChunkItems, n-start), done: make(chan struct{})}
			if parts {
				c.raws = make([][]byte, 0, c.n)
				if err := s.readChunk(c); err != nil {
					readErr <- err
					return
				}
			}
			select {
			case ordered <- c:
			case <-stop:
				return
			}
			select {
			case work <- c:
			case <-stop:
				return
			}
		}
	}()
	defer wg.Wait()
	defer close(stop)
	for c := range ordered {
		<-c.done
		if c.err != nil {
			return c.err
		}
		if err := fn(c); err != nil {
			return err
		}
		putBuf(c.out) // nothing refers to them past fn (kept items are materialized)
		putBuf(c.rawBuf)
	}
	select {
	case err := <-readErr:
		return err
	default:
	}
	return nil
}

// render counts the chunk's items and, as the mode says, writes their JSON and keeps
// the ones the in-memory renderers list: all of them (keepAll), or the failing ones.
func (c *buildChunk) render(sc *rubric.Scored, mode passMode) {
	var scr rubric.ItemScratch
	var scratch []byte
	if mode.write {
		size := 0
		for _, raw := range c.raws {
			size += len(raw) + len(raw)/2 + 448 // the parts indented, and the scores
		}
		c.out = getBuf(size)
	}
	for k := range c.n {
		i := c.start + k
		pass := false
		if !mode.write {
			var missing, runs int
			var pending bool
			pass, missing, runs, pending = sc.ItemStatus(i)
			if pass {
				c.passed++
			}
			if missing == runs {
				c.missing = append(c.missing, sc.Suite.ID(i))
			}
			if pending {
				c.pending = append(c.pending, sc.Suite.ID(i))
			}
		}
		kept := mode.keep && (mode.keepAll || !pass)
		if !mode.write && !kept {
			continue
		}
		is := sc.ItemInto(i, &scr)
		p, err := parseParts(i, c.raws[k])
		if err != nil {
			c.err = err
			return
		}
		if mode.write {
			if i > 0 {
				c.out = append(c.out, ",\n    "...)
			}
			if c.out, err = appendItem(c.out, "    ", sc, is, &p, &scratch); err != nil {
				c.err = err
				return
			}
		}
		if kept {
			it := buildItem(sc, is)
			it.pre = &p
			c.items = append(c.items, it.materialize())
			c.idx = append(c.idx, i)
		}
	}
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

// ranked is a failing item and its suite position.
type ranked struct {
	item Item
	idx  int
}

// failsWorse ranks the lower score first (the items kept when a suite fails too many to
// keep them all); ties: the earlier item.
func failsWorse(a, b ranked) bool {
	if a.item.Score != b.item.Score {
		return a.item.Score < b.item.Score
	}
	return a.idx < b.idx
}
