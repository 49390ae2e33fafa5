package ghaction

import (
	"encoding/json"
	"fmt"

	"github.com/evalgate/evalgate/internal/github"
)

// Event is what the action needs from the webhook payload in GITHUB_EVENT_PATH.
type Event struct {
	Name          string // GITHUB_EVENT_NAME: pull_request, push, release, workflow_dispatch, ...
	Action        string // opened, synchronize, published, ...
	Repository    string // owner/name of the repository the workflow runs in
	DefaultBranch string

	// Pull request events (pull_request, pull_request_target).
	PRNumber int
	HeadSHA  string // pull_request.head.sha: where check runs go, not the merge commit
	BaseSHA  string // pull_request.base.sha: where the baseline and gates are read
	BaseRef  string
	HeadRepo string // owner/name; "" when the fork was deleted
	BaseRepo string
	Labels   []string
	// Label is the label a labeled or unlabeled event applied or removed (label.name).
	Label string
	// Sender is the login whose action triggered the event (sender.login).
	Sender string

	// Release events.
	ReleaseTag string

	// Workflow run events: the run that triggered this one (Run.Event is its event,
	// pull_request for the unprivileged half of a fork-safe pair).
	Run *TriggeringRun
}

// TriggeringRun is a workflow_run event's workflow_run: the run whose completion
// started this workflow.
type TriggeringRun struct {
	ID         int64
	Event      string // pull_request, push, ...
	HeadSHA    string // the commit the run tested: where the check run goes
	HeadBranch string
	HeadRepo   string // owner/name of the head repository (a fork's for a fork's pull request)
	// PRs are the pull requests into this repository the payload lists, with the head
	// sha each had; GitHub lists none for a fork's pull request.
	PRs []TriggeringPR
}

// TriggeringPR is one entry of workflow_run.pull_requests.
type TriggeringPR struct {
	Number  int
	HeadSHA string
}

// Privileged reports whether the workflow runs with the base repository's secrets and
// a write token whatever the pull request's origin: pull_request_target and
// workflow_run. Such a run never executes a command the pull request could have
// written.
func (e Event) Privileged() bool {
	return e.Name == "pull_request_target" || e.Name == "workflow_run"
}

// FromPullRequest reports whether a workflow_run event's triggering run was a pull
// request's.
func (e Event) FromPullRequest() bool {
	return e.Run != nil && (e.Run.Event == "pull_request" || e.Run.Event == "pull_request_target")
}

// Trigger is what the payload says started the run, which binds the accept label to the
// commit it was applied to (see github.Acceptance): for every pull request event, nil
// for a workflow_run, whose payload does not say what started the producer.
func (e Event) Trigger() *github.Trigger {
	if e.Name == "workflow_run" {
		return nil
	}
	return &github.Trigger{Action: e.Action, Label: e.Label, Sender: e.Sender}
}

// IsPR reports whether the event is about a pull request.
func (e Event) IsPR() bool { return e.PRNumber > 0 }

// ReadOnly reports whether the workflow's token cannot write to the repository: a
// pull_request event from a fork. (pull_request_target runs with a write token.)
func (e Event) ReadOnly() bool {
	return e.IsPR() && !e.Privileged() && github.IsFork(e.HeadRepo, e.BaseRepo)
}

