package crashfs

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Cut is a power cut after one operation of a recorded run: the durable
// view at that moment, and the choices the disk had. Each inode with
// something pending is one item; its choices are how much of what is
// pending landed. Items are independent of each other.
type Cut struct {
	n, total int
	label    string
	opts     Options
	m        *model
	items    []item
}

// item is one file or folder with something pending, and what of it may
// have landed.
type item struct {
	ino     int
	choices []choice
}

// choice is what landed of one item: its first k pending operations, and
// of operation k the parts in mask (a folder: an exFAT rename's entry
// writes; with front, its new entry landed ahead of its name's other
// entries) or its first torn bytes (a file: a write torn at a block
// boundary).
type choice struct {
	k     int
	mask  uint64
	front bool
	torn  int
}

// CutAt returns the cut after op n of f's run, for n from 0 (before the
// first) to f.Ops(); an error for any other n. It replays the log from the
// volume f was made on, or from the last cut asked for when that was at n
// or before, so cuts asked for in increasing n cost one copy of the volume
// and the ops between them each.
func (f *FS) CutAt(n int) (*Cut, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n < 0 || n > len(f.log) {
		return nil, fmt.Errorf("crashfs: no cut after op %d: the run has ops 1 to %d", n, len(f.log))
	}
	from, m := 0, f.base
	if f.last != nil && f.lastN <= n {
		from, m = f.lastN, f.last
	}
	m = m.clone()
	for _, o := range f.log[from:n] {
		m.apply(o, f.opts.ExFAT)
	}
	f.last, f.lastN = m, n // never changed again: the next CutAt copies it
	c := &Cut{n: n, total: len(f.log), opts: f.opts, m: m}
	if n > 0 {
		c.label = f.log[n-1].label
	}
	for _, id := range m.sortedInodes() {
		if it := m.item(id, f.opts.blockSize()); len(it.choices) > 1 {
			c.items = append(c.items, it)
		}
	}
	return c, nil
}

// After returns n: the cut is after op n.
func (c *Cut) After() int { return c.n }

// Items returns how many files and folders have something pending at the
// cut: 0 when the disk holds exactly the live view.
func (c *Cut) Items() int { return len(c.items) }

// item lists the choices of inode id: from nothing pending landed to all
// of it, in order.
func (m *model) item(id, blockSize int) item {
	n := m.inodes[id]
	it := item{ino: id}
	if n.dir {
		for k, o := range n.dpend {
			it.choices = append(it.choices, choice{k: k})
			if o.atomic || len(o.parts) < 2 {
				continue
			}
			before := diskSlots(n, choice{k: k})
			all := uint64(1)<<len(o.parts) - 1
			for mask := uint64(1); mask <= all; mask++ {
				if mask < all {
					it.choices = append(it.choices, choice{k: k, mask: mask})
				}
				if o.doubles(before, mask) {
					it.choices = append(it.choices, choice{k: k, mask: mask, front: true})
				}
			}
		}
		it.choices = append(it.choices, choice{k: len(n.dpend)})
		return it
	}
	for k, o := range n.fpend {
		it.choices = append(it.choices, choice{k: k})
		if o.trunc || blockSize <= 0 {
			continue
		}
		bs := int64(blockSize)
		for b := bs - o.off%bs; b < int64(len(o.data)); b += bs {
			it.choices = append(it.choices, choice{k: k, torn: int(b)})
		}
	}
	it.choices = append(it.choices, choice{k: len(n.fpend)})
	return it
}

// doubles reports whether the parts of o in mask, landed on slots, leave
// its new entry beside another entry of the same name: then the new entry
// may sit after the others (the choice without front) or before them, in
// a free slot ahead (with front), and the two are different states.
func (o dirOp) doubles(slots []slot, mask uint64) bool {
	landed := o.landed(mask)
	after := applyParts(slices.Clone(slots), landed, false)
	for _, p := range landed {
		if p.del {
			continue
		}
		held := 0
		for _, s := range after {
			if s.name == p.name {
				held++
			}
		}
		if held > 1 {
			return true
		}
	}
	return false
}

// States returns the states the disk may show after the cut, each once
// (states that show the same tree are one):
//
//   - nothing pending landed (the first state), and everything landed;
//   - each item's choices one at a time, every other item at nothing
//     landed, then at everything landed;
//   - then up to samples combinations, each item's choice drawn from rng
//     (none when rng is nil or samples <= 0).
//
// The order is deterministic for one rng seed.
func (c *Cut) States(rng *rand.Rand, samples int) []*State {
	var out []*State
	seen := map[[32]byte]bool{}
	add := func(idx []int) {
		s := &State{cut: c, idx: slices.Clone(idx)}
		key := s.build().fingerprint()
		if !seen[key] {
			seen[key] = true
			out = append(out, s)
		}
	}
	none := make([]int, len(c.items))
	all := make([]int, len(c.items))
	for i, it := range c.items {
		all[i] = len(it.choices) - 1
	}
	add(none)
	add(all)
	for _, base := range [][]int{none, all} {
		for i, it := range c.items {
			idx := slices.Clone(base)
			for j := range it.choices {
				idx[i] = j
				add(idx)
			}
		}
	}
	if rng == nil {
		return out
	}
	for range samples {
		idx := make([]int, len(c.items))
		for i, it := range c.items {
			idx[i] = rng.IntN(len(it.choices))
		}
		add(idx)
	}
	return out
}

func (m *model) sortedInodes() []int {
	ids := make([]int, 0, len(m.inodes))
	for id := range m.inodes {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}
