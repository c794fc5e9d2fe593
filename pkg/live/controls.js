// The behaviour of a live.Panel's controls, run once in the page by GoNB's
// dom.TransientJavascript (so that it is never saved with the notebook).
// Every change sends the whole panel, numbered, to the cell: the cell draws
// the newest state it has, whatever order the messages arrive in. Every
// message also says whether another cell is queued to run: then the cell
// ends (see live.go).
(() => {
	const root = document.getElementById("{{.RootID}}");
	if (!root) {
		return; // the output was cleared before the script ran
	}
	const comm = globalThis.gonb_comm;
	if (!comm) {
		root.textContent = "The controls cannot reach the kernel (GoNB's connection to this page is missing): run the cell again.";
		return;
	}
	// Another cell of this notebook waiting to run: JupyterLab shows [*] on
	// every cell that Run All (or a Shift+Enter further on) has queued, and
	// on the running one, which is this cell. Then the controls close, so
	// that Run All never waits on a learner.
	const cell = root.closest(".jp-Cell");
	const notebook = cell?.closest(".jp-Notebook");
	const queued = () => !!notebook && [...notebook.querySelectorAll(".jp-CodeCell")].some((c) =>
		c !== cell && (c.querySelector(".jp-InputPrompt")?.textContent ?? "").includes("*"));
	const start = () => {
		const controls = [...root.querySelectorAll("[data-course-control]")];
		const done = root.querySelector("[data-course-done]");
		let seq = 0;
		let closed = false;
		const send = (isDone, isQueued) => comm.send("{{.Address}}", JSON.stringify({
			seq: seq++,
			values: controls.map((c) => Number(c.value)),
			done: isDone,
			queued: isQueued,
		}));
		const close = (isQueued) => {
			if (closed) {
				return;
			}
			closed = true;
			clearInterval(watch);
			for (const c of controls) {
				c.disabled = true;
			}
			done.disabled = true;
			send(true, isQueued);
		};
		for (const c of controls) {
			const out = root.querySelector(`[data-course-output="${c.dataset.courseControl}"]`);
			const text = c.dataset.courseText ? JSON.parse(c.dataset.courseText) : null;
			let sent = c.value;
			const update = () => {
				if (out && text) {
					out.textContent = text[Number(c.value)];
				}
				if (c.value !== sent && !closed) {
					sent = c.value;
					send(false, false);
				}
			};
			c.addEventListener("input", update);
			c.addEventListener("change", update);
		}
		done.addEventListener("click", () => close(false));
		// Watch for a queued cell, and for this cell's outputs going away
		// (run again, or cleared): either ends the listening cell.
		const watch = setInterval(() => {
			if (!root.isConnected || queued()) {
				close(true);
			}
		}, 250);
		// The page is here: the cell starts listening, or, when cells are
		// queued after it, ends at once.
		if (queued()) {
			closed = true;
			clearInterval(watch);
			send(false, true);
		} else {
			send(false, false);
		}
	};
	// GoNB's connection may fail its handshake on a busy machine: then say
	// so; the cell shows the controls again, with a fresh connection.
	(comm._is_connected ?? Promise.resolve()).then(start, () => {
		root.textContent = "Connecting the controls again…";
	});
})();