// eventPayload is the part of a webhook payload ParseEvent reads.
type eventPayload struct {
	Action      string `json:"action"`
	Number      int    `json:"number"`
	PullRequest *struct {
		Number int `json:"number"`
		Head   struct {
			SHA  string `json:"sha"`
			Repo *struct {
				FullName string `json:"full_name"`
			} `json:"repo"`
		} `json:"head"`
		Base struct {
			SHA  string `json:"sha"`
			Ref  string `json:"ref"`
			Repo *struct {
				FullName string `json:"full_name"`
			} `json:"repo"`
		} `json:"base"`
		Labels []struct {
			Name string `json:"name"`
		} `json:"labels"`
	} `json:"pull_request"`
	Label *struct {
		Name string `json:"name"`
	} `json:"label"`
	Sender *struct {
		Login string `json:"login"`
	} `json:"sender"`
	Release *struct {
		TagName string `json:"tag_name"`
	} `json:"release"`
	WorkflowRun *struct {
		ID           int64  `json:"id"`
		Event        string `json:"event"`
		HeadSHA      string `json:"head_sha"`
		HeadBranch   string `json:"head_branch"`
		PullRequests []struct {
			Number int `json:"number"`
			Head   struct {
				SHA string `json:"sha"`
			} `json:"head"`
			Base struct {
				Repo struct {
					ID int64 `json:"id"`
				} `json:"repo"`
			} `json:"base"`
		} `json:"pull_requests"`
		HeadRepository *struct {
			FullName string `json:"full_name"`
		} `json:"head_repository"`
	} `json:"workflow_run"`
	Repository *struct {
		ID            int64  `json:"id"`
		FullName      string `json:"full_name"`
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
}

// ParseEvent reads a webhook payload of event name. An empty payload is an event with
// only a name; a pull request without head and base shas is an error.
func ParseEvent(name string, payload []byte) (Event, error) {
	ev := Event{Name: name}
	if len(payload) == 0 {
		return ev, nil
	}
	var p eventPayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return ev, fmt.Errorf("event payload: %w", err)
	}
	ev.Action = p.Action
	if p.Label != nil {
		ev.Label = p.Label.Name
	}
	if p.Sender != nil {
		ev.Sender = p.Sender.Login
	}
	if r := p.Repository; r != nil {
		ev.Repository, ev.DefaultBranch = r.FullName, r.DefaultBranch
	}
	if r := p.Release; r != nil {
		ev.ReleaseTag = r.TagName
	}
	if w := p.WorkflowRun; w != nil && name == "workflow_run" {
		run := &TriggeringRun{ID: w.ID, Event: w.Event, HeadSHA: w.HeadSHA, HeadBranch: w.HeadBranch}
		if w.HeadRepository != nil {
			run.HeadRepo = w.HeadRepository.FullName
		}
		for _, pr := range w.PullRequests {
			// GitHub lists pull requests by head branch, into other repositories too: a
			// number of another repository names nothing here.
			other := p.Repository != nil && p.Repository.ID != 0 && pr.Base.Repo.ID != 0 && pr.Base.Repo.ID != p.Repository.ID
			if pr.Number > 0 && !other {
				run.PRs = append(run.PRs, TriggeringPR{Number: pr.Number, HeadSHA: pr.Head.SHA})
			}
		}
		if run.HeadSHA == "" {
			return ev, fmt.Errorf("event payload: workflow_run lacks head_sha")
		}
		ev.Run = run
	}
	if pr := p.PullRequest; pr != nil {
		ev.PRNumber = pr.Number
		if ev.PRNumber == 0 {
			ev.PRNumber = p.Number
		}
		ev.HeadSHA, ev.BaseSHA, ev.BaseRef = pr.Head.SHA, pr.Base.SHA, pr.Base.Ref
		if pr.Head.Repo != nil {
			ev.HeadRepo = pr.Head.Repo.FullName
		}
		if pr.Base.Repo != nil {
			ev.BaseRepo = pr.Base.Repo.FullName
		}
		for _, l := range pr.Labels {
			ev.Labels = append(ev.Labels, l.Name)
		}
		switch {
		case ev.PRNumber <= 0:
			return ev, fmt.Errorf("event payload: pull_request.number is %d; want a positive number", ev.PRNumber)
		case ev.HeadSHA == "" || ev.BaseSHA == "":
			return ev, fmt.Errorf("event payload: pull request #%d lacks head.sha or base.sha", ev.PRNumber)
		}
	}
	return ev, nil
}
