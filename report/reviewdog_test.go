package report

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// TestReviewdog feeds the rdjsonl and SARIF goldens of the examples to a
// real reviewdog (v0.21.0, installed by .ci/run) with the
// github-pr-review reporter, pointed at a local HTTP server that stands in
// for GitHub's REST API and records the review reviewdog posts. The
// review's suggestion, applied to the file, must give the file that
// `git apply want.diff` gives. Without reviewdog on PATH the test is
// skipped, unless NOPOL_REQUIRE_REVIEWDOG is set (CI sets it).
func TestReviewdog(t *testing.T) {
	rd, err := exec.LookPath("reviewdog")
	if err != nil {
		if os.Getenv("NOPOL_REQUIRE_REVIEWDOG") != "" {
			t.Fatal("reviewdog is not on PATH: go install github.com/reviewdog/reviewdog/cmd/reviewdog@v0.21.0")
		}
		t.Skip("reviewdog is not on PATH")
	}
	examples, err := filepath.Glob("../examples/*/want.rdjsonl")
	if err != nil || len(examples) == 0 {
		t.Fatalf("no example goldens (%v)", err)
	}
	for _, golden := range examples {
		ex := filepath.Dir(golden)
		for _, format := range []string{RDJSONL, SARIF} {
			t.Run(filepath.Base(ex)+"/"+format, func(t *testing.T) {
				repo, sha := gitRepo(t, ex)
				gh := newFakeGitHub(t, repo)
				input, err := os.Open(filepath.Join(ex, "want."+format))
				if err != nil {
					t.Fatal(err)
				}
				defer input.Close()
				cmd := exec.Command(rd, "-f="+format, "-reporter=github-pr-review", "-fail-level=none")
				cmd.Dir, cmd.Stdin = repo, input
				cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(),
					"REVIEWDOG_GITHUB_API_TOKEN=test-token", "GITHUB_API=" + gh.URL + "/",
					"CI_PULL_REQUEST=1", "CI_REPO_OWNER=owner", "CI_REPO_NAME=repo", "CI_COMMIT=" + sha, "CI_BRANCH=fix"}
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("reviewdog: %v\n%s", err, out)
				}
				c := gh.comment(t)
				want := patchedByGit(t, repo, filepath.Join(ex, "want.diff"))
				got := applySuggestion(t, repo, c)
				if got != want[c.Path] {
					t.Errorf("the suggestion on %s:%d-%d gives:\n%s\nwant (git apply want.diff):\n%s\ncomment:\n%s", c.Path, c.StartLine, c.Line, got, want[c.Path], c.Body)
				}
			})
		}
	}
}

// gitRepo copies the example's Go files into a new git repository and
// commits them; it returns the repository and the commit.
func gitRepo(t *testing.T, ex string) (string, string) {
	t.Helper()
	repo := t.TempDir()
	files, _ := filepath.Glob(filepath.Join(ex, "*.go"))
	files = append(files, filepath.Join(ex, "go.mod"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, repo, "init", "-q")
	git(t, repo, "add", ".")
	git(t, repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "example")
	return repo, strings.TrimSpace(git(t, repo, "rev-parse", "HEAD"))
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// patchedByGit applies diff to a copy of repo with git apply and returns
// the files it changes, by name.
func patchedByGit(t *testing.T, repo, diff string) map[string]string {
	t.Helper()
	work := t.TempDir()
	git(t, work, "clone", "-q", repo, ".")
	abs, _ := filepath.Abs(diff)
	git(t, work, "apply", abs)
	out := map[string]string{}
	for _, name := range strings.Fields(git(t, work, "diff", "--name-only")) {
		data, err := os.ReadFile(filepath.Join(work, name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = string(data)
	}
	return out
}

// reviewComment is a comment of the review reviewdog posts.
type reviewComment struct {
	Path      string `json:"path"`
	Body      string `json:"body"`
	Line      int    `json:"line"`
	StartLine int    `json:"start_line"`
}

var suggestionRE = regexp.MustCompile("(?s)(`{3,})suggestion\n(.*?)\n?(`{3,})")

// applySuggestion replaces the comment's lines of its file by its
// suggestion block.
func applySuggestion(t *testing.T, repo string, c reviewComment) string {
	t.Helper()
	m := suggestionRE.FindStringSubmatch(c.Body)
	if m == nil {
		t.Fatalf("no suggestion block in the comment:\n%s", c.Body)
	}
	data, err := os.ReadFile(filepath.Join(repo, c.Path))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	start := c.StartLine
	if start == 0 {
		start = c.Line
	}
	return strings.Join(lines[:start-1], "") + m[2] + "\n" + strings.Join(lines[c.Line:], "")
}

// fakeGitHub answers the REST calls reviewdog's github-pr-review reporter
// makes for pull request 1 of owner/repo: the pull request's diff (every
// file of the repository added), its comments (none), the repository, and
// the review it creates, which it records.
type fakeGitHub struct {
	*httptest.Server
	mu      sync.Mutex
	reviews []struct {
		Comments []reviewComment `json:"comments"`
	}
}

func newFakeGitHub(t *testing.T, repo string) *fakeGitHub {
	t.Helper()
	gh := &fakeGitHub{}
	diff := addedDiff(t, repo)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /repos/owner/repo/pulls/1", func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept"), "diff") {
			http.Error(w, "only the diff is served", http.StatusNotAcceptable)
			return
		}
		io.WriteString(w, diff)
	})
	mux.HandleFunc("GET /repos/owner/repo/pulls/1/comments", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "[]")
	})
	mux.HandleFunc("GET /repos/owner/repo", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"name": "repo", "html_url": %q}`, gh.URL+"/owner/repo")
	})
	mux.HandleFunc("POST /repos/owner/repo/pulls/1/reviews", func(w http.ResponseWriter, r *http.Request) {
		gh.mu.Lock()
		defer gh.mu.Unlock()
		var review struct {
			Comments []reviewComment `json:"comments"`
		}
		if err := json.NewDecoder(r.Body).Decode(&review); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		gh.reviews = append(gh.reviews, review)
		io.WriteString(w, `{"id": 1}`)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("unexpected GitHub API call: %s %s", r.Method, r.URL)
		http.NotFound(w, r)
	})
	gh.Server = httptest.NewServer(mux)
	t.Cleanup(gh.Close)
	return gh
}

// comment is the one comment of the one review posted.
func (gh *fakeGitHub) comment(t *testing.T) reviewComment {
	t.Helper()
	gh.mu.Lock()
	defer gh.mu.Unlock()
	if len(gh.reviews) != 1 || len(gh.reviews[0].Comments) != 1 {
		t.Fatalf("reviews posted: %+v, want one with one comment", gh.reviews)
	}
	return gh.reviews[0].Comments[0]
}

// addedDiff is a git diff that adds every file of repo.
func addedDiff(t *testing.T, repo string) string {
	t.Helper()
	empty := strings.TrimSpace(git(t, repo, "hash-object", "-t", "tree", "/dev/null"))
	return git(t, repo, "diff", empty, "HEAD")
}
