package crashfs

import (
	"slices"
	"sort"
)

// A folder's live entries are a list of slots sorted by name, in which a
// name may have more than one entry: an exFAT rename cut between writing
// its new entry and removing the replaced one leaves the name twice on the
// disk, and Linux's exFAT driver keeps both, with nothing that notices. A
// name's entries are in directory order: lookups find the first, a listing
// shows them all, and removing or renaming the name takes the first away,
// after which lookups find the next.

// find returns where name's first entry is in ents, or where it would go,
// and whether name has an entry.
func find(ents []slot, name string) (int, bool) {
	i := sort.Search(len(ents), func(i int) bool { return ents[i].name >= name })
	return i, i < len(ents) && ents[i].name == name
}

// entry returns the inode that lookups of name in folder n find: its first
// entry.
func (n *inode) entry(name string) (ino int, ok bool) {
	if i, ok := find(n.ents, name); ok {
		return n.ents[i].ino, true
	}
	return 0, false
}

// put adds the entry name -> ino to folder n, after name's other entries:
// where a name is held already, lookups go on finding the entry they
// found.
func (n *inode) put(name string, ino int) {
	i := sort.Search(len(n.ents), func(i int) bool { return n.ents[i].name > name })
	n.ents = slices.Insert(n.ents, i, slot{name, ino})
}

// drop removes name's first entry that leads to ino from folder n: the
// entry a lookup found when the operation was made.
func (n *inode) drop(name string, ino int) {
	i, _ := find(n.ents, name)
	for ; i < len(n.ents) && n.ents[i].name == name; i++ {
		if n.ents[i].ino == ino {
			n.ents = slices.Delete(n.ents, i, i+1)
			return
		}
	}
}
