package board

import "strings"

// handSeeds are documents written by hand at the edges where the fast
// path might part from encoding/json, run as FuzzFastPath's seeds (so by
// every go test): integers at the int64 edges and past them, numbers an int
// field refuses, \u escapes with lone and paired surrogates, invalid UTF-8,
// duplicate keys (in a item, nested, at the top), case variants of the
// fields, whitespace JSON does not have, a BOM, data after the object,
// nesting past the depth limit, and the layout between two items inside a
// item, around the array and after it (where the two-half scan splits).
func handSeeds() []string {
	rec := func(body string) string { return `{"version":1,"items":[` + body + `]}` }
	var out []string
	for _, r := range []string{
		`{"dispatchId":9223372036854775807}`, `{"dispatchId":9223372036854775808}`, `{"dispatchId":0}`, `{"dispatchId":-0}`,
		`{"dispatchId":1e2}`, `{"dispatchId":1.0}`, `{"dispatchId":"1"}`, `{"dispatchId":null}`, `{"dispatchId":null,"dispatchId":1}`,
		`{"dispatchId":1,"dispatchId":null}`, `{"dispatchId":1,"dispatchid":2}`, `{"DispatchId":1}`, `{"dispatchId":1,"Title":"a"}`,
		`{"dispatchId":1,"title":"\ud800"}`, `{"dispatchId":1,"title":"\ud83d\ude00"}`, "{\"dispatchId\":1,\"title\":\"\xff\"}",
		`{"dispatchId":1,"title":"a","title":"b"}`, `{"dispatchId":1,"title":null}`, `{"dispatchId":1,"addedAt":1}`,
		`{"dispatchId":1,"x":1e999}`, `{"dispatchId":1,"x":{"a":1,"a":2}}`, `{"dispatchId":1,"x":[` + strings.Repeat("[", 64) + strings.Repeat("]", 64) + `]}`,
		`{"dispatchId":1},{"dispatchId":1}`, `{"dispatchId":1},`, `{}`, `1`, `null`,
	} {
		out = append(out, rec(r))
	}
	sep := "},\n    {"
	out = append(out,
		"\ufeff"+`{"version":1,"items":[]}`, `{"version":1,"items":[]}x`, `{"version":1,"items":[]}}`,
		`{"version":1.0,"items":[]}`, `{"version":10,"items":[]}`, `{"version":1,"version":1,"items":[]}`,
		`{"version":1,"items":[{"dispatchId":1}],"items":[{"dispatchId":2}]}`, `{"version":1,"items":null}`,
		`{"version":1,"items":[],"x":1}`, `{"version":1,"Items":[]}`, `{"items":[]}`, `{"version":null,"items":[]}`,
		`{"version":1,"items":[{"dispatchId":1}`+sep+`"dispatchId":2}]}`,
		`{"version":1,"items":[{"dispatchId":1,"x":[{}`+sep+`}]}`+sep+`"dispatchId":2}]}`,
		`{"version":1,"items":[{"dispatchId":1}`+sep+`"dispatchId":2}]`+sep+`}`,
		`{"items":[{"dispatchId":1}`+sep+`"dispatchId":2}],"version":1`+sep+`}`,
		`{"version":1,"items":[{"dispatchId":1,"title":"a`+sep+`b"}]}`,
	)
	return out
}
