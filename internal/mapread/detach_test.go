package mapread

import (
	"bytes"
	"testing"
)

// Detach moves the parts that are slices of data to one copy of it, with
// their bytes, lengths and capacities, and leaves the others alone.
func TestDetach(t *testing.T) {
	data := []byte(`{"a":1},{"b":2},{"c":3}`)
	other := []byte(`{"z":9}`)
	parts := [][]byte{data[0:7:7], other, data[8:15:15], data[16:], nil}
	got := Detach(parts, data)
	for i := range data {
		data[i] = 'X' // the source may go: the moved parts do not see it
	}
	want := []string{`{"a":1}`, `{"z":9}`, `{"b":2}`, `{"c":3}`, ``}
	for i, w := range want {
		if string(got[i]) != w {
			t.Errorf("part %d = %q; want %q", i, got[i], w)
		}
	}
	if &got[1][0] != &other[0] {
		t.Error("a part that is no slice of data was copied")
	}
	if cap(got[0]) != 7 || cap(got[2]) != 7 || cap(got[3]) != 7 {
		t.Errorf("caps %d %d %d; want 7 7 7 (kept, capped at data's end)", cap(got[0]), cap(got[2]), cap(got[3]))
	}
	if &got[0][0] == &got[2][0] || !bytes.Equal(got[0][:cap(got[0])], []byte(`{"a":1}`)) {
		t.Error("the moved parts do not share one copy laid out as data")
	}
	none := [][]byte{other}
	if Detach(none, nil)[0] == nil {
		t.Error("Detach with no data dropped a part")
	}
}
