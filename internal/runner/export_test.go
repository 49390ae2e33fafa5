package runner

import "context"

// SetDeadline makes e time an item out when the context f returns for it ends, in place
// of the Timeout clock (which must still be set, to any value).
func SetDeadline(e *Exec, f func(ctx context.Context, id string) (context.Context, context.CancelFunc)) {
	e.deadline = f
}
