package jsonwords_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/internal/jsonwords"
)

type doc struct {
	Version *int              `json:"version"`
	NextID  *int              `json:"nextId"`
	Records []json.RawMessage `json:"records"`
}

func decode(s string) error {
	var d doc
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.DisallowUnknownFields()
	return dec.Decode(&d)
}

// Every decode error reads in plain words: no "Go value", "Go struct
// field", package or type name, and no "json: " prefix.
func TestReasonHasNoGoInternals(t *testing.T) {
	cases := map[string]string{
		``:                                "it is empty",
		`{`:                               "it ends before its JSON is complete",
		`{"a" 1}`:                         "it is not JSON at byte 6: invalid character '1' after object key",
		`[]`:                              "it is an array, not an object",
		`"s"`:                             "it is a string, not an object",
		`{"nextId":"x"}`:                  `"nextId" is a string, not an integer`,
		`{"nextId":1.5}`:                  `"nextId" is 1.5, not an integer`,
		`{"nextId":99999999999999999999}`: `"nextId" is 99999999999999999999, beyond the integers this pa can hold (`,
		`{"records":{}}`:                  `"records" is an object, not an array`,
		`{"version":true}`:                `"version" is true or false, not an integer`,
		`{"version":1,"x":2}`:             `unknown field "x"`,
	}
	for in, want := range cases {
		err := decode(in)
		got := jsonwords.Reason(err)
		if !strings.HasPrefix(got, want) {
			t.Errorf("%q: Reason = %q; want it to start with %q", in, got, want)
		}
		for _, leak := range []string{"Go ", "json:", "jsonwords_test", "doc.", "RawMessage"} {
			if strings.Contains(got, leak) {
				t.Errorf("%q: Reason = %q holds %q", in, got, leak)
			}
		}
	}
}

// In puts the place first and keeps the error for errors.As.
func TestInKeepsTheError(t *testing.T) {
	var r struct {
		ID int `json:"id"`
	}
	err := jsonwords.In("record 3", json.Unmarshal([]byte(`{"id":"x"}`), &r))
	if got := err.Error(); got != `record 3: "id" is a string, not an integer` {
		t.Errorf("Error = %q", got)
	}
	if got := jsonwords.Reason(err); got != err.Error() {
		t.Errorf("Reason = %q; want %q", got, err.Error())
	}
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		t.Errorf("errors.As(*json.UnmarshalTypeError) = false")
	}
}
