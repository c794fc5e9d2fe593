// Served by scripts/lab.sh to Jupyter Notebook 6 with custom.css; nothing to
// run.
