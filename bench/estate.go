package main

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/spawnlog"
)

// growthAgent is the agent of the growth measure's estate.
const growthAgent = "bench"

// The documents as the spawnlog and board packages write them (spawnlog/log.go
// and board/board.go: each record marshalled, the document indented with two
// spaces, a final newline).
type spawnLogDocument struct {
	Version int               `json:"version"`
	NextID  int               `json:"nextId"`
	Records []json.RawMessage `json:"records"`
}

type boardDocument struct {
	Version int               `json:"version"`
	Items   []json.RawMessage `json:"items"`
}

// estateAt is the state of an agent after n opens: its spawn-log's records
// and its board's items.
func estateAt(n int, hostname string) ([]spawnlog.Record, []board.Item) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	recs := make([]spawnlog.Record, n)
	items := make([]board.Item, n)
	for i := range n {
		at := base.Add(time.Duration(i) * time.Second).Format("2006-01-02T15:04:05.000Z")
		title := fmt.Sprintf("dispatch %d of the growth measure", i+1)
		recs[i] = spawnlog.Record{ID: i + 1, Agent: growthAgent, Title: title, OpenedAt: at, PID: 40000 + i%1000, Hostname: hostname}
		items[i] = board.Item{DispatchID: i + 1, Title: title, AddedAt: at}
	}
	return recs, items
}

// encodeSpawnLog is recs as the spawnlog package writes them, with nextId
// one above the last id (1 for none).
func encodeSpawnLog(recs []spawnlog.Record) ([]byte, error) {
	doc := spawnLogDocument{Version: spawnlog.Version, NextID: 1, Records: []json.RawMessage{}}
	for _, r := range recs {
		b, err := json.Marshal(r)
		if err != nil {
			return nil, err
		}
		doc.Records = append(doc.Records, b)
		doc.NextID = max(doc.NextID, r.ID+1)
	}
	return indent(doc)
}

// encodeBoard is items as the board package writes them.
func encodeBoard(items []board.Item) ([]byte, error) {
	doc := boardDocument{Version: board.Version, Items: []json.RawMessage{}}
	for _, it := range items {
		b, err := json.Marshal(it)
		if err != nil {
			return nil, err
		}
		doc.Items = append(doc.Items, b)
	}
	return indent(doc)
}

func indent(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
