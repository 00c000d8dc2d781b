//go:build unix

package board

import (
	"testing"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/readmaptest"
	"github.com/pa-toolkit/pa/vfs"
)

// Read maps the board: what it returns outlives the mapping, a huge file
// that does not parse is refused unread, and a file cut short while it is
// read is an error, never a crash (readmaptest).
func TestReadOfAMappedBoard(t *testing.T) {
	readmaptest.Run(t, readmaptest.Case{
		What: "board", Path: estate.BoardPath("demo"), File: benchBoard(2000), N: 2000,
		Read: func(fsys vfs.FS) (int, func() []byte, error) {
			b, err := Read(fsys, "demo")
			return len(b.Items), b.encode, err
		},
		Corrupt: ErrCorrupt, AfterParse: &afterParse,
	})
}
