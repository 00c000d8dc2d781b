//go:build unix

package spawnlog

import (
	"testing"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/readmaptest"
	"github.com/pa-toolkit/pa/vfs"
)

// Read maps the spawn-log: what it returns outlives the mapping, a huge
// file that does not parse is refused unread, and a file cut short while
// it is read is an error, never a crash (readmaptest).
func TestReadOfAMappedLog(t *testing.T) {
	readmaptest.Run(t, readmaptest.Case{
		What: "spawn-log", Path: estate.SpawnLogPath("demo"), File: benchLog(2000), N: 2000,
		Read: func(fsys vfs.FS) (int, func() []byte, error) {
			l, err := Read(fsys, "demo")
			return len(l.Records), l.encode, err
		},
		Corrupt: ErrCorrupt, AfterParse: &afterParse,
	})
}
