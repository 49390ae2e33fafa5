package importer

import (
	"archive/zip"
	"os"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
)

// maxMemberBytes bounds one sample member's compressed bytes: deflate's blocks cannot
// make MaxRecordBytes of content much larger.
const maxMemberBytes = MaxRecordBytes + 1<<20

// readInspectZip reads a `.eval` archive: header.json (else _journal/start.json) for the
// log's spec, and the samples' members in the order the archive lists them. The reader
// only reads each member's compressed bytes, a window at a time (window); the decoding
// cores inflate and decode them (memberDecoder), and the samples are converted in order.
func readInspectZip(p string, opts *Options, emit func(Record) error) (*Meta, error) {
	zp, cleanup, err := unzipPath(p)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	zr, f, err := openZip(p, zp)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	meta := &Meta{Format: Inspect, SuiteFields: true, Metadata: map[string]string{}}
	var h inspectHeader
	var start *zip.File
	var samples []*zip.File
	at := map[string]int{} // a sample member's place in samples
	for _, zf := range zr.File {
		switch {
		case zf.Name == "header.json":
			if err := zipJSON(p, zf, &h); err != nil {
				return nil, err
			}
		case zf.Name == "_journal/start.json":
			start = zf
		case strings.HasPrefix(zf.Name, "samples/") && strings.HasSuffix(zf.Name, ".json"):
			// Inspect appends a requeued sample's fresh record under the same name, and
			// reads the last entry: so does evalgate, in the first one's place.
			if i, ok := at[zf.Name]; ok {
				samples[i] = zf
				continue
			}
			at[zf.Name] = len(samples)
			samples = append(samples, zf)
		}
	}
	at = nil
	if h.Eval == nil && start != nil {
		var s inspectHeader
		if err := zipJSON(p, start, &s); err != nil {
			return nil, err
		}
		h.Eval, h.Status = s.Eval, "started"
	}
	st := &inspectState{file: p, emit: emit}
	if h.Eval != nil {
		st.model = h.Eval.Model
	}
	st.start()
	err = st.finish(func() error {
		var buf []byte // one buffer for every member: add copies it
		for _, zf := range samples {
			if zf.UncompressedSize64 > MaxRecordBytes || zf.CompressedSize64 > maxMemberBytes {
				return errAt(p, 0, zf.Name, "", "a record is larger than %d bytes", MaxRecordBytes)
			}
			rr, err := zf.OpenRaw()
			if err == nil {
				buf, err = appendMember(buf[:0], zf, rr)
			}
			if err != nil {
				return eval.Errorf(p, 0, "", "%s: cannot read: %v", zf.Name, err)
			}
			if err := st.ahead.add(0, zf.Name, aheadMember, buf); err != nil {
				return err
			}
		}
		return nil
	}())
	if err != nil {
		return nil, err
	}
	if st.n == 0 {
		return nil, eval.Errorf(p, 0, "", "the log holds no samples (samples/*.json); was it written with --no-log-samples?")
	}
	if h.Eval == nil {
		h.Status = ""
	}
	inspectFinish(p, opts, &h, meta, st)
	if start == nil && h.Eval == nil {
		meta.Incomplete = true
	}
	return meta, nil
}

// openZip opens the archive at zp (p's content) for reading a window at a time.
func openZip(p, zp string) (*zip.Reader, *os.File, error) {
	f, err := os.Open(zp)
	if err != nil {
		return nil, nil, eval.Errorf(p, 0, "", "cannot read results file: %v", err)
	}
	st, err := f.Stat()
	if err == nil {
		var zr *zip.Reader
		if zr, err = zip.NewReader(newWindow(f), st.Size()); err == nil {
			return zr, f, nil
		}
	}
	f.Close()
	return nil, nil, eval.Errorf(p, 0, "", "cannot open the Inspect log as a zip archive: %v", err)
}

func zipJSON(p string, zf *zip.File, v any) error {
	rc, err := zf.Open()
	if err != nil {
		return eval.Errorf(p, 0, "", "%s: cannot read: %v", zf.Name, err)
	}
	defer rc.Close()
	return newDocDecoder(p, rc).decode(zf.Name, v)
}
