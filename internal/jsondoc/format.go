package jsondoc

import (
	"encoding/json"
	"strconv"
	"sync"
)

// MaxFields is the most fields an element of a [Format] may have.
const MaxFields = 8

// Field is one field of an element, by its JSON name.
type Field struct {
	// Name is the field's key, exactly as the format writes it.
	Name string
	// Int is whether the field is an integer (a Go int); otherwise it is a
	// string, which may also be null (the field left empty).
	Int bool
}

// Values are the fields of one element as the fast path read them, by
// their index in [Format.Fields]: Ints for the integer fields, Strs for
// the strings (each left zero for a field of the other kind, and the
// strings empty when the fast path does not keep them).
type Values struct {
	// Ints are the integer fields' values.
	Ints [MaxFields]int
	// Strs are the string fields' values.
	Strs [MaxFields]string
}

// Header is a format's whole document as encoding/json decodes it (a
// pointer to a struct with the version, the optional next integer and the
// array as []json.RawMessage, tagged with the format's keys): the plain
// path decodes into it, so encoding/json's rules (keys matched without
// regard to case, no unknown key) are the format's, but for a key of the
// top level given twice, which encoding/json keeps the last of and the
// plain path refuses (a *DuplicateKeyError).
type Header interface {
	// Parts returns the decoded version, the next integer (nil when the
	// format has none or the document leaves it out) and the array (nil
	// when it is missing or null).
	Parts() (version, next *int, elems []json.RawMessage)
}

// Format is one document's shape. Its fields are set once, before it is
// first used, and never changed.
type Format[E any] struct {
	// Version is the only version the format reads and writes.
	Version int
	// Next is the key of the header's one more integer ("nextId"), or ""
	// for none. The plain path takes a document without it; the fast path
	// does not.
	Next string
	// Array is the key of the array ("records") and Elem what one element
	// is called in an error ("record": `record 3: ...`).
	Array, Elem string
	// Fields are an element's fields, at most MaxFields, the key first:
	// an integer that every element has.
	Fields []Field
	// NewHeader returns a new Header to decode a whole document into.
	NewHeader func() Header
	// From makes an element of the fields the fast path read.
	From func(Values) E
	// Key is an element's key (Fields[0]).
	Key func(E) int
	// Corrupt returns the format's error for a document name that does
	// not parse, wrapping the parse error err.
	Corrupt func(name string, err error) error
	// CheckKey returns why key is not an element's key (such as "no
	// integer id of at least 1"), or nil: both paths refuse such an
	// element, the plain path with this error.
	CheckKey func(key int) error

	once sync.Once
	lits []string // each field's layout before its value, as encode writes it
	head []string // the head's layout: before the version, the next, the array
}

// Doc is a parsed document.
type Doc[E any] struct {
	// Next is the header's integer as read (0 when there is none).
	Next int
	// MaxKey is the largest key of an element (0 when there is none).
	MaxKey int
	// Elems are the elements, in order.
	Elems []E
	// Raw are each element's bytes as read, so that a rewrite keeps the
	// fields a format does not know. After [Parse] they are slices of its
	// data; after [Read], a copy.
	Raw []json.RawMessage
}

// The layout an encode writes (json.MarshalIndent with two spaces), around
// the values.
const (
	elemIndent = "\n    "
	elemSep    = "," + elemIndent
	fieldStart = "\n      "
	elemEnd    = "\n    }"
	trailer    = "\n  ]\n}\n"
)

// layout computes the layouts of f once.
func (f *Format[E]) layout() {
	f.once.Do(func() {
		if len(f.Fields) == 0 || len(f.Fields) > MaxFields || !f.Fields[0].Int {
			panic("jsondoc: a format needs 1 to MaxFields fields, the first an integer key")
		}
		for i, fd := range f.Fields {
			lit := ","
			if i == 0 {
				lit = "{"
			}
			f.lits = append(f.lits, lit+fieldStart+strconv.Quote(fd.Name)+": ")
		}
		f.head = []string{"{\n  \"version\": "}
		if f.Next != "" {
			f.head = append(f.head, ",\n  "+strconv.Quote(f.Next)+": ")
		}
		f.head = append(f.head, ",\n  "+strconv.Quote(f.Array)+": ["+elemIndent)
	})
}

// newHead is the head an encode writes for a document of f with the
// header's integer next (left out when f has none), up to the first
// element: `{"version": 1, "nextId": 3, "records": [` in encode's layout.
func (f *Format[E]) newHead(next int) []byte {
	f.layout()
	head := make([]byte, 0, 64)
	head = append(head, f.head[0]...)
	head = strconv.AppendInt(head, int64(f.Version), 10)
	if f.Next != "" {
		head = append(head, f.head[1]...)
		head = strconv.AppendInt(head, int64(next), 10)
	}
	return append(head, f.head[len(f.head)-1]...)
}
