package conformance

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// Class is a column of the spec's table, or how to choose the columns a run
// proves.
type Class string

// The classes.
const (
	// Links is the column "hard links available": the volume's own link().
	Links Class = "links"
	// NoLinks is the column "hard links unavailable", the spec's: the lock
	// made by its exclusive create (lockspec's Options.ExclusiveCreate),
	// through nolinkfs over the volume when its link() works, over the
	// volume itself when it refuses.
	NoLinks Class = "nolinks"
	// DirPublish is the column "hard links unavailable, directory
	// publish": the default of this build without hard links, the lock a
	// directory renamed into place (docs/spawn-log-lock.md, "The
	// directory publish"); through nolinkfs when the volume's link() works,
	// the volume as it is when it refuses.
	DirPublish Class = "dirpublish"
	// Auto probes link() once in the directory under test: when it works,
	// every column runs (NoLinks and DirPublish through nolinkfs); when it
	// refuses, NoLinks and DirPublish run, on the volume as it is, and the
	// Links column is not run.
	Auto Class = "auto"
)

// ParseClass reads a -class flag: links, nolinks, dirpublish or auto (""
// is auto).
func ParseClass(s string) (Class, error) {
	switch c := Class(s); c {
	case Links, NoLinks, DirPublish, Auto:
		return c, nil
	case "":
		return Auto, nil
	}
	return "", fmt.Errorf("conformance: class %q: want links, nolinks, dirpublish or auto", s)
}

// columns are the columns of the table, in its order.
var columns = []Class{Links, NoLinks, DirPublish}

// volume is what the probe learned of the directory under test.
type volume struct {
	dir      string
	hasLinks bool  // link() works there
	linkErr  error // its refusal, when it refuses
}

// probe learns whether link() works in dir: it creates a file, links it and
// removes both. A link() error other than ENOENT and EEXIST is the spec's
// "no hard links" (vfs.NoHardLinks).
func probe(dir string) (volume, error) {
	v := volume{dir: dir}
	tmp, err := os.MkdirTemp(dir, "pa-probe-")
	if err != nil {
		return v, err
	}
	defer os.RemoveAll(tmp)
	o, err := osfs.New(tmp)
	if err != nil {
		return v, err
	}
	defer o.Close()
	if err := vfs.WriteFileExclusive(o, "a", []byte("probe"), 0o644, false); err != nil {
		return v, err
	}
	err = o.Link("a", "b")
	switch {
	case err == nil:
		v.hasLinks = true
	case vfs.NoHardLinks(err):
		v.linkErr = err
	default:
		return v, fmt.Errorf("conformance: probing link() in %s: %w", filepath.Clean(dir), err)
	}
	return v, nil
}

// classesFor returns the columns a run of class c proves on v, or an error
// when c cannot run there (Links on a volume that refuses link()).
func (v volume) classesFor(c Class) ([]Class, error) {
	switch c {
	case Links:
		if !v.hasLinks {
			return nil, fmt.Errorf("conformance: class links on %s: the volume refuses link() (%v)", v.dir, v.linkErr)
		}
		return []Class{Links}, nil
	case NoLinks, DirPublish:
		return []Class{c}, nil
	case Auto:
		if v.hasLinks {
			return []Class{Links, NoLinks, DirPublish}, nil
		}
		return []Class{NoLinks, DirPublish}, nil
	}
	return nil, errors.New("conformance: unknown class " + string(c))
}

// shim reports whether class c needs nolinkfs on v: NoLinks or DirPublish
// on a volume whose link() works.
func (v volume) shim(c Class) bool { return c != Links && v.hasLinks }
