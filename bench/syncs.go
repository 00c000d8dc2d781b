package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// A syncVariant is this project's lock with one kind of its syncs dropped:
// locking.Update on vfs/osfs through a faultfs whose Drop rule makes the
// matching fsyncs return without syncing. Beside the variant that keeps
// every sync (through the same faultfs), in the same round, it gives what
// that kind of sync costs an update on this machine's disk.
type syncVariant struct {
	Contender
	// Drop is the faultfs pattern of the syncs dropped; "" with All false
	// drops none.
	Drop string
	// All drops every sync.
	All bool
	// Needs is what the dropped sync guards, as the power-cut run and its
	// mutation show (docs/spawn-log-lock.md, "A power cut").
	Needs string
}

// The names of the syncs of one update with hard links: the acquire's
// pending file before its link(), the commit's temp file before its
// rename, and the folder after that rename.
const (
	pendingSyncs = "*.lock.pending-*"
	tempSyncs    = "*.tmp-*"
	folderSyncs  = "."
)

// syncVariants are the syncs measure's rows: on each class, every sync
// kept (the baseline), then each kind dropped in turn, then none.
var syncVariants = []syncVariant{
	newSyncVariant("syncs-links-all", "hard links, every sync", true, "", false, ""),
	newSyncVariant("syncs-links-pending", "hard links, no sync of the pending file", true, pendingSyncs, false,
		"a cut can land the link and not the record: an empty lock, a block no boot id proves dead (mutation \"link a pending file that is not synced\")"),
	newSyncVariant("syncs-links-temp", "hard links, no sync of the temp file", true, tempSyncs, false,
		"a cut can land the rename and not the data: a reported dispatch lost (\"commit a temp file that is not synced\")"),
	newSyncVariant("syncs-links-folder", "hard links, no sync of the folder", true, folderSyncs, false,
		"a cut can lose the rename: a reported dispatch lost (\"commit without syncing the folder after the rename\")"),
	newSyncVariant("syncs-links-none", "hard links, no sync at all", true, "", true, "all of the above"),
	newSyncVariant("syncs-nolinks-all", "no hard links, every sync", false, "", false, ""),
	newSyncVariant("syncs-nolinks-pending", "no hard links, no sync of the pending file", false, pendingSyncs, false,
		"nothing on this class: the link() is refused and the pending file removed unpublished; the sync is kept because the lock cannot know the link() will fail before it tries it"),
}

// newSyncVariant makes a syncVariant of the lock with hard links or
// without (vfs/nolinkfs), dropping the syncs drop matches (all of them
// with all).
func newSyncVariant(key, name string, links bool, drop string, all bool, needs string) syncVariant {
	v := syncVariant{Drop: drop, All: all, Needs: needs}
	v.Contender = Contender{Key: key, Name: name, Locks: true,
		Open: func(dir string) (Instance, error) {
			return orNil(openPAWrapped(dir, links, v.wrap))
		}}
	return v
}

// wrap puts fsys under a faultfs that drops this variant's syncs.
func (v syncVariant) wrap(fsys vfs.FS) vfs.FS {
	f := faultfs.New(fsys)
	switch {
	case v.All:
		f.Fail(faultfs.Rule{Op: faultfs.OpSync, Drop: true})
	case v.Drop != "":
		f.Fail(faultfs.Rule{Op: faultfs.OpSync, Match: v.Drop, Drop: true})
	}
	return f
}

// syncsContenders are the variants as the uncontended rounds run them.
func syncsContenders() []Contender {
	cs := make([]Contender, len(syncVariants))
	for i, v := range syncVariants {
		cs[i] = v.Contender
	}
	return cs
}

// measureSyncs runs rounds of the uncontended measure (uncontendedRound:
// one process, the variants' slices interleaved, the order rotating) over
// the sync variants in base.
func measureSyncs(label, base string, records, updates, rounds int, progress func(string)) (*uncontendedResult, error) {
	res := &uncontendedResult{Label: label, Dir: base, Records: records, Updates: updates, PerUpdate: map[string][]time.Duration{}}
	for r := range rounds {
		progress(fmt.Sprintf("syncs on the %s: round %d/%d", label, r+1, rounds))
		per, err := uncontendedRound(rotate(syncsContenders(), r), base, records, updates)
		if err != nil {
			return nil, err
		}
		for k, d := range per {
			res.PerUpdate[k] = append(res.PerUpdate[k], d)
		}
	}
	return res, nil
}

// baselineOf is the variant of v's class that keeps every sync.
func baselineOf(v syncVariant) syncVariant {
	for _, b := range syncVariants {
		if b.Drop == "" && !b.All && b.linksClass() == v.linksClass() {
			return b
		}
	}
	panic("bench: no baseline for " + v.Key)
}

// linksClass is the class part of the variant's key: "links" or "nolinks".
func (v syncVariant) linksClass() string {
	return strings.Split(v.Key, "-")[1]
}

// syncsTable is the syncs measure: each variant's median time per update,
// the median of its per-round ratio to its class's baseline, and the
// median per-round time the dropped syncs cost.
func syncsTable(u *uncontendedResult, fs string) table {
	t := table{
		Title: fmt.Sprintf("7. The lock's syncs, on the %s (%s)", u.Label, fs),
		Head:  []string{"variant", "per update", "vs every sync", "the dropped syncs' cost", "what a power cut does without them"},
		Notes: []string{fmt.Sprintf("locking.Update on vfs/osfs through vfs/vfstest/faultfs, whose Drop rule makes the matching fsyncs return at once without syncing (the baseline goes through the same faultfs, dropping none). One process; per variant and round, %d updates (after %d untimed) of its own file of %d records, in slices of %d with the variants interleaved, as the uncontended measure; %d rounds, the order rotating; medians of per-round figures. One update with hard links syncs three times: the pending file before its link(), the temp file before its rename, the folder after it; without hard links, the directory publish adds its staged record and directory, and the release syncs the folder between its move and its removal. Every sync of the class with hard links is kept: removing any of the three makes the power-cut run fail (the mutation in the last column; docs/spawn-log-lock.md, \"A power cut\"; `go run ./conformance/mutate`). Without hard links the pending file's sync buys nothing (that file is removed unpublished), but the lock learns that link() is refused only by trying it, once per hold.",
			u.Updates, uncontendedWarmup, u.Records, uncontendedSlice, len(u.PerUpdate[syncVariants[0].Key]))},
	}
	for _, v := range syncVariants {
		d := u.PerUpdate[v.Key]
		base := u.PerUpdate[baselineOf(v).Key]
		row := []string{v.Name, fmtDur(median(d)), fmtRatio(median(pairedRatios(d, base))), "-", "-"}
		if baselineOf(v).Key != v.Key {
			row[3], row[4] = fmtDur(median(pairedDiffs(base, d))), v.Needs
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
