package baseline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"strconv"

	"github.com/klauspost/compress/gzip"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
)

// SaveScored writes the baseline of a scored release in format version 2 without
// holding its items: b is its header (HeaderOf; OutputsFile names the recorded outputs
// written beside it by SaveOutputsFrom, if any), and each item's line is computed from
// the scores and written in turn. The write is atomic like Save's.
func SaveScored(path string, b *Baseline, sc *rubric.Scored) error {
	b.SchemaVersion = SchemaVersion
	return WriteFileAtomicFunc(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		enc := json.NewEncoder(bw)
		enc.SetEscapeHTML(false)
		if err := encodeHeader(enc, b, sc.NumItems()); err != nil {
			return err
		}
		var s itemScratch
		for i := range sc.NumItems() {
			it := itemOf(sc, i, &s)
			if err := enc.Encode(&it); err != nil {
				return err
			}
		}
		return bw.Flush()
	})
}

// OutputsName is the name of the recorded outputs kept beside the baseline at path.
func OutputsName(path string) string {
	return stem(path) + ".outputs.jsonl.gz"
}

// SaveOutputsFrom writes the recorded outputs of the baseline at path beside it
// (OutputsName) from the release's results files, one per run, copying each record's
// line as read: {"run": i, "record": LINE}, gzip-compressed at a fast level (a million
// records take seconds, not minutes). It returns the name to put in OutputsFile.
func SaveOutputsFrom(path string, files []string) (string, error) {
	name := OutputsName(path)
	err := WriteFileAtomicFunc(filepath.Join(filepath.Dir(path), name), func(w io.Writer) error {
		zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
		if err != nil {
			return err
		}
		zw.ModTime = zeroTime // reproducible bytes
		bw := bufio.NewWriterSize(zw, 1<<16)
		for run, file := range files {
			prefix := []byte(`{"run":` + strconv.Itoa(run) + `,"record":`)
			err := eval.EachLine(file, func(text []byte, _ int) error {
				text = bytes.TrimSpace(bytes.TrimPrefix(text, []byte("\uFEFF")))
				bw.Write(prefix)
				bw.Write(text)
				_, err := bw.WriteString("}\n")
				return err
			})
			if err != nil {
				return err
			}
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		return zw.Close()
	})
	return name, err
}
