package crashfs

import (
	"fmt"
	"io/fs"
	"slices"
	"time"
)

// opKind names what an operation of the log does.
type opKind int

const (
	opCreate opKind = iota + 1
	opMkdir
	opWrite
	opTrunc
	opSync
	opLink
	opRename
	opRemove
	opChtimes
)

// op is one operation of the log, resolved to inodes when it was made: the
// log replays without looking names up.
type op struct {
	kind  opKind
	label string // what the caller did, for a state's description

	dir, ino int    // the folder and the inode it names (create, mkdir, link, remove, rename's source); the inode of a write, truncation, sync, chtimes
	name     string // the name in dir
	dir2     int    // rename: the target's folder
	name2    string // rename: the target's name
	rep      int    // rename: the inode it replaced, 0 for none
	off      int64  // write: the offset
	data     []byte // write: the bytes
	size     int64  // truncation: the new size
	perm     fs.FileMode
	mtime    time.Time
}

// apply makes op in m, on both the live and the durable view. exfat says
// how a rename reaches the disk.
func (m *model) apply(o *op, exfat bool) {
	switch o.kind {
	case opCreate, opMkdir:
		n := &inode{dir: o.kind == opMkdir, perm: o.perm, mtime: o.mtime}
		m.inodes[o.ino] = n
		m.next = max(m.next, o.ino+1)
		m.addEntry(o, o.dir, o.name, o.ino)
	case opLink:
		m.addEntry(o, o.dir, o.name, o.ino)
	case opWrite, opTrunc:
		n := m.inodes[o.ino]
		fo := fileOp{trunc: o.kind == opTrunc, off: o.off, data: o.data, size: o.size}
		n.data = fo.apply(n.data)
		n.fpend = append(n.fpend, fo)
		n.mtime = o.mtime
	case opSync:
		n := m.inodes[o.ino]
		if n.dir {
			n.sents = slices.Clone(n.ents)
			n.dpend = nil
		} else {
			n.sdata = slices.Clone(n.data)
			n.fpend = nil
		}
	case opRemove:
		d := m.inodes[o.dir]
		d.drop(o.name, o.ino)
		d.dpend = append(d.dpend, dirOp{label: o.label, atomic: true, parts: []part{{del: true, slot: slot{o.name, o.ino}}}})
	case opRename:
		m.rename(o, exfat)
	case opChtimes:
		m.inodes[o.ino].mtime = o.mtime
	default:
		panic(fmt.Sprintf("crashfs: unknown op %d", o.kind))
	}
}

func (m *model) addEntry(o *op, dir int, name string, ino int) {
	d := m.inodes[dir]
	d.put(name, ino)
	d.dpend = append(d.dpend, dirOp{label: o.label, atomic: true, parts: []part{{slot: slot{name, ino}}}})
}

// rename moves o.ino from (o.dir, o.name) to (o.dir2, o.name2), replacing
// o.rep there (the entries lookups found; the new entry goes after the
// target name's other entries, if any). In one folder it is one operation of that folder: atomic, or
// on exFAT three entry writes in any subset (new entry, old entry removed,
// replaced entry removed). Across two folders it is one operation in each,
// landing with each folder's own prefix: the target's folder gets the new
// entry (and the replaced one's removal, atomically unless exFAT), the
// source's folder gets the old entry's removal.
func (m *model) rename(o *op, exfat bool) {
	src, dst := m.inodes[o.dir], m.inodes[o.dir2]
	src.drop(o.name, o.ino)
	if o.rep != 0 {
		dst.drop(o.name2, o.rep)
	}
	dst.put(o.name2, o.ino)
	add := part{slot: slot{o.name2, o.ino}}
	unlink := part{del: true, slot: slot{o.name, o.ino}}
	var replaced []part
	if o.rep != 0 {
		replaced = []part{{del: true, slot: slot{o.name2, o.rep}}}
	}
	if o.dir == o.dir2 {
		var parts []part
		if exfat {
			parts = append([]part{add, unlink}, replaced...)
		} else {
			parts = append(append([]part{unlink}, replaced...), add)
		}
		src.dpend = append(src.dpend, dirOp{label: o.label, atomic: !exfat, parts: parts})
		return
	}
	var parts []part
	if exfat {
		parts = append([]part{add}, replaced...)
	} else {
		parts = append(replaced, add)
	}
	dst.dpend = append(dst.dpend, dirOp{label: o.label + " (new entry)", atomic: !exfat || len(parts) == 1, parts: parts})
	src.dpend = append(src.dpend, dirOp{label: o.label + " (old entry)", atomic: true, parts: []part{unlink}})
}
