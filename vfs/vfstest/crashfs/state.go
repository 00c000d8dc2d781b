package crashfs

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// State is one state the disk may show after a [Cut]: for each item of the
// cut, how much of what was pending landed.
type State struct {
	cut *Cut
	idx []int // per item of cut, the index of its choice
}

// FS returns the volume as the next boot finds it: a new *FS, every call,
// with everything durable (nothing pending, no open handle, no
// operations), made with the options of the run.
func (s *State) FS() *FS { return fromModel(s.build(), s.cut.opts) }

// build returns the model of the disk in state s: each item with what
// landed applied to its durable view, the tree walked from the root (a
// folder reached by a second name, which only cross-folder renames of
// folders make, keeps its first in name order; a name held twice keeps
// both entries, in their order on the disk), every inode durable.
func (s *State) build() *model {
	m := s.cut.m
	chosen := map[int]choice{}
	for i, it := range s.cut.items {
		chosen[it.ino] = it.choices[s.idx[i]]
	}
	out := &model{inodes: map[int]*inode{}, next: m.next}
	queue, queued := []int{rootIno}, map[int]bool{rootIno: true}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		src := m.inodes[id]
		n := &inode{dir: src.dir, perm: src.perm, mtime: src.mtime}
		out.inodes[id] = n
		if !src.dir {
			n.data = diskData(src, chosen[id])
			n.sdata = slices.Clone(n.data)
			continue
		}
		for _, e := range byName(diskSlots(src, chosen[id])) {
			if queued[e.ino] && m.inodes[e.ino].dir {
				continue
			}
			n.ents = append(n.ents, e)
			if !queued[e.ino] {
				queue, queued[e.ino] = append(queue, e.ino), true
			}
		}
		n.sents = slices.Clone(n.ents)
	}
	return out
}

// diskData is a file's content on the disk when c of its pending writes
// landed.
func diskData(n *inode, c choice) []byte {
	if len(n.fpend) == 0 {
		return slices.Clone(n.data)
	}
	data := slices.Clone(n.sdata)
	for _, o := range n.fpend[:c.k] {
		data = o.apply(data)
	}
	if c.torn > 0 {
		o := n.fpend[c.k]
		data = writeAt(data, o.off, o.data[:c.torn])
	}
	return data
}

// diskSlots is a folder's entries on the disk when c of its pending
// operations landed, in their order on the disk.
func diskSlots(n *inode, c choice) []slot {
	if len(n.dpend) == 0 {
		return slices.Clone(n.sents)
	}
	slots := slices.Clone(n.sents)
	for _, o := range n.dpend[:c.k] {
		slots = applyParts(slots, o.parts, false)
	}
	if c.mask != 0 {
		slots = applyParts(slots, n.dpend[c.k].landed(c.mask), c.front)
	}
	return slots
}

// fingerprint is a hash of the tree of m: names, kinds and contents,
// every entry of a name in order, so that a name's two entries in either
// order are two states.
func (m *model) fingerprint() [32]byte {
	h := sha256.New()
	m.walk(func(name string, _ int, n *inode, _ bool) {
		kind := "f"
		if n.dir {
			kind = "d"
		}
		h.Write([]byte(kind + strconv.Itoa(len(name)) + ":" + name + strconv.Itoa(len(n.data)) + ":"))
		h.Write(n.data)
	})
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// walk calls fn for every entry of the tree of m, depth first in name
// order, a name's entries in their order (the root as "."); behind says an
// entry is not the first of its name: listed, but not what lookups find. A
// folder is entered once.
func (m *model) walk(fn func(name string, id int, n *inode, behind bool)) {
	seen := map[int]bool{}
	var visit func(name string, id int, behind bool)
	visit = func(name string, id int, behind bool) {
		n := m.inodes[id]
		fn(name, id, n, behind)
		if !n.dir || seen[id] {
			return
		}
		seen[id] = true
		for i, e := range n.ents {
			child := e.name
			if name != "." {
				child = name + "/" + e.name
			}
			visit(child, e.ino, i > 0 && n.ents[i-1].name == e.name)
		}
	}
	visit(".", rootIno, false)
}

// behindNote marks an entry of a name held twice that lookups do not find.
const behindNote = " (listed, behind the entry lookups find)"

// String describes the state for a test's message: the cut, what landed of
// each item, then the tree the next boot finds, one name a line with its
// content quoted (cut to 64 bytes).
func (s *State) String() string {
	var b strings.Builder
	c := s.cut
	fmt.Fprintf(&b, "cut after op %d of %d", c.n, c.total)
	if c.label != "" {
		fmt.Fprintf(&b, " (%s)", c.label)
	}
	b.WriteString("\n")
	names := c.m.names()
	for i, it := range c.items {
		fmt.Fprintf(&b, "  %s (#%d): %s\n", names[it.ino], it.ino, c.m.describe(it.ino, it.choices[s.idx[i]]))
	}
	b.WriteString("  the next boot finds:\n")
	s.build().walk(func(name string, _ int, n *inode, behind bool) {
		note := ""
		if behind {
			note = behindNote
		}
		if n.dir {
			fmt.Fprintf(&b, "    %s/%s\n", name, note)
			return
		}
		q := fmt.Sprintf("%q", n.data)
		if len(n.data) > 64 {
			q = fmt.Sprintf("%q... (%d bytes)", n.data[:64], len(n.data))
		}
		fmt.Fprintf(&b, "    %s %s%s\n", name, q, note)
	})
	return b.String()
}

// describe says what landed of inode id's pending operations under c.
func (m *model) describe(id int, c choice) string {
	n := m.inodes[id]
	if n.dir {
		s := fmt.Sprintf("%d of %d folder ops landed", c.k, len(n.dpend))
		if c.k > 0 {
			s += fmt.Sprintf(" (last: %s)", n.dpend[c.k-1].label)
		}
		if c.mask != 0 {
			o := n.dpend[c.k]
			var landed []string
			for _, p := range o.landed(c.mask) {
				landed = append(landed, p.String())
			}
			s += fmt.Sprintf(", then of %s only %s", o.label, strings.Join(landed, " and "))
			if c.front {
				s += ", the new entry in a free slot ahead of its name's other entry"
			}
		}
		return s
	}
	s := fmt.Sprintf("%d of %d writes landed", c.k, len(n.fpend))
	if c.torn > 0 {
		s += fmt.Sprintf(", then %d of the next write's %d bytes (torn)", c.torn, len(n.fpend[c.k].data))
	}
	return s
}

func (p part) String() string {
	if p.del {
		return fmt.Sprintf("the removal of entry %s (#%d)", p.name, p.ino)
	}
	return fmt.Sprintf("the new entry %s (#%d)", p.name, p.ino)
}

// names returns a name for every inode: its first live path in name order
// (marked when that entry is behind another of its name), else "(no
// name)"; folders end in "/".
func (m *model) names() map[int]string {
	out := map[int]string{}
	m.walk(func(name string, id int, n *inode, behind bool) {
		if _, ok := out[id]; !ok {
			if n.dir {
				name += "/"
			}
			if behind {
				name += behindNote
			}
			out[id] = name
		}
	})
	for id := range m.inodes {
		if _, ok := out[id]; !ok {
			out[id] = "(no name)"
		}
	}
	return out
}
