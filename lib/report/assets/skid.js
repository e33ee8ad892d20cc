// SPDX-License-Identifier: MIT
// A skid result as a PMC skid tester reads it (doc/skid.md): per precise
// level where its samples landed (hit, runway, loop, outside) and the skid
// histogram along the runway, in instructions and in bytes after the load.
"use strict";

// A level's colour: its state colour in one result; by result and level in a diff.
function skidColor(rep, ri, li, name) {
	return rep.results.length > 1 ? PALETTE[(ri * 4 + li) % PALETTE.length] : stateColor(rep, name);
}

// Samples by class (Where) per level: counts and shares.
function skidTable(rep, views) {
	var classes = ["hit", "runway", "loop", "outside"];	// doc/skid.md's, even when 0
	views.forEach(function (v) {
		v.view.levels.forEach(function (l) {
			l.classes.forEach(function (c) { if (classes.indexOf(c.name) < 0) classes.push(c.name); });
		});
	});
	var t = el("table", { class: "skid-classes" }), h = el("tr");
	["Result", "Precise", "samples"].concat(classes).forEach(function (c) { h.appendChild(el("th", {}, c)); });
	t.appendChild(h);
	views.forEach(function (v) {
		v.view.levels.forEach(function (l) {
			var tr = el("tr");
			tr.appendChild(el("td", {}, rep.results[v.ri].id));
			tr.appendChild(el("td", {}, l.name));
			tr.appendChild(el("td", { class: "num" }, String(l.samples)));
			classes.forEach(function (name) {
				var c = l.classes.filter(function (x) { return x.name === name; })[0], n = c ? c.n : 0;
				tr.appendChild(el("td", { class: "num" }, n + " (" + (l.samples ? (100 * n / l.samples).toFixed(1) : "0.0") + "%)"));
			});
			t.appendChild(tr);
		});
	});
	return t;
}

// A level's bins as outlined bars, each non-empty bin on its own (a lone
// bin shows too), hover naming the distance it stands for.
function skidTrace(h, name, color, unit) {
	var x = [], y = [], text = [], c = h.counts, w = h.width;
	var label = function (i) {
		var at = w === 1 ? String(i) : i * w + "-" + ((i + 1) * w - 1);
		return c[i] + " sample" + (c[i] === 1 ? "" : "s") + " at " + at + " " + unit + " after the load";
	};
	var add = function (xv, yv, i) { x.push(xv); y.push(yv); text.push(label(i)); };
	for (var i = 0; i < c.length; i++) {
		if (!c[i])
			continue;
		if (i === 0 || !c[i - 1])
			add(i * w - 0.5, 0, i);
		add(i * w - 0.5, c[i], i);
		add((i + 1) * w - 0.5, c[i], i);
		if (i + 1 === c.length || !c[i + 1]) {
			add((i + 1) * w - 0.5, 0, i);
			x.push(null); y.push(null); text.push("");
		}
	}
	return { type: "scatter", mode: "lines", name: name, x: x, y: y, text: text,
		 line: { color: color, width: 1.5 }, hovertemplate: "%{text}<extra>" + name + "</extra>" };
}

// One histogram plot: key "skid" (instructions) or "bytes".
function skidPlot(rep, views, key, unit, plots) {
	var d = el("div", { class: "plot", "data-kind": "skid-" + key });
	plots.appendChild(d);
	var traces = [];
	views.forEach(function (v) {
		v.view.levels.forEach(function (l, li) {
			if (!l[key].rows)
				return;
			var name = rep.results.length > 1 ? rep.results[v.ri].id + " " + l.name : l.name;
			traces.push(skidTrace(l[key], name, skidColor(rep, v.ri, li, l.name), unit));
		});
	});
	var lay = { title: { text: "Skid along the runway (" + unit + ")" },
		    xaxis: axisTitle(key === "skid" ? "Skid" : "SkidBytes", unit), yaxis: logAxis("samples"),
		    shapes: [{ type: "line", xref: "x", yref: "paper", x0: 0, x1: 0, y0: 0, y1: 1,
			       line: { color: "#7f7f7f", width: 1, dash: "dot" } }],
		    updatemenus: scaleButtons("yaxis", "log") };
	return plot(d, traces, lay);
}

// What the view counts, and what it does not show.
function skidNotes(rep, views) {
	var notes = ["Every sample is counted, per precise level (Precise): its class (Where: hit on the load, " +
		"on the runway of NOPs after it, in the loop's other instructions, outside the workload's code) and, " +
		"for those in the code, its distance after the load (Skid in instructions, SkidBytes in bytes; " +
		"0, the dotted line: the load itself, a hit). " +
		"Samples outside the code have no distance: they are in the table, not the histograms"];
	views.forEach(function (v) {
		var r = rep.results[v.ri], w = v.view.levels.map(function (l) { return l.skid.width; })[0];
		var pre = rep.results.length > 1 ? r.id + ": " : "";
		if (w > 1)
			notes.push(pre + "bins of " + w + " instructions (the runway is long)");
		if (v.view.odd)
			notes.push(pre + v.view.odd + " Skid values below 0 or too large left out of the histogram");
		if (r.rows !== r.rows_read)
			notes.push(pre + "counted from all " + r.rows_read + " rows of the file, not only the " + r.rows +
				   " --include/--exclude selected");
	});
	return notes.join(". ") + ".";
}

// At the top of the Skid tab of a result with a skid view (data.js's
// skid[]): the classes table and the histograms along the runway.
function skidSection(rep, m, panel) {
	var views = (rep.skid || []).map(function (v, ri) { return { view: v, ri: ri }; })
		.filter(function (v) { return v.view; });
	if (m.name !== "Skid" || !views.length)
		return { plots: 0, empty: [] };
	var sec = el("div", { class: "skid" }), plots = el("div", { class: "plots" }), n = 0, empty = [];
	sec.appendChild(el("h3", {}, "Where the samples landed, per precise level"));
	sec.appendChild(skidTable(rep, views));
	sec.appendChild(plots);
	panel.appendChild(sec);
	[["skid", "instructions"], ["bytes", "bytes"]].forEach(function (k) {
		// Nothing at a distance (every sample outside the code): the table says it.
		if (!views.some(function (v) { return v.view.levels.some(function (l) { return l[k[0]].rows; }); }))
			return;
		if (!skidPlot(rep, views, k[0], k[1], plots))
			empty.push("skid histogram (" + k[1] + ")");
		n++;
	});
	sec.appendChild(el("p", { class: "note skid" }, skidNotes(rep, views)));
	return { plots: n, empty: empty };
}
