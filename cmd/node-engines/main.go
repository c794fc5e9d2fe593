// Command node-engines checks that a Node.js version satisfies the
// engines.node range of every package that the course's npm lock files pin
// (tests/browser's playwright-core, docker/lint's dockerfilelint, and what
// they need): playwright-core exits at startup on a Node.js older than its
// range allows, so make test would stop at the browser check.
//
//	go run ./cmd/node-engines tests/browser/package-lock.json docker/lint/package-lock.json
//	go run ./cmd/node-engines -node 18.20.4 tests/browser/package-lock.json
//
// Without -node it checks the node on PATH (node --version). It prints one
// line when every range is satisfied; otherwise one line per package that
// is not, with what to do, and exits with status 1. Bad flags or lock files
// it cannot read exit with status 2.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// installAdvice says how to get the Node.js the course pins.
const installAdvice = "install the pinned Node.js with scripts/install-node.sh (as root: into /usr/local)"

// engine is the engines.node range of one package of a lock file.
type engine struct {
	lock, pkg, version, rng string
}

// lockEngines reads the engines.node range of every package of an npm
// lock file (lockfileVersion 2 or 3: the "packages" map; "" is the
// project itself).
func lockEngines(path string) ([]engine, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var lock struct {
		LockfileVersion int `json:"lockfileVersion"`
		Packages        map[string]struct {
			Name    string          `json:"name"`
			Version string          `json:"version"`
			Engines json.RawMessage `json:"engines"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(data, &lock); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if lock.LockfileVersion < 2 || lock.Packages == nil {
		return nil, fmt.Errorf("%s: lockfileVersion %d has no \"packages\" map; regenerate it with npm 7 or later", path, lock.LockfileVersion)
	}
	var out []engine
	for key, p := range lock.Packages {
		rng, err := nodeRange(p.Engines)
		if err != nil {
			return nil, fmt.Errorf("%s: package %q: %v", path, key, err)
		}
		if rng == "" {
			continue
		}
		name := p.Name + " (the project)"
		if key != "" {
			name = key[strings.LastIndex(key, "node_modules/")+len("node_modules/"):]
		}
		out = append(out, engine{lock: path, pkg: name, version: p.Version, rng: rng})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pkg < out[j].pkg })
	return out, nil
}

// nodeRange returns the node entry of an engines field: an object
// {"node": ">=20"}, or the old array form ["node >=0.8"].
func nodeRange(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var obj map[string]string
	if err := json.Unmarshal(raw, &obj); err == nil {
		return obj["node"], nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err == nil {
		for _, e := range list {
			if r, ok := strings.CutPrefix(strings.TrimSpace(e), "node"); ok {
				return strings.TrimSpace(r), nil
			}
		}
		return "", nil
	}
	return "", fmt.Errorf("cannot read engines %s", raw)
}

// unsatisfied returns, for the Node.js version v, one line per package of
// the lock files whose engines.node range v is outside of, and how many
// ranges it checked.
func unsatisfied(v version, locks []string) (problems []string, checked int, err error) {
	for _, lock := range locks {
		engines, err := lockEngines(lock)
		if err != nil {
			return nil, 0, err
		}
		for _, e := range engines {
			ok, err := satisfies(v, e.rng)
			if err != nil {
				return nil, 0, fmt.Errorf("%s: %s: %v", e.lock, e.pkg, err)
			}
			checked++
			if !ok {
				problems = append(problems, fmt.Sprintf("%s (%s) needs node %s", strings.TrimSpace(e.pkg+" "+e.version), e.lock, e.rng))
			}
		}
	}
	return problems, checked, nil
}

func run(args []string, stdout, stderr io.Writer) int {
	f := flag.NewFlagSet("node-engines", flag.ContinueOnError)
	f.SetOutput(io.Discard)
	node := f.String("node", "", "the Node.js `version` to check (default: node --version of the node on PATH)")
	if err := f.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "usage: node-engines [-node VERSION] PACKAGE-LOCK.JSON...\n")
			return 0
		}
		fmt.Fprintf(stderr, "node-engines: %v\n", err)
		return 2
	}
	if f.NArg() == 0 {
		fmt.Fprintf(stderr, "node-engines: give the package-lock.json files to check\n")
		return 2
	}
	what := *node
	if what == "" {
		out, err := exec.Command("node", "--version").Output()
		if err != nil {
			fmt.Fprintf(stderr, "node-engines: no node on PATH (%v): %s\n", err, installAdvice)
			return 1
		}
		what = strings.TrimSpace(string(out))
	}
	v, err := parseVersion(what)
	if err != nil {
		fmt.Fprintf(stderr, "node-engines: -node: %v\n", err)
		return 2
	}
	problems, checked, err := unsatisfied(v, f.Args())
	if err != nil {
		fmt.Fprintf(stderr, "node-engines: %v\n", err)
		return 2
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintf(stderr, "node-engines: node v%s is outside the range: %s\n", v, p)
		}
		fmt.Fprintf(stderr, "node-engines: %s\n", installAdvice)
		return 1
	}
	fmt.Fprintf(stdout, "node-engines: node v%s satisfies the engines.node range of all %d packages that declare one in %s\n", v, checked, strings.Join(f.Args(), ", "))
	return 0
}
