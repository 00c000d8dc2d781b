package board

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/jsondoc"
	"github.com/pa-toolkit/pa/internal/jsonwords"
	"github.com/pa-toolkit/pa/vfs"
)

// Version is the version of the board document this package reads and
// writes: {"version":1,"items":[...]}.
const Version = 1

// Item is one dispatch on the board.
type Item struct {
	// DispatchID is the spawn-log record's id.
	DispatchID int `json:"dispatchId"`
	// Title is the dispatch's title.
	Title string `json:"title"`
	// AddedAt is when the item was put on the board, ISO 8601 in UTC with
	// milliseconds.
	AddedAt string `json:"addedAt"`
}

// Board is a parsed board.
type Board struct {
	// Items are the board's items in the order they were added.
	Items []Item

	raw []json.RawMessage // each item's bytes as read: fields this version does not know survive a rewrite
}

type document struct {
	Version *int              `json:"version"`
	Items   []json.RawMessage `json:"items"`
}

// ErrCorrupt is matched (errors.Is) by every *CorruptError.
var ErrCorrupt = errors.New("board does not parse")

// CorruptError reports a board that does not parse or has an unknown
// version. It is never overwritten: fix or move it by hand.
type CorruptError struct {
	// Path is the board's name in the estate.
	Path string
	// Err is the parse error.
	Err error
}

// Error names the file and says in plain words what is wrong:
// `agents/demo/board/board.json does not parse: want a JSON object with
// version and items: "items" is an object, not an array`.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("%s does not parse: %s", e.Path, e.Reason())
}

// Reason is the message without the file: the shape wanted and what is
// wrong, in plain words (no Go type names).
func (e *CorruptError) Reason() string {
	return "want a JSON object with version and items: " + jsonwords.Reason(e.Err)
}

// Unwrap returns the parse error.
func (e *CorruptError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrCorrupt) true.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// format is the board's document for jsondoc: the fields in the order
// encode writes them.
var format = &jsondoc.Format[Item]{
	Version: Version, Array: "items", Elem: "item",
	Fields:    []jsondoc.Field{{Name: "dispatchId", Int: true}, {Name: "title"}, {Name: "addedAt"}},
	NewHeader: func() jsondoc.Header { return new(document) },
	From:      func(v jsondoc.Values) Item { return Item{DispatchID: v.Ints[0], Title: v.Strs[1], AddedAt: v.Strs[2]} },
	Key:       func(it Item) int { return it.DispatchID },
	Corrupt:   func(name string, err error) error { return &CorruptError{Path: name, Err: err} },
	CheckKey: func(id int) error {
		if id < 1 {
			return errNoDispatchID
		}
		return nil
	},
}

// errNoDispatchID is an item's error when its dispatchId is not one.
var errNoDispatchID = errors.New("no integer dispatchId of at least 1")

// Parts gives the document's parts to jsondoc (a board has no next
// integer).
func (d *document) Parts() (version, next *int, elems []json.RawMessage) {
	return d.Version, nil, d.Items
}

// Parse reads the bytes of the board name. It returns a *CorruptError when
// they are not one JSON object of a known version with an "items" array of
// objects that each have an integer "dispatchId" of at least 1. The Board
// refers to data (each item's bytes, kept for a rewrite): do not change
// data while the Board is in use.
//
// The semantics are encoding/json's (keys matched to fields without regard
// to case, the last of duplicate keys kept, no unknown key at the top
// level), but for a key of the top level given twice (two "items" arrays,
// say), which is refused as corrupt: a rewrite would keep only the last
// (jsondoc.DuplicateKeyError). See internal/jsondoc, whose fast path reads
// the common shape.
func Parse(name string, data []byte) (Board, error) {
	d, err := jsondoc.Parse(format, name, data)
	if err != nil {
		return Board{}, err
	}
	return Board{Items: d.Elems, raw: d.Raw}, nil
}

