# bench_read.sh's goal table: issue 32's goals against the "result:" lines
# of the benchmark scripts, read as "PIECE key=value ..." (PIECE: calc,
# groups, mgroups, paths, compare). Each goal: what was measured, met or
# "MISSED by N x" (the measured ratio over the goal's), and the section of
# doc/benchmarks.md that says why. -v quick=1 marks a smoke run.

{
	for (i = 2; i <= NF; i++) {
		eq = index($i, "=")
		if (eq > 1)
			v[$1 "." substr($i, 1, eq - 1)] = substr($i, eq + 1)
	}
}

function has(k) { return (k in v) && v[k] != "" && v[k] != "none" }

# The verdict of a measured ratio r against the goal's g (lower is better).
function verdict(k, r, g) {
	if (!has(k))
		return "not measured"
	return r + 0 <= g + 0 ? "met" : sprintf("MISSED by %.2fx", r / g)
}

function row(what, measured, result, why) {
	printf "%-46s %-42s %s\n", what, measured, result
	printf "    why: doc/benchmarks.md, %s\n", why
}

# A goal on one ratio: "calc.csv_cat_wall" against g, its CPU twin beside it.
function ratio_row(what, k, kcpu, g, unit, why,   m) {
	if (!has(k))
		m = "-"
	else if (unit == "MiB")
		m = sprintf("%.1f MiB", v[k])
	else
		m = sprintf("%.2fx %s", v[k], unit)
	if (has(k) && kcpu != "" && has(kcpu))
		m = m sprintf(" (CPU %.2fx)", v[kcpu])
	row(what, m, verdict(k, v[k], g), why)
}

# "512M" and the like in MiB (K, M, G, T suffixes; bytes without one).
function mib(s,   n, u) {
	n = s + 0
	u = substr(s, length(n "") + 1, 1)
	return u == "K" ? n / 1024 : u == "M" ? n : u == "G" ? n * 1024 : u == "T" ? n * 1048576 : n / 1048576
}

function mgroups_row(   lim, peak, m, res, why) {
	why = "\"Sketches past the memory limit\" (what a group costs)"
	if (!has("mgroups.j2")) {
		row("calc -g, 1 M groups, within --mem-limit", "-", "not measured", why)
		return
	}
	lim = mib(glimit)
	peak = v["mgroups.j2_peak_mib"] + 0
	if (v["mgroups.j1_peak_mib"] + 0 > peak)
		peak = v["mgroups.j1_peak_mib"] + 0
	if (v["mgroups.j2"] == "stopped" || v["mgroups.j1"] == "stopped") {
		m = "stopped"
		res = "MISSED (stopped at the limit)"
	} else {
		m = "finished"
		res = verdict("mgroups.j2", peak / lim, 1)
	}
	m = sprintf("%s: %d groups, %.0f MiB of %s", m, mgroups, peak, glimit)
	row("calc -g, 1 M groups, within --mem-limit", m, res, why)
}

# The comparison script itself is the goal: which tools it had, pandas' ratio.
function compare_row(   m, t, n, i, name) {
	if (!has("compare.wultfw_csv_wall")) {
		row("script against cat, pandas, DuckDB, Polars", "-", "not measured", "\"Comparison with other tools\"")
		return
	}
	n = split("pandas duckdb polars duckdb-node polars-node", t, " ")
	for (i = 1; i <= n; i++) {
		name = t[i]
		if (has("compare." name "_cpu"))
			m = m sprintf("%s%s %.0fx", m == "" ? "" : ", ", name, v["compare." name "_cpu"])
	}
	row("script against cat, pandas, DuckDB, Polars", m == "" ? "no other tool installed" : m " CPU",
		"met (bench_compare.sh)", "\"Comparison with other tools\"")
}

END {
	printf "%-46s %-42s %s\n", "goal (issue 32)", "measured", "verdict"
	cat = "\"calc against `cat` of the same file\""
	ratio_row("calc of the CSV within 3x cat, 2 CPUs", "calc.csv_cat_wall", "calc.csv_cat_cpu", 3, "cat", cat)
	ratio_row("calc -j 1 of the CSV within 6x cat", "calc.j1_cat_wall", "calc.j1_cat_cpu", 6, "cat", cat)
	ratio_row("calc of the binary twin within 1.5x cat", "calc.bin_cat_wall", "calc.bin_cat_cpu", 1.5, "cat", cat)
	ratio_row("calc's peak memory under 64 MiB", "calc.peak_mib", "", 64, "MiB", cat)
	grp = "\"calc -g: many groups\""
	ratio_row(sprintf("calc -g, %d groups, no slower than pandas", groups), "groups.vs_pandas_wall", "", 1, "pandas", grp)
	ratio_row(sprintf("calc -g, %d groups, under 256 MiB", groups), "groups.j2_peak_mib", "", 256, "MiB", grp)
	mgroups_row()
	paths = "\"calc -c, --include and convert against plain calc\""
	ratio_row("calc -c of the CSV within 1.1x calc", "paths.c_csv", "", 1.1, "CPU", paths)
	ratio_row("calc -c of the binary within 1.1x calc", "paths.c_bin", "", 1.1, "CPU", paths)
	ratio_row("calc --include of the CSV within 1.1x calc", "paths.include_csv", "", 1.1, "CPU", paths)
	ratio_row("calc --include of the binary within 1.1x", "paths.include_bin", "", 1.1, "CPU", paths)
	ratio_row("convert binary->CSV within 1.5x calc", "paths.convert_bin", "", 1.5, "CPU", paths)
	rep = "\"Reports: writing and drawing them\""
	ratio_row("report of the CSV within 1.5x calc", "paths.report_csv", "", 1.5, "CPU", rep)
	ratio_row("report of the binary within 1.5x calc", "paths.report_bin", "", 1.5, "CPU", rep)
	compare_row()
	if (quick)
		print "(--quick: files too small for these figures to mean anything)"
}
