// SPDX-License-Identifier: MIT
// The explanation section of a latency metric with attribution
// (doc/attribution.md): data.js's metrics[i].explain[result], computed by
// wultfw report (lib/report/attrib_emit.c); this file only draws it. Names
// from the measured system (causes, thread names, C-states) go into the
// page as text (el() sets textContent), never as markup, and never into
// plotly, whose labels take some.
"use strict";

// IRQ, softirq, thread, NMI, idle exit (data.js's "cats", in this order).
var XP_COLORS = ["#d62728", "#ff7f0e", "#9467bd", "#17becf", "#1f77b4"];
var XP_BAR = 0.35;	// half a bar's width

function pct(v) {
	return v === null || v === undefined ? "-" : (100 * v).toFixed(v < 0.1 ? 1 : 0) + "%";
}

// The bars' segments: a filled rectangle per band and category (a trace
// each: plotly's gl2d bundle has no bar trace), in mean time or in share;
// the idle exit at the bottom, the legend's order from the top.
function xpSegments(x, unit) {
	var segs = [];
	x.bands.forEach(function (b, i) {
		if (!b.rows)
			return;
		var y = [0, 0];
		x.cats.slice().reverse().forEach(function (c) {
			var k = x.cats.indexOf(c);
			if (!(b.mean[k] > 0))
				return;
			segs.push({ band: i, cat: k, y0: y.slice(), y1: [y[0] + b.mean[k], y[1] + b.share[k]],
				    text: b.name + ": " + c + " " + fmt(b.mean[k], unit) + " (" + pct(b.share[k]) + ")" });
			y = [y[0] + b.mean[k], y[1] + b.share[k]];
		});
	});
	return segs;
}

function xpRect(s, mode) {
	var lo = s.y0[mode], hi = s.y1[mode];
	return { x: [s.band - XP_BAR, s.band + XP_BAR, s.band + XP_BAR, s.band - XP_BAR, s.band - XP_BAR],
		 y: [lo, lo, hi, hi, lo] };
}

function xpBars(x, unit, div, title) {
	var segs = xpSegments(x, unit), shown = {};
	var traces = segs.map(function (s) {
		var r = xpRect(s, 0), first = !shown[s.cat];
		shown[s.cat] = true;
		return { type: "scatter", mode: "lines", fill: "toself", x: r.x, y: r.y,
			 name: x.cats[s.cat], legendgroup: x.cats[s.cat], showlegend: first, legendrank: s.cat,
			 fillcolor: XP_COLORS[s.cat], line: { color: "#fff", width: 0.5 },
			 hoveron: "fills", hoverinfo: "text", text: s.text };
	});
	var ys = function (mode) {
		return segs.map(function (s) { return xpRect(s, mode).y; });
	};
	var ytitle = ["mean per datapoint" + (unit ? " (" + unit + ")" : ""), "share of the band's latency"];
	var lay = { title: { text: title || x.latency + ": where the time went, by percentile band" },
		    xaxis: { tickvals: x.bands.map(function (_, i) { return i; }),
			     ticktext: x.bands.map(function (b) { return b.name + " (" + b.rows + ")"; }),
			     range: [-0.6, x.bands.length - 0.4], zeroline: false },
		    yaxis: { title: { text: ytitle[0] }, rangemode: "tozero" },
		    updatemenus: [{ type: "buttons", direction: "left", showactive: true, active: 0,
				    x: 0.55, xanchor: "center", y: 1, yanchor: "bottom", pad: { b: 4 }, font: { size: 10 },
				    buttons: [{ label: "time", method: "update",
						args: [{ y: ys(0) }, { "yaxis.title.text": ytitle[0], "yaxis.tickformat": "" }] },
					      { label: "share", method: "update",
						args: [{ y: ys(1) }, { "yaxis.title.text": ytitle[1], "yaxis.tickformat": ".0%" }] }] }] };
	div.dataset.segments = segs.length;
	return plot(div, traces, lay);
}

// A row per band: its datapoints, range, mean latency, each category's
// mean and share (a C-state's: its own classes).
function xpBandTable(x, unit, cstate) {
	var t = el("table", { class: cstate ? "xp-cstate-bands" : "xp-bands" }), h = el("tr");
	["band", "datapoints", "range" + (unit ? " (" + unit + ")" : ""), "mean"].concat(x.cats).forEach(function (c) {
		h.appendChild(el("th", {}, c));
	});
	t.appendChild(h);
	x.bands.forEach(function (b) {
		var tr = el("tr", { class: cstate ? "xp-cstate-band" : "xp-band" });
		tr.appendChild(el("td", {}, b.name));
		tr.appendChild(el("td", { class: "num" }, String(b.rows)));
		tr.appendChild(el("td", { class: "num" }, b.rows ? fmt(b.lo) + " - " + fmt(b.hi) : "-"));
		tr.appendChild(el("td", { class: "num" }, fmt(b.lat)));
		b.mean.forEach(function (v, k) {
			tr.appendChild(el("td", { class: "num" }, b.rows ? fmt(v) + " (" + pct(b.share[k]) + ")" : "-"));
		});
		t.appendChild(tr);
	});
	return t;
}

