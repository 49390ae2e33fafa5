// Package ghaction runs evalgate as a GitHub Action: `evalgate action`, the container's
// entry point. It reads the inputs and the workflow context through go-githubactions
// (the only evalgate package that imports it), parses the webhook payload, prepares
// the check's input so that a pull request is judged by the gate of its base commit,
// calls the scoring core through a callback, publishes the result with package github,
// and writes outputs, the job summary and log annotations within GitHub's limits.
//
// It does not import the command line: Run takes the check and the baseline commands as
// callbacks (CheckFunc, BaselineFunc) that internal/cli supplies; see Run. The check's
// report becomes the action's outcome here (NewOutcome), and what its verdict means is
// asked of gate.
package ghaction
