package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestSatisfies(t *testing.T) {
	tests := []struct {
		rng, v string
		want   bool
	}{
		{">=20", "20.0.0", true},
		{">=20", "18.20.4", false},
		{">=20", "19.99.99", false},
		{">=4", "20.20.2", true},
		{">=0.10.0", "0.9.12", false},
		{"6.* || 8.* || >= 10.*", "6.17.1", true},
		{"6.* || 8.* || >= 10.*", "7.0.0", false},
		{"6.* || 8.* || >= 10.*", "9.11.2", false},
		{"6.* || 8.* || >= 10.*", "10.0.0", true},
		{"6.* || 8.* || >= 10.*", "18.20.4", true},
		{"^18.17.0 || >=20.5.0", "18.16.9", false},
		{"^18.17.0 || >=20.5.0", "18.20.4", true},
		{"^18.17.0 || >=20.5.0", "19.0.0", false},
		{"^18.17.0 || >=20.5.0", "20.4.0", false},
		{"^0.2.3", "0.2.9", true},
		{"^0.2.3", "0.3.0", false},
		{"~1.2", "1.2.9", true},
		{"~1.2", "1.3.0", false},
		{">1", "1.9.9", false},
		{">1", "2.0.0", true},
		{"<=20", "20.99.0", true},
		{"<=20", "21.0.0", false},
		{">=14 <21", "20.20.2", true},
		{">=14 <21", "21.0.0", false},
		{"14 - 20", "20.20.2", true},
		{"14 - 20", "21.0.0", false},
		{"*", "0.0.1", true},
		{"", "18.0.0", true},
	}
	for _, tc := range tests {
		v, err := parseVersion(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := satisfies(v, tc.rng)
		if err != nil || got != tc.want {
			t.Errorf("satisfies(%s, %q) = %v, %v; want %v", tc.v, tc.rng, got, err, tc.want)
		}
	}
	for _, bad := range []string{">=twenty", "20.x.1", "1.2.3.4"} {
		if _, err := satisfies(version{20, 0, 0}, bad); err == nil {
			t.Errorf("satisfies(%q) = nil error; want the range refused, not passed", bad)
		}
	}
}

// theLocks are the course's npm lock files.
var theLocks = []string{"../../tests/browser/package-lock.json", "../../docker/lint/package-lock.json"}

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestTheLocksRefuseNode18 checks the course's own lock files: Debian 12's
// nodejs 18 is refused for playwright-core, the pinned Node.js passes.
func TestTheLocksRefuseNode18(t *testing.T) {
	code, out, errOut := runCLI(append([]string{"-node", "v18.20.4"}, theLocks...)...)
	if code != 1 || out != "" {
		t.Errorf("node 18: exit status %d, stdout %q; want 1 and nothing", code, out)
	}
	for _, want := range []string{"playwright-core 1.65.1 (../../tests/browser/package-lock.json) needs node >=20", "scripts/install-node.sh"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("node 18: stderr %q; want it to contain %q", errOut, want)
		}
	}
	pinned := pinnedNode(t)
	code, out, errOut = runCLI(append([]string{"-node", pinned}, theLocks...)...)
	if code != 0 || !strings.Contains(out, "satisfies the engines.node range of all") {
		t.Errorf("node %s: exit status %d, stdout %q, stderr %q; want 0", pinned, code, out, errOut)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	v1 := filepath.Join(dir, "v1.json")
	if err := os.WriteFile(v1, []byte(`{"lockfileVersion": 1, "dependencies": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "give the package-lock.json files"},
		{[]string{"-node", "20", theLocks[0]}, "want a version major.minor.patch"},
		{[]string{"-node", "20.0.0", filepath.Join(dir, "missing.json")}, "missing.json"},
		{[]string{"-node", "20.0.0", v1}, "lockfileVersion 1"},
	} {
		code, _, errOut := runCLI(tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit status %d, stderr %q; want 2 naming %q", tc.args, code, errOut, tc.want)
		}
	}
}

// pinnedNode is the version scripts/install-node.sh installs.
func pinnedNode(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../scripts/install-node.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^NODE_VERSION=([0-9.]+)$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("scripts/install-node.sh pins no NODE_VERSION=")
	}
	return string(m[1])
}

// debianBookwormNodejs is the nodejs that Debian 12's apt installs
// (bookworm and bookworm-security: 18.20.4+dfsg-1~deb12u*).
const debianBookwormNodejs = "18.20.4"

// ciNode returns the Node.js version that a workflow's steps install, and
// how: scripts/install-node.sh, Debian's nodejs package (the CI container
// is Debian 12), or actions/setup-node with an exact node-version.
func ciNode(t *testing.T, workflow string) (v, how string) {
	t.Helper()
	joined := strings.ReplaceAll(workflow, "\\\n", " ")
	switch {
	case strings.Contains(joined, "scripts/install-node.sh"):
		return pinnedNode(t), "scripts/install-node.sh"
	case regexp.MustCompile(`apt-get install[^\n]*\snodejs(\s|=|$)`).MatchString(joined):
		return debianBookwormNodejs, "Debian 12's nodejs package (apt-get install nodejs)"
	}
	if m := regexp.MustCompile(`node-version:\s*['"]?([0-9]+\.[0-9]+\.[0-9]+)`).FindStringSubmatch(joined); m != nil {
		return m[1], "actions/setup-node"
	}
	t.Fatalf("cannot tell which Node.js the workflow installs: use scripts/install-node.sh")
	return "", ""
}

// TestCINodeSatisfiesEngines checks that the Node.js which CI's test job
// installs satisfies every pinned npm package's engines.node range: with
// Debian 12's nodejs 18, playwright-core would exit at startup.
func TestCINodeSatisfiesEngines(t *testing.T) {
	b, err := os.ReadFile("../../.github/workflows/ci.yml")
	if err != nil {
		t.Fatal(err)
	}
	v, how := ciNode(t, string(b))
	code, _, errOut := runCLI(append([]string{"-node", v}, theLocks...)...)
	if code != 0 {
		t.Errorf(".github/workflows/ci.yml installs Node.js %s (%s), outside a pinned package's engines:\n%s", v, how, errOut)
	}
	if _, how := ciNode(t, "run: apt-get install -y -qq git \\\n  nodejs npm\n"); !strings.Contains(how, "Debian") {
		t.Errorf("ciNode does not recognise Debian's nodejs across a continuation line (got %q)", how)
	}
}
