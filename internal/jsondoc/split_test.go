package jsondoc

import (
	"testing"

	"github.com/pa-toolkit/pa/internal/jsonscan"
)

// TestSplitElemsContract: splitElems is sure only when its first half
// ended an element exactly at the split and both halves read at least one
// element; a run breaking its contract (ok but not ended, or ended with
// nothing read) makes it "not sure", whatever the other half says.
func TestSplitElemsContract(t *testing.T) {
	data := []byte(`[1,2,3,4,5,6,7,8},` + "\n    " + `{9]`) // the layout past the middle
	const sep = "},\n    {"
	join := func(a, b int) int { return a + b }
	for name, first := range map[string]func(*jsonscan.Scanner, *bounds) (bool, bool){
		"ok, not ended":        func(s *jsonscan.Scanner, e *bounds) (bool, bool) { e.N = 1; return false, true },
		"ended, nothing read":  func(s *jsonscan.Scanner, e *bounds) (bool, bool) { return true, true },
		"ended, not ok":        func(s *jsonscan.Scanner, e *bounds) (bool, bool) { e.N = 1; return true, false },
		"neither ended nor ok": func(s *jsonscan.Scanner, e *bounds) (bool, bool) { e.N = 1; return false, false },
	} {
		for secondN := range 2 {
			run := func(s *jsonscan.Scanner, e *bounds, into *int, stop int) (bool, bool) {
				if stop >= 0 {
					return first(s, e)
				}
				e.N = secondN
				s.Pos = len(s.Data)
				return false, true
			}
			if _, _, _, ok := splitElems(data, 1, sep, 0, run, join); ok {
				t.Errorf("first half %s, second %d elements: splitElems ok; want not sure", name, secondN)
			}
		}
	}
	good := func(s *jsonscan.Scanner, e *bounds, into *int, stop int) (bool, bool) {
		e.N, *into = 1, 1
		if stop >= 0 {
			s.Pos = stop
			return true, true
		}
		s.Pos = len(s.Data)
		return false, true
	}
	if e, n, end, ok := splitElems(data, 1, sep, 0, good, join); !ok || e.N != 2 || n != 2 || end != len(data) {
		t.Errorf("both halves keeping the contract: splitElems = %+v, %d, %d, %v; want 2 elements, joined 2, ending at %d", e, n, end, ok, len(data))
	}
	// Two halves with no ',' between them (a layout without one) are not
	// two runs of one array's elements.
	noComma := []byte(`[1,2,3,4,5,6,7,8}` + "\n    " + `{9]`)
	if _, _, _, ok := splitElems(noComma, 1, "}\n    {", 0, good, join); ok {
		t.Error("halves with no ',' between them: splitElems ok; want not sure")
	}
	good2 := func(s *jsonscan.Scanner, e *bounds, into *int, stop int) (bool, bool) {
		ended, ok := good(s, e, into, stop)
		if stop < 0 {
			e.N = 0
		}
		return ended, ok
	}
	if _, _, _, ok := splitElems(data, 1, sep, 0, good2, join); ok {
		t.Error("second half ok with nothing read: splitElems ok; want not sure")
	}
}
