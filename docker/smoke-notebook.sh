#!/usr/bin/env bash
# smoke-notebook.sh WANT_BACKEND — runs one GoNB cell end to end through
# Jupyter, the way a learner's first GoMLX cell runs: the course's setup cell,
# then posgraph.Backend() and a small GoMLX graph. It fails unless the cell
# prints the backend WANT_BACKEND ("go", "xla:cpu") and the graph's result.
#
# The image build runs it (docker/Dockerfile): it checks the kernel, Go, the
# course module and the XLA plugin together, and warms what GoNB compiles.
# It needs Debian's Jupyter (python3-nbclient) and the gonb kernel.
set -euo pipefail

want=${1:?usage: smoke-notebook.sh WANT_BACKEND}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$ROOT/notebooks"

/usr/bin/python3 - "$ROOT/notebooks" "$want" <<'EOF'
import sys

import nbformat
from nbclient import NotebookClient

cwd, want = sys.argv[1], sys.argv[2]
# The setup cell every lesson starts with (cmd/course: SetupCell).
setup = ("!*go mod edit -require=github.com/posenc/course@v0.0.0 "
         "-replace=github.com/posenc/course=${GONB_DIR}/..")
cell = '''import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
)

%%
config, _ := posgraph.ChooseBackend()
fmt.Println("backend:", config)
t := graph.MustExecOnce(posgraph.Backend(), func(g *graph.Graph) *graph.Node {
	return posgraph.SinusoidalConst(g, dtypes.Float32, posenc.NewSinusoidal(4), 0, 2)
})
fmt.Println("table:", t.Shape())
'''
nb = nbformat.v4.new_notebook()
nb.cells = [nbformat.v4.new_code_cell(setup), nbformat.v4.new_code_cell(cell)]
client = NotebookClient(nb, kernel_name="gonb", timeout=900, startup_timeout=120,
                        allow_errors=True, resources={"metadata": {"path": cwd}})
client.execute()

text = ""
for c in nb.cells:
    for out in c.get("outputs", []):
        if out.get("output_type") == "stream":
            text += out.get("text", "")
        elif out.get("output_type") == "error":
            text += "error: %s: %s\n" % (out.get("ename"), out.get("evalue"))
print(text, end="")
if "backend: %s\n" % want not in text or "table: (Float32)[2, 4]" not in text:
    sys.exit("smoke-notebook: the GoNB cell did not print 'backend: %s' and the table shape" % want)
print("smoke-notebook: ok (backend %s)" % want)
EOF
