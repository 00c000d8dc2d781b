package spawnlog

import (
	"errors"
	"io/fs"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/vfs"
)

// Read reads agent's spawn-log without its lock (a commit is a rename, so a
// reader sees one whole version). A spawn-log that does not exist yet is an
// empty log with NextID 1.
//
// Errors: an *estate.AgentError when agent is not a safe name; a
// *CorruptError when the file does not parse; the FS's.
func Read(fsys vfs.FS, agent string) (Log, error) {
	if err := estate.ValidateAgent(agent); err != nil {
		return Log{}, err
	}
	name := estate.SpawnLogPath(agent)
	data, _, err := vfs.ReadFile(fsys, name, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return Log{NextID: 1}, nil
	}
	if err != nil {
		return Log{}, err
	}
	return Parse(name, data)
}
