package rubric_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
)

// Benchmarks of the scoring engine on the peer benchmark's regression set
// (/work/shared/bench/gen.py, copied to bench/gen.py): verb conjugation items whose
// output is a JSON document, scored on four dimensions (english 0.60 and spanish 0.25:
// case-insensitive substrings of the raw output; json 0.10: JSON Schema; words 0.05:
// at most 30 words counted like JavaScript's split). The items are generated in memory
// in the generator's style, so the benchmark needs neither Python nor files.
//
//	go test -run x -bench . -benchmem ./internal/rubric

// benchVerbs: base, past, past participle, 3sg present; Spanish infinitive, preterite
// 3sg, participle, future 3sg, present 3sg (a subset of gen.py's VERBS).
var benchVerbs = [][9]string{
	{"eat", "ate", "eaten", "eats", "comer", "comió", "comido", "comerá", "come"},
	{"go", "went", "gone", "goes", "ir", "fue", "ido", "irá", "va"},
	{"see", "saw", "seen", "sees", "ver", "vio", "visto", "verá", "ve"},
	{"write", "wrote", "written", "writes", "escribir", "escribió", "escrito", "escribirá", "escribe"},
	{"speak", "spoke", "spoken", "speaks", "hablar", "habló", "hablado", "hablará", "habla"},
	{"drink", "drank", "drunk", "drinks", "beber", "bebió", "bebido", "beberá", "bebe"},
	{"take", "took", "taken", "takes", "tomar", "tomó", "tomado", "tomará", "toma"},
	{"give", "gave", "given", "gives", "dar", "dio", "dado", "dará", "da"},
	{"know", "knew", "known", "knows", "saber", "supo", "sabido", "sabrá", "sabe"},
	{"begin", "began", "begun", "begins", "empezar", "empezó", "empezado", "empezará", "empieza"},
	{"think", "thought", "thought", "thinks", "pensar", "pensó", "pensado", "pensará", "piensa"},
	{"sleep", "slept", "slept", "sleeps", "dormir", "durmió", "dormido", "dormirá", "duerme"},
}

var benchTenses = []string{"past simple", "present simple", "present perfect", "future simple"}

var benchFiller = strings.Fields("this form is common in everyday speech and appears in many textbook " +
	"examples so learners should memorise it together with the other irregular forms of the same verb family")

func benchForms(v [9]string, tense string) (en string, expEn []string, es string, expEs []string) {
	switch tense {
	case "past simple":
		return strings.ToUpper(v[1][:1]) + v[1][1:] + ".", []string{v[1]}, v[5], []string{v[5]}
	case "present simple":
		return strings.ToUpper(v[3][:1]) + v[3][1:] + ".", []string{v[3]}, v[8], []string{v[8]}
	case "present perfect":
		return "Has " + v[2] + ".", []string{"has", v[2]}, "ha " + v[6], []string{"ha", v[6]}
	}
	return "Will " + v[0] + ".", []string{"will", v[0]}, v[7], []string{v[7]}
}

