package board

import (
	"bytes"
	"testing"
)

// The board's restore gives a dead writer's complete temp file back
// whole, ranked by its items, so that of two the fuller board wins; one
// with no item, or torn, restores nothing.
func TestRestoreRanksByItems(t *testing.T) {
	one := []byte(`{"version":1,"items":[{"dispatchId":1,"title":"a","addedAt":"2026-11-29T15:42:59.123Z"}]}`)
	two := []byte(`{"version":1,"items":[{"dispatchId":1,"title":"a","addedAt":"2026-11-29T15:42:59.123Z"},{"dispatchId":2,"title":"b","addedAt":"2026-11-29T15:43:00.000Z"}]}`)
	c1, r1, ok1 := Restore(one, false)
	c2, r2, ok2 := Restore(two, false)
	if !ok1 || !ok2 || !bytes.Equal(c1, one) || !bytes.Equal(c2, two) || r1 != 1 || r2 != 2 {
		t.Errorf("Restore(one item) = %q, %d, %v; Restore(two, false) = %q, %d, %v; want each whole, ranked 1 and 2", c1, r1, ok1, c2, r2, ok2)
	}
	for _, bad := range []string{
		`{"version":1,"items":[]}`,                  // no item: nothing to restore
		`{"version":1,"items":[{"dispatchId":1,"ti`, // torn
	} {
		if content, _, ok := Restore([]byte(bad), false); ok {
			t.Errorf("Restore(%s) = %q; want nothing restored", bad, content)
		}
	}
}
