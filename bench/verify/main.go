// Command verify checks an evalgate JSON report against the generator's ground truth:
// every item's score and pass must equal the data file's meta.score and meta.pass. It
// streams both files in order (the report lists items in suite order, which is the data
// file's order), so it holds one record at a time at any size.
//
//	usage: verify DATA.jsonl[.gz] REPORT.json
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
)

type meta struct {
	ID   string `json:"id"`
	Meta struct {
		Score float64 `json:"score"`
		Pass  bool    `json:"pass"`
	} `json:"meta"`
}

type item struct {
	ID    string  `json:"item"`
	Score float64 `json:"score"`
	Pass  bool    `json:"pass"`
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: verify DATA.jsonl[.gz] REPORT.json")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "verify:", err)
		os.Exit(1)
	}
}

func run(dataPath, reportPath string) error {
	df, err := os.Open(dataPath)
	if err != nil {
		return err
	}
	defer df.Close()
	var dr io.Reader = df
	if strings.HasSuffix(dataPath, ".gz") {
		gz, err := gzip.NewReader(df)
		if err != nil {
			return err
		}
		dr = gz
	}
	data := bufio.NewScanner(bufio.NewReaderSize(dr, 1<<20))
	data.Buffer(make([]byte, 0, 1<<20), 16<<20)

	rf, err := os.Open(reportPath)
	if err != nil {
		return err
	}
	defer rf.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(rf, 1<<20))
	if err := seekItems(dec); err != nil {
		return fmt.Errorf("%s: %w", reportPath, err)
	}
	n, bad := 0, 0
	for dec.More() {
		var it item
		if err := dec.Decode(&it); err != nil {
			return fmt.Errorf("%s: item %d: %w", reportPath, n+1, err)
		}
		if !data.Scan() {
			return fmt.Errorf("report has more items than %s has records (%d)", dataPath, n)
		}
		var m meta
		if err := json.Unmarshal(data.Bytes(), &m); err != nil {
			return fmt.Errorf("%s: line %d: %w", dataPath, n+1, err)
		}
		n++
		if m.ID != it.ID {
			return fmt.Errorf("item %d: report has %q, data has %q (order differs)", n, it.ID, m.ID)
		}
		if math.Round(it.Score*1e6)/1e6 != m.Meta.Score || it.Pass != m.Meta.Pass {
			bad++
			if bad <= 10 {
				fmt.Fprintf(os.Stderr, "verify: %s: evalgate score %v pass %v; meta.score %v pass %v\n", it.ID, it.Score, it.Pass, m.Meta.Score, m.Meta.Pass)
			}
		}
	}
	if data.Scan() {
		return fmt.Errorf("report has %d items; %s has more records", n, dataPath)
	}
	if err := data.Err(); err != nil {
		return err
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d items differ from meta.score / meta.pass", bad, n)
	}
	fmt.Printf("verify: all %d item scores and pass flags equal meta.score and meta.pass\n", n)
	return nil
}

// seekItems advances the decoder to just inside the report's top-level "items" array.
func seekItems(dec *json.Decoder) error {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("not a JSON object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if t == "items" {
			if t, err := dec.Token(); err != nil || t != json.Delim('[') {
				return fmt.Errorf("\"items\" is not an array")
			}
			return nil
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
	}
	return fmt.Errorf("no \"items\" array")
}
