package doccheck

import (
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
)

// Every exported identifier of the module has a doc comment.
func TestModuleIsDocumented(t *testing.T) {
	missing, err := Module("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range missing {
		t.Errorf("%s has no doc comment", m)
	}
}

// The checker finds each kind of undocumented exported identifier and
// accepts each way of documenting one.
func TestFile(t *testing.T) {
	const src = `package p

func Bare() {}

// Doc is documented.
func Doc() {}

type T struct {
	Field   int
	Commented int // a trailing comment documents a field
	// Documented has a doc.
	Documented int
	hidden  int
	A, B    string
	Embedded
}

// U is documented.
type U interface {
	Method()
	Said() // said
}

type u struct{ Field int }

func (T) Method()   {}
func (*T) Pointer() {}
func (u) Method()   {}
func (t T) hidden() {}

// Method is documented.
func (U2) Method() {}

// U2 is documented.
type U2 int

type (
	// Grouped is documented in a group.
	Grouped int
	Ungrouped int
)

const Lone = 1

// Loud is documented.
const Loud = 2

// The consts of a documented group.
const (
	X = iota
	Y
)

const (
	Z = iota // a trailing comment
	W
)

var V, v int
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range File(fset, f) {
		got = append(got, m.What)
	}
	want := []string{
		"func Bare",
		"type T", "field T.Field", "field T.A", "field T.B",
		"interface method U.Method",
		"method T.Method", "method T.Pointer",
		"type Ungrouped",
		"const Lone",
		"const W",
		"var V",
	}
	if !slices.Equal(got, want) {
		t.Errorf("found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
