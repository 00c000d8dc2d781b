package crashfs

import (
	"io/fs"
	"slices"
	"strings"
	"time"
)

// rootIno is the inode of the root folder.
const rootIno = 1

// inode is one file or folder of a model: what every caller sees now (the
// live view) and what the disk holds for it (the durable view: the content
// or the entries at its last sync, and the ordered changes since).
type inode struct {
	dir   bool
	perm  fs.FileMode
	mtime time.Time

	data  []byte   // a file's live content
	ents  []slot   // a folder's live entries, by name (entries.go)
	sdata []byte   // a file's content at its last fsync
	fpend []fileOp // a file's writes and truncations since
	sents []slot   // a folder's entries at its last sync, in order
	dpend []dirOp  // a folder's entry operations since
}

// fileOp is a write (data at off) or a truncation (to size).
type fileOp struct {
	trunc bool
	off   int64
	data  []byte
	size  int64
}

// slot is one directory entry. A folder's slots may hold a name twice (an
// exFAT rename cut between writing the new entry and removing the replaced
// one): the next boot keeps both (byName).
type slot struct {
	name string
	ino  int
}

// part is one entry write of a directory operation: a slot added or a slot
// removed.
type part struct {
	del bool
	slot
}

// dirOp is one directory operation as it reaches the disk: its parts land
// all together (atomic) or, for an exFAT rename, in any subset.
type dirOp struct {
	label  string
	atomic bool
	parts  []part
}

// model is the state of the volume: every inode ever made, by number.
type model struct {
	inodes map[int]*inode
	next   int
}

func newModel(now time.Time) *model {
	return &model{
		inodes: map[int]*inode{rootIno: {dir: true, perm: 0o755, mtime: now}},
		next:   rootIno + 1,
	}
}

// clone copies m deeply enough that applying operations to the copy leaves
// m as it was: op data slices are shared, never written.
func (m *model) clone() *model {
	c := &model{inodes: make(map[int]*inode, len(m.inodes)), next: m.next}
	for id, n := range m.inodes {
		k := *n
		k.data = slices.Clone(n.data)
		k.sdata = slices.Clone(n.sdata)
		k.ents = slices.Clone(n.ents)
		k.fpend = slices.Clone(n.fpend)
		k.sents = slices.Clone(n.sents)
		k.dpend = slices.Clone(n.dpend)
		c.inodes[id] = &k
	}
	return c
}

// applyParts applies parts to slots and returns them. A new entry goes
// after the slots there are, or with front before the first slot of its
// name (it landed in a free slot ahead of that one); a removal takes the
// first slot that equals it.
func applyParts(slots []slot, parts []part, front bool) []slot {
	for _, p := range parts {
		if !p.del {
			i := len(slots)
			if front {
				if j := slices.IndexFunc(slots, func(s slot) bool { return s.name == p.name }); j >= 0 {
					i = j
				}
			}
			slots = slices.Insert(slots, i, p.slot)
			continue
		}
		if i := slices.Index(slots, p.slot); i >= 0 {
			slots = slices.Delete(slots, i, i+1)
		}
	}
	return slots
}

// landed returns the parts of o in mask: bit i for part i.
func (o dirOp) landed(mask uint64) []part {
	var parts []part
	for i, p := range o.parts {
		if mask&(1<<i) != 0 {
			parts = append(parts, p)
		}
	}
	return parts
}

// byName orders a folder's slots on the disk as the next boot's live view
// holds them, and returns them: sorted by name, a name's slots kept in
// their order on the disk. A name held twice (an exFAT rename's new entry
// landed and the replaced one's removal not) keeps both entries, as
// Linux's exFAT driver does: lookups find the first in directory order
// (the new entry when it landed in a free slot ahead of the replaced one,
// a choice of the cut), a listing shows both, and once the first is
// removed or renamed away lookups find the other.
func byName(slots []slot) []slot {
	slices.SortStableFunc(slots, func(a, b slot) int { return strings.Compare(a.name, b.name) })
	return slots
}

// writeAt returns data with p written at off, zero-filled up to off.
func writeAt(data []byte, off int64, p []byte) []byte {
	if end := off + int64(len(p)); end > int64(len(data)) {
		data = append(data, make([]byte, end-int64(len(data)))...)
	}
	copy(data[off:], p)
	return data
}

// truncate returns data cut or zero-extended to size.
func truncate(data []byte, size int64) []byte {
	if size <= int64(len(data)) {
		return data[:size]
	}
	return append(data, make([]byte, size-int64(len(data)))...)
}

func (o fileOp) apply(data []byte) []byte {
	if o.trunc {
		return truncate(data, o.size)
	}
	return writeAt(data, o.off, o.data)
}
