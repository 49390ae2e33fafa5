package baseline

import (
	"encoding/json"

	"github.com/evalgate/evalgate/internal/eval"
)

// RefuseNewer refuses a baseline whose schema_version is above the one this evalgate
// writes: a later evalgate wrote it, in a format this one cannot know, so reading it as
// version 1 or 2 would fail on a field it has never heard of or misread one it has.
// data is the header line (version 2) or the whole file (version 1); anything that is
// not a JSON object with a numeric schema_version is left to the format's own reader.
func RefuseNewer(path string, data []byte) error {
	var probe struct {
		SchemaVersion *int `json:"schema_version"`
	}
	if json.Unmarshal(data, &probe) != nil || probe.SchemaVersion == nil || *probe.SchemaVersion <= SchemaVersion {
		return nil
	}
	return eval.Errorf(path, 1, "", "baseline schema_version %d was written by a newer evalgate (this one reads versions up to %d): upgrade evalgate to read it",
		*probe.SchemaVersion, SchemaVersion)
}
