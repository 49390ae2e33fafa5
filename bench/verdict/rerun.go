package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// rerunItem is the `run:` block's command during check --settle: it re-runs the item
// named by EVALGATE_ITEM_ID once from the pull request's model in state/spec.json and
// prints "yes" (pass) or "no".
//
// Settle re-runs each named item once per round, so an item's k-th re-run belongs to
// round k: a counter per item (state/n-<hex id>) gives the round, and every item of
// round k shares that round's run-level noise (a fresh shift or outage per round,
// drawn from the spec's seed and k), as a real re-run batch on a bad day would.
func rerunItem(state string) error {
	id := os.Getenv("EVALGATE_ITEM_ID")
	if id == "" {
		return errors.New("rerun-item: EVALGATE_ITEM_ID is not set (this mode is run by evalgate check --settle)")
	}
	b, err := os.ReadFile(filepath.Join(state, "spec.json"))
	if err != nil {
		return err
	}
	var s spec
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("rerun-item: %s: %w", state, err)
	}
	p, ok := s.P[id]
	if !ok {
		return fmt.Errorf("rerun-item: no item %q in %s", id, state)
	}
	counter := filepath.Join(state, "n-"+hex.EncodeToString([]byte(id)))
	k := 1
	if c, err := os.ReadFile(counter); err == nil {
		n, err := strconv.Atoi(strings.TrimSpace(string(c)))
		if err != nil {
			return fmt.Errorf("rerun-item: %s: %w", counter, err)
		}
		k = n + 1
	}
	tmp := counter + ".tmp"
	if err := os.WriteFile(tmp, []byte(strconv.Itoa(k)), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, counter); err != nil {
		return err
	}
	m := noise{shiftSD: s.ShiftSD, outageMax: s.OutageMax, addSD: s.AddSD, badDay: s.BadDay, badFail: s.BadFail, topics: s.Topics, topicSD: s.TopicSD, shiftDF: s.ShiftDF}
	e := m.runEffect(rand.New(rand.NewPCG(s.Seed, uint64(k))))
	h := fnv.New64a()
	h.Write([]byte(id))
	rng := rand.New(rand.NewPCG(s.Seed^h.Sum64(), uint64(k)))
	if rng.Float64() < e.probOf(s.Index[id], p) {
		fmt.Println("yes")
	} else {
		fmt.Println("no")
	}
	return nil
}
