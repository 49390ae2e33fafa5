#!/usr/bin/env python3
"""Writes N records in each of the three other tools' formats evalgate reads directly.

Usage:  python3 bench/gen-tools.py N DIR

  DIR/promptfoo.json      a promptfoo `-o results.json` export (format version 3): one JSON
                          document, N EvaluateResults under results.results
  DIR/inspect.json        an Inspect AI EvalLog (`--log-format json`): one JSON document,
                          N samples (one epoch) with messages and events beside the fields
                          evalgate reads, so the importer skips what it does not need
  DIR/inspect.eval      the same Inspect log as a `.eval` archive (Inspect's default format):
                          a zip of _journal/start.json, samples/<id>_epoch_1.json (one
                          member each, deflated, as Inspect writes them), summaries.json,
                          reductions.json and header.json
  DIR/samples_bench_2024-06-01T12-00-00.jsonl
                          lm-evaluation-harness samples, one per line (generate_until)

Item i passes when i % 5 != 0 (4 in 5 pass) in every format; the outputs, prompts and token
counts are deterministic. Each file is written as a stream: memory stays small at any N.
"""
import json
import sys


def dumps(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def item(i):
    ok = i % 5 != 0
    q = f"Conjugate verb {i % 997} in tense {i % 7}, item {i}."
    want = f"form-{i % 89}"
    out = f"The answer is {want}." if ok else f"The answer is form-{(i % 89) + 1}."
    return ok, q, want, out


def promptfoo(n, path):
    with open(path, "w") as f:
        f.write('{"evalId":"eval-bench","results":{"version":3,"timestamp":"2026-11-26T00:00:00.000Z",')
        f.write('"prompts":[{"raw":"{{q}}","label":"{{q}}","provider":"openai:gpt-4o-mini"}],"results":[')
        for i in range(n):
            ok, q, want, out = item(i)
            comp = {"pass": ok, "score": 1 if ok else 0, "reason": "Assertion passed" if ok else f"Expected output to contain \"{want}\"",
                    "assertion": {"type": "icontains", "value": want}}
            rec = {
                "cost": 0.0000264, "gradingResult": {"pass": ok, "score": 1 if ok else 0, "reason": comp["reason"], "namedScores": {},
                                                     "tokensUsed": {"total": 0, "prompt": 0, "completion": 0, "cached": 0}, "componentResults": [comp]},
                "id": f"0000{i:08d}-0000-4000-8000-000000000000", "latencyMs": 40 + i % 60, "namedScores": {},
                "prompt": {"raw": q, "label": "{{q}}"}, "promptId": "p0", "promptIdx": 0,
                "provider": {"id": "openai:gpt-4o-mini", "label": ""},
                "response": {"output": out, "tokenUsage": {"prompt": 100 + i % 50, "completion": 20, "total": 120 + i % 50, "numRequests": 1,
                                                           "completionDetails": {"reasoning": 0, "cacheReadInputTokens": 64 if i % 2 else 0}},
                             "cached": False, "cost": 0.0000264},
                "score": 1 if ok else 0, "success": ok,
                "testCase": {"description": f"test-{i}", "vars": {"q": q}, "assert": [{"type": "icontains", "value": want}], "options": {}, "metadata": {}},
                "testIdx": i, "vars": {"q": q}, "metadata": {}, "failureReason": 0 if ok else 1,
            }
            if not ok:
                rec["error"] = comp["reason"]
            f.write(("," if i else "") + dumps(rec))
        f.write(f'],"stats":{{"successes":{n - (n + 4) // 5},"failures":{(n + 4) // 5},"errors":0}}}},"config":{{}},"shareableUrl":null}}\n')


def inspect_eval_spec(n):
    return ('"eval":{"eval_id":"bench","run_id":"bench","created":"2026-11-26T00:00:00+00:00",'
            '"task":"bench","task_version":0,"dataset":{"name":"bench","samples":%d},"model":"openai/gpt-4o-mini","config":{"epochs":1}},' % n)


PLAN = '"plan":{"name":"plan","steps":[{"solver":"generate","params":{}}]}'


def inspect_results(n):
    return ('"results":{"total_samples":%d,"completed_samples":%d,'
            '"scores":[{"name":"match","scorer":"match","metrics":{"accuracy":{"name":"accuracy","value":0.8}}}]},'
            '"stats":{"started_at":"2026-11-26T00:00:00+00:00","completed_at":"2026-11-26T01:00:00+00:00"}' % (n, n))


def inspect(n, path):
    with open(path, "w") as f:
        f.write('{"version":2,"status":"success",' + inspect_eval_spec(n))
        f.write(PLAN + ',' + inspect_results(n) + ',"samples":[')
        for i in range(n):
            f.write(("," if i else "") + dumps(inspect_sample(i)))
        f.write('],"reductions":[]}\n')


def inspect_zip(n, path):
    import zipfile
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=5) as z:
        z.writestr("_journal/start.json", '{"version":2,' + inspect_eval_spec(n) + PLAN + '}')
        for i in range(n):
            z.writestr(f"samples/{i + 1}_epoch_1.json", dumps(inspect_sample(i)))
        z.writestr("summaries.json", "[]")
        z.writestr("reductions.json", "[]")
        z.writestr("header.json", '{"version":2,"status":"success",' + inspect_eval_spec(n) + PLAN + ',' + inspect_results(n) + '}')


