package gate

// AcceptProposed is the verdict of a pull request judged by the gate it proposes (its
// own config, suite and rubric, where they differ from its base commit's) once a
// maintainer accepted that gate with the accept label. A verdict that does not block
// becomes Accepted, so the check concludes neutral, never a plain pass: the bar itself
// moved. One that blocks still blocks. change says in a few words what the proposed
// gate changes.
func AcceptProposed(v Verdict, by, label, change string) Verdict {
	if v.Blocks || by == "" {
		return v
	}
	if label == "" {
		label = "accept"
	}
	reason := v.Reason
	v.Status, v.AcceptedBy, v.AcceptLabel = Accepted, by, label
	v.Reason = "proposed gate (" + change + ") accepted with the " + label + " label by " + by
	if reason != "" {
		v.Reason += ": " + reason
	}
	return v
}
