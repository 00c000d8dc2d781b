package main

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/kong"
	"github.com/pa-toolkit/pa/internal/termsafe"
)

// The mappers of pa's flags that take a value, so that a bad value is one
// line in pa's words instead of kong's or the time package's: a duration
// (--wait, --stale-window) and a string that may not be left out (--agent,
// --home, --title). Their errors are *usageError: run prints its message
// alone (see parseError).

// usageError is a bad flag value found while kong parses: its message is
// the whole line (after "pa: ").
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// mappers are the kong options that register pa's mappers: "wait" (a
// duration of 0 or more), "window" (a duration above 0), "needed" (a
// string whose value may not be left out) and "shell" (bash, zsh or fish).
func mappers() []kong.Option {
	return []kong.Option{
		kong.NamedMapper("wait", durationMapper{positive: false}),
		kong.NamedMapper("window", durationMapper{positive: true}),
		kong.NamedMapper("needed", neededMapper{}),
		kong.NamedMapper("shell", shellMapper{}),
	}
}

// durationMapper reads a time.Duration flag (time.ParseDuration's syntax,
// and 0 without a unit). A value that starts with '-' is read as a
// negative duration, not as a flag (kong would say `expected duration
// value but got "-1s" (short flag)`): it is refused, as is 0 when positive
// is set, with the value as the operator wrote it.
type durationMapper struct {
	positive bool // the duration must be above 0 (else 0 or more)
}

// Decode implements kong.Mapper.
func (m durationMapper) Decode(ctx *kong.DecodeContext, target reflect.Value) error {
	flag := "--" + ctx.Value.Name
	const want = "a duration, such as 10s or 500ms"
	t := ctx.Scan.Pop()
	if t.IsEOL() {
		return &usageError{flag + " needs a value (" + want + ")"}
	}
	v := fmt.Sprint(t.Value)
	if !t.IsValue() && !(strings.HasPrefix(v, "-") && startsNumber(v[1:])) {
		// --wait --json: the next arg is a flag, not a value.
		return &usageError{fmt.Sprintf("%s needs a value (%s), not the flag %s", flag, want, shownArg(v))}
	}
	d, err := time.ParseDuration(v)
	switch {
	case err != nil && v != "" && strings.Trim(v, "+-.0123456789") == "":
		return &usageError{fmt.Sprintf("%s %s: want a duration with a unit, such as 10s or 500ms", flag, shownArg(v))}
	case err != nil:
		return &usageError{fmt.Sprintf("%s %s: want %s", flag, shownArg(v), want)}
	case m.positive && d <= 0:
		return &usageError{fmt.Sprintf("%s %s: want a duration above 0", flag, shownArg(v))}
	case d < 0:
		return &usageError{fmt.Sprintf("%s %s: want a duration of 0 or more", flag, shownArg(v))}
	}
	if target.Kind() == reflect.Pointer { // an optional flag (*time.Duration): nil when not given
		target = target.Elem()
	}
	target.Set(reflect.ValueOf(d))
	return nil
}

// startsNumber reports whether s starts with a digit or a '.'.
func startsNumber(s string) bool {
	return s != "" && (s[0] >= '0' && s[0] <= '9' || s[0] == '.')
}

// neededWhat says what each flag of the "needed" mapper wants.
var neededWhat = map[string]string{
	"agent": "an agent's name",
	"home":  "the estate's folder",
	"title": "the dispatch's title",
}

// neededMapper reads a string flag whose value may not be left out: given
// with no value, or followed by a flag, it says what the flag wants (kong
// would say `expected string value but got "EOL" (<EOL>)`). A value that
// starts with '-' is written --flag=VALUE.
type neededMapper struct{}

// Decode implements kong.Mapper.
func (neededMapper) Decode(ctx *kong.DecodeContext, target reflect.Value) error {
	name := ctx.Value.Name
	flag := "--" + name
	what := neededWhat[name]
	if what == "" {
		what = "a value"
	}
	t := ctx.Scan.Pop()
	v, ok := t.Value.(string)
	switch {
	case t.IsEOL():
		return &usageError{fmt.Sprintf("%s needs a value (%s)", flag, what)}
	case !ok:
		v = fmt.Sprint(t.Value)
	case !t.IsValue():
		return &usageError{fmt.Sprintf("%s needs a value (%s), not the flag %s; a value that starts with '-' is written %s=VALUE",
			flag, what, shownArg(v), flag)}
	}
	target.SetString(v)
	return nil
}

// shownArg is an arg as given, for a message: quoted (Go syntax) when it
// holds a space, a quote or a character a terminal must not see raw.
func shownArg(s string) string {
	if s != "" && termsafe.Clean(s) && !strings.ContainsAny(s, " \"\\'") {
		return s
	}
	return strconv.Quote(s)
}

// asUsageError returns the *usageError in err, if any.
func asUsageError(err error) (*usageError, bool) {
	var ue *usageError
	ok := errors.As(err, &ue)
	return ue, ok
}

// shellMapper reads the SHELL of pa completion: bash, zsh or fish (kong's
// enum would say `must be one of "bash","zsh","fish"`).
type shellMapper struct{}

// Decode implements kong.Mapper.
func (shellMapper) Decode(ctx *kong.DecodeContext, target reflect.Value) error {
	v := fmt.Sprint(ctx.Scan.Pop().Value)
	switch v {
	case "bash", "zsh", "fish":
		target.SetString(v)
		return nil
	}
	return &usageError{"completion: want bash, zsh or fish, not " + strconv.Quote(v)}
}
