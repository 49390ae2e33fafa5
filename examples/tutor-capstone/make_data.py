# Regenerates the suite and the results of this example (deterministic): python3 make_data.py
import json, random
verbs = [("eat","ate","comió"),("go","went","fue"),("speak","spoke","habló"),("write","wrote","escribió"),
("take","took","tomó"),("see","saw","vio"),("come","came","vino"),("give","gave","dio"),("make","made","hizo"),
("know","knew","supo"),("drink","drank","bebió"),("run","ran","corrió"),("read","read","leyó"),("buy","bought","compró"),
("sleep","slept","durmió"),("swim","swam","nadó"),("sing","sang","cantó"),("begin","began","empezó"),("drive","drove","condujo"),("fly","flew","voló")]
irregular_tags = {}
# suite
lines = ["name: tutor-capstone", "description: \"Phase 39 capstone exam (seed 000): past simple, 3rd singular, English correction and Spanish gloss.\"", "items:"]
for i,(v,en,es) in enumerate(verbs, 1):
    iid = f"e-39-{i:02d}"
    lines.append(f"  - id: {iid}")
    lines.append(f"    prompt: \"Conjugate '{v}' — past simple, 3rd singular.\"")
    lines.append(f"    expected_contains:")
    lines.append(f"      english: [{en}]")
    lines.append(f"      spanish: [{es}]")
    groups = {"go":"motion","come":"motion","run":"motion","swim":"motion","drive":"motion","fly":"motion",
              "speak":"communication","write":"communication","read":"communication","sing":"communication","know":"communication",
              "eat":"consumption","drink":"consumption","take":"exchange","give":"exchange","buy":"exchange","make":"exchange",
              "see":"state","sleep":"state","begin":"state"}
    tags = ["past-simple", groups[v]]
    lines.append(f"    tags: [{', '.join(tags)}]")
open("suite.yaml","w").write("\n".join(lines)+"\n")

def out(en, es, expl="Irregular past simple form; same form for every person."):
    return json.dumps({"english": en, "spanish": es, "explanation": expl}, ensure_ascii=False)

variants = {1:"Ate.", 2:" WENT ", 3:"Spoke.", 4:"wrote", 5:"Took.", 6:"Saw", 7:"Came.", 8:"gave.", 9:"Made.", 10:"Knew.",
 11:"Drank.", 12:"Ran.", 13:"Read.", 14:"Bought.", 15:"Slept.", 16:"Swam.", 17:"Sang.", 18:"Began.", 19:"Drove.", 20:"Flew."}
VERBOSE = "It is an irregular verb, so instead of adding the usual -ed ending you use a completely different stem, which you simply have to memorize along with the other common irregular verbs of English, sorry."
def run(name, seed, overrides, lat_base):
    rnd = random.Random(seed)
    recs = []
    for i,(v,en,es) in enumerate(verbs, 1):
        iid = f"e-39-{i:02d}"
        e_en, e_es, expl = variants[i], es.capitalize()+".", "Irregular past simple form; same form for every person."
        if i == 1: e_es = ""   # seed 000's worked example: no Spanish returned
        if i == 11: expl = VERBOSE
        o = overrides.get(i)
        if o is not None:
            if isinstance(o, str):
                output = o
            else:
                e_en, e_es, expl = o.get("en", e_en), o.get("es", e_es), o.get("expl", expl)
                output = out(e_en, e_es, expl)
        else:
            output = out(e_en, e_es, expl)
        lat = lat_base + rnd.randint(-80, 80)
        recs.append({"id": iid, "output": output, "latency_e2e_ms": lat, "latency_model_ms": lat - 40 - rnd.randint(0,20),
                     "input_tokens": 180 + rnd.randint(0, 30), "output_tokens": 30 + rnd.randint(0, 25), "model": "tutor-sft@2025-06-01"})
    with open(name, "w") as f:
        for r in recs: f.write(json.dumps(r, ensure_ascii=False)+"\n")

run("release/run1.jsonl", 1, {}, 240)
run("release/run2.jsonl", 2, {9: {"en": "Maked."}}, 240)
run("release/run3.jsonl", 3, {}, 240)
run("results/pr.jsonl", 10, {16: {"es": "Nado."}}, 262)
run("results/regressed.jsonl", 11, {3: {"en": "Speaked."}, 7: {"en": "Comed."}, 12: "Ran. (corrió) — the past of run is ran."}, 250)
run("results/improved.jsonl", 12, {1: {"es": "Comió."}, 11: {"expl": "Irregular verb: memorize the form."}}, 190)