// Read reads agent's board (without any lock: the board is written by a
// rename, so a reader sees one whole version). A missing board is empty.
// The file is mapped where the FS can (jsondoc.Read), as spawnlog.Read maps
// the spawn-log: a board that does not parse is refused without being read
// into memory whole, and the bytes a parsed board keeps are copied out of
// the mapping before it is released.
// Errors: an *estate.AgentError, a *CorruptError, a *fs.PathError wrapping
// vfs.ErrChanged when the mapped board was cut short while it was parsed
// or copied out, the FS's.
func Read(fsys vfs.FS, agent string) (Board, error) {
	if err := estate.ValidateAgent(agent); err != nil {
		return Board{}, err
	}
	d, err := jsondoc.Read(format, fsys, estate.BoardPath(agent))
	if errors.Is(err, fs.ErrNotExist) {
		return Board{}, nil
	}
	if err != nil {
		return Board{}, err
	}
	return Board{Items: d.Elems, raw: d.Raw}, nil
}

// Has reports whether the dispatch id is on the board. It looks at every
// item: to ask about many ids, make a set of the items' ids once (as
// [Check] does).
func (b Board) Has(id int) bool {
	for _, it := range b.Items {
		if it.DispatchID == id {
			return true
		}
	}
	return false
}

// Extend returns the board with items added after its items, in the order
// given, as the new board in parts to write with locking.Hold.WriteFenced
// (spec: Hold and commit, the board write): an item whose dispatch is on
// the board already, or earlier in items, is left out, so no item of the
// board is ever dropped, changed or doubled. Each item of b keeps its bytes
// as read, verbatim (its fields this version does not know too), and for a
// board encode wrote the result is byte for byte encode's with the items
// added; the new items are laid out as encode lays them out. b is a board
// as [Read] or [Parse] gave it (the parts may be slices of its bytes, so
// do not change them until they are written). With nothing to add, the
// result is the board as it is encoded.
func (b Board) Extend(items ...Item) [][]byte {
	ids := make(map[int]struct{}, len(b.Items)+len(items))
	for _, it := range b.Items {
		ids[it.DispatchID] = struct{}{}
	}
	var add []Item
	for _, it := range items {
		if _, ok := ids[it.DispatchID]; !ok {
			ids[it.DispatchID] = struct{}{}
			add = append(add, it)
		}
	}
	return jsondoc.Extend(format, jsondoc.Doc[Item]{Elems: b.Items, Raw: b.raw}, add, 0, encodeDoc)
}

// encode writes the board as its document, indented, with a final
// newline: the board's whole write (jsondoc's splice and Extend write the
// same bytes for items added to a board encode wrote).
func (b Board) encode() []byte { return encode(b.raw) }

// encodeDoc is encode for jsondoc.Edit.Append.
func encodeDoc(d jsondoc.Doc[Item]) []byte { return encode(d.Raw) }

// encode writes the board document with the items raw.
func encode(raw []json.RawMessage) []byte {
	v := Version
	if raw == nil {
		raw = []json.RawMessage{}
	}
	out, err := json.MarshalIndent(document{Version: &v, Items: raw}, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(out, '\n')
}

// ReadForAdd reads agent's board once for adding the item of the dispatch
// id, under the spawn-log lock (as `pa dispatch open` does before its
// commit), and checks it: it returns add, which gives the new board in
// parts for that item, to write with locking.Hold.WriteFenced. A missing board is
// empty. The board is mapped where the FS can: the parts may be slices of
// the mapping, valid until release is called (release is never nil, also
// on an error). The parts are a splice onto the board as read for the
// common shape (the items' bytes as they are, then the new one: what
// encode writes for a board encode wrote), else encode's whole board, the
// board's one write. Errors: an *estate.AgentError, a *CorruptError (the
// board does not parse), an *AheadError (the board lists id or a later
// dispatch already: the spawn-log is behind it), a *fs.PathError wrapping
// vfs.ErrChanged, the FS's.
func ReadForAdd(fsys vfs.FS, agent string, id int) (add func(Item) [][]byte, release func(), err error) {
	if err := estate.ValidateAgent(agent); err != nil {
		return nil, func() {}, err
	}
	ed, release, err := jsondoc.ReadForEdit(format, fsys, estate.BoardPath(agent), id)
	if err != nil {
		return nil, release, err
	}
	if ed.MaxKey() >= id {
		return nil, release, &AheadError{Path: estate.BoardPath(agent), ID: id, MaxID: ed.MaxKey()}
	}
	return func(it Item) [][]byte { return ed.Append(it, 0, encodeDoc) }, release, nil
}
