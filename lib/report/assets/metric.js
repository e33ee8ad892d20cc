// SPDX-License-Identifier: MIT
// A metric's tab: its summary, scatter plots, histogram and CCDF, and their notes.
"use strict";

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
	var sk = skidSection(rep, m, panel);	// skid.js: a skid result along its runway
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
	return { plots: n + 2 + xp.plots + sk.plots, empty: empty.concat(xp.empty, sk.empty) };
}
