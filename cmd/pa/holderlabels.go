package main

import (
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/policy"
)

// The operations pa names in a lock's record (locking.Options Operation),
// for an operator who finds the lock held.
const (
	operationOpen   = "dispatch open"
	operationRepair = "board repair"
	// operationUnlock is no hold's: it labels the process that forced a
	// lock in the lock's incident row ("by").
	operationUnlock = "dispatch unlock"
)

// withLabels returns opts with the holder's labels for a hold of agent's
// lock by operation under policy p (docs/spawn-log-lock.md, "The holder's
// public-safe fields"). An agent's name that is no public-safe label (a
// safe folder name may hold characters a label may not) is left out of the
// record rather than refused: the record is for the operator, the name is
// the agent's.
func withLabels(opts locking.Options, agent, operation string, p policy.Policy) locking.Options {
	if locking.ValidLabel(agent) {
		opts.Agent = agent
	}
	opts.Operation, opts.Policy = operation, p.String()
	return opts
}
