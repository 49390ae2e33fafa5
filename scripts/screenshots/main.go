// Command screenshots takes the pictures in docs/img: a PR comment (markdown) rendered
// the way GitHub renders a comment (CommonMark with GitHub's extensions, raw HTML such
// as <details> kept, line breaks kept) in a page styled like GitHub's, or an HTML
// report with its first newly failing (else failing) row opened, each shot in headless Chromium.
// scripts/screenshots.sh makes the reports and runs it; no test runs it.
//
//	screenshots OUT.png=IN.md|IN.html ...
package main

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: screenshots OUT.png=IN.md|IN.html ...")
		os.Exit(2)
	}
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "screenshots:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	exe := ""
	for _, n := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(n); err == nil {
			exe = p
			break
		}
	}
	if exe == "" {
		return fmt.Errorf("chromium not found on PATH: scripts/install-test-tools.sh installs it")
	}
	tmp, err := os.MkdirTemp("", "evalgate-shots-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.Flag("hide-scrollbars", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(filepath.Join(tmp, "profile")))
	defer cancelA()
	ctx, cancelC := chromedp.NewContext(actx)
	defer cancelC()
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
	defer cancelT()
	for i, a := range args {
		out, in, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("%q: want OUT.png=IN.md or OUT.png=IN.html", a)
		}
		var png []byte
		switch filepath.Ext(in) {
		case ".md", ".markdown":
			page := filepath.Join(tmp, fmt.Sprintf("comment-%d.html", i))
			if err := commentPage(in, page); err != nil {
				return err
			}
			err = chromedp.Run(ctx, chromedp.EmulateViewport(860, 600), chromedp.Navigate("file://"+page),
				chromedp.WaitVisible(".comment", chromedp.ByQuery), chromedp.Screenshot(".comment", &png, chromedp.ByQuery))
		case ".html":
			abs, err2 := filepath.Abs(in)
			if err2 != nil {
				return err2
			}
			// The first newly failing row (else failing row) opened, one click, and the
			// first screen shot.
			err = chromedp.Run(ctx, chromedp.EmulateViewport(1400, 1000), chromedp.Navigate("file://"+abs),
				chromedp.WaitVisible("#rows tr", chromedp.ByQuery),
				chromedp.Evaluate(`(function(){ var td = document.querySelector("#rows tr.item .flag.newly") || document.querySelector("#rows tr.item td.st-fail");
					if (td) td.closest("tr").click(); })()`, nil),
				chromedp.Sleep(200*time.Millisecond), chromedp.CaptureScreenshot(&png))
		default:
			return fmt.Errorf("%s: want a .md or .html file", in)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		if err := os.WriteFile(out, png, 0o644); err != nil {
			return err
		}
		fmt.Printf("wrote %s (%d KB) from %s\n", out, len(png)/1024, in)
	}
	return nil
}

// commentPage writes the comment in file md as GitHub shows it in a pull request.
func commentPage(md, page string) error {
	src, err := os.ReadFile(md)
	if err != nil {
		return err
	}
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM),
		goldmark.WithRendererOptions(gmhtml.WithUnsafe(), gmhtml.WithHardWraps()))
	var body bytes.Buffer
	if err := gm.Convert(src, &body); err != nil {
		return fmt.Errorf("%s: %w", md, err)
	}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, template.HTML(body.String())); err != nil {
		return err
	}
	return os.WriteFile(page, b.Bytes(), 0o644)
}

// pageTemplate is a pull request's comment box, styled after GitHub's light theme.
var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><style>
body { margin: 0; padding: 16px; background: #fff; color: #1f2328;
  font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, "DejaVu Sans", sans-serif, "Noto Color Emoji"; }
.comment { border: 1px solid #d1d9e0; border-radius: 6px; max-width: 820px; }
.head { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; border-radius: 6px 6px 0 0; padding: 8px 16px; color: #59636e; }
.head b { color: #1f2328; }
.body { padding: 16px; overflow-wrap: break-word; }
.body > :first-child { margin-top: 0; }
h1, h2, h3, h4 { font-weight: 600; line-height: 1.25; margin: 24px 0 16px; }
h3 { font-size: 1.25em; }
p, ul, ol, table, blockquote, pre, details { margin: 0 0 16px; }
ul, ol { padding-left: 2em; }
li + li { margin-top: .25em; }
a { color: #0969da; text-decoration: none; }
code, pre { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace; font-size: 85%; }
code { background: rgba(129, 139, 151, .12); border-radius: 6px; padding: .2em .4em; }
pre { background: #f6f8fa; border-radius: 6px; padding: 16px; overflow: auto; }
pre code { background: none; padding: 0; font-size: 100%; }
blockquote { color: #59636e; border-left: .25em solid #d1d9e0; padding: 0 1em; margin-left: 0; }
table { border-collapse: collapse; display: block; width: max-content; max-width: 100%; overflow: auto; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
th { font-weight: 600; }
tr:nth-child(2n) { background: #f6f8fa; }
details summary { cursor: pointer; display: list-item; }
details[open] > summary { margin-bottom: 8px; }
hr { border: 0; height: .25em; background: #d1d9e0; margin: 24px 0; }
</style></head><body>
<div class="comment"><div class="head"><b>github-actions</b> <span>bot</span> commented</div><div class="body">
{{.}}
</div></div></body></html>
`))