// q is a JSON string as Python's json.dumps(ensure_ascii=False) writes it.
func q(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// benchItem is one generated record and the score the rubric must give it.
type benchItem struct {
	line  []byte
	score float64
}

// genBench writes n records in gen.py's format: 80% correct, the rest wrong english,
// wrong spanish, invalid JSON, schema violations, too long, refusals.
func genBench(n int, seed uint64) []benchItem {
	rng := rand.New(rand.NewPCG(seed, 0))
	out := make([]benchItem, n)
	for i := 1; i <= n; i++ {
		v := benchVerbs[rng.IntN(len(benchVerbs))]
		tense := benchTenses[rng.IntN(len(benchTenses))]
		en, expEn, es, expEs := benchForms(v, tense)
		expl := fmt.Sprintf("%s of '%s' (3sg); Spanish %s. Ref #%d.", strings.ToUpper(tense[:1])+tense[1:], v[0], v[4], i)
		doc := fmt.Sprintf(`{"english": %s, "spanish": %s, "explanation": %s}`, q(en), q(es), q(expl))
		r := rng.Float64()
		switch {
		case r < 0.80: // correct
		case r < 0.86: // wrong english
			other := benchTenses[(slicesIndex(benchTenses, tense)+1+rng.IntN(3))%4]
			en2, _, _, _ := benchForms(v, other)
			doc = fmt.Sprintf(`{"english": %s, "spanish": %s, "explanation": %s}`, q(en2), q(es), q(fmt.Sprintf("Answer given in the %s by mistake. Ref #%d.", other, i)))
		case r < 0.91: // wrong spanish
			doc = fmt.Sprintf(`{"english": %s, "spanish": %s, "explanation": %s}`, q(en), q("("+strings.Repeat("?", 1+rng.IntN(3))+")"), q(expl))
		case r < 0.94: // invalid JSON
			if rng.Float64() < 0.5 {
				doc = "```json\n" + doc + "\n```"
			} else {
				doc = doc[:len(doc)-1]
			}
		case r < 0.96: // schema violation
			doc = fmt.Sprintf(`{"english": %s, "spanish": [%s]}`, q(en), q(es))
		case r < 0.99: // too long
			doc = fmt.Sprintf(`{"english": %s, "spanish": %s, "explanation": %s}`, q(en), q(es), q(expl+" "+strings.Join(benchFiller[:20+rng.IntN(len(benchFiller)-19)], " ")))
		default: // refusal
			doc = "I'm sorry, I can't help with that request."
		}
		rec := map[string]any{
			"id":                fmt.Sprintf("conj-%06d", i),
			"prompt":            fmt.Sprintf("Conjugate '%s' — %s, 3rd singular.", v[0], tense),
			"expected_contains": map[string]any{"english": expEn, "spanish": expEs},
			"output":            doc,
		}
		line, _ := json.Marshal(rec)
		out[i-1] = benchItem{line: line, score: expectedBenchScore(doc, expEn, expEs)}
	}
	return out
}

func slicesIndex(list []string, s string) int {
	for i, e := range list {
		if e == s {
			return i
		}
	}
	return -1
}

// expectedBenchScore is gen.py's check() and score_of(), written independently of the
// scorers: the rubric must reproduce it exactly.
func expectedBenchScore(output string, expEn, expEs []string) float64 {
	low := strings.ToLower(output)
	all := func(want []string) float64 {
		for _, w := range want {
			if !strings.Contains(low, strings.ToLower(w)) {
				return 0
			}
		}
		return 1
	}
	schema := 0.0
	var doc map[string]any
	if json.Unmarshal([]byte(output), &doc) == nil && doc != nil {
		schema = 1
		for _, k := range []string{"english", "spanish", "explanation"} {
			if _, ok := doc[k].(string); !ok {
				schema = 0
			}
		}
	}
	words := 0.0
	if len(spaces.Split(output, -1)) <= 30 { // like JavaScript's output.split(/\s+/).length
		words = 1
	}
	return math.Round((0.60*all(expEn)+0.25*all(expEs)+0.10*schema+0.05*words)*1e6) / 1e6
}

var spaces = regexp.MustCompile(`\s+`)

const benchSchema = `{"type": "object", "required": ["english", "spanish", "explanation"],
 "properties": {"english": {"type": "string"}, "spanish": {"type": "string"}, "explanation": {"type": "string"}}}`

// benchSystem is bench/evalgate.yaml's scoring system.
func benchSystem(tb testing.TB) *rubric.System {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "schema.json"), []byte(benchSchema), 0o644); err != nil {
		tb.Fatal(err)
	}
	off := false
	raw := &rubric.Normalization{Trim: &off, StripPeriod: &off} // the raw output, case-insensitive
	sys := &rubric.System{
		Version: "scoringSystem/1.0.0",
		Dimensions: []rubric.Dimension{
			{Name: "english", Weight: 0.60, Scorer: "contains", Expected: "expected_contains.english", Normalization: raw},
			{Name: "spanish", Weight: 0.25, Scorer: "contains", Expected: "expected_contains.spanish", Normalization: raw},
			{Name: "json", Weight: 0.10, Scorer: "json_schema", Schema: "schema.json", Dir: dir},
			{Name: "words", Weight: 0.05, Scorer: "word_budget", MaxWords: 30, Count: "js_split"},
		},
	}
	if err := sys.Build("$.scoring", nil); err != nil {
		tb.Fatal(err)
	}
	return sys
}

func jsonl(items []benchItem) []byte {
	var b bytes.Buffer
	for _, it := range items {
		b.Write(it.line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func parseBench(tb testing.TB, data []byte) (*eval.Suite, *eval.Run) {
	tb.Helper()
	run, err := eval.ReadRun("items.jsonl", bytes.NewReader(data))
	if err != nil {
		tb.Fatal(err)
	}
	suite, err := eval.SuiteFromRun(run)
	if err != nil {
		tb.Fatal(err)
	}
	return suite, run
}

// TestBenchRubricScores: the benchmark measures a rubric that gets every item right.
func TestBenchRubricScores(t *testing.T) {
	items := genBench(5000, 7)
	suite, run := parseBench(t, jsonl(items))
	sc, err := rubric.Score(context.Background(), benchSystem(t), suite, []*eval.Run{run})
	if err != nil {
		t.Fatal(err)
	}
	variants := map[float64]int{}
	for i, is := range sc.Items {
		want := items[i].score
		variants[want]++
		if got := math.Round(is.Score*1e6) / 1e6; got != want {
			t.Errorf("%s: score %v; want %v (output %s)", is.Item.ID, got, want, run.Results[i].Output)
		}
		if is.Pass != (want >= 0.8) {
			t.Errorf("%s: pass %v at score %v", is.Item.ID, is.Pass, want)
		}
	}
	if len(variants) < 5 {
		t.Errorf("generated scores %v: want the generator's mix of failures", variants)
	}
}

// BenchmarkScore100k scores 100,000 parsed items (one run, four dimensions).
func BenchmarkScore100k(b *testing.B) {
	const n = 100_000
	suite, run := parseBench(b, jsonl(genBench(n, 42)))
	sys := benchSystem(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := rubric.Score(ctx, sys, suite, []*eval.Run{run}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "items/s")
}

// BenchmarkParseScore100k parses 100,000 JSONL records (suite fields and outputs
// together, as the peer benchmark's file holds them) and scores them.
func BenchmarkParseScore100k(b *testing.B) {
	const n = 100_000
	data := jsonl(genBench(n, 42))
	sys := benchSystem(b)
	ctx := context.Background()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		run, err := eval.ReadRun("items.jsonl", bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		suite, err := eval.SuiteFromRun(run)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := rubric.Score(ctx, sys, suite, []*eval.Run{run}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "items/s")
}
