package spawnlog

import "strings"

// handSeeds are documents written by hand at the edges where the fast
// path might part from encoding/json, run as FuzzFastPath's seeds (so by
// every go test): integers at the int64 edges and past them, numbers an int
// field refuses, \u escapes with lone and paired surrogates, invalid UTF-8,
// duplicate keys (in a record, nested, at the top), case variants of the
// fields, whitespace JSON does not have, ids out of order and above
// nextId, a BOM, data after the object, nesting past the depth limit, and
// the layout between two records inside a record, around the array and
// after it (where the two-half scan splits).
func handSeeds() []string {
	rec := func(body string) string { return `{"version":1,"nextId":2,"records":[` + body + `]}` }
	var out []string
	for _, r := range []string{
		`{"id":9223372036854775806}`, `{"id":9223372036854775807}`, `{"id":9223372036854775808}`,
		`{"id":1,"pid":-9223372036854775808}`, `{"id":1,"pid":-9223372036854775809}`, `{"id":1,"pid":1e2}`,
		`{"id":1,"pid":1.0}`, `{"id":1,"pid":-0}`, `{"id":1,"pid":-}`, `{"id":1,"pid":01}`,
		`{"id":1,"x":1e999}`, `{"id":1,"x":-1e-999}`, `{"id":1,"x":123456789012345678901234567890}`,
		`{"id":1,"title":"\ud800"}`, `{"id":1,"title":"\ud800\udc00"}`, `{"id":1,"title":"\udc00\ud800"}`,
		`{"id":1,"title":"\ud83d\ude00"}`, `{"id":1,"title":"\uD83D\uDE00"}`, `{"id":1,"title":"\u0000"}`,
		"{\"id\":1,\"title\":\"\xff\xfe\"}", "{\"id\":1,\"title\":\"\xed\xa0\x80\"}", "{\"id\":1,\"title\":\"\xc0\xaf\"}",
		`{"id":1,"title":"a","title":"b"}`, `{"id":1,"title":"a","title":null}`, `{"id":1,"x":1,"x":2}`,
		`{"id":1,"x":{"a":1,"a":2}}`, `{"id":1,"Title":"a"}`, `{"id":1,"TITLE":"a","title":"b"}`,
		`{"id":1,"openedat":"a"}`, `{"id":1,"hostName":"a"}`, `{"id":1,"PID":3}`, `{"ID":1,"id":2}`,
		`{"id":1,"AGENT":"a"}`, `{"id":1,"Agent":"a","agent":"b"}`, `{"id":1,"OpenedAt":"a"}`, `{"id":1,"Hostname":"a"}`, `{"id":1,"Pid":3}`, `{"Id":1}`,
		"{\"id\":1,\"\x7f\":1}", "{\"id\":1,\"ti\x7ftle\":1}", `{"id":1,"":1}`,
		"{\"id\":1\u00a0}", "{\"id\":1\v}", "{\"id\":1\f}", "{ \"id\" :\r\n\t1 }",
		`{"id":1,"agent":"\/"}`, `{"id":1,"agent":"\u00E9"}`, `{"id":1,"agent":"\u00e"}`,
		`{"id":1,"agent":true}`, `{"id":1,"agent":1}`, `{"id":1,"agent":[]}`, `{"id":"1"}`, `{"id":null,"id":1}`,
		`{"id":1,"id":null}`, `{"id":true}`, `{"id":1,}`, `{"id":1 "x":2}`, `{"id"  :  1  }`,
		`{"id":1,"x":[` + strings.Repeat("[", 63) + strings.Repeat("]", 63) + `]}`,
		`{"id":1,"x":[` + strings.Repeat("[", 64) + strings.Repeat("]", 64) + `]}`,
		`{"id":1,"x":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
		`{"id":2},{"id":2}`, `{"id":3},{"id":1}`, `{"id":1},`, `{"id":1},]`, `1`, `null`, `{"id":1} {"id":2}`,
	} {
		out = append(out, rec(r))
	}
	out = append(out,
		"\ufeff"+`{"version":1,"nextId":2,"records":[]}`,
		`{"version":1,"nextId":2,"records":[]}x`, `{"version":1,"nextId":2,"records":[]}}`,
		`{"version":1,"nextId":2,"records":[]}`+"\x00",
		`{"version":1.0,"nextId":2,"records":[]}`, `{"version":1e0,"nextId":2,"records":[]}`,
		`{"version":10,"nextId":2,"records":[]}`, `{"version":01,"nextId":2,"records":[]}`,
		`{"version":-1,"nextId":2,"records":[]}`, `{"version":1 ,"nextId":2,"records":[]}`,
		`{"version":1,"nextId":9223372036854775807,"records":[]}`, `{"version":1,"nextId":9223372036854775808,"records":[]}`,
		`{"version":1,"nextId":-9223372036854775808,"records":[]}`, `{"version":1,"nextId":2.5,"records":[]}`,
		`{"version":1,"nextId":2,"nextId":1,"records":[{"id":5}]}`, `{"version":1,"version":1,"nextId":2,"records":[]}`,
		`{"version":1,"nextId":2,"records":[{"id":1}],"records":[{"id":2}]}`, `{"version":1,"nextId":2,"records":null}`,
		`{"version":1,"nextId":2,"records":{}}`, `{"version":1,"nextId":2,"records":[],"x":1}`,
		`{"version":1,"nextId":2,"records":[],"NextId":7}`, `{"version":1,"nextid":7,"records":[]}`,
		`{"version":1,"nextId":2,"records":[ ]}`, `{"version":1,"nextId":2,"records":[`,
		`{"version":1,"nextId":2,"records":[{"id":1}`, `{"version":1,"nextId":2,"records":[{"id":1}]`,
		`{"version":null,"nextId":2,"records":[]}`, `{"nextId":2,"records":[]}`,
		`{"version":1,"nextId":2,"records":[]}`+"\r\n\t ",
		``, ` `, `{}`, `[]`,
	)
	sep := "},\n    {"
	out = append(out,
		`{"version":1,"nextId":2,"records":[{"id":1,"title":"a`+sep+`b"}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1}]}`+sep,
		`{"version":1,"nextId":2,"records":[{"id":1}`+sep+`"id":2}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1}`+sep+`"id":2},{"id":3}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1},{"id":1}`+sep+`"id":2}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1}`+sep+`}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1}`+sep+`"id":2}],"records":[{"id":1}`+sep+`"id":2}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1,"x":[{}`+sep+`}]}`+sep+`"id":2}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1}`+sep+`"id":2}]`+sep+`}`,
		`{"records":[{"id":1}`+sep+`"id":2}],"version":1,"nextId":2}`,
		`{"records":[{"id":1}`+sep+`"id":2}],"version":1,"nextId":2`+sep+`}`,
		`[{"id":1}`+sep+`"id":2}]`,
		`{"version":1,"nextId":2,"records":[{"id":1}`+sep+`"id":2}`+sep+`"id":3}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1}`+sep+"\"id\":2}\n  ]\n}\n",
	)
	return out
}
