package report

import (
	"bytes"
	"encoding/json"
	"strings"
)

func indent(out *strings.Builder, b []byte) error {
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return err
	}
	out.Write(buf.Bytes())
	return nil
}
