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

var PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

// A requested C-state's colour, the same in every plot and table of the
// page: by its place in the summary tables' order (by depth, as calc
// orders them), after the colour of all datapoints (PALETTE[0]).
var wfwStates = null;
function stateColor(rep, name) {
	if (!wfwStates) {
		wfwStates = [];
		rep.metrics.forEach(function (m) {
			m.summary.forEach(function (rows) {
				rows.forEach(function (r) {
					if (r.group !== "all" && wfwStates.indexOf(r.group) < 0)
						wfwStates.push(r.group);
				});
			});
		});
	}
	var i = wfwStates.indexOf(name);
	return i < 0 ? PALETTE[7] : PALETTE[(1 + i) % PALETTE.length];
}

function markerSizes(w) {
	return w.map(function (n) { return n > 1 ? 4 + 2.5 * Math.log10(n) : 4; });
}

// WebGL pays off only for many points: each WebGL plot costs a context,
// which software rendering makes slow to set up; SVG draws a few thousand
// points faster.
var WEBGL_FROM = 5000;

function scatterTraces(rep, m, axis) {
	var traces = [], k = 0, total = 0;
	m.scatter[axis].forEach(function (groups) {
		groups.forEach(function (g) { total += g.x.length; });
	});
	m.scatter[axis].forEach(function (groups, ri) {
		groups.forEach(function (g) {
			var name = rep.results.length > 1 ? rep.results[ri].id + " " + g.name : g.name;
			var c = PALETTE[k++ % PALETTE.length];
			traces.push({
				type: total >= WEBGL_FROM ? "scattergl" : "scatter", mode: "markers",
				name: name, x: g.x, y: g.y,
				text: g.w.map(function (n) { return n > 1 ? n + " datapoints around here" : ""; }),
				hovertemplate: axis + " %{x}<br>" + m.name + " %{y}<br>%{text}<extra>" + name + "</extra>",
				marker: { size: markerSizes(g.w), opacity: 0.6,
					  color: rep.results.length > 1 || g.name === "all" ? c : stateColor(rep, g.name) },
			});
		});
	});
	return traces;
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

// How a large result's scatter plots are drawn: its tail as datapoints
// (above tails[], the percentiles the results' sizes chose), the rest as
// density.
function largeNote(rep, m, tails) {
	var pcts = tails.map(function (p) { return "p" + p; }).join(" / ");
	return "Large result: the scatter plots show each datapoint above " +
		(tails.length > 1 ? "its result's " + pcts : pcts) + " of " + m.name +
		" as itself (p99, or the higher percentile that leaves " + rep.tail_points +
		" datapoints above it when p99 would leave more). Below that, datapoints are drawn as density on a " +
		rep.grid + "x" + rep.grid + " grid: one marker per cell at the mean of its datapoints, sized by their" +
		" number (hover shows it). Histograms count every datapoint; the CCDF shows the " + rep.ccdf_tail +
		" largest values one by one.";
}

// Results too large to keep whole: say which parts of the plots are drawn
// from their sample and which are exact.
function sampleNotes(rep, m) {
	var notes = [];
	m.dist.forEach(function (d, ri) {
		var r = rep.results[ri];
		if (!d || !d.sampled || !r.sample)
			return;
		notes.push("Sampled result" + (rep.results.length > 1 ? " " + r.id : "") +
			": the density is drawn from a uniform sample of " + r.sample + " of " + r.rows +
			" datapoints (each stands for about " + fmt(r.rows / r.sample) +
			"; the same file gives the same sample), and all " + d.sampled.tail + " datapoints above " +
			fmt(d.sampled.above, m.unit) + " of " + m.name + " are shown as themselves." +
			" Below that value the histogram counts the sample, scaled to all " + d.sampled.rows +
			" values, and the CCDF is read from the sample; above it both are exact." +
			" The summary table is computed from every datapoint.");
	});
	return notes;
}

// The histogram's "over" bin: the values above its last bin (far
// outliers), drawn as a short step a few bins to the right of it.
function overX(h) {
	return [h.hi + 4 * h.width, h.hi + 12 * h.width];
}

function overText(h, n, unit) {
	return (h.over_exact ? "" : "~") + n + " datapoint" + (n === 1 ? "" : "s") + " above " + fmt(h.hi, unit) +
		(h.max > h.hi ? ", up to " + fmt(h.max, unit) : "");
}

function overTrace(h, set, unit) {
	return { type: "scatter", mode: "lines+markers", name: set.name + " over", legendgroup: set.name, showlegend: false,
		 line: { color: set.color, width: 3, dash: set.dash },
		 marker: { symbol: "triangle-right", size: [0, 8], color: set.color },
		 x: overX(h), y: [set.over, set.over],
		 hovertemplate: "over: " + overText(h, set.over, unit) + "<extra>" + set.name + "</extra>" };
}

// The last bin's edge as a dotted line, and the over bin's label at the
// top right, where a latency histogram has room (the bulk is on the left).
function overMark(lay, h, prefix, unit, color, ri) {
	if (!h.over)
		return;
	lay.shapes.push({ type: "line", xref: "x", yref: "paper", x0: h.hi, x1: h.hi, y0: 0, y1: 1,
			  line: { color: color, width: 1, dash: "dot" } });
	lay.annotations.push({ x: overX(h)[1], y: 0.97 - 0.07 * ri, xref: "x", yref: "paper", xanchor: "right",
			       yanchor: "top", showarrow: false, font: { size: 11, color: color },
			       bgcolor: "rgba(255,255,255,0.8)", text: prefix + "over: " + overText(h, h.over, unit) });
}

// A histogram's bins as outlined bars: every non-empty bin drawn on its
// own, from the axis up to its count and across its width, so a bin whose
// neighbours are empty shows too (a line through bin centres with gaps for
// empty bins leaves a lone bin a single point, which plotly does not draw;
// the gl2d bundle has no bar trace). Runs of non-empty bins share edges;
// each run ends at 0, which a log axis draws down to its bottom.
function histTrace(hist, set) {
	var x = [], y = [], text = [], c = set.counts;
	var edge = function (i) { return hist.lo + i * hist.width; };
	var label = function (i) {
		return c[i] + " datapoint" + (c[i] === 1 ? "" : "s") + " from " + fmt(edge(i)) + " to " + fmt(edge(i + 1));
	};
	var add = function (xv, yv, i) { x.push(xv); y.push(yv); text.push(label(i)); };
	for (var i = 0; i < c.length; i++) {
		if (!c[i])
			continue;
		if (i === 0 || !c[i - 1])
			add(edge(i), 0, i);
		add(edge(i), c[i], i);
		add(edge(i + 1), c[i], i);
		if (i + 1 === c.length || !c[i + 1]) {
			add(edge(i + 1), 0, i);
			x.push(null); y.push(null); text.push("");
		}
	}
	return { type: "scatter", mode: "lines", name: set.name, legendgroup: set.name,
		 line: { color: set.color, width: 1.5, dash: set.dash }, x: x, y: y, text: text,
		 hovertemplate: "%{text}<extra>" + set.name + "</extra>" };
}

// Counts on a log axis (a bin of one datapoint still shows), or linear.
function histLayout(m) {
	var axis = function (type) { return [{ "yaxis.type": type }]; };
	return { title: { text: m.name + " histogram" }, xaxis: axisTitle(m.name, m.unit),
		 yaxis: { title: { text: "datapoints" }, type: "log" }, shapes: [], annotations: [],
		 updatemenus: [{ type: "buttons", direction: "left", showactive: true, active: 0,
				 x: 0.55, xanchor: "center", y: 1, yanchor: "bottom", pad: { b: 4 }, font: { size: 10 },
				 buttons: [{ label: "log", method: "relayout", args: axis("log") },
					   { label: "linear", method: "relayout", args: axis("linear") }] }] };
}

// How the histogram's bins were chosen, when some values are above them.
function binsNote(m) {
	var hs = m.dist.filter(function (d) { return d && d.hist.over; }).map(function (d) { return d.hist; });
	if (!hs.length)
		return null;
	return "Histogram: " + hs[0].counts.length + " equal bins from the least value to " + hs[0].edge_span +
		" times its distance to p" + hs[0].edge_pct + " (the bulk fills at least half of them); the datapoints" +
		" above the last bin (dotted line), far outliers that would squeeze the bulk into a few bins, are" +
		" counted in the over bin on its right, labelled with their range and count" +
		(hs.some(function (h) { return !h.over_exact; }) ? " (~: estimated from the sample)." : ".");
}

// What the metric is, as its source measured it (the texts of
// --list-metrics): one line, or one per text naming the results it is for.
function metricDescr(rep, m, panel) {
	var ds = m.descr || [], texts = [], ids = [];
	ds.forEach(function (d, i) {
		if (!d)
			return;
		var t = texts.indexOf(d);
		if (t < 0) {
			texts.push(d);
			ids.push([]);
			t = texts.length - 1;
		}
		ids[t].push(rep.results[i].id);
	});
	texts.forEach(function (d, t) {
		panel.appendChild(el("p", { class: "descr" }, (texts.length > 1 ? ids[t].join(", ") + ": " : "") + d));
	});
}

function metricPanel(rep, m, panel) {
	var plots = el("div", { class: "plots" }), n = 0, empty = [];
	panel.appendChild(el("h2", {}, m.name + (m.unit ? " (" + m.unit + ")" : "")));
	metricDescr(rep, m, panel);
	panel.appendChild(summaryTable(rep, m));
	var xp = explainSections(rep, m, panel);	// explain.js
	panel.appendChild(plots);
	var reduced = false, tails = [];
	Object.keys(m.scatter).forEach(function (axis) {
		if (!m.scatter[axis].some(function (g) { return g.length; }))
			return;
		m.scatter[axis].forEach(function (gs) {
			gs.forEach(function (g) {
				reduced = reduced || g.reduced;
				if (g.reduced && tails.indexOf(g.tail_pct) < 0)
					tails.push(g.tail_pct);
			});
		});
		var d = el("div", { class: "plot", "data-kind": "scatter-" + axis });
		plots.appendChild(d);
		var lay = { title: { text: m.name + " vs " + axis }, xaxis: axisTitle(axis, (rep.axis_units || {})[axis]),
			    yaxis: axisTitle(m.name, m.unit) };
		if (!plot(d, scatterTraces(rep, m, axis), lay))
			empty.push(m.name + " vs " + axis);
		n++;
	});
	var hist = el("div", { class: "plot", "data-kind": "histogram" });
	var ccdf = el("div", { class: "plot", "data-kind": "ccdf" });
	plots.appendChild(hist);
	plots.appendChild(ccdf);
	var ht = [], ct = [], hlay = histLayout(m);
	m.dist.forEach(function (d, ri) {
		if (!d)
			return;
		var c = PALETTE[ri % PALETTE.length];
		// One outline per result, and one per group (C-state, precise
		// level) when a result has several.
		var name = function (g) { return rep.results.length > 1 ? rep.results[ri].id + " " + g : g; };
		var sets = [{ name: rep.results.length > 1 ? rep.results[ri].id : "all", counts: d.hist.counts,
			      over: d.hist.over, color: c }];
		(d.hist.groups || []).forEach(function (g, gi) {
			sets.push({ name: name(g.name), counts: g.counts, over: g.over, dash: "dot",
				    color: rep.results.length > 1 ? PALETTE[(ri + 1 + gi) % PALETTE.length] : stateColor(rep, g.name) });
		});
		sets.forEach(function (h) {
			ht.push(histTrace(d.hist, h));
			if (h.over)
				ht.push(overTrace(d.hist, h, m.unit));
		});
		overMark(hlay, d.hist, rep.results.length > 1 ? rep.results[ri].id + ": " : "", m.unit, c, ri);
		ct.push({ type: "scatter", mode: "lines", name: rep.results[ri].id,
			marker: { size: 3, color: c }, line: { color: c }, x: d.ccdf.x, y: d.ccdf.p,
			hovertemplate: "%{y:.3g} of datapoints >= %{x}<extra></extra>" });
	});
	if (!plot(hist, ht, hlay))
		empty.push(m.name + " histogram");
	if (!plot(ccdf, ct, { title: { text: m.name + " percentiles (CCDF)" }, xaxis: axisTitle(m.name, m.unit),
			      yaxis: { title: { text: "share of datapoints >= x" }, type: "log", exponentformat: "power" } }))
		empty.push(m.name + " CCDF");
	if (reduced)
		panel.appendChild(el("p", { class: "note" }, largeNote(rep, m, tails)));
	var bins = binsNote(m);
	if (bins)
		panel.appendChild(el("p", { class: "note bins" }, bins));
	var sampled = sampleNotes(rep, m);
	if (sampled.length)
		panel.appendChild(el("p", { class: "note sampled" }, sampled.join(" ")));
	return { plots: n + 2 + xp.plots, empty: empty.concat(xp.empty) };
}

// The collectors' counters of each result over time, stacked on one time
// axis under the main metric (its datapoints against LTime).
function timelinePanel(rep, panel) {
	var n = 0, empty = [];
	panel.appendChild(el("h2", {}, "Timeline"));
	rep.timelines.forEach(function (t, ri) {
		if (!t)
			return;
		var id = rep.results[ri].id, rows = t.series.length + (t.main ? 1 : 0);
		var d = el("div", { class: "plot timeline", "data-kind": "timeline" });
		d.style.height = (160 + 140 * rows) + "px";
		// Said first: without LTime nothing lines the counters up with the datapoints.
		if (!t.main)
			panel.appendChild(el("p", { class: "note missing", "data-kind": "no-ltime" },
				id + ": " + t.metric + " is not on this time axis: its datapoints have no LTime (their CLOCK_MONOTONIC " +
				"launch time, which older wultfw wrote only with raw = true); the counters are shown alone."));
		panel.appendChild(d);
		var traces = [], lay = { title: { text: id + ": counters over time" + (t.main ? ", with " + t.metric : "") },
					 xaxis: axisTitle("time since the first sample", "s"), showlegend: false };
		var k = 0, gap = 0.04, h = (1 - gap * (rows - 1)) / rows;
		var add = function (trace, title) {
			var ax = k ? "y" + (k + 1) : "y", top = 1 - k * (h + gap);
			trace.yaxis = ax;
			traces.push(trace);
			lay["yaxis" + (k ? k + 1 : "")] = { domain: [Math.max(0, top - h), top],
							     title: { text: title, font: { size: 11 } } };
			// The time axis under the lowest plot.
			lay.xaxis.anchor = ax;
			k++;
		};
		var unit = rep.metrics.filter(function (m) { return m.name === t.metric; }).map(function (m) { return m.unit; })[0];
		if (t.main)
			add({ type: t.main.x.length >= WEBGL_FROM ? "scattergl" : "scatter", mode: "markers", x: t.main.x, y: t.main.y,
			      marker: { size: markerSizes(t.main.w), color: PALETTE[0], opacity: 0.6 },
			      hovertemplate: "%{x} s<br>" + t.metric + " %{y}<extra></extra>" },
			    t.metric + (unit ? " (" + unit + ")" : ""));
		t.series.forEach(function (v, i) {
			add({ type: "scatter", mode: "lines", x: v.t, y: v.v, line: { color: PALETTE[(i + 1) % PALETTE.length], width: 1 },
			      hovertemplate: "%{x} s<br>" + v.name + " %{y}<extra>" + v.file + "</extra>" },
			    v.name + (v.unit ? " (" + v.unit + ")" : ""));
		});
		var marked = timelineMarks(t, lay, traces, unit);
		if (!plot(d, traces, lay))
			empty.push(id + " timeline");
		n++;
		var notes = [];
		if (marked)
			notes.push(id + ": dotted lines: the " + marked + " largest " + t.marks_metric +
				   " datapoints, as its tab's explanation lists them");
		if (t.main && t.main.sampled)
			notes.push(id + ": " + t.metric + " drawn as density from a uniform sample of " + rep.results[ri].sample +
				   " of " + rep.results[ri].rows + " datapoints, its largest values as themselves");
		if (t.notes)
			notes.push(id + ": " + t.notes);
		t.series.forEach(function (v) {
			if (v.step > 1)
				notes.push(v.name + ": every " + v.step + "th of " + v.samples + " samples");
		});
		if (notes.length)
			panel.appendChild(el("p", { class: "note" }, notes.join(". ") + "."));
	});
	return { plots: n, empty: empty };
}

// The explanation's largest datapoints across every row of the timeline
// (dotted lines), and on the main metric's plot when it is theirs.
function timelineMarks(t, lay, traces, unit) {
	var m = t.marks || [];
	if (!m.length)
		return 0;
	lay.shapes = m.map(function (k) {
		return { type: "line", xref: "x", yref: "paper", x0: k.t, x1: k.t, y0: 0, y1: 1,
			 line: { color: "#d62728", width: 1, dash: "dot" } };
	});
	if (t.main && t.marks_metric === t.metric)
		traces.push({ type: "scatter", mode: "markers", yaxis: "y", x: m.map(function (k) { return k.t; }),
			      y: m.map(function (k) { return k.lat; }),
			      marker: { symbol: "circle-open", size: 11, color: "#d62728", line: { width: 2 } },
			      text: m.map(function (k) { return "#" + k.rank; }),
			      hovertemplate: "%{text}: %{x} s<br>" + t.metric + " %{y}" + (unit ? " " + unit : "") + "<extra></extra>" });
	return m.length;
}

function hasTimeline(rep) {
	return (rep.timelines || []).some(function (t) { return t; });
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
	document.getElementById("descr").textContent = rep.descr;
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
