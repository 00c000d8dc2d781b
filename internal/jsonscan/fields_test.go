package jsonscan

import "testing"

// TestObject: Object takes {} (no key met: 0) and an object of plain keys,
// each once, and refuses one cut short, with a ',' before its '}', or a
// key twice (the bit field gives it met again).
func TestObject(t *testing.T) {
	for in, want := range map[string]int{`{}`: 0, " { \n} ": 0, `{"a":1}`: 1, `{"a":1,"b":2}`: 3, `{"b":2,"a":1}`: 3} {
		s := Scanner{Data: []byte(in)}
		if seen, ok := s.Object(func(key []byte) (int, bool) { return int(key[0]-'a') + 1, s.Skip() }); !ok || seen != want || !s.End() {
			t.Errorf("Object(%q) = %d, %v; want %d, ok", in, seen, ok, want)
		}
	}
	for _, in := range []string{`{`, `{"a":1`, `{"a":1,}`, `{"a":1,"a":2}`, `{"a" 1}`, `{1:1}`, `[]`, ``} {
		s := Scanner{Data: []byte(in)}
		if seen, ok := s.Object(func(key []byte) (int, bool) { return 1, s.Skip() }); ok {
			t.Errorf("Object(%q) = %d, ok; want not ok", in, seen)
		}
	}
}

// TestEqualFoldEdges: EqualFold folds every ASCII capital, 'A' and 'Z'
// included, and nothing around them ('@', '[', '`', '{').
func TestEqualFoldEdges(t *testing.T) {
	for _, tc := range []struct {
		key, word string
		want      bool
	}{{"AZ", "az", true}, {"az", "AZ", true}, {"@", "`", false}, {"[", "{", false}, {"`", "@", false}, {"{", "[", false}} {
		if got := EqualFold([]byte(tc.key), tc.word); got != tc.want {
			t.Errorf("EqualFold(%q, %q) = %v; want %v", tc.key, tc.word, got, tc.want)
		}
	}
}
