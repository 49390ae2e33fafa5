package importer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
)

// zipDir is an archive's central directory, kept compact: archive/zip keeps about 240 bytes
// for each member (236 MiB for a million-sample `.eval` log), this about 40 and its name.
// It reads the directory in one pass, zip64 included; it does not handle archives split
// over disks or prefixed with other data (an Inspect log is neither).
type zipDir struct {
	r       io.ReaderAt
	entries []zipEntry
	names   []byte // every member's name, one after the other
}

// zipEntry is one member as the central directory lists it.
type zipEntry struct {
	off     int64 // its local header's offset
	csize   uint64
	usize   uint64
	crc     uint32
	method  uint16
	nameLen uint16
	nameOff uint32 // in zipDir.names
}

func (z *zipDir) name(e *zipEntry) []byte { return z.names[e.nameOff : e.nameOff+uint32(e.nameLen)] }

var errZipFormat = errors.New("not a valid zip file")

// readZipDir reads the central directory of the archive r of the given size.
func readZipDir(r io.ReaderAt, size int64) (*zipDir, error) {
	count, dirOff, dirSize, err := zipEnd(r, size)
	if err != nil {
		return nil, err
	}
	if dirOff < 0 || dirSize < 0 || dirOff > size-dirSize || count > uint64(dirSize)/46 {
		return nil, errZipFormat
	}
	z := &zipDir{r: r, entries: make([]zipEntry, 0, count)}
	sr := io.NewSectionReader(r, dirOff, dirSize)
	var head [46]byte
	var rest []byte
	for range count {
		if _, err := io.ReadFull(sr, head[:]); err != nil {
			return nil, errZipFormat
		}
		le := binary.LittleEndian
		if le.Uint32(head[:]) != 0x02014b50 {
			return nil, errZipFormat
		}
		n, m, k := int(le.Uint16(head[28:])), int(le.Uint16(head[30:])), int(le.Uint16(head[32:]))
		if cap(rest) < n+m+k {
			rest = make([]byte, n+m+k)
		}
		rest = rest[:n+m+k]
		if _, err := io.ReadFull(sr, rest); err != nil {
			return nil, errZipFormat
		}
		e := zipEntry{method: le.Uint16(head[10:]), crc: le.Uint32(head[16:]), csize: uint64(le.Uint32(head[20:])),
			usize: uint64(le.Uint32(head[24:])), off: int64(le.Uint32(head[42:])), nameLen: uint16(n), nameOff: uint32(len(z.names))}
		if err := e.zip64(rest[n : n+m]); err != nil {
			return nil, err
		}
		if len(z.names)+n > 1<<32-1 {
			return nil, errZipFormat
		}
		z.names = append(z.names, rest[:n]...)
		z.entries = append(z.entries, e)
	}
	return z, nil
}

// zip64 reads the zip64 extra field's values for the fields the entry has at their maximum.
func (e *zipEntry) zip64(extra []byte) error {
	le := binary.LittleEndian
	for len(extra) >= 4 {
		id, size := le.Uint16(extra), int(le.Uint16(extra[2:]))
		if len(extra) < 4+size {
			return errZipFormat
		}
		field := extra[4 : 4+size]
		extra = extra[4+size:]
		if id != 1 {
			continue
		}
		next := func() (uint64, error) {
			if len(field) < 8 {
				return 0, errZipFormat
			}
			v := le.Uint64(field)
			field = field[8:]
			return v, nil
		}
		var err error
		if e.usize == 0xffffffff {
			if e.usize, err = next(); err != nil {
				return err
			}
		}
		if e.csize == 0xffffffff {
			if e.csize, err = next(); err != nil {
				return err
			}
		}
		if e.off == 0xffffffff {
			var off uint64
			if off, err = next(); err != nil {
				return err
			}
			if off > 1<<62 {
				return errZipFormat
			}
			e.off = int64(off)
		}
	}
	return nil
}

// zipEnd finds the end of central directory record (zip64's when there is one) and
// returns the directory's entry count, offset and size.
func zipEnd(r io.ReaderAt, size int64) (count uint64, off, dirSize int64, err error) {
	const endLen, maxComment = 22, 1<<16 - 1
	tail := min(size, endLen+maxComment)
	buf := make([]byte, tail)
	if _, err := r.ReadAt(buf, size-tail); err != nil && err != io.EOF {
		return 0, 0, 0, err
	}
	at := bytes.LastIndex(buf, []byte("PK\x05\x06"))
	for at >= 0 && at+endLen > len(buf) {
		at = bytes.LastIndex(buf[:at], []byte("PK\x05\x06"))
	}
	if at < 0 {
		return 0, 0, 0, errZipFormat
	}
	le := binary.LittleEndian
	end := buf[at:]
	count, dirSize, off = uint64(le.Uint16(end[10:])), int64(le.Uint32(end[12:])), int64(le.Uint32(end[16:]))
	if count != 0xffff && dirSize != 0xffffffff && off != 0xffffffff {
		return count, off, dirSize, nil
	}
	// zip64: the locator, 20 bytes before the record, gives the zip64 record's offset.
	locAt := size - tail + int64(at) - 20
	var loc [20]byte
	if locAt < 0 {
		return 0, 0, 0, errZipFormat
	}
	if _, err := r.ReadAt(loc[:], locAt); err != nil || le.Uint32(loc[:]) != 0x07064b50 {
		return 0, 0, 0, errZipFormat
	}
	recAt := le.Uint64(loc[8:])
	var rec [56]byte
	if recAt > uint64(size)-56 {
		return 0, 0, 0, errZipFormat
	}
	if _, err := r.ReadAt(rec[:], int64(recAt)); err != nil || le.Uint32(rec[:]) != 0x06064b50 {
		return 0, 0, 0, errZipFormat
	}
	count, ds, o := le.Uint64(rec[32:]), le.Uint64(rec[40:]), le.Uint64(rec[48:])
	if ds > 1<<62 || o > 1<<62 {
		return 0, 0, 0, errZipFormat
	}
	return count, int64(o), int64(ds), nil
}

// dataOffset is where an entry's compressed bytes start: after its local header.
func (z *zipDir) dataOffset(e *zipEntry) (int64, error) {
	var h [30]byte
	if _, err := z.r.ReadAt(h[:], e.off); err != nil {
		return 0, fmt.Errorf("%w: %v", errZipFormat, err)
	}
	le := binary.LittleEndian
	if le.Uint32(h[:]) != 0x04034b50 {
		return 0, errZipFormat
	}
	return e.off + 30 + int64(le.Uint16(h[26:])) + int64(le.Uint16(h[28:])), nil
}

// lastWins lists the entries whose names pass keep, each name once, in the order of its
// first entry and with its last entry's member: Inspect appends a requeued sample's fresh
// record under the same name and reads the last one.
func (z *zipDir) lastWins(keep func(name []byte) bool) []int {
	var out []int
	seed := maphash.MakeSeed()
	at := map[uint64]int{}    // a name's hash → its place in out
	clash := map[string]int{} // names whose hash another name has
	for i := range z.entries {
		name := z.name(&z.entries[i])
		if !keep(name) {
			continue
		}
		h := maphash.Bytes(seed, name)
		j, ok := at[h]
		switch {
		case !ok:
			at[h] = len(out)
			out = append(out, i)
		case bytes.Equal(z.name(&z.entries[out[j]]), name):
			out[j] = i
		default:
			if j, ok := clash[string(name)]; ok {
				out[j] = i
				continue
			}
			clash[string(name)] = len(out)
			out = append(out, i)
		}
	}
	return out
}
