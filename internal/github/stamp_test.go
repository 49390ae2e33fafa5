package github

import (
	"strings"
	"testing"
)

func TestStampOf(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]runStamp{
		testMarker + "\nscore\n<!-- evalgate:run=9001.2 -->":          {9001, 2},
		testMarker + "\nscore\n<!-- evalgate:run=9001.2 -->\n\n":      {9001, 2},
		testMarker + "\n<!-- evalgate:run=9001.2 -->\nscore":          {}, // only the last line counts
		testMarker + "\nscore":                                        {},
		testMarker + "\nx <!-- evalgate:run=9001.2 -->":               {}, // a whole line
		testMarker + "\n<!-- evalgate:run=99999999999999999999.1 -->": {},
	} {
		if got := stampOf(body); got != want {
			t.Errorf("stampOf(%q) = %v, want %v", body, got, want)
		}
	}
}

// FuzzStampOf: any body reads without panic, and a stamp written last reads back,
// whatever comes before it.
func FuzzStampOf(f *testing.F) {
	f.Add(testMarker+"\nscore\n<!-- evalgate:run=9001.2 -->", int64(5), 1)
	f.Add("<!-- evalgate:run=1.1 -->\n<!-- evalgate:run=2.2 -->", int64(0), 0)
	f.Add(strings.Repeat("\n", 100)+"<!-- evalgate:run=", int64(1<<40), 7)
	f.Fuzz(func(t *testing.T, body string, id int64, attempt int) {
		_ = stampOf(body)
		if id <= 0 || attempt < 0 || attempt > 999_999_999 {
			return
		}
		st := runStamp{id, attempt}
		if got := stampOf(body + "\n" + st.line()); got != st {
			t.Errorf("stampOf(... + %q) = %v", st.line(), got)
		}
	})
}
