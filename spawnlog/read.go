package spawnlog

import (
	"errors"
	"io/fs"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/jsondoc"
	"github.com/pa-toolkit/pa/vfs"
)

// Read reads agent's spawn-log without its lock (a commit is a rename, so a
// reader sees one whole version). A spawn-log that does not exist yet is an
// empty log with NextID 1.
//
// The file is mapped where the FS can (jsondoc.Read, mapread.File), so that a file that
// does not parse is refused without being read into memory whole (a
// spawn-log of gigabytes of garbage costs a board check no more than its
// first bytes); the bytes a parsed log keeps are copied out of the mapping
// as one block (mapread.Detach) before it is released.
//
// Errors: an *estate.AgentError when agent is not a safe name; a
// *CorruptError when the file does not parse; a *fs.PathError wrapping
// vfs.ErrChanged when the mapped file was cut short while it was parsed or
// copied out; the FS's.
func Read(fsys vfs.FS, agent string) (Log, error) {
	if err := estate.ValidateAgent(agent); err != nil {
		return Log{}, err
	}
	d, err := jsondoc.Read(format, fsys, estate.SpawnLogPath(agent))
	if errors.Is(err, fs.ErrNotExist) {
		return Log{NextID: 1}, nil
	}
	if err != nil {
		return Log{}, err
	}
	return fromDoc(d), nil
}
