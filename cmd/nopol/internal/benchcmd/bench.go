package benchcmd

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/nopol-go/nopol/cmd/nopol/internal/cli"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nopol-go/nopol/benchmarks"
	"golang.org/x/mod/modfile"
)

func init() {
	cli.Register(&cli.Command{Name: "bench", Short: "run repair tools on the bug dataset (also: mine, seed, verify)", Run: runBench})
}

const benchUsage = `Usage:
  nopol bench [-j N] [-timeout D] [-mem MB] [-tool nopol|mutation] [-fixargs flags] [-out dir] [-short] [-q] [bug ids]
  nopol bench mine [-pairs N] [-budget D] [modules]
  nopol bench seed [-per N] [-budget D] [modules]
  nopol bench verify [-j N] [-prune] [bug ids]
  nopol bench report [-out dir]
  nopol bench rejudge [-out dir] [-audit file]   (the stored patches judged again by this version's judge)
  nopol bench purified [-j N] [-out dir] [bug ids]   (purified tests keep their fault revealing power?)
  nopol bench mutrepair [-C dir] [./pkg]   (the mutation baseline on one tree)
  nopol bench transparency [-list file] [-out dir] [modules]   (same test outcomes plain and instrumented?)
  nopol bench resilience [-list file] [-out dir] [-purify] [modules]   (short-circuit testing of error handlers)
  nopol bench tree [-fixed] <bug id> <new dir>   (a bug's buggy tree, to look at or repair by hand)

The dataset is benchmarks/bugs (-bugs). See benchmarks/RESULTS.md.
`

// benchFlags are the flags every bench subcommand shares.
type benchFlags struct {
	bugs    string
	jobs    int
	timeout time.Duration
	memMB   int64
	quiet   bool
}

func (f *benchFlags) register(fs *flag.FlagSet, env *cli.Env) {
	fs.StringVar(&f.bugs, "bugs", filepath.Join(benchRoot(env.Dir), "benchmarks", "bugs"), "directory of bug files")
	fs.IntVar(&f.jobs, "j", 1, "bugs processed in parallel")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Minute, "time limit of one go test or repair run")
	fs.Int64Var(&f.memMB, "mem", 8192, "address-space limit of each subprocess in MiB (0: none)")
	fs.BoolVar(&f.quiet, "q", false, "no progress on stderr")
}

// progress is where progress lines go: stderr, or nowhere with -q.
func (f *benchFlags) progress(env *cli.Env) io.Writer {
	if f.quiet {
		return io.Discard
	}
	return env.Stderr
}

func (f *benchFlags) runner() *benchmarks.Runner {
	return &benchmarks.Runner{Timeout: f.timeout, MemLimit: f.memMB << 20}
}

func newFlagSet(env *cli.Env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, benchUsage+"\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs
}

// flagError maps a flag parsing error (already printed with the usage) to
// exit code 2.
func flagError(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	return cli.Exit(cli.ExitBadInput, fmt.Errorf("%w: %v", cli.ErrSilent, err))
}

func runBench(ctx context.Context, env *cli.Env, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "mine":
			return runMine(ctx, env, args[1:])
		case "seed":
			return runSeed(ctx, env, args[1:])
		case "verify":
			return runVerify(ctx, env, args[1:])
		case "report":
			return runReport(ctx, env, args[1:])
		case "rejudge":
			return runRejudge(ctx, env, args[1:])
		case "mutrepair":
			return runMutRepair(ctx, env, args[1:])
		case "purified":
			return runPurified(ctx, env, args[1:])
		case "transparency":
			return runTransparency(ctx, env, args[1:])
		case "resilience":
			return runResilienceBench(ctx, env, args[1:])
		case "tree":
			return runTree(ctx, env, args[1:])
		}
	}
	return runBenchTools(ctx, env, args)
}

// existing returns a function reporting whether a bug file exists.
func existing(dir string) func(string) bool {
	return func(id string) bool {
		_, err := os.Stat(filepath.Join(dir, id+".json"))
		return err == nil
	}
}

