// SPDX-License-Identifier: MIT
// Draws a wultfw report from window.WFW_REPORT (data.js) with plotly.js.
// The footer's data-status becomes "ok" when the opened tab's plots in view
// are drawn (with #all: every tab and plot), or "error" with the reason.
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

// Summary: a row per requested C-state (by depth) and result, with its
// colour; from the second result on, a row with the difference to the
// first (absolute and %).
function summaryTable(rep, m) {
	var t = el("table"), h = el("tr"), estimated = false;
	var gcol = rep.results.map(function (r) { return r.group_by; }).filter(function (g) { return g; })[0];
	[gcol || "group", "Result", "share"].concat(rep.funcs).forEach(function (f, i) {
		h.appendChild(el("th", {}, i > 3 ? f + (m.unit ? " (" + m.unit + ")" : "") : f));
	});
	t.appendChild(h);
	summaryGroups(rep, m).forEach(function (g) {	// colors.js: by depth
		var base = null;
		m.summary.forEach(function (rows, ri) {
			var row = rows.filter(function (r) { return r.group === g; })[0];
			if (!row)	// this result has no datapoint of state g
				return;
			var tr = el("tr"), td = el("td", {});
			td.appendChild(swatch(rep, g, ri));	// its colour in the plots
			td.appendChild(document.createTextNode(g));
			tr.appendChild(td);
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

// A log axis labelled in powers of ten, as every log axis of the report
// (10^3, not 1000 beside 10^-3 on the next plot), at most 8 of them.
function logAxis(title) {
	return { title: { text: title }, type: "log", nticks: 8, exponentformat: "power" };
}

// Buttons switching axis `ax` ("xaxis", "yaxis") between log and linear,
// `first` shown first.
function scaleButtons(ax, first) {
	var to = function (type) {
		var a = {};
		a[ax + ".type"] = type;
		return [a];
	};
	var b = { log: { label: "log", method: "relayout", args: to("log") },
		  linear: { label: "linear", method: "relayout", args: to("linear") } };
	return [{ type: "buttons", direction: "left", showactive: true, active: 0,
		  x: 0.55, xanchor: "center", y: 1, yanchor: "bottom", pad: { b: 4 }, font: { size: 10 },
		  buttons: first === "log" ? [b.log, b.linear] : [b.linear, b.log] }];
}

// wfw.all (index.html#all): every tab and plot, in view or not (tests).
var wfw = { rep: null, names: [], drawn: [], left: 0, all: false, observer: null,
	    queue: [], ticking: false, nplots: 0, ndrawn: 0, first: -1, firstDone: false };

// A plot is drawn when it comes into view: plot() counts its points at
// once (an empty plot is an error before anything is drawn) and keeps its
// traces on the div; drawPlot() hands them to plotly later, one plot per
// timer tick, so the tables show first and the browser paints in between.
function plot(div, traces, layout) {
	var points = traces.reduce(function (s, t) { return s + (t.x ? t.x.length : 0); }, 0);
	div.dataset.points = points;
	layout.margin = { t: 40, r: 10 };
	// Left-aligned titles stay clear of the mode bar at the top right.
	layout.title.x = 0.01;
	layout.title.xanchor = "left";
	layout.legend = { orientation: "h", y: -0.3 };
	layout.margin.b = 90;
	div.wfwPlot = { traces: traces, layout: layout };
	wfw.nplots++;
	if (wfw.observer)
		wfw.observer.observe(div);
	return points;
}

function drawPlot(div) {
	var p = div.wfwPlot;
	if (!p)
		return;
	div.wfwPlot = null;
	if (wfw.observer)
		wfw.observer.unobserve(div);
	// Drawn while visible so plotly sizes it, then hidden again.
	var panel = div.closest(".panel"), shown = panel.classList.contains("active");
	panel.classList.add("active");
	Plotly.newPlot(div, p.traces, p.layout, { responsive: true, displaylogo: false, displayModeBar: "hover" });
	if (!shown)
		panel.classList.remove("active");
	div.dataset.drawn = "yes";
	wfw.ndrawn++;
}

function enqueue(div) {
	if (div.wfwPlot && wfw.queue.indexOf(div) < 0)
		wfw.queue.push(div);
	if (!wfw.ticking && wfw.queue.length)
		tick();
}

function tick() {
	wfw.ticking = true;
	setTimeout(function () {
		guarded(function () { drawPlot(wfw.queue.shift()); });
		if (wfw.queue.length)
			return tick();
		wfw.ticking = false;
		afterPaint(settled);
	}, 0);
}

// fn once the browser has painted what was drawn (the footer's times
// include plotly's WebGL drawing, which it does in an animation frame), or
// after a second without a frame (a hidden tab; headless --screenshot
// makes frames only when it wants one).
function afterPaint(fn) {
	var done = false, go = function () {
		if (!done)
			setTimeout(function () { guarded(fn); }, 0);
		done = true;
	};
	requestAnimationFrame(go);
	setTimeout(go, 1000);
}

// The observer's first word on a tab says which of its plots are in view.
function inView(entries) {
	entries.forEach(function (e) {
		if (e.isIntersecting)
			enqueue(e.target);
	});
	if (!wfw.ticking)
		afterPaint(settled);
}

// Nothing left to draw now: the opened tab is drawn (in view), or (#all,
// or the user saw everything) the whole page.
function settled() {
	var f = document.getElementById("status");
	if (!wfw.firstDone) {
		wfw.firstDone = true;
		f.dataset.loadedMs = wfwLoadedMs;
		f.dataset.firstTabMs = Math.round(performance.now());
		if (wfw.all)
			return drawAll();
		var left = wfw.nplots - wfw.ndrawn, tabs = wfw.names.length - 1;
		setStatus("ok", "ok: tab " + wfw.names[wfw.first] + " drawn, " + wfw.ndrawn + " plots in view" +
			  (left ? ", " + left + " more as they scroll into view" : "") +
			  (tabs ? "; " + tabs + " other tab" + (tabs > 1 ? "s" : "") + " when opened" : ""));
	}
	if (wfw.left === 0 && wfw.ndrawn === wfw.nplots)
		allDrawn();
}

// Every tab built, every plot queued, one tab per timer tick.
function drawAll(i) {
	i = i || 0;
	if (i === wfw.names.length) {
		document.querySelectorAll(".plot").forEach(enqueue);
		if (!wfw.ticking)
			settled();
		return;
	}
	setTimeout(function () {
		guarded(function () { drawPanel(i); });
		drawAll(i + 1);
	}, 0);
}

function drawPanel(i) {
	if (wfw.drawn[i])
		return;
	wfw.drawn[i] = true;
	wfw.left--;
	var p = document.querySelectorAll(".panel")[i];
	var r = i < wfw.rep.metrics.length ? metricPanel(wfw.rep, wfw.rep.metrics[i], p) : timelinePanel(wfw.rep, p);
	if (r.empty.length)
		throw new Error("empty plots: " + r.empty.join(", "));
}

function show(i) {
	drawPanel(i);
	document.querySelectorAll("nav button").forEach(function (b, k) { b.classList.toggle("active", k === i); });
	document.querySelectorAll(".panel").forEach(function (p, k) {
		p.classList.toggle("active", k === i);
		if (k === i)
			p.querySelectorAll(".plot[data-drawn]").forEach(function (d) { Plotly.Plots.resize(d); });
	});
}

function allDrawn() {
	var f = document.getElementById("status");
	f.dataset.drawnMs = Math.round(performance.now());
	setStatus("ok", "ok: " + wfw.drawn.length + " tabs, " + wfw.nplots + " plots, " +
		  wfw.rep.results.length + " results");
}

function guarded(fn) {
	try {
		fn();
	} catch (e) {
		wfwErrors.push(String(e.message || e));
		setStatus("error", "error: " + wfwErrors.join("; "));
	}
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
	// index.html#NAME opens on tab NAME (a metric, or Timeline); #all (or
	// #NAME&all) draws every tab and plot before the page says "ok".
	var hash = decodeURIComponent(location.hash.slice(1)).split("&");
	wfw.names = names;
	wfw.all = hash.indexOf("all") >= 0 || !window.IntersectionObserver;
	if (window.IntersectionObserver)
		wfw.observer = new IntersectionObserver(inView, { rootMargin: "200px 0px" });
	wfw.first = Math.max(0, names.indexOf(hash[0]));
	show(wfw.first);
	if (!wfw.observer)	// no word on what is in view: the opened tab's plots
		inView(Array.from(document.querySelectorAll(".panel.active .plot")).map(function (d) {
			return { isIntersecting: true, target: d };
		}));
}

document.addEventListener("DOMContentLoaded", function () { guarded(draw); });
