package jsondoc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// DuplicateKeyError is a document whose top level holds one of the
// format's keys twice (exactly, or spelled otherwise but matched to the
// same field, as encoding/json matches keys without regard to case).
// encoding/json keeps the last: a rewrite of such a document would drop
// what the earlier one holds (the first "records" array, say), so the plain
// path refuses it instead.
type DuplicateKeyError struct {
	// Key is the format's key both keys are matched to ("records").
	Key string
	// First and Second are the two keys as the document spells them.
	First, Second string
}

// Error names the key and both spellings.
func (e *DuplicateKeyError) Error() string {
	if e.First == e.Second {
		return fmt.Sprintf("the key %s appears twice at the top level; a rewrite would keep only the last", strconv.Quote(e.Key))
	}
	return fmt.Sprintf("the key %s appears twice at the top level (as %s and %s); a rewrite would keep only the last",
		strconv.Quote(e.Key), strconv.Quote(e.First), strconv.Quote(e.Second))
}

// topLevelDuplicate is a *DuplicateKeyError when data, a JSON object that
// encoding/json has decoded into f's header (so it is valid JSON and its
// every key matches one of keys), holds two keys matched to one of keys;
// nil otherwise.
func topLevelDuplicate(data []byte, keys []string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	seen := make(map[string]string, len(keys))
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		key, _ := t.(string)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil
		}
		field := headerKey(key, keys)
		if field == "" {
			continue
		}
		if first, ok := seen[field]; ok {
			return &DuplicateKeyError{Key: field, First: first, Second: key}
		}
		seen[field] = key
	}
	return nil
}

// headerKey is the key of keys that key matches as encoding/json matches
// them (exactly, else without regard to case), "" for none.
func headerKey(key string, keys []string) string {
	for _, k := range keys {
		if k == key {
			return k
		}
	}
	for _, k := range keys {
		if k != "" && strings.EqualFold(k, key) {
			return k
		}
	}
	return ""
}
