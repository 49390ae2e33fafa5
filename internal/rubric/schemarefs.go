package rubric

import (
	"encoding/json"
	"net/url"
)

// SchemaRefs returns the files a JSON Schema's text names in its $refs, as paths
// relative to the schema file's directory (a fragment dropped, each once, in the order
// found): what must be read with the schema for it to compile elsewhere. A $ref within
// the document (#/...), to the network or to an absolute path is left out, as is
// everything of a text that is not JSON.
func SchemaRefs(data []byte) []string {
	var doc any
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				if p := refFile(ref); p != "" && !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
			}
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(doc)
	return out
}

// refFile is the relative file path a $ref names, "" for any other $ref.
func refFile(ref string) string {
	u, err := url.Parse(ref)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" || u.Path[0] == '/' {
		return ""
	}
	return u.Path
}
