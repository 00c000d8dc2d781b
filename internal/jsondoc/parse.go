package jsondoc

import (
	"encoding/json"
	"errors"
	"io/fs"

	"github.com/pa-toolkit/pa/internal/mapread"
	"github.com/pa-toolkit/pa/vfs"
)

// Parse reads the bytes of the document name: by the fast path when it
// takes them, else by the plain path, which decides every error. It
// returns f.Corrupt(name, the parse error) when they are not one JSON
// object of f.Version with the array, each element an object whose key
// f.CheckKey takes. The Doc refers to data (each element's bytes, kept for
// a rewrite): do not change data while the Doc is in use.
func Parse[E any](f *Format[E], name string, data []byte) (Doc[E], error) {
	if s, ok := scan(f, data, true, 0); ok {
		return Doc[E]{Next: s.next, MaxKey: s.elems.maxKey, Elems: s.elems.list, Raw: s.elems.raw}, nil
	}
	d, err := parsePlain(f, data)
	if err != nil {
		return Doc[E]{}, f.Corrupt(name, err)
	}
	return d, nil
}

// The mapped read (Read, ReadForEdit; the spawn-log's append is mapped by
// lockspec.UpdateMapped) is internal/mapread's, with the growth figures
// that keep it.

// Read reads the document name of fsys (without any lock: each format's
// write is a rename, so a reader sees one whole version), as [Parse] does.
// The file is mapped where the FS can (mapread.File), so that a file that
// does not parse is refused without being read into memory whole; the
// bytes a parsed document keeps are copied out of the mapping as one block
// (mapread.Detach) before it is released.
//
// Errors: f.Corrupt's when the file does not parse; a *fs.PathError
// wrapping vfs.ErrChanged when the mapped file was cut short while it was
// parsed or copied out; the FS's (one matching fs.ErrNotExist for a
// missing file).
func Read[E any](f *Format[E], fsys vfs.FS, name string) (Doc[E], error) {
	data, release, _, err := mapread.File(fsys, name)
	if err != nil {
		return Doc[E]{}, err
	}
	defer release()
	var d Doc[E]
	err = mapread.Guard(name, data, func() (err error) {
		if d, err = Parse(f, name, data); err != nil {
			return err
		}
		afterParse()
		// The copy reads the mapping too: a cut meanwhile faults here.
		d.Raw = mapread.Detach(d.Raw, data)
		return nil
	})
	if err != nil {
		return Doc[E]{}, err
	}
	return d, nil
}

// afterParse is called by Read once the mapped file is parsed, before its
// kept bytes are copied out: a test cuts the file there.
var afterParse = func() {}

// Edit is a document read once for one write: one element added.
type Edit[E any] struct {
	f    *Format[E]
	data []byte
	fast bool
	s    scanned[E] // fast
	d    Doc[E]     // not fast
}

// Prepare reads data, the document name (exists false: there is none yet,
// an empty document), for a write that adds one element, whose key is
// find: by the fast path when it takes data and no element has that key,
// else by the plain path. It returns f.Corrupt's error when data does not
// parse. The Edit refers to data until its [Edit.Append] has been written.
func Prepare[E any](f *Format[E], name string, data []byte, exists bool, find int) (*Edit[E], error) {
	ed := &Edit[E]{f: f, data: data, fast: true}
	if !exists {
		return ed, nil
	}
	if ed.s, ed.fast = scan(f, data, false, find); ed.fast && !ed.s.elems.found {
		return ed, nil
	}
	d, err := parsePlain(f, data)
	if err != nil {
		return nil, f.Corrupt(name, err)
	}
	ed.fast, ed.d = false, d
	return ed, nil
}

// ReadForEdit is [Prepare] on the file name of fsys, mapped where the FS
// can (mapread.File) and a fault reading the mapping an error
// (mapread.Guard): the Edit refers to the mapping until release is called
// (release is never nil, also on an error). A missing file is an empty
// document. Errors: Prepare's, a *fs.PathError wrapping vfs.ErrChanged,
// the FS's.
func ReadForEdit[E any](f *Format[E], fsys vfs.FS, name string, find int) (ed *Edit[E], release func(), err error) {
	data, release, _, err := mapread.File(fsys, name)
	exists := true
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data, exists = nil, false
	case err != nil:
		return nil, release, err
	}
	err = mapread.Guard(name, data, func() (err error) {
		ed, err = Prepare(f, name, data, exists, find)
		return err
	})
	return ed, release, err
}

// Next is the header's integer as read (0 when there is none).
func (ed *Edit[E]) Next() int {
	if ed.fast {
		return ed.s.next
	}
	return ed.d.Next
}

// MaxKey is the largest key of an element (0 when there is none).
func (ed *Edit[E]) MaxKey() int {
	if ed.fast {
		return ed.s.elems.maxKey
	}
	return ed.d.MaxKey
}

// Append returns the new document, in parts, with elem added unless an
// element has its key already (then the document is the same elements
// again), and the header's integer next: on the fast path a splice (a new
// head, the old elements' bytes as read, elem indented as encode indents
// it); on the plain path encode's bytes for the parsed elements with elem
// added. encode is the format's own write of a whole [Doc]. Either way the
// result is what Parse reads back as the elements and elem.
func (ed *Edit[E]) Append(elem E, next int, encode func(Doc[E]) []byte) [][]byte {
	if ed.fast {
		return splice(ed.f, ed.data, ed.s, elem, next)
	}
	d := ed.d
	d.Next = next
	key := ed.f.Key(elem)
	for _, e := range d.Elems {
		if ed.f.Key(e) == key {
			return [][]byte{encode(d)}
		}
	}
	raw, err := json.Marshal(elem)
	if err != nil {
		panic(err) // a format's elements are strings and ints: they always marshal
	}
	d.Elems = append(d.Elems, elem)
	d.Raw = append(d.Raw, raw)
	return [][]byte{encode(d)}
}
