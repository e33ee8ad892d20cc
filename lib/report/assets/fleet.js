// SPDX-License-Identifier: MIT
// The fleet page (wultfw report --fleet): data.js's FLEET, the table of
// calc --fleet (a row per SUT per C-state, flagged SUTs highlighted, each
// SUT linked to its own report), the group's reference rows, and per
// C-state a plot of every SUT's median, p99, p99.9 and max beside the bar
// it is flagged against. The footer's data-status says "ok" when every
// plot is drawn, "error" with the message on any JavaScript error.
"use strict";

var FLEET_COLORS = ["#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd"];
var FLEET_STATS = [["median", "median"], ["p99", "p99"], ["p99.9", "p99.9"], ["max", "max"]];

window.onerror = function (msg, src, line) {
	fleetStatus("error", "error: " + msg + " (" + src + ":" + line + ")");
};

function fleetStatus(status, text) {
	var f = document.getElementById("status");
	if (!f || (f.dataset.status === "error" && status !== "error"))
		return;
	f.dataset.status = status;
	f.textContent = text;
}

function el(tag, text, cls) {
	var e = document.createElement(tag);
	if (text !== undefined && text !== null)
		e.textContent = text;
	if (cls)
		e.className = cls;
	return e;
}

function num(v) {
	return v === null || v === undefined ? "-" : v.toFixed(3);
}

// The C-states in the order the table has them.
function fleetStates(f) {
	var seen = [];
	f.rows.forEach(function (r) {
		if (seen.indexOf(r.cstate) < 0)
			seen.push(r.cstate);
	});
	return seen;
}

function flagText(f, r) {
	if (!r.flagged)
		return "-";
	return "OUTLIER (" + (r["p99.9"] / r["others_p99.9"]).toFixed(1) + "x the others' " +
		num(r["others_p99.9"]) + ")";
}

function tableRow(f, r, reference) {
	var tr = el("tr", null, reference ? "reference" : r.flagged ? "outlier" : "");
	var name = el("td");
	if (r.report) {
		var a = el("a", r.sut);
		a.href = r.report;
		name.appendChild(a);
	} else {
		name.textContent = r.sut;
	}
	tr.appendChild(name);
	tr.appendChild(el("td", r.cstate));
	tr.appendChild(el("td", String(r.count), "num"));
	FLEET_STATS.forEach(function (s) {
		tr.appendChild(el("td", num(r[s[0]]), "num"));
	});
	tr.appendChild(el("td", reference ? "" : flagText(f, r)));
	return tr;
}

function fleetTable(f, rows, reference) {
	var t = el("table", null, "fleet"), head = el("tr");
	[f.member, "C-state", "count", "median", "p99", "p99.9", "max", "flag"].forEach(function (h) {
		head.appendChild(el("th", h));
	});
	t.appendChild(head);
	rows.forEach(function (r) {
		t.appendChild(tableRow(f, r, reference));
	});
	return t;
}

// One C-state's plot: a line per statistic across the SUTs (log scale),
// the bar each SUT is held to, and the flagged SUTs ringed.
function fleetPlot(f, state, div) {
	var rows = f.rows.filter(function (r) { return r.cstate === state && r.count > 0; });
	var x = rows.map(function (r) { return r.sut; });
	var traces = FLEET_STATS.map(function (s, i) {
		return { x: x, y: rows.map(function (r) { return r[s[0]]; }), name: s[1],
			 type: "scatter", mode: "lines+markers",
			 line: { color: FLEET_COLORS[i], width: 1 }, marker: { size: 7 } };
	});
	traces.push({ x: x, y: rows.map(function (r) {
			return r["others_p99.9"] === null ? null : r["others_p99.9"] * f.factor; }),
		name: f.factor + "x the others' p99.9", type: "scatter", mode: "lines",
		line: { color: "#888", dash: "dash", width: 1 } });
	var bad = rows.filter(function (r) { return r.flagged; });
	traces.push({ x: bad.map(function (r) { return r.sut; }),
		y: bad.map(function (r) { return r["p99.9"]; }), name: "OUTLIER",
		type: "scatter", mode: "markers",
		marker: { size: 16, color: "rgba(0,0,0,0)", line: { color: "#d62728", width: 3 } } });
	var layout = { title: { text: f.metric + " (" + f.unit + "), " + state },
		xaxis: { title: { text: f.member }, type: "category" },
		yaxis: { title: { text: f.metric + " (" + f.unit + ")" }, type: "log", nticks: 8 },
		margin: { t: 40, b: 90 }, legend: { orientation: "h", y: -0.25 } };
	return Plotly.newPlot(div, traces, layout, { responsive: true });
}

function fleetPage() {
	var f = window.FLEET;
	if (!f) {
		fleetStatus("error", "error: no FLEET in data.js");
		return;
	}
	var main = document.getElementById("fleet");
	document.getElementById("title").textContent = f.title || "wultfw fleet report: " + f.metric;
	document.title = document.getElementById("title").textContent;
	if (f.descr)
		document.getElementById("descr").textContent = f.descr;
	var flagged = f.rows.filter(function (r) { return r.flagged; });
	var names = [];
	flagged.forEach(function (r) {
		if (names.indexOf(r.sut) < 0)
			names.push(r.sut);
	});
	var intro = document.getElementById("intro");
	intro.appendChild(el("p", f.suts + " " + f.member + "s, " + f.metric + " (" + f.unit + "). " +
		(names.length ? "Flagged: " + names.join(", ") + "." : "No " + f.member + " flagged.")));
	intro.appendChild(el("p", "Flag rule: " + f.rule + ". Each " + f.member +
		"'s name links to its own report.", "note"));
	main.appendChild(el("h2", "Summary"));
	main.appendChild(fleetTable(f, f.rows, false));
	main.appendChild(el("h3", "The group's reference"));
	main.appendChild(fleetTable(f, f.reference, true));
	main.appendChild(el("p", "median: the median across " + f.member + "s of each statistic; " +
		"pooled: every " + f.member + "'s datapoints as one distribution" +
		(f.pooled_note ? " (none here: " + f.pooled_note + ")" : "") + ".", "note"));
	var plots = el("div", null, "plots"), drawn = [];
	main.appendChild(el("h2", "Per C-state"));
	main.appendChild(plots);
	fleetStates(f).forEach(function (s) {
		var div = el("div", null, "plot fleet");
		plots.appendChild(div);
		drawn.push(fleetPlot(f, s, div));
	});
	Promise.all(drawn).then(function () {
		fleetStatus("ok", "ok: " + drawn.length + " plots, " + f.rows.length + " rows, " +
			flagged.length + " flagged");
	}, function (e) {
		fleetStatus("error", "error: " + e);
	});
}

document.addEventListener("DOMContentLoaded", fleetPage);
