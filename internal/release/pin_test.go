package release_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// copyActions copies the repository's action.yml and setup/action.yml into a temp dir,
// where the release rewrite can run without touching the checkout.
func copyActions(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, p := range []string{"action.yml", "setup/action.yml"} {
		b, err := os.ReadFile(filepath.Join("..", "..", p))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func pin(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	out, err := exec.Command("bash", append([]string{"../../scripts/pin-action-image.sh"}, append(args, dir)...)...).CombinedOutput()
	return string(out), err
}

type actionFile struct {
	Runs struct {
		Using string `yaml:"using"`
		Image string `yaml:"image"`
	} `yaml:"runs"`
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
}

func load(t *testing.T, p string) actionFile {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return a
}

var pinnedImage = regexp.MustCompile(`^docker://ghcr\.io/evalgate/evalgate@sha256:[0-9a-f]{64}$`)

// TestPinActionImage runs the release workflow's rewrite on copies of the repository's
// action files: the release commit's action.yml runs the published image by digest
// (64 hex digits), and the setup action defaults to the release's own version; main's
// files keep building the Dockerfile and installing latest.
func TestPinActionImage(t *testing.T) {
	t.Parallel()
	main := load(t, "../../action.yml")
	if main.Runs.Using != "docker" || main.Runs.Image != "Dockerfile" {
		t.Fatalf("main's action.yml runs %q %q; want docker Dockerfile (main builds from source)", main.Runs.Using, main.Runs.Image)
	}
	if d := load(t, "../../setup/action.yml").Inputs["version"].Default; d != "latest" {
		t.Fatalf("main's setup version default %q; want latest", d)
	}

	dir := copyActions(t)
	digest := strings.Repeat("0123456789abcdef", 4)
	out, err := pin(t, dir, "ghcr.io/evalgate/evalgate@sha256:"+digest, "v1.4.0")
	if err != nil {
		t.Fatalf("pin: %v\n%s", err, out)
	}
	a := load(t, filepath.Join(dir, "action.yml"))
	if !pinnedImage.MatchString(a.Runs.Image) || a.Runs.Image != "docker://ghcr.io/evalgate/evalgate@sha256:"+digest {
		t.Errorf("pinned image %q; want docker://ghcr.io/evalgate/evalgate@sha256:%s", a.Runs.Image, digest)
	}
	if a.Runs.Using != "docker" {
		t.Errorf("runs.using %q", a.Runs.Using)
	}
	if d := load(t, filepath.Join(dir, "setup", "action.yml")).Inputs["version"].Default; d != "v1.4.0" {
		t.Errorf("setup version default %q; want v1.4.0", d)
	}
	// Only the two lines changed.
	before, _ := os.ReadFile("../../action.yml")
	after, _ := os.ReadFile(filepath.Join(dir, "action.yml"))
	if got, want := strings.Count(string(after), "\n"), strings.Count(string(before), "\n"); got != want {
		t.Errorf("action.yml has %d lines after the rewrite; want %d", got, want)
	}
	if strings.Replace(string(before), "  image: Dockerfile\n", "  image: docker://ghcr.io/evalgate/evalgate@sha256:"+digest+"\n", 1) != string(after) {
		t.Errorf("the rewrite changed more than the image line")
	}
}

func TestPinActionImageRefuses(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ ref, tag, want string }{
		{"ghcr.io/evalgate/evalgate:v1.4.0", "v1.4.0", "is not an image pinned by digest"},
		{"ghcr.io/evalgate/evalgate@sha256:abc", "v1.4.0", "is not an image pinned by digest"},
		{"ghcr.io/evalgate/evalgate@sha256:" + strings.Repeat("A", 64), "v1.4.0", "is not an image pinned by digest"},
		{"ghcr.io/evalgate/evalgate@sha256:" + strings.Repeat("a", 64), "1.4", "is not a release tag"},
	} {
		dir := copyActions(t)
		out, err := pin(t, dir, tt.ref, tt.tag)
		if err == nil || !strings.Contains(out, tt.want) {
			t.Errorf("pin %s %s: err %v, output %q; want %q", tt.ref, tt.tag, err, out, tt.want)
		}
		if a := load(t, filepath.Join(dir, "action.yml")); a.Runs.Image != "Dockerfile" {
			t.Errorf("pin %s: action.yml rewritten to %q after a refusal", tt.ref, a.Runs.Image)
		}
	}
}