func runMine(ctx context.Context, env *cli.Env, args []string) error {
	var bf benchFlags
	fs := newFlagSet(env, "bench mine")
	bf.register(fs, env)
	pairs := fs.Int("pairs", 0, "consecutive release pairs per module, newest first (0: all)")
	budget := fs.Duration("budget", 0, "time spent on one module (0: no limit)")
	max := fs.Int("max", 0, "bugs per module (0: no limit)")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if err := os.MkdirAll(bf.bugs, 0o755); err != nil {
		return err
	}
	bugs, err := benchmarks.Mine(ctx, benchmarks.MineOptions{
		Modules: fs.Args(), Pairs: *pairs, Budget: *budget, MaxPerModule: *max,
		Runner:   bf.runner(),
		Found:    func(b *benchmarks.Bug) error { return benchmarks.SaveBug(bf.bugs, b) },
		Seen:     existing(bf.bugs),
		Progress: bf.progress(env),
	})
	fmt.Fprintf(bf.progress(env), "mined %d bugs into %s\n", len(bugs), bf.bugs)
	if err != nil {
		return fmt.Errorf("mining: %v", err)
	}
	return nil
}

func runSeed(ctx context.Context, env *cli.Env, args []string) error {
	var bf benchFlags
	fs := newFlagSet(env, "bench seed")
	bf.register(fs, env)
	per := fs.Int("per", 4, "bugs kept per module")
	tries := fs.Int("tries", 40, "mutants tried per module (0: no bound)")
	budget := fs.Duration("budget", 0, "time spent on one module (0: no limit)")
	version := fs.String("version", "", "module version (default: latest release)")
	seed := fs.Uint64("seed", 1, "random seed of the mutant order")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if err := os.MkdirAll(bf.bugs, 0o755); err != nil {
		return err
	}
	bugs, err := benchmarks.Seed(ctx, benchmarks.SeedOptions{
		Modules: fs.Args(), Version: *version, PerModule: *per, MaxTries: *tries, Budget: *budget, Seed: *seed,
		Runner:   bf.runner(),
		Found:    func(b *benchmarks.Bug) error { return benchmarks.SaveBug(bf.bugs, b) },
		Seen:     existing(bf.bugs),
		Progress: bf.progress(env),
	})
	fmt.Fprintf(bf.progress(env), "seeded %d bugs into %s\n", len(bugs), bf.bugs)
	if err != nil {
		return fmt.Errorf("seeding: %v", err)
	}
	return nil
}

