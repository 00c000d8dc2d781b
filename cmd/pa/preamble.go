package main

import (
	"time"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
)

// The preambles of the commands over one agent or every agent: what they
// check and open, in that order, before they read or write anything, so
// that each refuses the same input with the same line.

// openAgents opens the estate for a command that creates nothing (list,
// board check, board repair) over agent, "" for every agent: a bad agent
// name is refused before anything is opened (checkAgent), then the estate
// is opened (openEstate), an agent named that has no folder is refused
// (knownAgent), with folder so is an agent folder that is no folder
// (agentFolder; board check reports it as a problem instead), and the
// agents to act on are listed (agentsOf). On an error nothing stays open;
// otherwise the caller closes the estate.
func (g *globals) openAgents(agent string, folder bool) (vfs.FS, func(), []string, error) {
	if agent != "" {
		if err := checkAgent(agent); err != nil {
			return nil, nil, nil, err
		}
	}
	fsys, closeFS, err := g.openEstate(false)
	if err != nil {
		return nil, nil, nil, err
	}
	agents, err := g.agentsIn(fsys, agent, folder)
	if err != nil {
		closeFS()
		return nil, nil, nil, err
	}
	return fsys, closeFS, agents, nil
}

// agentsIn is the part of openAgents after the estate is opened: the agent
// named known, its folder a folder (with folder), and the agents to act on.
func (g *globals) agentsIn(fsys vfs.FS, agent string, folder bool) ([]string, error) {
	if err := g.knownAgent(fsys, agent); err != nil {
		return nil, err
	}
	if folder && agent != "" {
		if err := agentFolder(fsys, agent); err != nil {
			return nil, err
		}
	}
	return agentsOf(fsys, agent)
}

// openLocked opens the estate for a command that takes the spawn-log lock
// and waits wait for it (dispatch open, board repair) over agent, "" for
// every agent: a bad agent name is refused first (checkAgent), then a bad
// --wait (lockOptions), then the estate is opened. With create (dispatch
// open) the estate's folder is created when missing, and the agent, which
// open creates too, needs no folder yet, only one that is a folder when it
// is there (agentFolder); without it the estate and the agent named must
// exist (openAgents). It returns the lock's options and the agents to act
// on; on an error nothing stays open, otherwise the caller closes the
// estate.
func (g *globals) openLocked(agent string, wait time.Duration, create bool) (locking.Options, vfs.FS, func(), []string, error) {
	var opts locking.Options
	if agent != "" {
		if err := checkAgent(agent); err != nil {
			return opts, nil, nil, nil, err
		}
	}
	opts, err := lockOptions(wait)
	if err != nil {
		return opts, nil, nil, nil, err
	}
	fsys, closeFS, err := g.openEstate(create)
	if err != nil {
		return opts, nil, nil, nil, err
	}
	agents := []string{agent}
	if create {
		err = agentFolder(fsys, agent)
	} else {
		agents, err = g.agentsIn(fsys, agent, true)
	}
	if err != nil {
		closeFS()
		return opts, nil, nil, nil, err
	}
	return opts, fsys, closeFS, agents, nil
}
