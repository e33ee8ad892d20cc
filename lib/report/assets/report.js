// SPDX-License-Identifier: MIT
// Draws a wultfw report from window.WFW_REPORT (data.js) with plotly.js.
// The footer's data-status becomes "ok" when every tab and plot is drawn,
// or "error" with the reason: the report test reads it.
"use strict";

var wfwErrors = [];
// Milliseconds from navigation start until the scripts ran: loading and
// parsing plotly.min.js and data.js (the footer's data-loaded-ms).
var wfwLoadedMs = Math.round(performance.now());
window.onerror = function (msg, src, line) {
	wfwErrors.push(msg + " (" + src + ":" + line + ")");
	setStatus("error", wfwErrors.join("; "));
};

function setStatus(status, text) {
	var f = document.getElementById("status");
	if (!f || (f.dataset.status === "error" && status !== "error"))
		return;
	f.dataset.status = status;
	f.textContent = text;
}

function el(tag, attrs, text) {
	var e = document.createElement(tag);
	for (var k in attrs || {})
		e.setAttribute(k, attrs[k]);
	if (text !== undefined)
		e.textContent = text;
	return e;
}

function fmt(v, unit) {
	if (v === null || v === undefined)
		return "-";
	var a = Math.abs(v);
	var s = a >= 1000 || Number.isInteger(v) ? v.toFixed(a >= 1000 && !Number.isInteger(v) ? 1 : 0)
		: a >= 1 ? v.toFixed(3) : v.toPrecision(3);
	return unit ? s + " " + unit : s;
}

// info.yml keys shown in the intro table, with their labels.
var INTRO = [
	["Source", function (i) { return join(i.devid, i.devdescr); }],
	["Measured CPU", "cpu"], ["CPU model", "cpumodel"], ["Kernel", "kernel"],
	["Host", "hostname"], ["cpuidle driver", "cpuidle_driver"],
	["cpuidle governor", "cpuidle_governor"], ["C-states", "cstates"],
	["Launch distance", function (i) {
		return i.ldist_from ? i.ldist_from + " - " + i.ldist_to : undefined; }],
	["Date", "date"], ["Duration (s)", "duration"],
	["Datapoints", "datapoints"], ["Discarded", "discarded"],
	["Discarded, by reason", dropReasons],
	["Selected while measuring", function (i) {
		return i.select_kept === undefined ? undefined :
			[i.select_include && "include " + i.select_include, i.select_exclude && "exclude " + i.select_exclude]
			.filter(function (x) { return x; }).join(", ") + ": " + i.select_kept + " kept, " +
			i.select_left_out + " left out" + (i.select_left_out_file ? " (in " + i.select_left_out_file + ")" : ""); }],
	["Collected by", function (i) {
		return i.collector || (i.toolname ? join(i.toolname, i.toolver) : undefined); }],
	["Format version", "format_version"],
	["Filtered from", "filtered_from"], ["Filter include", "filter_include"],
	["Filter exclude", "filter_exclude"],
	["Filter status", function (i) {
		return i.filter_status !== "interrupted" ? i.filter_status :
			"interrupted after " + i.filter_rows_read + " rows read, " +
			i.filter_rows_kept + " kept"; }],
];

// The sources' drop counters in info.yml (hrt_dropped_..., timer_overruns,
// skid_lost, ...) that are not zero.
// Datapoints a source discarded. attrib_lost counts trace records, not
// datapoints: the explanation section says what it cost.
function dropReasons(i) {
	var r = Object.keys(i).filter(function (k) {
		return /_(dropped_|overruns$|lost$|throttled$)/.test(k) && !/^attrib_/.test(k) &&
			Number(i[k]) > 0;
	}).map(function (k) { return k + " " + i[k]; });
	return r.length ? r.join(", ") : undefined;
}

function join(a, b) {
	return a === undefined ? b : b === undefined ? a : a + " (" + b + ")";
}