// runTree writes the buggy (or, with -fixed, the fixed) tree of one bug
// into a new directory, to look at it or run nopol fix in it by hand.
func runTree(ctx context.Context, env *cli.Env, args []string) error {
	var bf benchFlags
	fs := newFlagSet(env, "bench tree")
	bf.register(fs, env)
	fixed := fs.Bool("fixed", false, "the developer's fixed tree instead of the buggy one")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if fs.NArg() != 2 {
		return cli.Exit(cli.ExitBadInput, errors.New("bench tree: give a bug id and a directory that does not exist yet"))
	}
	bugs, err := loadSelected(&bf, fs.Args()[:1], false)
	if err != nil {
		return err
	}
	dir := fs.Arg(1)
	if _, err := os.Stat(dir); err == nil {
		return cli.Exit(cli.ExitBadInput, fmt.Errorf("bench tree: %s exists; give a new directory", dir))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := benchmarks.Materialise(ctx, bf.runner(), bugs[0], dir, !*fixed); err != nil {
		os.RemoveAll(dir)
		return err
	}
	b := bugs[0]
	fmt.Fprintf(env.Stdout, "%s: %s tree of %s@%s in %s\npackage %s, failing %s\n", b.ID, map[bool]string{true: "fixed", false: "buggy"}[*fixed], b.Module, b.Version, dir, b.Package, strings.Join(b.FailingTests, " "))
	return nil
}

// shortBugs is how many bugs -short (or NOPOL_BENCH_SHORT=1) keeps: the
// smallest packages first, for CI.
const shortBugs = 5

func loadSelected(bf *benchFlags, ids []string, short bool) ([]*benchmarks.Bug, error) {
	bugs, err := benchmarks.LoadBugs(bf.bugs)
	if err != nil {
		return nil, err
	}
	bugs, err = benchmarks.SelectBugs(bugs, ids)
	if err != nil {
		return nil, err
	}
	if short || os.Getenv("NOPOL_BENCH_SHORT") == "1" {
		bugs = benchmarks.ShortList(bugs, shortBugs)
	}
	return bugs, nil
}

func runVerify(ctx context.Context, env *cli.Env, args []string) error {
	var bf benchFlags
	fs := newFlagSet(env, "bench verify")
	bf.register(fs, env)
	prune := fs.Bool("prune", false, "delete the files of bugs that do not verify")
	short := fs.Bool("short", false, "verify only a few small bugs (CI)")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	bugs, err := loadSelected(&bf, fs.Args(), *short)
	if err != nil {
		return err
	}
	n := 0
	verdicts := benchmarks.Verify(ctx, bf.runner(), bugs, bf.jobs, func(v benchmarks.Verdict) {
		n++
		switch {
		case v.OK && len(v.FlakyUnderFix) > 0:
			fmt.Fprintf(bf.progress(env), "[%d/%d] %s: ok, but failing tests flaky under the fix (the judge excuses them): %s\n", n, len(bugs), v.ID, strings.Join(v.FlakyUnderFix, ", "))
		case v.OK:
			fmt.Fprintf(bf.progress(env), "[%d/%d] %s: ok\n", n, len(bugs), v.ID)
		default:
			fmt.Fprintf(bf.progress(env), "[%d/%d] %s: FAIL: %s\n", n, len(bugs), v.ID, v.Problem)
		}
	})
	bad := 0
	for _, v := range verdicts {
		if v.ID == "" { // not run: cancelled
			continue
		}
		fmt.Fprintf(env.Stdout, "%s\t%v\t%s\n", v.ID, v.OK, v.Problem)
		if !v.OK {
			bad++
			if *prune {
				os.Remove(filepath.Join(bf.bugs, v.ID+".json"))
			}
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if bad > 0 && !*prune {
		return cli.Exit(cli.ExitNoPatch, fmt.Errorf("verifying: %d of %d bugs do not verify (rerun with -prune to drop them)", bad, len(bugs)))
	}
	return nil
}

func runBenchTools(ctx context.Context, env *cli.Env, args []string) error {
	var bf benchFlags
	fs := newFlagSet(env, "bench")
	bf.register(fs, env)
	tool := fs.String("tool", benchmarks.ToolNopol, "repair tool: nopol or mutation")
	out := fs.String("out", filepath.Join(benchRoot(env.Dir), "benchmarks", "results"), "directory of results-<tool>.jsonl and the reports")
	short := fs.Bool("short", false, "run only a few small bugs (CI; also NOPOL_BENCH_SHORT=1)")
	fixArgs := fs.String("fixargs", "", "extra flags of nopol fix, space-separated (e.g. \"-synth enum\")")
	auditFile := auditFlag(fs, env)
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	audits, err := loadAudits(*auditFile)
	if err != nil {
		return err
	}
	if *tool != benchmarks.ToolNopol && *tool != benchmarks.ToolMutation {
		fs.Usage()
		return cli.ErrUsage
	}
	bugs, err := loadSelected(&bf, fs.Args(), *short)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench: finding the nopol binary: %v", err)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	jsonl, err := os.OpenFile(filepath.Join(*out, "results-"+*tool+".jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer jsonl.Close()
	// Go commands of materialisation and validation get the same limits
	// as the repair, with a floor so a slow suite is not cut short.
	goRunner := &benchmarks.Runner{Timeout: max(bf.timeout, 5*time.Minute), MemLimit: bf.memMB << 20}
	results := benchmarks.Bench(ctx, benchmarks.BenchOptions{
		Tool: *tool, Nopol: self, FixArgs: strings.Fields(*fixArgs), Timeout: bf.timeout, MemLimit: bf.memMB << 20, Jobs: bf.jobs,
		Runner: goRunner, Progress: bf.progress(env), Audits: audits,
		Done: func(r *benchmarks.Result) {
			data, _ := json.Marshal(r)
			jsonl.Write(append(data, '\n'))
		},
	}, bugs)
	if err := benchmarks.WriteReports(*out); err != nil {
		return fmt.Errorf("bench: writing reports: %v", err)
	}
	for _, s := range benchmarks.Summarize(results) {
		fmt.Fprintf(bf.progress(env), "%s: %d bugs, %d patched, %d plausible, %d correct; reports in %s\n", s.Tool, s.Bugs, s.Patched, s.Plausible, s.Correct, *out)
	}
	return ctx.Err()
}

func runReport(ctx context.Context, env *cli.Env, args []string) error {
	fs := newFlagSet(env, "bench report")
	out := fs.String("out", filepath.Join(benchRoot(env.Dir), "benchmarks", "results"), "directory of results-<tool>.jsonl")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	return benchmarks.WriteReports(*out)
}

// runRejudge judges the plausible patches of the results in -out again
// with this version's judge and audits, appends the new verdicts to
// results-<tool>.jsonl (a report keeps each bug's last line) and writes
// the reports again.
func runRejudge(ctx context.Context, env *cli.Env, args []string) error {
	var bf benchFlags
	fs := newFlagSet(env, "bench rejudge")
	bf.register(fs, env)
	out := fs.String("out", filepath.Join(benchRoot(env.Dir), "benchmarks", "results"), "directory of results-<tool>.jsonl")
	auditFile := auditFlag(fs, env)
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	audits, err := loadAudits(*auditFile)
	if err != nil {
		return err
	}
	bugs, err := loadSelected(&bf, nil, false)
	if err != nil {
		return err
	}
	results, err := benchmarks.ReadResults(*out)
	if err != nil {
		return err
	}
	files := map[string]*os.File{}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	var werr error // the first file that cannot be opened
	err = benchmarks.Rejudge(ctx, bf.runner(), bugs, results, audits, func(r *benchmarks.Result) {
		f := files[r.Tool]
		if f == nil {
			var err error
			if f, err = os.OpenFile(filepath.Join(*out, "results-"+r.Tool+".jsonl"), os.O_APPEND|os.O_WRONLY, 0o644); err != nil {
				werr = cmp.Or(werr, err)
				return
			}
			files[r.Tool] = f
		}
		data, _ := json.Marshal(r)
		f.Write(append(data, '\n'))
		fmt.Fprintf(bf.progress(env), "%s: correct %v (%s)\n", r.Bug, r.Correct, r.Judgement)
	})
	if err == nil {
		err = werr
	}
	if err != nil {
		return fmt.Errorf("bench rejudge: %v", err)
	}
	return benchmarks.WriteReports(*out)
}

// auditFlag registers -audit, the file of verdicts by hand the judge
// takes for patches it cannot prove (default the dataset's,
// benchmarks/audit.json).
func auditFlag(fs *flag.FlagSet, env *cli.Env) *string {
	return fs.String("audit", filepath.Join(benchRoot(env.Dir), "benchmarks", "audit.json"), "verdicts by hand the judge takes for patches it cannot prove (JSON; none when the file does not exist)")
}

// loadAudits reads the audit file, none when it does not exist.
func loadAudits(file string) ([]benchmarks.Audit, error) {
	if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	audits, err := benchmarks.LoadAudits(file)
	if err != nil {
		return nil, cli.Exit(cli.ExitBadInput, fmt.Errorf("reading the audits: %v", err))
	}
	return audits, nil
}

// runMutRepair is the mutation baseline's process, started by 'nopol
// bench -tool mutation' under the same limits as 'nopol fix'.
func runMutRepair(ctx context.Context, env *cli.Env, args []string) error {
	fs := newFlagSet(env, "bench mutrepair")
	dir := fs.String("C", env.Dir, "module root")
	sites := fs.Int("sites", 10, "most suspicious conditions mutated")
	quiet := fs.Bool("q", false, "no progress on stderr")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	pkg := "."
	if fs.NArg() > 0 {
		pkg = fs.Arg(0)
	}
	opts := benchmarks.MutationOptions{Dir: *dir, Package: pkg, MaxSites: *sites, Runner: &benchmarks.Runner{}}
	if !*quiet {
		opts.Progress = env.Stderr
	}
	res, err := benchmarks.MutationRepair(ctx, opts)
	if err != nil {
		return cli.Exit(cli.ExitBadInput, fmt.Errorf("mutation repair of %s: %v", pkg, err))
	}
	data, _ := json.MarshalIndent(res, "", "  ")
	env.Stdout.Write(append(data, '\n'))
	if !res.Patched {
		return cli.Exit(cli.ExitNoPatch, cli.ErrSilent)
	}
	return nil
}

// runPurified checks that the tests 'nopol purify -write' writes on each
// bug's fixed tree pass there and reveal the bug on the buggy tree as the
// original tests do. Results: <out>/purified.jsonl (appended) and
// <out>/purified.md (from the whole file).
func runPurified(ctx context.Context, env *cli.Env, args []string) error {
	var bf benchFlags
	fs := newFlagSet(env, "bench purified")
	bf.register(fs, env)
	out := fs.String("out", filepath.Join(benchRoot(env.Dir), "benchmarks", "results"), "directory of purified.jsonl and purified.md")
	short := fs.Bool("short", false, "run only a few small bugs (CI; also NOPOL_BENCH_SHORT=1)")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	bugs, err := loadSelected(&bf, fs.Args(), *short)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench purified: finding the nopol binary: %v", err)
	}
	return checkPurified(ctx, env, &bf, *out, benchmarks.PurifyCommand(bf.runner(), self), bugs)
}

// checkPurified runs benchmarks.CheckPurified with purify and writes the
// results under out.
func checkPurified(ctx context.Context, env *cli.Env, bf *benchFlags, out string, purify benchmarks.PurifyFunc, bugs []*benchmarks.Bug) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	jsonl, err := os.OpenFile(filepath.Join(out, benchmarks.PurifiedFile), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer jsonl.Close()
	benchmarks.CheckPurified(ctx, benchmarks.PurifiedOptions{
		Purify: purify, Runner: &benchmarks.Runner{Timeout: max(bf.timeout, 5*time.Minute), MemLimit: bf.memMB << 20},
		Jobs: bf.jobs, Progress: bf.progress(env),
		Done: func(r *benchmarks.PurifiedResult) {
			data, _ := json.Marshal(r)
			jsonl.Write(append(data, '\n'))
		},
	}, bugs)
	all, err := benchmarks.ReadPurified(out)
	if err != nil {
		return err
	}
	var md strings.Builder
	benchmarks.WritePurifiedMarkdown(&md, all)
	if err := os.WriteFile(filepath.Join(out, "purified.md"), []byte(md.String()), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(bf.progress(env), "bench purified: results in %s\n", filepath.Join(out, "purified.md"))
	return ctx.Err()
}

// runTransparency checks, module by module, that instrumenting changes no
// test's outcome, and writes transparency.jsonl and transparency.md. The
// modules come from the proxy and run with GOFLAGS=-mod=mod, GOWORK=off,
// GOTOOLCHAIN=local, set in this process's environment.
func runTransparency(ctx context.Context, env *cli.Env, args []string) error {
	var bf benchFlags
	fs := newFlagSet(env, "bench transparency")
	bf.register(fs, env)
	list := fs.String("list", "", "file of \"module version\" lines (default: benchmarks/transparency.txt)")
	out := fs.String("out", filepath.Join(benchRoot(env.Dir), "benchmarks", "results"), "directory of transparency.jsonl and transparency.md")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if *list == "" {
		*list = benchmarks.TransparencyList(bf.bugs)
	}
	mods, err := moduleList("bench transparency", *list, fs.Args())
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	var rows []benchmarks.TransparencyRow
	var jsonl strings.Builder
	for _, m := range mods {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		row := benchmarks.Transparency(ctx, bf.runner(), m[0], m[1], bf.timeout, bf.progress(env))
		rows = append(rows, row)
		data, _ := json.Marshal(row)
		jsonl.Write(append(data, '\n'))
	}
	table := benchmarks.TransparencyTable(rows)
	if err := os.WriteFile(filepath.Join(*out, "transparency.jsonl"), []byte(jsonl.String()), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "transparency.md"), []byte(table), 0o644); err != nil {
		return err
	}
	fmt.Fprint(env.Stdout, table)
	for _, r := range rows {
		if len(r.Differ) > 0 {
			return cli.Exit(cli.ExitNoPatch, errors.New("bench transparency: some tests differ plain and instrumented"))
		}
	}
	return nil
}

// runResilienceBench runs the resilience analysis (nopol resilience) on
// each module of the list, without and with -purify, and writes
// resilience.jsonl and resilience.md. -timeout bounds each analysis.
func runResilienceBench(ctx context.Context, env *cli.Env, args []string) error {
	var bf benchFlags
	fs := newFlagSet(env, "bench resilience")
	bf.register(fs, env)
	list := fs.String("list", filepath.Join(benchRoot(env.Dir), "benchmarks", "resilience.txt"), "file of \"module version\" lines")
	out := fs.String("out", filepath.Join(benchRoot(env.Dir), "benchmarks", "results"), "directory of resilience.jsonl and resilience.md")
	purify := fs.Bool("purify", true, "also analyse with the impure tests split")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	mods, err := moduleList("bench resilience", *list, fs.Args())
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	var rows []benchmarks.ResilienceRow
	var jsonl strings.Builder
	for _, m := range mods {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		row := benchmarks.Resilience(ctx, bf.runner(), m[0], m[1], bf.timeout, *purify, bf.progress(env))
		rows = append(rows, row)
		data, _ := json.Marshal(row)
		jsonl.Write(append(data, '\n'))
	}
	table := benchmarks.ResilienceTable(rows)
	if err := os.WriteFile(filepath.Join(*out, "resilience.jsonl"), []byte(jsonl.String()), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "resilience.md"), []byte(table), 0o644); err != nil {
		return err
	}
	fmt.Fprint(env.Stdout, table)
	return nil
}

// moduleList reads the "module version" lines of list, keeps those whose
// module path contains one of only (all when empty), and sets this
// process's environment for modules from the proxy (GOFLAGS=-mod=mod,
// GOWORK=off, GOTOOLCHAIN=local).
func moduleList(cmd, list string, only []string) ([][2]string, error) {
	f, err := os.Open(list)
	if err != nil {
		return nil, cli.Exit(cli.ExitBadInput, fmt.Errorf("%s: %w", cmd, err))
	}
	mods, err := benchmarks.ReadModuleList(f)
	f.Close()
	if err != nil {
		return nil, cli.Exit(cli.ExitBadInput, err)
	}
	if len(only) > 0 {
		var keep [][2]string
		for _, m := range mods {
			for _, a := range only {
				if strings.Contains(m[0], a) {
					keep = append(keep, m)
					break
				}
			}
		}
		mods = keep
	}
	for _, kv := range []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local"} {
		k, v, _ := strings.Cut(kv, "=")
		os.Setenv(k, v)
	}
	return mods, nil
}

// benchRoot is the root of nopol's own module at or above dir (the
// directory holding benchmarks/bugs), so that nopol bench works from any
// directory of the repository; dir itself when there is none.
func benchRoot(dir string) string {
	for d := dir; ; {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && modfile.ModulePath(data) == "github.com/nopol-go/nopol" {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}
