// SPDX-License-Identifier: MIT
// A metric's distribution: the histogram (outlined bins, the over bin) and its notes.
"use strict";

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
		 meta: { result: set.ri, state: set.state },
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
		 meta: { result: set.ri, state: set.state },
		 line: { color: set.color, width: 1.5, dash: set.dash }, x: x, y: y, text: text,
		 hovertemplate: "%{text}<extra>" + set.name + "</extra>" };
}

// The outlines of a result (ri): all datapoints, then each C-state by
// depth on top, in their colours and dashes (colors.js); a result all in
// one C-state draws it too, so "all" never hides a C-state.
function histSets(rep, m, d, ri) {
	var id = rep.results[ri].id, multi = rep.results.length > 1, sole = soleState(m, ri);
	var set = function (name, state, counts, over) {
		return { name: name, state: state, ri: ri, counts: counts, over: over,
			 color: stateColor(rep, state, ri), dash: stateDash(rep, state) };
	};
	var sets = [set(multi ? id : "all", "all", d.hist.counts, d.hist.over)];
	var gs = d.hist.groups || (sole ? [{ name: sole, counts: d.hist.counts, over: d.hist.over }] : []);
	byDepth(rep, gs, function (g) { return g.name; }).forEach(function (g) {
		sets.push(set(multi ? id + " " + g.name : g.name, g.name, g.counts, g.over));
	});
	return sets;
}

function histTraces(rep, m) {
	var ht = [];
	m.dist.forEach(function (d, ri) {
		if (!d)
			return;
		histSets(rep, m, d, ri).forEach(function (h) {
			ht.push(histTrace(d.hist, h));
			if (h.over)
				ht.push(overTrace(d.hist, h, m.unit));
		});
	});
	return ht;
}

// Counts on a log axis (a bin of one datapoint still shows), or linear;
// the over bins' marks.
function histLayout(rep, m) {
	var lay = { title: { text: m.name + " histogram" }, xaxis: axisTitle(m.name, m.unit),
		    yaxis: logAxis("datapoints"), shapes: [], annotations: [],
		    updatemenus: scaleButtons("yaxis", "log") };
	m.dist.forEach(function (d, ri) {
		if (d)
			overMark(lay, d.hist, rep.results.length > 1 ? rep.results[ri].id + ": " : "", m.unit,
				 stateColor(rep, "all", ri), ri);
	});
	return lay;
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
