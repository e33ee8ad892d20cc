// SPDX-License-Identifier: MIT
// The report's colours and order of C-states (groups), one scheme for
// every table swatch, plot and explanation card of the page
// (doc/report.md, "Colours"):
// - one result: all datapoints PALETTE[0], each requested C-state the next
//   colours, by depth;
// - several results: each result a hue, its C-states shades of it by depth
//   (all datapoints the darkest).
// In both, lines and markers also take a dash and a symbol per C-state,
// the same in every result, so a C-state reads alike across results.
"use strict";

var PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
var RESULT_HUES = [210, 0, 120, 32, 280, 180, 320, 55];
var DASHES = ["solid", "dot", "dash", "dashdot", "longdash", "longdashdot"];
var SYMBOLS = ["circle", "square", "diamond", "triangle-up", "cross", "x", "star", "pentagon"];

// A C-state's place by depth among every result's (data.js "states", as
// calc orders them); -1 for "all" and names it does not have.
function stateIndex(rep, name) {
	return (rep.states || []).indexOf(name);
}

// The colour of C-state `name` ("all": every datapoint) of result ri.
function stateColor(rep, name, ri) {
	var i = stateIndex(rep, name), n = (rep.states || []).length;
	if (name !== "all" && i < 0)
		return PALETTE[7];
	if (rep.results.length < 2)
		return i < 0 ? PALETTE[0] : PALETTE[(1 + i) % PALETTE.length];
	var hue = RESULT_HUES[(ri || 0) % RESULT_HUES.length];
	if (i < 0)
		return "hsl(" + hue + ", 80%, 24%)";
	// Lighter by depth, the hue turned a little too, so neighbours differ.
	var t = n > 1 ? i / (n - 1) : 0;
	return "hsl(" + Math.round((hue + 360 + (t - 0.5) * 24) % 360) + ", 70%, " + Math.round(38 + 32 * t) + "%)";
}

// Dash and marker symbol of C-state `name`: all datapoints solid circles.
function stateDash(rep, name) {
	var i = stateIndex(rep, name);
	return i < 0 ? DASHES[0] : DASHES[1 + i % (DASHES.length - 1)];
}

function stateSymbol(rep, name) {
	var i = stateIndex(rep, name);
	return i < 0 ? SYMBOLS[0] : SYMBOLS[(1 + i) % SYMBOLS.length];
}

// Sort items by their C-state's depth (name(item)), "all" first.
function byDepth(rep, items, name) {
	return items.slice().sort(function (a, b) {
		return stateIndex(rep, name(a)) - stateIndex(rep, name(b));
	});
}

// The summary table's groups: all datapoints, then C-states by depth.
function summaryGroups(rep, m) {
	var gs = [];
	m.summary.forEach(function (rows) {
		rows.forEach(function (r) { if (gs.indexOf(r.group) < 0) gs.push(r.group); });
	});
	return byDepth(rep, gs, function (g) { return g === "all" ? null : g; });
}

// The one C-state that holds every datapoint of result ri, or null: then
// the plots draw that C-state, not "all", so "all" never hides it.
function soleState(m, ri) {
	var rows = m.summary[ri] || [];
	return rows.length === 2 && rows[1].v[0] === rows[0].v[0] ? rows[1].group : null;
}

// A table cell's swatch of C-state `name` of result ri.
function swatch(rep, name, ri) {
	return el("span", { class: "swatch", "data-result": rep.results[ri].id, "data-state": name,
			    style: "background: " + stateColor(rep, name, ri) });
}
