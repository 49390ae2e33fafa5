package cli_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/testdata/testtools"
)

const junitXSD = "../../schema/junit.xsd"

// junitDoc is what a CI test reporter reads of the file.
type junitDoc struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Cases    []struct {
			Name    string `xml:"name,attr"`
			Line    int    `xml:"line,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func junitOf(t *testing.T, config string, results ...string) (*report.Report, []byte) {
	t.Helper()
	r, err := cli.Check(context.Background(), cli.CheckOptions{CheckPlan: cli.CheckPlan{Config: config, Results: results}, CheckEnv: cli.CheckEnv{Now: time.Unix(0, 0)}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := report.Render(&b, r, report.FormatJUnit); err != nil {
		t.Fatal(err)
	}
	return r, b.Bytes()
}

// xmllintValid validates a file against the JUnit schema with xmllint (libxml2).
func xmllintValid(t *testing.T, xmllint string, data []byte) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(xmllint, "--noout", "--schema", junitXSD, p).CombinedOutput()
	if err != nil {
		t.Fatalf("xmllint: %v\n%s", err, out)
	}
}

func TestJUnitValidatesAndCountsEveryItem(t *testing.T) {
	xmllint := testtools.Require(t, "validates the JUnit report against schema/junit.xsd", "xmllint")
	// The tutor's regressed run: 20 items, all first-tagged past-simple; 4 fail (e-39-01,
	// -03, -07, -12); gates regression and capstone fail, three soft gates warn.
	r, data := junitOf(t, "../../examples/tutor-capstone/evalgate.yaml", "../../examples/tutor-capstone/results/regressed.jsonl")
	xmllintValid(t, xmllint, data)
	var doc junitDoc
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tests != 20+len(r.Gates) || doc.Failures != 4+2 || len(doc.Suites) != 2 {
		t.Fatalf("tests %d failures %d suites %d; want %d, 6, 2", doc.Tests, doc.Failures, len(doc.Suites), 20+len(r.Gates))
	}
	items := doc.Suites[1]
	if items.Name != "past-simple" || items.Tests != 20 || items.Failures != 4 {
		t.Errorf("item suite %q: %d tests, %d failures", items.Name, items.Tests, items.Failures)
	}
	c := items.Cases[2] // e-39-03: "Speaked."
	if c.Name != "e-39-03" || c.Line != 16 || c.Failure == nil ||
		c.Failure.Message != `score 0.400: correctness: output does not contain "spoke"` ||
		!strings.Contains(c.Failure.Text, `correctness: 0.000 (weighted 0.000): output does not contain "spoke"`) {
		t.Errorf("e-39-03: %+v", c)
	}
	for _, ex := range []string{"council-rubric", "flowmcp-grading", "release-readiness"} {
		_, data := junitOf(t, "../../examples/"+ex+"/evalgate.yaml")
		xmllintValid(t, xmllint, data)
	}
}

// Outputs with what XML cannot hold (control characters, a CDATA end, markup) still
// give a valid file, and the text reads back as written where XML allows it; control
// characters read as \xNN, as in every other format.
func TestJUnitEscapesHostileOutputs(t *testing.T) {
	xmllint := testtools.Require(t, "validates the JUnit report against schema/junit.xsd", "xmllint")
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("evalgate.yaml", `name: "x<y>&\"z"
suite: suite.yaml
results: [r.jsonl]
scoring:
  version: scoringSystem/1.0.0
  dimensions: [{name: correctness, weight: 1, scorer: contains}]
grading:
  version: gradingSystem/1.0.0
  gates: [{name: "floor <&>", metric: mean_score, min: 0.9, level: hard}]
`)
	write("suite.yaml", "items:\n  - {id: \"a]]>b<c>\", prompt: \"<script>\", expected: [ok], tags: [\"t&t\"]}\n")
	write("r.jsonl", `{"id": "a]]>b<c>", "output": "bad \u0001\u0008 ]]> <x/> & \ud83d\ude00 end"}`+"\n")
	_, data := junitOf(t, filepath.Join(dir, "evalgate.yaml"))
	xmllintValid(t, xmllint, data)
	var doc junitDoc
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	f := doc.Suites[1].Cases[0].Failure
	if doc.Suites[1].Name != "t&t" || f == nil || !strings.Contains(f.Text, `got: bad \x01\x08 ]]> <x/> & 😀 end`) {
		t.Errorf("suite %q, failure %+v", doc.Suites[1].Name, f)
	}
}
