// SPDX-License-Identifier: MIT
// Test only (test_report.sh adds it to a report's index.html): once the page
// says it drew, count what its plots show against what data.js gave them:
// each histogram bin and over bin a line through its count over its
// place, each scatter marker inside the axes (weighted by the datapoints it
// stands for; a WebGL canvas: its points inside the axes' ranges), each
// CCDF's largest value on its line. One line per plot and set into
// <pre id="drawn">: "drawn-ok ..." or "drawn-short ...".
(function () {
var out = [];
function say(ok, what) { out.push((ok ? "drawn-ok " : "drawn-short ") + what); }
function segments(paths) {
	var segs = [];
	paths.forEach(function (p) {
		var d = p.getAttribute("d") || "", x = 0, y = 0;
		var re = /([MLHVZ])([^MLHVZ]*)/g, c;
		while ((c = re.exec(d))) {
			var n = c[2].split(/[ ,]+/).filter(function (s) { return s !== ""; }).map(Number);
			if (c[1] === "M" || c[1] === "L") {
				for (var k = 0; k + 1 < n.length; k += 2) {
					if (c[1] === "L" || k)
						segs.push([x, y, n[k], n[k + 1]]);
					x = n[k]; y = n[k + 1];
				}
			} else if (c[1] === "H") {
				n.forEach(function (v) { segs.push([x, y, v, y]); x = v; });
			} else if (c[1] === "V") {
				n.forEach(function (v) { segs.push([x, y, x, v]); y = v; });
			}
		}
	});
	return segs;
}
function traceEls(gd) {
	var m = {};
	gd.querySelectorAll(".scatterlayer .trace").forEach(function (g) {
		var cd = g.__data__;
		if (cd && cd[0] && cd[0].trace)
			m[cd[0].trace.name] = g;
	});
	return m;
}
// A trace's lines as segments, and its markers as segments of no length
// (a CCDF of one value is drawn as a marker).
function traceSegs(g) {
	if (!g)
		return [];
	var segs = segments(Array.from(g.querySelectorAll("path.js-line")));
	g.querySelectorAll("path.point").forEach(function (p) {
		var t = /translate\(([-0-9.e]+)[ ,]+([-0-9.e]+)\)/.exec(p.getAttribute("transform") || "");
		if (t)
			segs.push([+t[1], +t[2], +t[1], +t[2]]);
	});
	return segs;
}
// A line through the bin's top (count c over its centre x), within a
// pixel: plotly merges corners less than a pixel apart, and bins narrower
// than a pixel (a diff's results on one axis) show as one column whose
// lines still reach each count.
function near(s, px, py) {
	var dx = s[2] - s[0], dy = s[3] - s[1], l = dx * dx + dy * dy;
	var t = l ? Math.max(0, Math.min(1, ((px - s[0]) * dx + (py - s[1]) * dy) / l)) : 0;
	return Math.hypot(s[0] + t * dx - px, s[1] + t * dy - py) <= 1;
}
function shows(segs, xa, ya, x, c) {
	var px = xa.c2p(x), py = ya.c2p(c);
	// Inside the plot area, above its floor (a count on the x axis line is not seen).
	if (!(px >= -0.5 && px <= xa._length + 0.5 && py >= -0.5 && py <= ya._length - 1))
		return false;
	return segs.some(function (s) { return near(s, px, py); });
}
function histCheck(rep, m, gd) {
	var els = traceEls(gd), xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
	m.dist.forEach(function (d, ri) {
		if (!d)
			return;
		var h = d.hist, id = rep.results[ri].id, multi = rep.results.length > 1;
		var sets = [{ name: multi ? id : "all", counts: h.counts, over: h.over }];
		(h.groups || []).forEach(function (g) {
			sets.push({ name: multi ? id + " " + g.name : g.name, counts: g.counts, over: g.over });
		});
		sets.forEach(function (s) {
			var g = els[s.name], segs = g ? segments(Array.from(g.querySelectorAll("path.js-line"))) : [];
			var want = 0, got = 0;
			s.counts.forEach(function (c, i) {
				want += c;
				if (c > 0 && shows(segs, xa, ya, h.lo + (i + 0.5) * h.width, c))
					got += c;
			});
			if (s.over) {
				want += s.over;
				var o = els[s.name + " over"];
				var osegs = o ? segments(Array.from(o.querySelectorAll("path.js-line"))) : [];
				if (shows(osegs, xa, ya, h.hi + 8 * h.width, s.over))
					got += s.over;
			}
			say(got === want, m.name + " histogram " + s.name + ": " + got + " of " + want);
		});
	});
}
function scatterCheck(rep, m, axis, gd) {
	var xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, want = 0, got = 0, gl = false;
	var byName = {};
	m.scatter[axis].forEach(function (gs, ri) {
		gs.forEach(function (g) {
			byName[rep.results.length > 1 ? rep.results[ri].id + " " + g.name : g.name] = g;
			g.w.forEach(function (n) { want += n; });
		});
	});
	gd._fullData.forEach(function (t) {
		var g = byName[t.name];
		if (!g)
			return;
		if (t.type === "scattergl") {	// a canvas: every point inside the axes' ranges
			gl = true;
			var xr = xa.range.map(xa.r2c), yr = ya.range.map(ya.r2c);
			g.x.forEach(function (x, i) {
				var y = g.y[i];
				if (x >= Math.min(xr[0], xr[1]) && x <= Math.max(xr[0], xr[1]) &&
				    y >= Math.min(yr[0], yr[1]) && y <= Math.max(yr[0], yr[1]))
					got += g.w[i];
			});
		}
	});
	gd.querySelectorAll(".scatterlayer .trace").forEach(function (el) {
		var g = byName[el.__data__[0].trace.name];
		if (!g)
			return;
		el.querySelectorAll("path.point").forEach(function (p) {
			var pt = p.__data__, px = xa.c2p(pt.x), py = ya.c2p(pt.y);
			if (px >= -1 && px <= xa._length + 1 && py >= -1 && py <= ya._length + 1)
				got += g.w[pt.i];
		});
	});
	say(got === want, m.name + " scatter-" + axis + (gl ? " (WebGL: in range)" : "") + ": " + got + " of " + want);
}
function ccdfCheck(rep, m, gd) {
	var els = traceEls(gd), xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
	m.dist.forEach(function (d, ri) {
		if (!d || !d.ccdf.x.length)
			return;
		var id = rep.results[ri].id, g = els[id], n = d.ccdf.x.length;
		var segs = traceSegs(g);
		var px = xa.c2p(d.ccdf.x[n - 1]), py = ya.c2p(d.ccdf.p[n - 1]);
		var ok = segs.some(function (s) { return near(s, px, py); });
		say(ok, m.name + " ccdf " + id + ": largest value " + d.ccdf.x[n - 1] + (ok ? " drawn" : " not drawn"));
	});
}
// The skid view (skid.js): every bin of each precise level drawn, the
// bins adding up to the level's samples with a distance, and those to the
// Skid tab's summary count of that level.
function skidCheck(rep, m, key, gd) {
	var els = traceEls(gd), xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
	(rep.skid || []).forEach(function (v, ri) {
		if (!v)
			return;
		var multi = rep.results.length > 1, r = rep.results[ri];
		v.levels.forEach(function (l) {
			var h = l[key], name = multi ? r.id + " " + l.name : l.name;
			var g = els[name], segs = g ? segments(Array.from(g.querySelectorAll("path.js-line"))) : [];
			var want = 0, got = 0;
			h.counts.forEach(function (c, i) {
				want += c;
				if (c > 0 && shows(segs, xa, ya, i * h.width - 0.5 + h.width / 2, c))
					got += c;
			});
			var row = (m.summary[ri] || []).filter(function (s) { return s.group === l.name; })[0];
			var table = key === "skid" && row && r.rows === r.rows_read ? row.v[0] : want;
			say(got === want && want === h.rows && want === table, m.name + " skid-" + key + " " + name + ": " +
			    got + " of " + want + " drawn, rows with a distance " + h.rows +
			    (key === "skid" ? ", the table's count " + table : ""));
		});
	});
}
// The Timeline tab: a rate has one point per sample interval (per `step`
// samples), each drawn, on the time axis of the result's datapoints.
function timelineCheck(rep, panel) {
	(rep.timelines || []).forEach(function (t, ri) {
		var gd = panel.querySelector('.plot.timeline[data-result="' + ri + '"]');
		if (!t || !gd)
			return;
		var xa = gd._fullLayout.xaxis, id = rep.results[ri].id;
		var xr = xa.range.map(xa.r2c), lo = Math.min(xr[0], xr[1]), hi = Math.max(xr[0], xr[1]);
		t.series.forEach(function (v, i) {
			var cd = gd.calcdata[(t.main ? 1 : 0) + i] || [], drawn = 0, finite = 0;
			v.v.forEach(function (y) { finite += y !== null; });
			cd.forEach(function (p) { drawn += isFinite(p.x) && isFinite(p.y) && p.x >= lo && p.x <= hi; });
			var want = v.rate ? Math.ceil((v.samples - 1) / v.step) : Math.ceil(v.samples / v.step);
			var axis = !t.main || (Math.min.apply(null, v.t) <= Math.max.apply(null, t.main.x) &&
					      Math.min.apply(null, t.main.x) <= Math.max.apply(null, v.t));
			say(v.t.length === want && drawn === finite && axis, "timeline " + id + " " + v.name +
			    (v.rate ? " rate: " + v.t.length + " points for " + want + " intervals"
				    : " level: " + v.t.length + " points for " + want + " samples") +
			    ", " + drawn + " of " + finite + " drawn" + (t.main ? (axis ? ", on the datapoints' time axis" :
			    ", NOT on the datapoints' time axis") : ""));
		});
	});
}
// Colours (issue 31): each (result, C-state) one colour in every plot
// (scatter, histogram, CCDF: traces the page marks with meta {result,
// state}), summary-table swatch and explanation card, and within a result
// no two C-states ("all" too) sharing one.
function cssColour(c) {
	var e = document.createElement("span");
	e.style.color = c;
	document.body.appendChild(e);
	var v = getComputedStyle(e).color;
	e.remove();
	return v;
}
function colourCheck(rep) {
	var seen = {}, n = 0, bad = 0;
	var ids = rep.results.map(function (r) { return r.id; });
	function note(ri, state, colour, place) {
		var k = ri + "\t" + state, c = cssColour(colour);
		seen[k] = seen[k] || {};
		(seen[k][c] = seen[k][c] || []).push(place);
		n++;
	}
	document.querySelectorAll(".panel").forEach(function (p) {
		p.querySelectorAll(".plot").forEach(function (gd) {
			(gd._fullData || []).forEach(function (t) {
				var mt = (gd.data[t.index] || {}).meta;
				var st = /lines/.test(t.mode) ? t.line : t.marker;
				if (!mt || mt.state === undefined || !st)	// not drawn (no datapoint): no colour
					return;
				note(mt.result, mt.state, st.color, p.dataset.metric + " " + gd.dataset.kind + " '" + t.name + "'");
			});
		});
		p.querySelectorAll("span.swatch[data-state]").forEach(function (s) {
			note(ids.indexOf(s.dataset.result), s.dataset.state, s.style.backgroundColor,
			     p.dataset.metric + " table");
		});
		p.querySelectorAll("section.explain[data-result] div.xp-cstate[data-cstate]").forEach(function (d) {
			note(ids.indexOf(d.closest("section.explain").dataset.result), d.dataset.cstate,
			     d.style.borderTopColor, p.dataset.metric + " explanation card");
		});
	});
	var byResult = {};
	Object.keys(seen).forEach(function (k) {
		var cs = Object.keys(seen[k]), ri = k.split("\t")[0], state = k.split("\t")[1];
		if (cs.length > 1) {
			bad++;
			say(false, "colours: " + ids[ri] + " " + state + " has " + cs.length + " colours: " + cs.map(function (c) {
				return c + " (" + seen[k][c].slice(0, 2).join(", ") + ")"; }).join(", "));
		}
		byResult[ri] = byResult[ri] || {};
		cs.forEach(function (c) {
			var o = byResult[ri][c];
			if (o && o !== state) {
				bad++;
				say(false, "colours: " + ids[ri] + " " + o + " and " + state + " share " + c);
			}
			byResult[ri][c] = state;
		});
	});
	if (!bad)
		say(n > 0, "colours: " + Object.keys(seen).length + " (result, C-state) pairs in " + rep.results.length +
		    " result(s), one colour each in " + n + " places, distinct within each result");
}
// Each C-state's CCDF (issue 31): its largest value on its drawn line.
function ccdfGroupsCheck(rep, m, gd) {
	var els = traceEls(gd), xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
	m.dist.forEach(function (d, ri) {
		(d && d.ccdf_groups || []).forEach(function (g) {
			var name = rep.results.length > 1 ? rep.results[ri].id + " " + g.name : g.name;
			var c = g.ccdf, n = c.x.length, t = els[name];
			var segs = traceSegs(t);
			var ok = n > 0 && segs.some(function (s) { return near(s, xa.c2p(c.x[n - 1]), ya.c2p(c.p[n - 1])); });
			say(ok, m.name + " ccdf " + name + ": largest value " + c.x[n - 1] + (ok ? " drawn" : " not drawn"));
		});
	});
}
// The page is opened with #all: every plot of every tab handed to plotly,
// none left for when it would scroll into view.
function allDrawnCheck() {
	var plots = document.querySelectorAll(".plot"), n = 0;
	plots.forEach(function (gd) {
		if (gd.dataset.drawn === "yes" && gd._fullLayout)
			n++;
	});
	say(n === plots.length, "plots drawn (#all): " + n + " of " + plots.length);
}
function check() {
	allDrawnCheck();
	var rep = window.WFW_REPORT;
	document.querySelectorAll(".panel").forEach(function (p, i) {
		var m = rep.metrics[i];
		if (!m)
			return timelineCheck(rep, p);
		p.querySelectorAll(".plots > .plot").forEach(function (gd) {
			var k = gd.dataset.kind;
			if (k === "histogram")
				histCheck(rep, m, gd);
			else if (k === "ccdf") {
				ccdfCheck(rep, m, gd);
				ccdfGroupsCheck(rep, m, gd);
			}
			else if (k.indexOf("skid-") === 0)
				skidCheck(rep, m, k.slice(5), gd);
			else if (k.indexOf("scatter-") === 0)
				scatterCheck(rep, m, k.slice(8), gd);
		});
	});
	colourCheck(rep);
}
function wait() {
	var st = document.getElementById("status").dataset.status;
	if (st !== "ok" && st !== "error")
		return setTimeout(wait, 200);
	try {
		check();
	} catch (e) {
		out.push("drawn-short check failed: " + e);
	}
	var pre = document.createElement("pre");
	pre.id = "drawn";
	pre.textContent = out.join("\n");
	document.body.appendChild(pre);
}
setTimeout(wait, 200);
})();
