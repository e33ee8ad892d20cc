// SPDX-License-Identifier: MIT
// Opens a report page in headless Chromium over the DevTools pipe and waits
// until the page says it drew; prints the footer's status and data-*-ms.
// report-bench.sh runs it. Not --dump-dom with --virtual-time-budget: that
// makes the page's clock virtual (time stands still while a script draws).
//   node doc/report-bench-open.js CHROMIUM URL [all]
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const [chromium, url, mode] = process.argv.slice(2);
const prof = fs.mkdtempSync(path.join(os.tmpdir(), "wfw-bench-"));
const br = spawn(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader",
	"--remote-debugging-pipe", "--user-data-dir=" + prof, "--window-size=1400,1800", "about:blank"],
	{ stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] });
const t0 = Date.now();
let id = 0, buf = "";
const waiting = {};

function send(method, params, sessionId) {
	const msg = { id: ++id, method: method, params: params || {} };
	if (sessionId)
		msg.sessionId = sessionId;
	br.stdio[3].write(JSON.stringify(msg) + "\0");
	return new Promise((ok, bad) => { waiting[msg.id] = { ok: ok, bad: bad }; });
}

// The browser's end of the pipe closes as it is killed.
br.stdio[3].on("error", () => {});
br.stdio[4].on("error", () => {});
br.stdio[4].on("data", (d) => {
	buf += d.toString();
	let i;
	while ((i = buf.indexOf("\0")) >= 0) {
		const m = JSON.parse(buf.slice(0, i));
		buf = buf.slice(i + 1);
		const w = waiting[m.id];
		if (!w)
			continue;
		delete waiting[m.id];
		m.error ? w.bad(new Error(JSON.stringify(m.error))) : w.ok(m.result);
	}
});

function done(line, code) {
	console.log(line);
	br.on("exit", () => {
		// Chromium's helpers may still write there for a moment.
		try {
			fs.rmSync(prof, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
		} catch (e) {
			console.error("left " + prof + ": " + e.message);
		}
		process.exit(code);
	});
	br.kill();
}

// The footer, as the page left it: "ok" with data-first-tab-ms, and with
// all, data-drawn-ms too.
const probe = "(() => { const f = document.getElementById('status'); if (!f) return null;" +
	" const d = f.dataset; return [d.status, f.textContent, d.loadedMs, d.firstTabMs, d.drawnMs].join('|'); })()";

async function main() {
	const { targetId } = await send("Target.createTarget", { url: url });
	const { sessionId } = await send("Target.attachToTarget", { targetId: targetId, flatten: true });
	for (;;) {
		const r = await send("Runtime.evaluate", { expression: probe, returnByValue: true }, sessionId);
		const v = (r.result.value || "").split("|");
		const want = mode === "all" ? v[4] : v[3];
		if (v[0] === "error")
			done("error: " + v[1], 1);
		if (v[0] === "ok" && want)
			done("loaded " + v[2] + " ms, first tab " + v[3] + " ms" + (v[4] ? ", all " + v[4] + " ms" : "") +
			     "; wall " + (Date.now() - t0) + " ms; " + v[1], 0);
		if (Date.now() - t0 > 300000)
			done("no word from the page in 300 s: " + v.join(" "), 1);
		await new Promise((ok) => setTimeout(ok, 50));
	}
}
main().catch((e) => done("error: " + e.message, 1));
