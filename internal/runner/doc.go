// Package runner is the engine of `evalgate run`: it runs the system under test over
// the suite's items and writes a results file, one JSON line per finished item.
//
// Two systems are built in: Exec runs a command per item (the item as JSON on stdin,
// the answer on stdout) and OpenAI sends a prompt template to an OpenAI-compatible
// chat endpoint. Run drives either with a bounded worker pool and progress on stderr.
//
// Lines are written in completion order, each with a single write as soon as its item
// finishes, so an interrupted run keeps every item it finished; evalgate matches
// results to items by id, so the order carries no meaning. Completed reads such a file
// back so a rerun can skip what is done.
//
// The package imports no evalgate package besides the judge's transport helper
// (internal/judge/chat) and internal/progress, which import none themselves.
package runner
