package lockspec

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// chunks is a reader that returns its data in the chunks given, then EOF.
type chunks struct {
	parts [][]byte
	reads int
}

func (c *chunks) Read(p []byte) (int, error) {
	c.reads++
	if len(c.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.parts[0])
	if n < len(c.parts[0]) {
		c.parts[0] = c.parts[0][n:]
	} else {
		c.parts = c.parts[1:]
	}
	return n, nil
}

// readUpTo reads the whole file whatever the size it was stat'ed with (the
// file may have grown or shrunk since), never more than the limit, and
// with one read when the size is right.
func TestReadUpTo(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 20) // 200 bytes
	for _, c := range []struct {
		name        string
		size, limit int64
		parts       [][]byte
		want        []byte
		reads       int
	}{
		{"the stat'ed size", 200, 1000, [][]byte{data}, data, 1},
		{"empty", 0, 1000, nil, []byte{}, 1},
		{"grown since the stat", 100, 1000, [][]byte{data}, data, 3},
		{"shrunk since the stat", 300, 1000, [][]byte{data}, data, 2},
		{"short reads", 200, 1000, [][]byte{data[:50], data[50:120], data[120:]}, data, 3},
		{"longer than the limit", 200, 150, [][]byte{data}, data[:150], 1},
		{"grown past the limit", 10, 150, [][]byte{data}, data[:150], 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &chunks{parts: c.parts}
			got, err := readUpTo(r, c.size, c.limit)
			if err != nil || !bytes.Equal(got, c.want) {
				t.Fatalf("readUpTo = %d bytes, %v; want %d bytes", len(got), err, len(c.want))
			}
			if c.reads > 0 && r.reads != c.reads {
				t.Errorf("%d reads, want %d", r.reads, c.reads)
			}
		})
	}
	if _, err := readUpTo(errReader{}, 10, 100); err == nil {
		t.Error("a read error was not returned")
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("boom") }
