package dispatch

import (
	"path"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/vfs"
)

// listedTwice returns a [KindListedTwice] problem for the spawn-log and
// for the board of agent when its folder lists it more than once. A folder
// that cannot be listed reports nothing here: reading its file reports it.
func listedTwice(fsys vfs.FS, agent string) []Problem {
	var problems []Problem
	for _, name := range []string{estate.SpawnLogPath(agent), estate.BoardPath(agent)} {
		entries, err := fsys.ReadDir(path.Dir(name))
		if err != nil {
			continue
		}
		if times := vfs.CountNamed(entries, path.Base(name)); times > 1 {
			problems = append(problems, Problem{Kind: KindListedTwice, Agent: agent, Path: name, Times: times})
		}
	}
	return problems
}

// maxDispatch is the highest dispatch id b lists, 0 for none.
func maxDispatch(b board.Board) int {
	top := 0
	for _, it := range b.Items {
		top = max(top, it.DispatchID)
	}
	return top
}
