package baseline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/safeio"
)

// header is the first line of a version 2 baseline: Baseline's fields, with the item
// count in place of the items (the outer fields win over the embedded ones).
type header struct {
	Baseline
	ItemCount int  `json:"items"`
	Outputs   *int `json:"outputs,omitempty"` // never written: outputs are lines
}

// outputLine is one recorded output, inline in a baseline or in its outputs file.
type outputLine struct {
	Run    int            `json:"run"`
	Record map[string]any `json:"record"`
}

// Encode writes b in format version 2: the header line, one line per item, then one
// line per recorded output in outs (nil when kept beside the file).
func Encode(w io.Writer, b *Baseline, outs [][]map[string]any) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := encodeHeader(enc, b, len(b.Items)); err != nil {
		return err
	}
	for i := range b.Items {
		if err := enc.Encode(&b.Items[i]); err != nil {
			return err
		}
	}
	for r, run := range outs {
		for _, rec := range run {
			if err := enc.Encode(outputLine{Run: r, Record: rec}); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// encodeHeader writes the header line of a baseline of n items.
func encodeHeader(enc *json.Encoder, b *Baseline, n int) error {
	h := header{Baseline: *b, ItemCount: n}
	h.SchemaVersion = SchemaVersion
	h.Baseline.Items, h.Baseline.Outputs = nil, nil
	return enc.Encode(&h)
}

// Reader reads a baseline item by item: Header first, then Next until it reports no
// more items, then Outputs. A version 1 file is read whole and served the same way.
type Reader struct {
	path   string
	f      *os.File
	sc     *safeio.Lines
	head   *Baseline
	count  int // items announced by the header
	read   int
	v1     *Baseline
	v1Next int
	outs   [][]map[string]any
	done   bool
	seen   map[string]int // item id → line (version 1: position), to refuse repeats
	// skipRepeats leaves refusing repeated ids to the caller (Compare keeps no map
	// of every id); line is where the last item read is (version 1: its position).
	skipRepeats bool
	line        int
	fast        itemParser
}

// Open reads a baseline's header. Errors name the file and line.
func Open(path string) (*Reader, error) {
	f, err := safeio.Open(path, "baseline")
	if err != nil {
		return nil, err
	}
	r := &Reader{path: path, f: f, sc: safeio.NewLines(f, path, safeio.MaxLineBytes)}
	var line []byte
	for r.sc.Next() {
		if line = bytes.TrimSpace(r.sc.Bytes()); len(line) > 0 {
			break
		}
	}
	if len(line) == 0 {
		f.Close()
		if err := r.sc.Err(); err != nil {
			return nil, err
		}
		return nil, eval.Errorf(path, 0, "", "not a baseline file: it is empty")
	}
	if err := RefuseNewer(path, line); err != nil {
		f.Close()
		return nil, err
	}
	var probe struct {
		SchemaVersion *int `json:"schema_version"`
	}
	if json.Unmarshal(line, &probe) != nil || probe.SchemaVersion == nil || *probe.SchemaVersion != SchemaVersion {
		// Not a version 2 header line: a version 1 file (one indented object) or junk.
		f.Close()
		return r.openV1()
	}
	if err := safeio.CheckJSONDepth(path, line, r.sc.Line()); err != nil {
		f.Close()
		return nil, err
	}
	var h header
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		f.Close()
		return nil, eval.Errorf(path, 1, "", "not a baseline header: %v", err)
	}
	if h.Outputs != nil {
		f.Close()
		return nil, eval.Errorf(path, 1, "", "outputs belong on their own lines after the items, not in the header")
	}
	if h.ItemCount < 0 {
		f.Close()
		return nil, eval.Errorf(path, 1, "", "item count %d; want ≥ 0", h.ItemCount)
	}
	b := h.Baseline
	r.head, r.count = &b, h.ItemCount
	if err := checkOutputsFile(path, r.head); err != nil { // read by Outputs, when needed
		f.Close()
		return nil, err
	}
	return r, nil
}

// openV1 reads a version 1 baseline whole.
func (r *Reader) openV1() (*Reader, error) {
	data, err := safeio.ReadFile(r.path, "baseline", safeio.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	if err := safeio.CheckJSONDepth(r.path, data, 1); err != nil {
		return nil, err
	}
	if err := RefuseNewer(r.path, data); err != nil {
		return nil, err
	}
	var b Baseline
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, eval.Errorf(r.path, lineOf(data, dec.InputOffset()), "", "not a baseline file: %v", err)
	}
	if b.SchemaVersion != 1 {
		return nil, eval.Errorf(r.path, 0, "", "baseline schema_version %d; this evalgate reads 1 and %d: refresh it with `evalgate baseline`", b.SchemaVersion, SchemaVersion)
	}
	if err := loadOutputsFile(r.path, &b); err != nil {
		return nil, err
	}
	b.FormatV1 = true
	for i := range b.Items {
		b.Items[i].Runs = max(len(b.Runs), 1)
	}
	r.v1 = &b
	head := b
	head.Items, head.Outputs = nil, nil
	r.head, r.count, r.outs = &head, len(b.Items), b.Outputs
	return r, nil
}

// Header is the baseline without its items and outputs (a copy: the caller may keep
// it and add the items).
func (r *Reader) Header() *Baseline {
	h := *r.head
	return &h
}

// Next returns the next item; ok is false after the last one.
func (r *Reader) Next() (it Item, ok bool, err error) {
	if r.v1 != nil {
		if r.v1Next >= len(r.v1.Items) {
			return Item{}, false, nil
		}
		r.v1Next++
		it := r.v1.Items[r.v1Next-1]
		r.line = r.v1Next
		if first, dup := r.firstSeen(it.ID, r.v1Next); dup {
			return Item{}, false, r.repeatError(it.ID, first)
		}
		return it, true, nil
	}
	if r.read >= r.count {
		return Item{}, false, nil
	}
	if !r.sc.Next() {
		if err := r.sc.Err(); err != nil {
			return Item{}, false, err
		}
		return Item{}, false, eval.Errorf(r.path, r.sc.Line(), "", "the header announces %d items; the file ends after %d", r.count, r.read)
	}
	line := r.sc.Bytes()
	if !r.fast.parse(line, &it) {
		if err := r.decodeItem(line, &it); err != nil {
			return Item{}, false, err
		}
	}
	if err := checkItem(it); err != nil {
		return Item{}, false, eval.Errorf(r.path, r.sc.Line(), it.ID, "%v", err)
	}
	r.line = r.sc.Line()
	if first, dup := r.firstSeen(it.ID, r.line); dup {
		return Item{}, false, r.repeatError(it.ID, first)
	}
	r.read++
	return it, true, nil
}

// decodeItem decodes an item line strictly (unknown fields refused), wording errors.
func (r *Reader) decodeItem(line []byte, it *Item) error {
	*it = Item{}
	if err := safeio.CheckJSONDepth(r.path, line, r.sc.Line()); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(it); err != nil {
		return eval.Errorf(r.path, r.sc.Line(), "", "not a baseline item: %v", err)
	}
	if dec.More() {
		return eval.Errorf(r.path, r.sc.Line(), it.ID, "more than one value on an item line")
	}
	return nil
}

// Line is where the last item Next returned is: its line (version 1: its position
// among the items).
func (r *Reader) Line() int { return r.line }

// repeatError refuses the last item read, a repeat of the one at first.
func (r *Reader) repeatError(id string, first int) error {
	if r.v1 != nil {
		return eval.Errorf(r.path, 0, id, "duplicate item id: items %d and %d of the baseline; a baseline holds each item once (refresh it with `evalgate baseline`)", first, r.line)
	}
	return eval.Errorf(r.path, r.line, id, "duplicate item id; first on line %d (a baseline holds each item once: refresh it with `evalgate baseline`)", first)
}

// firstSeen records id at pos and reports where it was first seen, if before.
func (r *Reader) firstSeen(id string, pos int) (int, bool) {
	if r.skipRepeats {
		return 0, false
	}
	if r.seen == nil {
		r.seen = map[string]int{}
	}
	if first, ok := r.seen[id]; ok {
		return first, true
	}
	r.seen[id] = pos
	return 0, false
}

// checkItem refuses figures no run could produce.
func checkItem(it Item) error {
	if it.ID == "" {
		return errors.New("item without an id")
	}
	if it.Runs < 1 {
		return fmt.Errorf("runs is %d; want ≥ 1", it.Runs)
	}
	if it.PassBits != "" && len(it.PassBits) != it.Runs {
		return fmt.Errorf("pass_bits %q has %d runs; want %d", it.PassBits, len(it.PassBits), it.Runs)
	}
	for _, c := range it.PassBits {
		if c != '0' && c != '1' {
			return fmt.Errorf("pass_bits %q; want one 0 or 1 per run", it.PassBits)
		}
	}
	for name, v := range map[string]float64{"score": it.Score, "pass_rate": it.PassRate, "score_std": it.ScoreStd} {
		if !(v >= 0 && v <= 1) {
			return fmt.Errorf("%s is %v; want a number in [0, 1]", name, v)
		}
	}
	return nil
}

// Outputs reads the recorded outputs: inline lines after the items, or the file kept
// beside the baseline. Call it after the last item.
func (r *Reader) Outputs() ([][]map[string]any, error) {
	if r.v1 != nil || r.done {
		return r.outs, nil
	}
	err := r.EachOutput(func(run int, rec map[string]any) error {
		for len(r.outs) <= run {
			r.outs = append(r.outs, nil)
		}
		r.outs[run] = append(r.outs[run], rec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r.outs, nil
}

// EachOutput calls fn with each recorded output in turn, never holding them: those of
// the file kept beside the baseline, then the inline lines after the items. Call it
// after the last item, once (instead of Outputs).
func (r *Reader) EachOutput(fn func(run int, rec map[string]any) error) error {
	if r.v1 != nil || r.done {
		for run, recs := range r.outs {
			for _, rec := range recs {
				if err := fn(run, rec); err != nil {
					return err
				}
			}
		}
		return nil
	}
	r.done = true
	if name := r.head.OutputsFile; name != "" {
		if err := checkOutputsFile(r.path, r.head); err != nil {
			return err
		}
		if err := eachOutputInFile(r.path, filepath.Join(filepath.Dir(r.path), name), fn); err != nil {
			return err
		}
	}
	for r.sc.Next() {
		line := bytes.TrimSpace(r.sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := safeio.CheckJSONDepth(r.path, line, r.sc.Line()); err != nil {
			return err
		}
		var o outputLine
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil || o.Record == nil {
			if err == nil {
				err = errors.New(`want {"run": N, "record": {...}}`)
			}
			return eval.Errorf(r.path, r.sc.Line(), "", "not a recorded output: %v", err)
		}
		if o.Run < 0 || o.Run >= max(len(r.head.Runs), 1) {
			return eval.Errorf(r.path, r.sc.Line(), "", "recorded output of run %d; the baseline has %d run(s)", o.Run, len(r.head.Runs))
		}
		if err := fn(o.Run, o.Record); err != nil {
			return err
		}
	}
	return r.sc.Err()
}

// Close releases the file.
func (r *Reader) Close() error {
	if r.f != nil {
		return r.f.Close()
	}
	return nil
}
