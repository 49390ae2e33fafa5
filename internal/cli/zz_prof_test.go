package cli

import (
	"io"
	"os"
	"testing"
	"time"
)

func TestZZProfile(t *testing.T) {
	p := os.Getenv("ZZ_DATA")
	if p == "" {
		t.Skip()
	}
	c := &CLI{Stdin: os.Stdin, Stdout: io.Discard, Stderr: os.Stderr, Getenv: os.Getenv, Now: time.Now}
	code := c.Main([]string{"evalgate", "check", "--config", "../../bench/evalgate.yaml", "--results", p, "--format", "json", "--out", "/tmp/i10/prof.json"})
	t.Log(code)
}
