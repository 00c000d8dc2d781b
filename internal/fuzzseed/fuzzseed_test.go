package fuzzseed

import "testing"

func TestPrintable(t *testing.T) {
	for s, want := range map[string]bool{
		"": true, "a b": true, "agents/demo: id 3 «é»": true,
		"a\nb": false, "\x1b[2J": false, "\xff": false, "a\u00a0b": false, "\u202e": false, "\t": false,
	} {
		if got := Printable(s); got != want {
			t.Errorf("Printable(%q) = %v, want %v", s, got, want)
		}
	}
}
