package importer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"

	"github.com/klauspost/compress/flate"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/jsonenc"
)

// An Inspect `.eval` sample is handed to the decoding cores as its archive member's bytes,
// still compressed: inflating it and finding its kept fields is most of the work of
// reading a `.eval` log, and it needs nothing of the other samples. The reader only reads
// the bytes, in file order (window).
//
// The bytes handed on start with memberHead bytes: the member's compression method
// (2 bytes), its CRC-32 (4) and its size (4), little-endian, as the archive's central
// directory gives them.
const memberHead = 10

// readMember appends an entry's head and compressed bytes to buf.
func (z *zipDir) readMember(buf []byte, e *zipEntry) ([]byte, error) {
	if e.usize > MaxRecordBytes || e.csize > maxMemberBytes {
		return buf, errRecordTooLarge
	}
	off, err := z.dataOffset(e)
	if err != nil {
		return buf, err
	}
	buf = binary.LittleEndian.AppendUint16(buf, e.method)
	buf = binary.LittleEndian.AppendUint32(buf, e.crc)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(e.usize))
	n, size := len(buf), int(e.csize)
	buf = slices.Grow(buf, size)[:n+size]
	if k, err := z.r.ReadAt(buf[n:], off); k < size {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return buf, err
	}
	return buf, nil
}

// errMemberCorrupt: a member's bytes do not inflate to its size and checksum.
var errMemberCorrupt = errors.New("the archive member is corrupt: its content does not match its size and checksum")

// memberDecoder is one decoding core's state for archive members: its inflater, the
// inflated bytes and the kept fields, each reused from one member to the next.
type memberDecoder struct {
	// scratch lends the maps of the objects inspectPaths filters, taken back (done) once
	// the sample is converted.
	scratch eval.Scratch
	br      bytes.Reader
	fr      io.ReadCloser
	out     []byte
	kept    []byte
	d       docDecoder
}

// inflate is the member's content: its bytes after the head, inflated (or stored),
// checked against the head's size and checksum. It is valid until the next call.
func (m *memberDecoder) inflate(raw []byte) ([]byte, error) {
	method := binary.LittleEndian.Uint16(raw)
	sum := binary.LittleEndian.Uint32(raw[2:])
	size := int(binary.LittleEndian.Uint32(raw[6:]))
	body := raw[memberHead:]
	var text []byte
	switch method {
	case 0: // stored
		text = body
	case 8: // deflated
		m.br.Reset(body)
		if m.fr == nil {
			m.fr = flate.NewReader(&m.br)
		} else if err := m.fr.(flate.Resetter).Reset(&m.br, nil); err != nil {
			return nil, err
		}
		if cap(m.out) < size+1 {
			m.out = make([]byte, size+1)
		}
		n, err := io.ReadFull(m.fr, m.out[:size+1]) // one byte more than the size says: it must end there
		switch {
		case err == nil:
			return nil, errMemberCorrupt // longer than its size
		case err != io.ErrUnexpectedEOF && err != io.EOF:
			return nil, err // flate's: corrupt input
		}
		text = m.out[:n]
	default:
		return nil, fmt.Errorf("compression method %d is not supported (want deflate or none)", method)
	}
	if len(text) != size || crc32.ChecksumIEEE(text) != sum {
		return nil, errMemberCorrupt
	}
	return text, nil
}

// done takes back the maps the last record decoded with lend was lent.
func (m *memberDecoder) done() { m.scratch.Release() }

// release drops the buffers a large member left, so that a core keeps no more than a
// small sample's worth between members.
func (m *memberDecoder) release() {
	if cap(m.out) > 1<<20 {
		m.out = nil
	}
	if cap(m.kept) > 1<<20 {
		m.kept = nil
	}
	m.d.buf = nil
}

// inspectPaths are the parts of a sample inspectConvert reads, built in one pass over the
// member (the transcript and the rest are checked, not built).
var inspectPaths = eval.Paths{
	"id": nil, "epoch": nil, "input": nil, "target": nil, "choices": nil, "metadata": nil,
	"output": {"completion": nil, "model": nil, "usage": nil, "choices": {"message": {"content": nil}}},
	"scores": nil, "score": nil, "model_usage": nil, "total_time": nil, "working_time": nil, "error": nil, "limit": nil,
}

// decode inflates an Inspect sample member and decodes the parts inspectConvert reads
// (inspectPaths); a member the one-pass decoder leaves takes the sample path of a `.json`
// log (inspectKept, then decodeFields), for its messages. With lend, the record's
// filtered objects are scratch's, to be read only until done.
func (m *memberDecoder) decode(file, where string, raw []byte, lend bool) (map[string]any, error) {
	defer m.release()
	text, err := m.inflate(raw)
	if err != nil {
		return nil, errAt(file, 0, where, "", "cannot read: %v", err)
	}
	var scratch *eval.Scratch
	if lend {
		scratch = &m.scratch
	}
	if rec, ok := eval.DecodeObjectPathsFast(text, inspectPaths, scratch); ok {
		return rec, nil
	}
	m.scratch.Release()
	m.d = docDecoder{file: file, buf: text, keep: -1, rerr: io.EOF}
	m.kept, err = inspectKept(&m.d, where, m.kept[:0])
	if err != nil {
		return nil, err
	}
	return decodeFields(file, where, m.kept)
}

// inspectKept appends to buf an object of the sample's fields evalgate reads (inspectKeep,
// their bytes as the sample has them), read from d; the transcript is skipped as it is
// read.
func inspectKept(d *docDecoder, where string, buf []byte) ([]byte, error) {
	buf = append(buf, '{')
	start := len(buf)
	err := d.object(where, func(key string) error {
		if !inspectKeep[key] {
			return d.skip(where + "." + key)
		}
		raw, _, err := d.raw()
		if err != nil {
			return d.err(where+"."+key, err)
		}
		if len(buf) > start {
			buf = append(buf, ',')
		}
		buf = jsonenc.AppendString(buf, key, false)
		buf = append(append(buf, ':'), raw...)
		return nil
	})
	return append(buf, '}'), err
}
