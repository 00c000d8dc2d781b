package jsonscan

import (
	"strings"
	"testing"
)

// TestSkipDepthOfObjects: objects count towards MaxDepth as arrays do, alone
// and mixed with arrays (encoding/json refuses beyond 10000 levels of
// either, so an unbounded object depth would let the fast path take what
// the exact parser refuses).
func TestSkipDepthOfObjects(t *testing.T) {
	objects := func(n int) []byte {
		return []byte(strings.Repeat(`{"a":`, n-1) + `{}` + strings.Repeat(`}`, n-1))
	}
	mixed := func(n int) []byte {
		var b strings.Builder
		for i := range n {
			if i%2 == 0 {
				b.WriteString(`{"a":`)
			} else {
				b.WriteString(`[`)
			}
		}
		b.WriteString(`1`)
		for i := n - 1; i >= 0; i-- {
			if i%2 == 0 {
				b.WriteString(`}`)
			} else {
				b.WriteString(`]`)
			}
		}
		return []byte(b.String())
	}
	for _, c := range []struct {
		name string
		of   func(int) []byte
	}{{"objects", objects}, {"objects and arrays", mixed}} {
		if s := (Scanner{Data: c.of(MaxDepth)}); !s.Skip() || !s.End() {
			t.Errorf("Skip refuses %d nested %s; want them taken", MaxDepth, c.name)
		}
		if s := (Scanner{Data: c.of(MaxDepth + 1)}); s.Skip() {
			t.Errorf("Skip takes %d nested %s; want not sure", MaxDepth+1, c.name)
		}
		if s := (Scanner{Data: c.of(20000)}); s.Skip() {
			t.Errorf("Skip takes 20000 nested %s, which encoding/json refuses", c.name)
		}
	}
}
