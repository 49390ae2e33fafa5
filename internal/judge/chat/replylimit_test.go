package chat_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/judge/chat"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

// A reply is read up to MaxReplyBytes and no further: an endpoint that answers
// without end cannot exhaust the job's memory. The call fails at once (asking again
// gets as long a reply); a reply within the bound reads as ever.
func TestReplyIsBounded(t *testing.T) {
	t.Parallel()
	const limit = 4 << 10
	long := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: strings.Repeat("x", 2*limit)}))
	c := chat.New(chat.Config{BaseURL: long.BaseURL(), MaxReplyBytes: limit, MaxRetries: 3}, chat.WithSleep((&sleepRecorder{}).sleep))
	rep, err := c.Complete(context.Background(), params(), 0)
	var tl *chat.ReplyTooLargeError
	if !errors.As(err, &tl) || rep.Completion != nil {
		t.Errorf("Complete of a reply over the bound = %v, %v; want a *ReplyTooLargeError", rep.Completion, err)
	}
	if rep.Attempts != 1 {
		t.Errorf("%d attempts; want 1 (a reply over the bound is not asked for again)", rep.Attempts)
	}

	short := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: strings.Repeat("x", limit/4)}))
	c = chat.New(chat.Config{BaseURL: short.BaseURL(), MaxReplyBytes: limit})
	if rep, err := c.Complete(context.Background(), params(), 0); err != nil || len(rep.Completion.Choices) != 1 {
		t.Errorf("Complete of a reply within the bound: %v", err)
	}
}