function intro(rep) {
	var t = el("table"), h = el("tr");
	h.appendChild(el("th", {}, ""));
	rep.results.forEach(function (r) { h.appendChild(el("th", {}, r.id)); });
	t.appendChild(h);
	var rows = INTRO.concat([["Data file", function (i, r) { return r.file; }],
		["Datapoints in this report", function (i, r) {
			return r.rows + (r.rows !== r.rows_read ? " of " + r.rows_read + " (--include/--exclude)" : "") +
				(r.sample ? "; plotted from a uniform sample of " + r.sample + " and each metric's largest" : ""); }]]);
	rows.forEach(function (row) {
		var vals = rep.results.map(function (r) {
			return typeof row[1] === "function" ? row[1](r.info, r) : r.info[row[1]];
		});
		if (vals.every(function (v) { return v === undefined || v === ""; }))
			return;
		var tr = el("tr");
		tr.appendChild(el("th", {}, row[0]));
		vals.forEach(function (v) { tr.appendChild(el("td", {}, v === undefined ? "-" : String(v))); });
		t.appendChild(tr);
	});
	document.getElementById("intro").appendChild(t);
}

// Summary: a row per requested C-state and result; from the second result
// on, a row with the difference to the first (absolute and %).
function summaryTable(rep, m) {
	var t = el("table"), h = el("tr"), estimated = false;
	var gcol = rep.results.map(function (r) { return r.group_by; }).filter(function (g) { return g; })[0];
	[gcol || "group", "Result", "share"].concat(rep.funcs).forEach(function (f, i) {
		h.appendChild(el("th", {}, i > 3 ? f + (m.unit ? " (" + m.unit + ")" : "") : f));
	});
	t.appendChild(h);
	var groups = [];
	m.summary.forEach(function (rows) {
		rows.forEach(function (r) { if (groups.indexOf(r.group) < 0) groups.push(r.group); });
	});
	groups.forEach(function (g) {
		var base = null;
		m.summary.forEach(function (rows, ri) {
			var row = rows.filter(function (r) { return r.group === g; })[0];
			if (!row)	// this result has no datapoint of state g
				return;
			var tr = el("tr");
			tr.appendChild(el("td", {}, g));
			tr.appendChild(el("td", {}, rep.results[ri].id));
			tr.appendChild(el("td", { class: "num" }, (100 * row.share).toFixed(1) + "%"));
			row.v.forEach(function (v, i) {
				var est = !row.exact && i >= 4 && i <= 9;
				estimated = estimated || est;
				tr.appendChild(el("td", { class: "num", title: est ? "estimated from a histogram" : "" },
					(est ? "~" : "") + fmt(v)));
			});
			t.appendChild(tr);
			if (ri === 0) {
				base = row;
				return;
			}
			if (!base)
				return;
			var d = el("tr", { class: "diff" });
			d.appendChild(el("td", {}, ""));
			d.appendChild(el("td", {}, "vs " + rep.results[0].id));
			d.appendChild(el("td", {}, ""));
			row.v.forEach(function (v, i) {
				var b = base.v[i], diff = v - b;
				if (v === null || b === null) {	/* too few datapoints to say */
					d.appendChild(el("td", { class: "num" }, "-"));
					return;
				}
				var pct = b ? " (" + (diff >= 0 ? "+" : "") + (100 * diff / Math.abs(b)).toFixed(1) + "%)" : "";
				d.appendChild(el("td", { class: "num" }, (diff >= 0 ? "+" : "") + fmt(diff) + pct));
			});
			t.appendChild(d);
		});
	});
	var div = el("div");
	div.appendChild(t);
	if (estimated)
		div.appendChild(el("p", { class: "note" },
			"~: percentile estimated from a histogram (more datapoints than kept exactly), within 0.1%."));
	return div;
}

function axisTitle(name, unit) {
	return { title: { text: name + (unit ? " (" + unit + ")" : "") } };
}

