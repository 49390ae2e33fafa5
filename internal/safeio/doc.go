// Package safeio reads outside input within bounds. Every loader reads through it, so
// each class of hostile input is closed in one place:
//
//   - only regular files are opened where a file is needed (a FIFO would block on open,
//     /dev/zero would never end); standard input only when asked for with "-";
//   - a file read whole is capped ([ReadFile]), a streamed record is capped per line
//     ([Lines]), decompressed bytes are capped ([Decompress], [Zstd]), and so is the
//     window a zstd stream asks the decoder to hold;
//   - YAML nesting and alias expansion are capped before decoding ([ParseYAML]), and
//     JSON nesting is capped before decoding ([CheckJSONDepth]).
//
// Bad input is reported as an *[InputError] naming the file, the line and the item.
package safeio

// Limits. They are documented in the README ("Limits").
const (
	// MaxLineBytes bounds one line of a streamed file (a JSONL record, model output
	// included): a longer line is refused without reading the rest of it.
	MaxLineBytes = 64 << 20
	// MaxFileBytes bounds a data file read whole: a suite, a results file, a baseline.
	MaxFileBytes = 1 << 30
	// MaxSmallFileBytes bounds a file a person writes: a config, a JSON Schema, a
	// judge template, a judge cache entry.
	MaxSmallFileBytes = 16 << 20
	// MaxDecompressedBytes bounds what one compressed input may expand to: enough for
	// the largest streamed run, not for a bomb that would take hours to read.
	MaxDecompressedBytes = 16 << 30
	// MaxDepth bounds the nesting of YAML and JSON collections.
	MaxDepth = 1000
	// MaxAliasNodes bounds the nodes one YAML alias expands to.
	MaxAliasNodes = 10_000
	// minAliasBudget and aliasRatio bound the nodes all aliases of a document expand to
	// together: the larger of minAliasBudget and aliasRatio times the document's own
	// nodes, so expansion costs at most a small multiple of parsing.
	minAliasBudget = 1_000_000
	aliasRatio     = 10
)

// Stdin is the path that names standard input (`--results -`).
const Stdin = "-"