// The dominant cause as text: a thread by its name where known.
function xpCause(r) {
	if (r.cause === null)
		return "-";
	if (r.pid === null)
		return r.cause;
	return "thread " + (r.comm !== null ? r.comm + " (pid " + r.pid + ")" : "pid " + r.pid);
}

// A counter's samples around a datapoint (a: before, after, and their
// distances in ms). A count (a running total, or the increase since the
// previous sample) as its change over the interval between the two
// samples, with its rate; a level as its values; a counter of unknown
// kind as read, with the difference.
function xpAround(a, c) {
	if (a[0] === null && a[1] === null)
		return el("td", {}, "-");
	var unit = c.unit ? " " + c.unit : "";
	var where = (a[2] !== null ? "sample " + fmt(-a[2]) + " ms before" : "no sample before") +
		", " + (a[3] !== null ? "sample " + fmt(a[3]) + " ms after" : "no sample after");
	var both = a[0] !== null && a[1] !== null;
	if (c.kind === "level")
		return el("td", { class: "num", "data-kind": "level", title: where },
			  fmt(a[0]) + " \u2192 " + fmt(a[1]) + unit);
	if (c.kind === "total" || c.kind === "increase") {
		var d = c.kind === "increase" ? a[1] : both ? a[1] - a[0] : null;
		var ms = a[2] !== null && a[3] !== null ? a[3] - a[2] : null;
		if (d === null || ms === null)
			return el("td", { class: "num", "data-kind": c.kind, title: where }, "-");
		return el("td", { class: "num", "data-kind": c.kind, "data-delta": String(d),
				  title: where + "; " + (c.kind === "total" ? "running totals " + fmt(a[0]) + " \u2192 " + fmt(a[1])
							 : "increase since the sample before") },
			  (d >= 0 ? "+" : "") + fmt(d) + unit + " in " + fmt(ms) + " ms (" + fmt(d / ms * 1000) + "/s)");
	}
	var diff = both ? a[1] - a[0] : null;
	return el("td", { class: "num", title: where + "; kind unknown (no telemetry_kinds in info.yml)" },
		  fmt(a[0]) + " \u2192 " + fmt(a[1]) + (diff !== null ? " (" + (diff >= 0 ? "+" : "") + fmt(diff) + ")" : ""));
}

// A counter's column header: its name and what its cells show.
function xpCounterHead(c) {
	var what = { total: "change around LTime", increase: "change around LTime", level: "level around LTime" }[c.kind];
	return c.name + (what ? " (" + what + ")" : "");
}

function xpTopTable(x, unit) {
	var t = el("table", { class: "xp-top" }), h = el("tr"), cnts = ["IRQCnt", "SWIRQCnt", "NMICnt"];
	if (x.smi)
		cnts.push("SMICnt");
	["#", "row", "LTime (s)", "timeline (s)", x.latency + (unit ? " (" + unit + ")" : ""), "C-state", "dominant cause"]
		.concat(x.cats).concat(cnts).concat(x.top.counters.map(xpCounterHead))
		.forEach(function (c) { h.appendChild(el("th", {}, c)); });
	t.appendChild(h);
	x.top.rows.forEach(function (r, i) {
		var tr = el("tr", { class: "xp-row" });
		[String(i + 1), String(r.row + 1), r.ltime === null ? "-" : (r.ltime / 1e9).toFixed(6),
		 r.t === null ? "-" : r.t.toFixed(6), fmt(r.lat)].forEach(function (v) {
			tr.appendChild(el("td", { class: "num" }, v));
		});
		tr.appendChild(el("td", {}, r.cstate === null ? "-" : r.cstate));
		tr.appendChild(el("td", { class: "cause" }, xpCause(r)));
		r.parts.forEach(function (v) { tr.appendChild(el("td", { class: "num" }, fmt(v))); });
		r.cnt.slice(0, cnts.length).forEach(function (v) { tr.appendChild(el("td", { class: "num" }, fmt(v))); });
		r.around.forEach(function (a, k) { tr.appendChild(xpAround(a, x.top.counters[k])); });
		t.appendChild(tr);
	});
	return t;
}

