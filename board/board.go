package board

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/pa-toolkit/pa/estate"
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

// Parse reads the bytes of the board name. It returns a *CorruptError when
// they are not one JSON object of a known version with an "items" array of
// objects that each have an integer "dispatchId" of at least 1. The Board
// refers to data (each item's bytes, kept for a rewrite): do not change
// data while the Board is in use.
//
// The semantics are encoding/json's (keys matched to fields without regard
// to case, the last of duplicate keys kept, no unknown key at the top
// level). The common shape, as pa writes it, is read by a hand-written
// scan; anything else, and every error, is decided by encoding/json.
func Parse(name string, data []byte) (Board, error) {
	if s, ok := scan(data, true, 0); ok {
		return Board{Items: s.list, raw: s.raw}, nil
	}
	return parseExact(name, data)
}

// parseExact is Parse by encoding/json alone: it decides every error and
// its message.
func parseExact(name string, data []byte) (Board, error) {
	corrupt := func(err error) (Board, error) { return Board{}, &CorruptError{Path: name, Err: err} }
	if len(bytes.TrimLeft(data, " \t\r\n")) == 0 {
		// White space alone (or nothing) is empty, as the decoder would
		// say, but without its buffer taking a copy of all of it first.
		return corrupt(io.EOF)
	}
	var doc document
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return corrupt(err)
	}
	switch {
	case len(bytes.Trim(data[dec.InputOffset():], " \t\r\n")) > 0: // even a lone '}', which dec.More does not see
		return corrupt(errors.New("data after the JSON object"))
	case doc.Version == nil:
		return corrupt(errors.New(`no "version"`))
	case *doc.Version != Version:
		return corrupt(fmt.Errorf("unknown version %d (this pa knows %d)", *doc.Version, Version))
	case doc.Items == nil:
		return corrupt(errors.New(`no "items" array`))
	}
	b := Board{raw: doc.Items}
	for i, raw := range doc.Items {
		var it Item
		if err := json.Unmarshal(raw, &it); err != nil {
			return corrupt(jsonwords.In(fmt.Sprintf("item %d", i), err))
		}
		if it.DispatchID < 1 {
			return corrupt(fmt.Errorf("item %d: no integer dispatchId of at least 1", i))
		}
		b.Items = append(b.Items, it)
	}
	return b, nil
}

// Read reads agent's board (without any lock: the board is written by a
// rename, so a reader sees one whole version). A missing board is empty.
// The file is mapped where the FS can, as spawnlog.Read maps the
// spawn-log: a board that does not parse is refused without being read
// into memory whole, and the bytes a parsed board keeps are copied out of
// the mapping (vfs.Detach) before it is released.
// Errors: an *estate.AgentError, a *CorruptError, a *fs.PathError wrapping
// vfs.ErrChanged when the mapped board was cut short while it was parsed
// or copied out, the FS's.
func Read(fsys vfs.FS, agent string) (Board, error) {
	if err := estate.ValidateAgent(agent); err != nil {
		return Board{}, err
	}
	name := estate.BoardPath(agent)
	data, release, _, err := vfs.MapFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return Board{}, nil
	}
	if err != nil {
		return Board{}, err
	}
	defer release()
	var b Board
	err = vfs.GuardMapped(name, data, func() (err error) {
		if b, err = Parse(name, data); err != nil {
			return err
		}
		afterParse()
		// The copy reads the mapping too: a cut meanwhile faults here.
		b.raw = vfs.Detach(b.raw, data)
		return nil
	})
	if err != nil {
		return Board{}, err
	}
	return b, nil
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

// add puts it on the board unless its dispatch is there already.
func (b *Board) add(it Item) {
	if b.Has(it.DispatchID) {
		return
	}
	raw, err := json.Marshal(it)
	if err != nil {
		panic(err) // strings and ints always marshal
	}
	b.Items = append(b.Items, it)
	b.raw = append(b.raw, raw)
}

// encode writes the board as its document, indented, with a final newline.
func (b Board) encode() []byte {
	v := Version
	raw := b.raw
	if raw == nil {
		raw = []json.RawMessage{}
	}
	out, err := json.MarshalIndent(document{Version: &v, Items: raw}, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(out, '\n')
}

// afterParse is called by Read once the mapped file is parsed, before its
// kept bytes are copied out: a test cuts the file there.
var afterParse = func() {}
