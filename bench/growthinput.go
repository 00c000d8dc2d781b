package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// growthInput is the estate of one size: the bytes of the spawn-log and the
// board after n opens.
type growthInput struct {
	N               int
	SpawnLog, Board []byte
}

// makeGrowthInput generates the estate after n opens in the packages'
// format and checks it once by reading it back with spawnlog.Read and
// board.Read from a folder under base.
func makeGrowthInput(base string, n int) (*growthInput, error) {
	host, err := os.Hostname()
	if err != nil {
		return nil, err
	}
	recs, items := estateAt(n, host)
	in := &growthInput{N: n}
	if in.SpawnLog, err = encodeSpawnLog(recs); err != nil {
		return nil, err
	}
	if in.Board, err = encodeBoard(items); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(base, "growth-check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := in.restore(dir); err != nil {
		return nil, err
	}
	if err := checkEstate(dir, n, nil); err != nil {
		return nil, fmt.Errorf("the generated estate of %d records: %w", n, err)
	}
	return in, nil
}

// restore writes the input into the estate dir (temp, fsync, rename, folder
// fsync, so that no write-back of it is pending when pa runs) and removes
// anything else in the agent's folders.
func (in *growthInput) restore(dir string) error {
	agentDir := filepath.Join(dir, filepath.FromSlash(estate.AgentDir(growthAgent)))
	boardDir := filepath.Join(dir, filepath.FromSlash(estate.BoardDir(growthAgent)))
	if err := os.MkdirAll(boardDir, 0o755); err != nil {
		return err
	}
	for _, d := range []string{agentDir, boardDir} {
		entries, err := os.ReadDir(d)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.Name() != "board" && e.Name() != "spawn-log.json" && e.Name() != "board.json" {
				if err := os.Remove(filepath.Join(d, e.Name())); err != nil {
					return err
				}
			}
		}
	}
	if err := writeAtomic(agentDir, "spawn-log.json", in.SpawnLog); err != nil {
		return err
	}
	return writeAtomic(boardDir, "board.json", in.Board)
}

// checkEstate checks the estate in dir with the packages' own readers:
// want records in the spawn-log with ids 1..want and nextId want+1, the
// same dispatches on the board, and nothing else beside them. When
// written is not nil, it also checks that the files are, byte for byte,
// what this harness's encoders make of what was read (so the generated
// input has the packages' exact format): written[0] the spawn-log's bytes,
// written[1] the board's.
func checkEstate(dir string, want int, written [][]byte) error {
	fsys, err := osfs.New(dir)
	if err != nil {
		return err
	}
	defer fsys.Close()
	log, err := spawnlog.Read(fsys, growthAgent)
	if err != nil {
		return err
	}
	b, err := board.Read(fsys, growthAgent)
	if err != nil {
		return err
	}
	if len(log.Records) != want || log.NextID != want+1 {
		return fmt.Errorf("the spawn-log holds %d records and nextId %d, want %d and %d", len(log.Records), log.NextID, want, want+1)
	}
	for i, r := range log.Records {
		if r.ID != i+1 {
			return fmt.Errorf("spawn-log record %d has id %d, want %d", i, r.ID, i+1)
		}
	}
	if len(b.Items) != want {
		return fmt.Errorf("the board holds %d items, want %d", len(b.Items), want)
	}
	for i, it := range b.Items {
		if it.DispatchID != i+1 {
			return fmt.Errorf("board item %d is dispatch %d, want %d", i, it.DispatchID, i+1)
		}
	}
	for d, names := range map[string][]string{
		estate.AgentDir(growthAgent): {"board", "spawn-log.json"},
		estate.BoardDir(growthAgent): {"board.json"},
	} {
		entries, err := fsys.ReadDir(d)
		if err != nil {
			return err
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
		}
		if !slices.Equal(got, names) {
			return fmt.Errorf("%s holds %v, want %v (a lock or temp file left?)", d, got, names)
		}
	}
	if written != nil {
		sl, err := encodeSpawnLog(log.Records)
		if err != nil {
			return err
		}
		bd, err := encodeBoard(b.Items)
		if err != nil {
			return err
		}
		if !bytes.Equal(sl, written[0]) || !bytes.Equal(bd, written[1]) {
			return fmt.Errorf("the files pa wrote differ from this harness's encoding of them: the generated input is not in the packages' format")
		}
	}
	return nil
}