// What the section cannot show, and why.
function xpNotes(x, id) {
	var n = [], lost = x.values - x.explained;
	if (lost)
		n.push(lost + " of " + x.values + " datapoints have no breakdown (events lost): left out of the bands and shares");
	if (x.mismatched)
		n.push("the parts of " + x.mismatched + " datapoints do not add up to " + x.latency);
	if (!x.smi)
		n.push("SMICnt: not available on this CPU (info.yml attrib_smi says why)");
	if (!x.tail_whole)
		n.push("the tail's words and its band are of the " + x.kept + " largest datapoints");
	if (x.notes)
		n.push(x.notes);
	if (x.ungrouped)
		n.push(x.ungrouped + " datapoints of C-states beyond the first 16 are in no C-state's explanation");
	if (x.top.more_counters)
		n.push(x.top.more_counters + " more counters in the Timeline tab");
	return n.length ? el("p", { class: "note xp-notes" }, (id ? id + ": " : "") + n.join("; ") + ".") : null;
}

// Per requested C-state, in the summary table's order and each in its
// colour: a small multiple of the bars, the words at its own p99.9 and
// its bands' numbers. Shown when the C-states split the datapoints.
function xpCStates(rep, m, x, ri, sec) {
	var r = { plots: 0, empty: [] };
	var gs = x.groups || [];
	if (!gs.length || (gs.length === 1 && gs[0].values === x.values))
		return r;
	sec.appendChild(el("h4", {}, "Per requested C-state (" + x.group_by + ")"));
	var grid = el("div", { class: "xp-cstates" });
	sec.appendChild(grid);
	gs.forEach(function (g) {
		var color = stateColor(rep, g.name, ri);
		var card = el("div", { class: "xp-cstate", "data-cstate": g.name, style: "border-top-color: " + color });
		var head = el("h5", {});
		head.appendChild(el("span", { class: "swatch", style: "background: " + color }));
		head.appendChild(document.createTextNode(g.name + ": " + g.values + " datapoints (" +
			pct(x.values ? g.values / x.values : null) + ")"));
		card.appendChild(head);
		var d = el("div", { class: "plot xp-bars xp-cstate-bars", "data-kind": "attrib-bars-cstate" });
		card.appendChild(d);
		card.appendChild(el("pre", { class: "xp-text" }, g.text.join("\n")));
		var det = el("details", {});
		det.appendChild(el("summary", {}, "bands in numbers"));
		var gx = { bands: g.bands, cats: x.cats, latency: x.latency };
		det.appendChild(xpBandTable(gx, m.unit, true));
		card.appendChild(det);
		grid.appendChild(card);
		if (g.bands.some(function (b) { return b.rows; })) {
			if (!xpBars(gx, m.unit, d, g.name))
				r.empty.push(m.name + " explanation in " + g.name);
			r.plots++;
		} else {
			d.remove();
		}
	});
	return r;
}

function xpSection(rep, m, x, ri, panel) {
	var id = rep.results.length > 1 ? rep.results[ri].id : "";
	var sec = el("section", { class: "explain", "data-result": rep.results[ri].id });
	var plots = 0, empty = [];
	sec.appendChild(el("h3", {}, "Where the time went" + (id ? ": " + id : "")));
	sec.appendChild(el("pre", { class: "xp-text" }, x.text.join("\n")));
	var d = el("div", { class: "plot xp-bars", "data-kind": "attrib-bars" });
	sec.appendChild(d);
	panel.appendChild(sec);
	if (x.bands.some(function (b) { return b.rows; })) {
		if (!xpBars(x, m.unit, d))
			empty.push(m.name + " explanation");
		plots++;
	} else {
		d.remove();
	}
	sec.appendChild(xpBandTable(x, m.unit));
	sec.appendChild(el("p", { class: "note" },
		"Bands: the datapoints with a breakdown from the least to p50, p50 to p90, ... (split at bins 0.4-0.8% wide), " +
		"p99.9 and above (the datapoints of the words above), and the largest; each category's mean time per datapoint " +
		"and its share of the band's summed latency."));
	var cs = xpCStates(rep, m, x, ri, sec);
	plots += cs.plots;
	empty = empty.concat(cs.empty);
	if (x.top.n) {
		sec.appendChild(el("h4", {}, "The " + x.top.n + " largest " + x.latency + " datapoints"));
		var wrap = el("div", { class: "xp-wide" });
		wrap.appendChild(xpTopTable(x, m.unit));
		sec.appendChild(wrap);
	}
	var notes = xpNotes(x, id);
	if (notes)
		sec.appendChild(notes);
	return { plots: plots, empty: empty };
}

// Every result's explanation of metric m (none: nothing drawn).
function explainSections(rep, m, panel) {
	var r = { plots: 0, empty: [] };
	(m.explain || []).forEach(function (x, ri) {
		if (!x)
			return;
		var s = xpSection(rep, m, x, ri, panel);
		r.plots += s.plots;
		r.empty = r.empty.concat(s.empty);
	});
	return r;
}