def inspect_sample(i):
    ok, q, want, out = item(i)
    usage = {"input_tokens": 100 + i % 50, "output_tokens": 20, "total_tokens": 120 + i % 50, "input_tokens_cache_read": 64 if i % 2 else 0}
    rec = {
        "id": i + 1, "epoch": 1, "input": q, "target": want,
        "messages": [{"role": "user", "content": q, "source": "input"}, {"role": "assistant", "content": out, "source": "generate"}],
        "output": {"model": "gpt-4o-mini-2024-07-18", "choices": [{"message": {"role": "assistant", "content": out, "source": "generate"}, "stop_reason": "stop"}],
                   "completion": out, "usage": usage, "time": 0.4},
        "scores": {"match": {"value": "C" if ok else "I", "answer": out, "explanation": out}},
        "metadata": {}, "store": {},
        "events": [{"event": "sample_init", "timestamp": "2026-11-26T00:00:00+00:00", "sample": {"input": q, "target": want}},
                   {"event": "model", "timestamp": "2026-11-26T00:00:01+00:00", "model": "openai/gpt-4o-mini", "input": [], "tools": [], "output": {"completion": out}}],
        "model_usage": {"openai/gpt-4o-mini": usage},
        "total_time": 0.5, "working_time": 0.4,
    }
    return rec


def lmeval(n, path):
    with open(path, "w") as f:
        for i in range(n):
            ok, q, want, out = item(i)
            rec = {
                "doc_id": i, "doc": {"question": q, "answer": want}, "target": want,
                "arguments": {"gen_args_0": {"arg_0": f"Question: {q}\nAnswer:", "arg_1": {"until": ["Question:"], "do_sample": False, "temperature": 0.0}}},
                "resps": [[out]], "filtered_resps": [want if ok else f"form-{(i % 89) + 1}"], "filter": "strict-match",
                "metrics": ["exact_match"], "doc_hash": f"{i:064x}", "prompt_hash": f"{i * 7:064x}", "target_hash": f"{i * 13:064x}",
                "exact_match": 1.0 if ok else 0.0,
            }
            f.write(dumps(rec) + "\n")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen-tools.py N DIR")
    n, d = int(sys.argv[1]), sys.argv[2]
    promptfoo(n, f"{d}/promptfoo.json")
    inspect(n, f"{d}/inspect.json")
    inspect_zip(n, f"{d}/inspect.eval")
    lmeval(n, f"{d}/samples_bench_2024-06-01T12-00-00.jsonl")


if __name__ == "__main__":
    main()
