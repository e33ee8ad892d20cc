// SPDX-License-Identifier: MIT
// Counters over time (a telemetry result's, a collector's) as they mean
// something: a counter that only grows (info.yml's telemetry kinds total,
// increase) as its rate per second over each sample interval, which
// data.js already holds; a level (a gauge), or a counter whose kind no
// one said, as read.
"use strict";

function counterUnit(v) {
	return v.rate ? (v.unit ? v.unit + "/s" : "per s") : v.unit;
}

// The counter's axis title: its name, "rate" for a rate, and the unit.
function counterTitle(v) {
	var u = counterUnit(v);
	return v.name + (v.rate ? " rate" : "") + (u ? " (" + u + ")" : "");
}

// A rate holds over its interval, which ends at its time: drawn as steps.
function counterTrace(v, color) {
	var u = counterUnit(v), what = v.rate ? v.name + " " + (v.kind === "total" ? "rate" : "increase rate") : v.name;
	return { type: "scatter", mode: v.t.length === 1 ? "markers" : "lines", name: v.name, x: v.t, y: v.v,
		 line: { color: color, width: 1, shape: v.rate ? "vh" : "linear" }, marker: { color: color, size: 4 },
		 hovertemplate: "%{x} s<br>" + what + " %{y}" + (u ? " " + u : "") + "<extra>" + v.file + "</extra>" };
}

// What the counters' plots show, for the tab's note.
function counterNotes(t) {
	var notes = [], rates = t.series.filter(function (v) { return v.rate; }).length;
	if (rates)
		notes.push(rates + " counter" + (rates > 1 ? "s" : "") + " that only grow" + (rates > 1 ? "" : "s") +
			   " (info.yml's telemetry kinds total, increase) drawn as rate per second over each sample interval," +
			   " at the interval's end");
	var unknown = t.series.filter(function (v) { return v.kind === "unknown"; }).map(function (v) { return v.name; });
	if (unknown.length)
		notes.push(unknown.join(", ") + ": drawn as read (info.yml does not say their kind)");
	t.series.forEach(function (v) {
		if (v.step > 1)
			notes.push(v.name + ": " + (v.rate ? "rates over every " + v.step + " samples" : "every " + v.step + "th") +
				   " of " + v.samples + " samples");
	});
	return notes;
}
