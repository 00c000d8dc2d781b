package estate

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/vfs"
)

// AgentsDir is the folder that holds one folder per agent.
const AgentsDir = "agents"

// AgentDir is the folder of one agent, agents/<agent>. The name is not
// checked: call [ValidateAgent] first.
func AgentDir(agent string) string { return path.Join(AgentsDir, agent) }

// SpawnLogPath is the agent's spawn-log, agents/<agent>/spawn-log.json.
func SpawnLogPath(agent string) string { return path.Join(AgentDir(agent), "spawn-log.json") }

// BoardDir is the agent's board folder, agents/<agent>/board.
func BoardDir(agent string) string { return path.Join(AgentDir(agent), "board") }

// BoardPath is the agent's board, agents/<agent>/board/board.json.
func BoardPath(agent string) string { return path.Join(BoardDir(agent), "board.json") }

// Agents lists the agents of the estate: the folders under agents/ whose
// names pass [ValidateAgent], sorted. An estate with no agents/ folder has
// none (nil, nil). Other errors are the FS's.
func Agents(fsys vfs.FS) ([]string, error) {
	entries, err := fsys.ReadDir(AgentsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var agents []string
	for _, e := range entries {
		if e.IsDir() && ValidateAgent(e.Name()) == nil {
			agents = append(agents, e.Name())
		}
	}
	return agents, nil
}

// Display shows name, a path under agent's folder, for a message: the agent
// segment capped for display (termsafe.Cap, spec: The lock file and
// the names beside it), as in agents/<capped>/spawn-log.json.lock. Display
// only: files and the commands a message names keep the whole agent.
func Display(agent, name string) string {
	dir := AgentDir(agent) + "/"
	if !strings.HasPrefix(name, dir) {
		return termsafe.Value(name)
	}
	return path.Join(AgentsDir, termsafe.Cap(agent), termsafe.Value(name[len(dir):]))
}
