// Package jsonwords turns the errors of encoding/json into plain words for an
// operator: no Go type or struct names (`json: cannot unmarshal array into Go
// value of type spawnlog.document` reads `it is an array`). The errors
// themselves are kept: [In] wraps, and errors.As still finds a
// *json.SyntaxError or *json.UnmarshalTypeError under it.
package jsonwords

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/pa-toolkit/pa/internal/termsafe"
)

// placed is an error inside one part of a document (a record, an item).
type placed struct {
	where string
	err   error
}

func (p *placed) Error() string { return p.where + ": " + Reason(p.err) }
func (p *placed) Unwrap() error { return p.err }

// In returns err as found in where ("record 3"): its message is where, ": "
// and [Reason] of err, and it unwraps to err.
func In(where string, err error) error { return &placed{where: where, err: err} }

// Reason says in plain words why a decode failed: the file is empty or cut
// short, it is not JSON (and at which byte), a field has the wrong kind of
// value ("nextId" is a string, not an integer), a number is too large, a
// field is unknown. Errors that are not encoding/json's keep their message,
// without a leading "json: ". A value from the file in it (an unknown
// field's name) has its control and bidirectional characters escaped
// (termsafe.Escape), so the reason can be printed as it is.
func Reason(err error) string { return termsafe.Escape(reason(err)) }

func reason(err error) string {
	var p *placed
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &p):
		return p.Error()
	case errors.Is(err, io.EOF):
		return "it is empty"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "it ends before its JSON is complete"
	case errors.As(err, &se):
		return fmt.Sprintf("it is not JSON at byte %d: %s", se.Offset, se.Error())
	case errors.As(err, &te):
		subject := "it"
		if te.Field != "" {
			subject = strconv.Quote(te.Field)
		}
		if n, ok := strings.CutPrefix(te.Value, "number "); ok && isInteger(te.Type) && strings.Trim(n, "-0123456789") == "" {
			// An integer literal that does not fit: say so, not "not an integer".
			return fmt.Sprintf("%s is %s, beyond the integers this pa can hold (%d to %d)", subject, n, math.MinInt, math.MaxInt)
		}
		return subject + " is " + got(te.Value) + ", not " + want(te.Type)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// got names the JSON value encoding/json found ("array", "number 1.5").
func got(value string) string {
	if n, ok := strings.CutPrefix(value, "number "); ok {
		return n
	}
	switch value {
	case "array", "object":
		return "an " + value
	case "string", "number":
		return "a " + value
	case "bool":
		return "true or false"
	}
	return value
}

// want names the kind of JSON value t is decoded from.
func want(t reflect.Type) string {
	switch {
	case t == nil:
		return "what was expected"
	case isInteger(t):
		return "an integer"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Pointer:
		return want(t.Elem())
	}
	return "what was expected"
}

func isInteger(t reflect.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}
