//go:build unix

package jsondoc

import (
	"testing"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/readmaptest"
	"github.com/pa-toolkit/pa/vfs"
)

// Read maps a spawn-log: what it returns outlives the mapping, a huge
// file that does not parse is refused unread, and a file cut short while
// it is read is an error, never a crash (readmaptest).
func TestReadOfAMappedLog(t *testing.T) {
	readmaptest.Run(t, readmaptest.Case{
		What: "spawn-log", Path: estate.SpawnLogPath("demo"), File: benchLog(2000), N: 2000,
		Read: func(fsys vfs.FS) (int, func() []byte, error) {
			d, err := Read(logFormat, fsys, estate.SpawnLogPath("demo"))
			l := logOf(d)
			return len(l.Records), l.encode, err
		},
		Corrupt: ErrCorrupt, AfterParse: &afterParse,
	})
}

// Read maps a board: what it returns outlives the mapping, a huge file
// that does not parse is refused unread, and a file cut short while it is
// read is an error, never a crash (readmaptest).
func TestReadOfAMappedBoard(t *testing.T) {
	readmaptest.Run(t, readmaptest.Case{
		What: "board", Path: estate.BoardPath("demo"), File: benchBoard(2000), N: 2000,
		Read: func(fsys vfs.FS) (int, func() []byte, error) {
			d, err := Read(boardFormat, fsys, estate.BoardPath("demo"))
			b := Board{Items: d.Elems, raw: d.Raw}
			return len(b.Items), b.encode, err
		},
		Corrupt: ErrCorrupt, AfterParse: &afterParse,
	})
}
