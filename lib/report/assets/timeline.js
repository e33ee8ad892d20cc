// SPDX-License-Identifier: MIT
// The Timeline tab: collectors' counters under the main metric on one time axis.
"use strict";

// The collectors' counters of each result over time, stacked on one time
// axis under the main metric (its datapoints against LTime).
function timelinePanel(rep, panel) {
	var n = 0, empty = [];
	panel.appendChild(el("h2", {}, "Timeline"));
	rep.timelines.forEach(function (t, ri) {
		if (!t)
			return;
		var id = rep.results[ri].id, rows = t.series.length + (t.main ? 1 : 0);
		// Counters of one sample each have no interval to draw a rate over.
		if (!t.main && t.series.length && t.series.every(function (v) { return !v.t.length; })) {
			panel.appendChild(el("p", { class: "note missing", "data-kind": "no-interval" },
				id + ": no counter has two samples: no interval to draw a rate over."));
			return;
		}
		var d = el("div", { class: "plot timeline", "data-kind": "timeline", "data-result": ri });
		d.style.height = (160 + 140 * rows) + "px";
		// Said first: without LTime nothing lines the counters up with the
		// datapoints (a telemetry result's own counters have none to line up).
		if (!t.main && !t.own)
			panel.appendChild(el("p", { class: "note missing", "data-kind": "no-ltime" },
				id + ": " + t.metric + " is not on this time axis: its datapoints have no LTime (their CLOCK_MONOTONIC " +
				"launch time, which older wultfw wrote only with raw = true); the counters are shown alone."));
		panel.appendChild(d);
		var traces = [], lay = { title: { text: id + ": counters over time" + (t.main ? ", with " + t.metric : "") +
							 (t.own ? " (" + t.own + ")" : "") },
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
		t.series.forEach(function (v, i) {	// telemetry.js
			add(counterTrace(v, PALETTE[(i + 1) % PALETTE.length]), counterTitle(v));
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
		notes = notes.concat(counterNotes(t));
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
