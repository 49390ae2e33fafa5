package importer

import (
	"bytes"
	"errors"
	"io"
	"os"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/safeio"
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
	z, f, err := openZip(p, zp)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	meta := &Meta{Format: Inspect, SuiteFields: true, Metadata: map[string]string{}}
	var h inspectHeader
	header, start := -1, -1
	for i := range z.entries {
		switch string(z.name(&z.entries[i])) {
		case "header.json":
			header = i
		case "_journal/start.json":
			start = i
		}
	}
	// Inspect appends a requeued sample's fresh record under the same name, and reads the
	// last entry: so does evalgate, in the first one's place.
	samples := z.lastWins(func(name []byte) bool {
		return bytes.HasPrefix(name, []byte("samples/")) && bytes.HasSuffix(name, []byte(".json"))
	})
	if header >= 0 {
		if err := z.decode(p, header, &h); err != nil {
			return nil, err
		}
	}
	if h.Eval == nil && start >= 0 {
		var s inspectHeader
		if err := z.decode(p, start, &s); err != nil {
			return nil, err
		}
		h.Eval, h.Status = s.Eval, "started"
	}
	st := &inspectState{file: p, emit: emit, scorer: legacyScorer(h.Results)}
	if h.Eval != nil {
		st.model = h.Eval.Model
	}
	st.start()
	err = st.finish(func() error {
		var buf []byte // one buffer for every member: add copies it
		for _, i := range samples {
			e := &z.entries[i]
			name := string(z.name(e))
			buf, err = z.readMember(buf[:0], e)
			switch {
			case errors.Is(err, errRecordTooLarge):
				return errAt(p, 0, name, "", "a record is larger than %d bytes", MaxRecordBytes)
			case err != nil:
				return eval.Errorf(p, 0, "", "%s: cannot read: %v", name, err)
			}
			if err := st.ahead.add(0, name, aheadMember, buf); err != nil {
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
	if start < 0 && h.Eval == nil {
		meta.Incomplete = true
	}
	return meta, nil
}

// openZip opens the archive at zp (p's content) and reads its central directory; the
// archive is read a window at a time.
func openZip(p, zp string) (*zipDir, *os.File, error) {
	f, err := safeio.Open(zp, "results") // p was checked when it was read; it may have changed since
	if err != nil && zp == p {
		return nil, nil, err
	}
	if err != nil {
		return nil, nil, eval.Errorf(p, 0, "", "cannot read its decompressed copy: %v", err)
	}
	st, err := f.Stat()
	if err == nil {
		var z *zipDir
		if z, err = readZipDir(newWindow(f), st.Size()); err == nil {
			return z, f, nil
		}
	}
	f.Close()
	return nil, nil, eval.Errorf(p, 0, "", "cannot open the Inspect log as a zip archive: %v", err)
}

// decode decodes entry i's JSON into v.
func (z *zipDir) decode(p string, i int, v any) error {
	e := &z.entries[i]
	name := string(z.name(e))
	raw, err := z.readMember(nil, e)
	var text []byte
	if err == nil {
		var m memberDecoder
		text, err = m.inflate(raw)
	}
	if err != nil {
		return eval.Errorf(p, 0, "", "%s: cannot read: %v", name, err)
	}
	d := &docDecoder{file: p, buf: text, keep: -1, rerr: io.EOF}
	return d.decode(name, v)
}