function plot(div, traces, layout) {
	var points = traces.reduce(function (s, t) { return s + (t.x ? t.x.length : 0); }, 0);
	div.dataset.points = points;
	layout.margin = { t: 40, r: 10 };
	// Left-aligned titles stay clear of the mode bar at the top right.
	layout.title.x = 0.01;
	layout.title.xanchor = "left";
	layout.legend = { orientation: "h", y: -0.3 };
	layout.margin.b = 90;
	Plotly.newPlot(div, traces, layout, { responsive: true, displaylogo: false, displayModeBar: "hover" });
	return points;
}

// Tabs are drawn one at a time: the first at once, the others right after
// (or when shown first), so the page is usable before every plot exists.
var wfw = { rep: null, drawn: [], left: 0, nplots: 0, empty: [] };

function drawPanel(i) {
	if (wfw.drawn[i])
		return;
	wfw.drawn[i] = true;
	var p = document.querySelectorAll(".panel")[i], shown = p.classList.contains("active");
	// Drawn while visible so plotly sizes the plots, then hidden again.
	p.classList.add("active");
	var r = i < wfw.rep.metrics.length ? metricPanel(wfw.rep, wfw.rep.metrics[i], p) : timelinePanel(wfw.rep, p);
	if (!shown)
		p.classList.remove("active");
	wfw.nplots += r.plots;
	wfw.empty = wfw.empty.concat(r.empty);
	if (--wfw.left === 0)
		allDrawn();
}

function show(i) {
	drawPanel(i);
	document.querySelectorAll("nav button").forEach(function (b, k) { b.classList.toggle("active", k === i); });
	document.querySelectorAll(".panel").forEach(function (p, k) {
		p.classList.toggle("active", k === i);
		if (k === i)
			p.querySelectorAll(".plot").forEach(function (d) { Plotly.Plots.resize(d); });
	});
}

function allDrawn() {
	var rep = wfw.rep, f = document.getElementById("status");
	if (wfw.empty.length)
		throw new Error("empty plots: " + wfw.empty.join(", "));
	f.dataset.loadedMs = wfwLoadedMs;
	f.dataset.drawnMs = Math.round(performance.now());
	setStatus("ok", "ok: " + wfw.drawn.length + " tabs, " + wfw.nplots + " plots, " +
		  rep.results.length + " results");
}

function guarded(fn) {
	try {
		fn();
	} catch (e) {
		wfwErrors.push(String(e.message || e));
		setStatus("error", "error: " + wfwErrors.join("; "));
	}
}

// The other tabs, one per timer tick so the browser paints in between.
function drawRest(i) {
	if (i >= wfw.drawn.length)
		return;
	setTimeout(function () {
		guarded(function () { drawPanel(i); });
		drawRest(i + 1);
	}, 0);
}

function draw() {
	var rep = window.WFW_REPORT;
	if (!window.Plotly)
		throw new Error("plotly.min.js did not load");
	if (!rep)
		throw new Error("data.js did not load");
	if (rep.title) {
		document.getElementById("title").textContent = rep.title;
		document.title = rep.title;
	}
	descrRender(document.getElementById("descr"), rep.descr);
	intro(rep);
	if (!rep.metrics.length)
		throw new Error("no metric tab");
	wfw.rep = rep;
	var names = rep.metrics.map(function (m) { return m.name; });
	if (hasTimeline(rep))
		names.push("Timeline");
	wfw.left = names.length;
	wfw.drawn = names.map(function () { return false; });
	var tabs = document.getElementById("tabs"), panels = document.getElementById("panels");
	names.forEach(function (name, i) {
		var b = el("button", { "data-metric": name }, name);
		b.onclick = function () { guarded(function () { show(i); }); };
		tabs.appendChild(b);
		panels.appendChild(el("section", { class: "panel", "data-metric": name }));
	});
	// index.html#NAME opens on tab NAME (a metric, or Timeline).
	var first = Math.max(0, names.indexOf(decodeURIComponent(location.hash.slice(1))));
	show(first);
	document.getElementById("status").dataset.firstTabMs = Math.round(performance.now());
	drawRest(0);
}

document.addEventListener("DOMContentLoaded", function () { guarded(draw); });
