package github

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"
)

// vclock is virtual time for runs that race: it moves only when every live run is
// asleep (in a write's latency at the fake, or in the client's wait before listing
// again), straight to the earliest wake-up. Each run is one thread of control, asleep
// in at most one place at a time, so 1 s writes cost no real second and the order of
// events is the one real latencies would give.
type vclock struct {
	mu       sync.Mutex
	now      time.Time
	live     int
	sleepers []*vsleeper
}

type vsleeper struct {
	at   time.Time
	wake chan struct{}
}

func newVclock(runs int) *vclock {
	return &vclock{now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), live: runs}
}

func (c *vclock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep blocks the calling run for d of virtual time.
func (c *vclock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	s := &vsleeper{at: c.now.Add(max(d, 0)), wake: make(chan struct{})}
	c.sleepers = append(c.sleepers, s)
	c.advance()
	c.mu.Unlock()
	select {
	case <-s.wake:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// done says a run has ended.
func (c *vclock) done() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.live--
	c.advance()
}

// advance wakes the earliest sleepers once every live run sleeps; callers hold mu.
func (c *vclock) advance() {
	if len(c.sleepers) == 0 || len(c.sleepers) < c.live {
		return
	}
	sort.SliceStable(c.sleepers, func(i, j int) bool { return c.sleepers[i].at.Before(c.sleepers[j].at) })
	c.now = c.sleepers[0].at
	n := 0
	for n < len(c.sleepers) && c.sleepers[n].at.Equal(c.now) {
		close(c.sleepers[n].wake)
		n++
	}
	c.sleepers = c.sleepers[n:]
}

// Two runs of the same suite publish at once, each comment write (create, edit,
// delete) taking 1 s of virtual time and landing at a random point of that second.
// Whichever starts or finishes first, every trial ends with exactly one sticky
// comment, holding the later run's body (the later run: the greater GITHUB_RUN_ID, or
// the same id's greater attempt), and a person's comment that starts with the marker,
// in the same thread, is neither edited nor deleted.
//
// The 20 trials' seeds start with the 11 of the first 400 whose interleavings are the
// hard ones: the earlier run reads while the later run's write is in flight, and its
// own write lands after the later run's has returned. (Without the wait before the
// last listing, those 11 end with the earlier run's body; the other seeds pass either
// way.) EVALGATE_RACE_TRIALS=N runs seeds 0 … N-1 instead.
func TestUpsertCommentConcurrentRuns(t *testing.T) {
	t.Parallel()
	seeds := []uint64{29, 33, 101, 117, 157, 187, 191, 221, 231, 337, 349, 0, 1, 2, 3, 4, 5, 6, 7, 8}
	if n, err := strconv.Atoi(os.Getenv("EVALGATE_RACE_TRIALS")); err == nil && n > 0 {
		seeds = seeds[:0]
		for i := range n {
			seeds = append(seeds, uint64(i))
		}
	}
	for _, seed := range seeds {
		trial := int(seed)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(42, seed))
			f := newFake(t)
			s := newCommentStore(t, f)
			vc := newVclock(2)
			var rmu sync.Mutex
			s.latency = func(apply func()) {
				rmu.Lock()
				at := time.Duration(rng.IntN(11)) * 100 * time.Millisecond // 0, 0.1 … 1 s into the write
				rmu.Unlock()
				ctx := context.Background()
				_ = vc.Sleep(ctx, at)
				apply()
				_ = vc.Sleep(ctx, time.Second-at)
			}
			// Odd trials start from an earlier run's sticky; all have a person's marker
			// comment, older than any sticky of these runs.
			s.addBy("octocat", testMarker+"\nI pasted the marker")
			if trial%2 == 1 {
				s.add(testMarker + "\nscore from an earlier run\n<!-- evalgate:run=90.1 -->")
			}
			// The later run: a newer workflow run, or (every third trial) a re-run.
			earlier, later := runStamp{100, 1}, runStamp{101, 1}
			if trial%3 == 0 {
				earlier, later = runStamp{100, 1}, runStamp{100, 2}
			}
			runs := []runStamp{earlier, later}
			if rng.IntN(2) == 0 {
				runs[0], runs[1] = later, earlier // the later run may well start first
			}
			bodies := map[runStamp]string{}
			var wg sync.WaitGroup
			for i, st := range runs {
				start := time.Duration(rng.IntN(12)) * 100 * time.Millisecond
				p := publication(fmt.Sprintf("score of run %d attempt %d", st.id, st.attempt), CommentAlways)
				p.RunID, p.RunAttempt = st.id, st.attempt
				c, err := New(Options{Token: "test-token", BaseURL: f.srv.URL, HTTPClient: f.srv.Client(), sleep: vc.Sleep, now: vc.Now})
				if err != nil {
					t.Fatal(err)
				}
				bodies[st] = (&sticky{p: p, stamp: st}).compose(p.CommentBody)
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer vc.done()
					_ = vc.Sleep(context.Background(), start)
					if _, err := c.UpsertComment(context.Background(), p); err != nil {
						t.Errorf("run %d (stamp %v): %v", i, st, err)
					}
				}()
			}
			wg.Wait()

			s.mu.Lock()
			defer s.mu.Unlock()
			var stickies []string
			for _, c := range s.comments {
				switch {
				case c.GetID() == 1001:
					if c.GetBody() != testMarker+"\nI pasted the marker" {
						t.Errorf("the person's comment was edited: %q", c.GetBody())
					}
				case hasMarker(c.GetBody(), testMarker):
					stickies = append(stickies, c.GetBody())
				}
			}
			if s.find("1001") == nil {
				t.Errorf("the person's comment was deleted")
			}
			for _, w := range s.touched {
				if w == "PATCH 1001" || w == "DELETE 1001" {
					t.Errorf("%s: a write to the person's comment", w)
				}
			}
			if len(stickies) != 1 || stickies[0] != bodies[later] {
				t.Errorf("stickies %q; want exactly one, holding the later run's body %q (writes %q)", stickies, bodies[later], s.touched)
			}
		})
	}
}
