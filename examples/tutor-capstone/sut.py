#!/usr/bin/env python3
"""A stand-in tutor for `evalgate run` (exec mode): reads one suite item as JSON on
stdin, prints the tutor's JSON answer on stdout. A lookup table, not a model: it shows
the protocol, and it keeps seed 000's e-39-01 flaw (no Spanish for "eat")."""
import json
import re
import sys

PAST = {
    "eat": ("Ate.", ""), "go": ("Went.", "Fue."), "speak": ("Spoke.", "Habló."),
    "write": ("Wrote.", "Escribió."), "take": ("Took.", "Tomó."), "see": ("Saw.", "Vio."),
    "come": ("Came.", "Vino."), "give": ("Gave.", "Dio."), "make": ("Made.", "Hizo."),
    "know": ("Knew.", "Supo."), "drink": ("Drank.", "Bebió."), "run": ("Ran.", "Corrió."),
    "read": ("Read.", "Leyó."), "buy": ("Bought.", "Compró."), "sleep": ("Slept.", "Durmió."),
    "swim": ("Swam.", "Nadó."), "sing": ("Sang.", "Cantó."), "begin": ("Began.", "Empezó."),
    "drive": ("Drove.", "Condujo."), "fly": ("Flew.", "Voló."),
}

item = json.load(sys.stdin)
m = re.search(r"'(\w+)'", item.get("prompt", ""))
verb = m.group(1) if m else ""
english, spanish = PAST.get(verb, (verb + "ed.", ""))
print(json.dumps({"english": english, "spanish": spanish,
                  "explanation": "Irregular past simple form; same form for every person."},
                 ensure_ascii=False))
