package estatetest

import (
	"maps"
	"strings"
)

// IsIncidentLog reports whether name, a slash or OS path under an estate,
// is a lock's incident log ("<lock>.incidents.jsonl", locking.IncidentsName),
// which a timeout, an automatic break and a forced unlock append to and
// no step removes (docs/spawn-log-lock.md, "The incident log").
func IsIncidentLog(name string) bool { return strings.HasSuffix(name, ".lock.incidents.jsonl") }

// WithoutIncidentLogs returns snap (a Snapshot or any map keyed by name)
// with the incident logs deleted from it: what a test of "the estate is
// unchanged" compares, a timeout or a break having appended its row.
func WithoutIncidentLogs(snap map[string]string) map[string]string {
	maps.DeleteFunc(snap, func(name, _ string) bool { return IsIncidentLog(name) })
	return snap
}
