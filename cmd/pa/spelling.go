package main

import (
	"errors"
	"path"
	"strconv"
	"strings"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/vfs"
)

// agentSpelling is nil unless agent's name reaches a folder that the
// volume lists under another spelling (estate.CheckSpelling: agents/Log
// for --agent log on exFAT, NTFS or APFS): then it is the usage error (exit
// 1) of spellingLine, before anything is written. Every command given an
// agent (open, list, board check, board repair, unlock) calls it through
// agentFolder or knownAgent.
func agentSpelling(fsys vfs.FS, agent string) error {
	var se *estate.SpellingError
	if err := estate.CheckSpelling(fsys, agent); errors.As(err, &se) {
		return fail(exitUsage, "%s", spellingLine(se))
	}
	return nil
}

// spellingLine words an *estate.SpellingError: `agent "log" is spelled
// "Log" on disk (agents/Log): this volume ignores case; use --agent Log`.
// Two names that differ only in their Unicode form are shown with \u
// escapes, so that the line does not show the same name twice.
func spellingLine(e *estate.SpellingError) string {
	if e.OnDisk == "" {
		return "agent " + strconv.Quote(e.Agent) + " reaches a folder of " + estate.AgentsDir +
			" that is listed under another name: this volume takes the two names for one; look at " +
			estate.AgentsDir + " by hand and use --agent with the name it lists"
	}
	quote := strconv.Quote
	if quote(e.Agent) == quote(e.OnDisk) || !termsafe.Clean(e.OnDisk) {
		quote = strconv.QuoteToASCII
	}
	why := "this volume ignores case"
	if !strings.EqualFold(e.Agent, e.OnDisk) {
		why = "this volume takes the two names for one"
	}
	return "agent " + quote(e.Agent) + " is spelled " + quote(e.OnDisk) + " on disk (" +
		path.Join(estate.AgentsDir, termsafe.Cap(e.OnDisk)) + "): " + why + "; use " + agentFlag(e.OnDisk)
}
