// SPDX-License-Identifier: MIT
// The report's colours: one per result and per C-state across the page.
"use strict";

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
