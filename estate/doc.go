// Package estate names the files of a pa estate, the folder (PA_HOME, by
// default ~/.pa) that holds every agent's spawn-log and board:
//
//	agents/<agent>/spawn-log.json        the spawn-log (package spawnlog)
//	agents/<agent>/spawn-log.json.lock   its lock (package locking)
//	agents/<agent>/board/board.json      the agent's board (package board)
//
// An agent name is one safe path segment ([ValidateAgent]); a name that is
// not is a usage error that touches nothing; so is one that the volume
// resolves to a folder spelled otherwise on disk ([CheckSpelling]: log for
// agents/Log where case is ignored).
// Every name here is slash-separated and relative to the estate's root, as a
// vfs.FS expects.
package estate
