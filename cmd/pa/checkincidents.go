package main

import (
	"fmt"
	"time"

	"github.com/pa-toolkit/pa/internal/display"
	"github.com/pa-toolkit/pa/vfs"
)

// incidentNote is what board check says of an agent's recent lock
// incidents: how many rows its spawn-log lock's incident log has of the
// last stale window, and the command that lists them.
type incidentNote struct {
	Agent   string `json:"agent"`
	Count   int    `json:"count"`
	Command string `json:"command"`
	Line    string `json:"line"`
}

// incidentNotes are the notes of agents' incident logs in fsys, in the
// estate home: one per agent with rows at or after now-window. A log that
// cannot be read is left to dispatch incidents to say: a note is no
// problem, and changes no exit code.
func incidentNotes(fsys vfs.FS, home string, agents []string, window time.Duration, now time.Time) []incidentNote {
	notes := []incidentNote{}
	for _, agent := range agents {
		rows := readIncidents(fsys, []string{agent}, now.Add(-window)).rows
		if len(rows) == 0 {
			continue
		}
		cmd := programFor(home) + " dispatch incidents " + agentFlag(agent)
		line := fmt.Sprintf("%d lock incidents in the last %s: %s", len(rows), display.Age(window), cmd)
		if len(rows) == 1 {
			line = fmt.Sprintf("1 lock incident in the last %s: %s", display.Age(window), cmd)
		}
		notes = append(notes, incidentNote{Agent: agent, Count: len(rows), Command: cmd, Line: line})
	}
	return notes
}
