// Package eval holds evalgate's data model: the suite (the regression set), the results of
// one run of the system under test, and their loaders. Every loader reports bad input as an
// *InputError that names the file, the line and the item.
package eval

import "github.com/evalgate/evalgate/internal/safeio"

// InputError is bad input: a file evalgate cannot use as it is. The CLI prints it as
// `file:line: item "id": message` and exits with code 2. It is safeio's, so the bounded
// readers every loader uses report the same type.
type InputError = safeio.InputError

// Errorf builds an *InputError.
func Errorf(file string, line int, item, format string, args ...any) *InputError {
	return safeio.Errorf(file, line, item, format, args...)
}
