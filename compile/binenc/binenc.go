// Package binenc is the varint framing of brenner-ci's binary records
// (packed scan records, scan cache entries, thread cache entries): unsigned
// and signed varints, fixed-width integers and length-prefixed strings,
// appended with the encoding/binary functions and AppendString, read with a
// Reader that never panics.
package binenc

import "encoding/binary"

// AppendString appends s with its length as a uvarint.
func AppendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// AppendBool appends b as one byte.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// Reader reads fields from B. Past a malformed field Bad is set, B is
// emptied and every read returns a zero value, so a decoder reads on and
// checks Bad once at the end.
type Reader struct {
	B   []byte
	Bad bool
}

// Fail marks the input malformed.
func (r *Reader) Fail() { r.Bad, r.B = true, nil }

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	v, n := binary.Uvarint(r.B)
	if n <= 0 {
		r.Fail()
		return 0
	}
	r.B = r.B[n:]
	return v
}

// Varint reads a signed varint.
func (r *Reader) Varint() int64 {
	v, n := binary.Varint(r.B)
	if n <= 0 {
		r.Fail()
		return 0
	}
	r.B = r.B[n:]
	return v
}

// Int reads a signed varint as an int.
func (r *Reader) Int() int { return int(r.Varint()) }

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if len(r.B) == 0 {
		r.Fail()
		return 0
	}
	c := r.B[0]
	r.B = r.B[1:]
	return c
}

// Bool reads what AppendBool wrote.
func (r *Reader) Bool() bool {
	switch r.Byte() {
	case 0:
		return false
	case 1:
		return true
	}
	r.Fail()
	return false
}

// U32 reads a little-endian uint32.
func (r *Reader) U32() uint32 {
	if len(r.B) < 4 {
		r.Fail()
		return 0
	}
	v := binary.LittleEndian.Uint32(r.B)
	r.B = r.B[4:]
	return v
}

// U64 reads a little-endian uint64.
func (r *Reader) U64() uint64 {
	if len(r.B) < 8 {
		r.Fail()
		return 0
	}
	v := binary.LittleEndian.Uint64(r.B)
	r.B = r.B[8:]
	return v
}

// Bytes reads a length-prefixed field: a slice of the input, capped.
func (r *Reader) Bytes() []byte {
	n := r.Uvarint()
	if n > uint64(len(r.B)) {
		r.Fail()
		return nil
	}
	v := r.B[:n:n]
	r.B = r.B[n:]
	return v
}

// Str reads a length-prefixed string (a copy).
func (r *Reader) Str() string { return string(r.Bytes()) }

// Count reads a number of items, which can never exceed the bytes left
// (every item takes at least one byte), so a corrupt count cannot make a
// decoder allocate more than its input.
func (r *Reader) Count() int {
	n := r.Uvarint()
	if n > uint64(len(r.B)) {
		r.Fail()
		return 0
	}
	return int(n)
}
