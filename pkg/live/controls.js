// The behaviour of a live.Panel's controls, run once in the page by GoNB's
// dom.TransientJavascript (so that it is never saved with the notebook).
// Every change sends the whole panel, numbered, to the cell: the cell draws
// the newest state it has, whatever order the messages arrive in.
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
	const start = () => {
		const controls = [...root.querySelectorAll("[data-course-control]")];
		const done = root.querySelector("[data-course-done]");
		let seq = 0;
		const send = (isDone) => comm.send("{{.Address}}", JSON.stringify({
			seq: seq++,
			values: controls.map((c) => Number(c.value)),
			done: isDone,
		}));
		for (const c of controls) {
			const out = root.querySelector(`[data-course-output="${c.dataset.courseControl}"]`);
			const text = c.dataset.courseText ? JSON.parse(c.dataset.courseText) : null;
			let sent = c.value;
			const update = () => {
				if (out && text) {
					out.textContent = text[Number(c.value)];
				}
				if (c.value !== sent) {
					sent = c.value;
					send(false);
				}
			};
			c.addEventListener("input", update);
			c.addEventListener("change", update);
		}
		done.addEventListener("click", () => {
			for (const c of controls) {
				c.disabled = true;
			}
			done.disabled = true;
			send(true);
		});
		send(false); // the page is here: the cell starts listening
	};
	// GoNB's connection may fail its handshake on a busy machine: then say
	// so; the cell shows the controls again, with a fresh connection.
	(comm._is_connected ?? Promise.resolve()).then(start, () => {
		root.textContent = "Connecting the controls again…";
	});
})();
