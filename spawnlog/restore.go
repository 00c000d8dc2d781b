package spawnlog

import (
	"github.com/pa-toolkit/pa/internal/lockspec"
)

// restorer is the spawn-log's lockspec.Restorer: for the complete temp
// file of a writer that died in its commit (the spawn-log missing, after a
// power cut inside the commit's rename on exFAT), the spawn-log as it was
// before that commit: every record but the writer's own, the last, which
// was never reported (an open reports once the rename's folder is synced),
// and the nextId that writer read, its own record's id. Its rank is that
// nextId. A temp file that does not parse (torn: cut before its sync) or
// holds only the writer's own record (no earlier record to keep) restores
// nothing. A keep file (whole: the spawn-log as a settle or a restore
// committed it, with no record of its own) restores whole, ranked by its
// nextId, when it parses.
func restorer(data []byte, whole bool) ([]byte, uint64, bool) {
	log, err := Parse("", data)
	if whole {
		return data, uint64(log.NextID), err == nil
	}
	if err != nil || len(log.Records) < 2 {
		return nil, 0, false
	}
	last := len(log.Records) - 1
	next := log.Records[last].ID
	for _, r := range log.Records[:last] {
		if r.ID >= next {
			return nil, 0, false // not the shape an append writes
		}
	}
	return encode(next, log.raw[:last]), uint64(next), true
}

// withRestore returns opts with the spawn-log's restorer set, its
// observer (cmd/pa's) kept.
func withRestore(opts lockspec.Options) lockspec.Options {
	onRestore := lockspec.OnRestoreOf(opts)
	lockspec.SetRestore(&opts, restorer, onRestore)
	return opts
}
