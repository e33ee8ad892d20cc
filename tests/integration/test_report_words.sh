#!/bin/sh
# The report's notes on a large and on a sampled result, word for word
# (issue 31: a percentile named twice as two different ones, a note that
# began mid-sentence): the page's note functions run in node on data
# shaped as data.js gives it, for one result and for a diff of two; the
# discarded datapoints' reasons without attrib_lost.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1
command -v node >/dev/null 2>&1 || { echo "SKIP: no node here to run report.js's note functions"; exit 77; }

timeout 60 node - "$srcdir"/lib/report/assets/*.js >notes.txt 2>node.err <<'JS'
const fs = require("fs"), vm = require("vm");
// Only what report.js touches when it loads; the notes need no page.
const ctx = { window: {}, performance: { now: () => 0 },
	      document: { addEventListener: () => {} } };
vm.createContext(ctx);
for (const f of process.argv.slice(2))
	vm.runInContext(fs.readFileSync(f, "utf8"), ctx);
const rep = { tail_points: 1000, grid: 30, ccdf_tail: 2000,
	      results: [{ id: "r1", rows: 1200000, sample: 250000 }] };
const m = { name: "WakeLatency", unit: "us",
	    dist: [{ sampled: { tail: 10000, above: 41.25, rows: 1200000 } }] };
console.log(ctx.largeNote(rep, m, [99.9167]));
console.log(ctx.sampleNotes(rep, m).join("\n"));
rep.results.push({ id: "r2", rows: 3000000, sample: 250000 });
m.dist.push({ sampled: { tail: 10000, above: 60, rows: 3000000 } });
console.log(ctx.largeNote(rep, m, [99.9167, 99.9667]));
console.log(ctx.sampleNotes(rep, m).join("\n"));
JS
expect_status 0 $? "node runs the note functions"
sed 's/^/    /' notes.txt node.err

# expect_line N TEXT: line N of notes.txt is TEXT, whole.
expect_line() {
	got=$(sed -n "$1p" notes.txt)
	[ "$got" = "$2" ] && ok "note $1 reads as it should" ||
		fail "note $1 reads: $got"
}
expect_line 1 "Large result: the scatter plots show each datapoint above p99.9167 of WakeLatency as itself (p99, or the higher percentile that leaves 1000 datapoints above it when p99 would leave more). Below that, datapoints are drawn as density on a 30x30 grid per C-state: one marker per cell at the mean of its datapoints, sized by their number (hover shows it). Histograms count every datapoint; the CCDF shows the 2000 largest values one by one."
expect_line 2 "Sampled result: the density is drawn from a uniform sample of 250000 of 1200000 datapoints (each stands for about 4.800; the same file gives the same sample). Its 10000 largest datapoints of WakeLatency (above 41.250 us) were kept exactly: above that value the histogram and the CCDF are exact, and the scatter plots show the largest 1000 of them as themselves. Below it the histogram counts the sample, scaled to all 1200000 values, and the CCDF is read from the sample. The summary table is computed from every datapoint."
expect_in notes.txt "show each datapoint above its result's p99.9167 / p99.9667 of WakeLatency as itself" "a diff names each result's percentile"
expect_in notes.txt "Sampled result r2: the density is drawn from a uniform sample of 250000 of 3000000 datapoints" "a diff's sampled note names its result first"
# Every note a sentence: a capital first, a full stop last, and no
# percentile called by two names.
bad=$(grep -cv '^[A-Z].*\.$' notes.txt)
[ "$bad" = 0 ] && ok "every note is whole sentences" || fail "$bad notes start or end mid-sentence"
grep -q "99th percentile" notes.txt && fail "a note names the 99th percentile beside another" ||
	ok "one name for the percentile"

# "Discarded, by reason" counts datapoints: attrib_lost (trace records the
# attribution lost) is no such reason; a source's drops are.
timeout 60 node - "$srcdir"/lib/report/assets/*.js >drops.txt 2>node.err <<'JS'
const fs = require("fs"), vm = require("vm");
const ctx = { window: {}, performance: { now: () => 0 },
	      document: { addEventListener: () => {} } };
vm.createContext(ctx);
for (const f of process.argv.slice(2))
	vm.runInContext(fs.readFileSync(f, "utf8"), ctx);
console.log(ctx.dropReasons({ hrt_dropped_tbi_after_ltime: "9", attrib_lost: "311491",
			      timer_overruns: "0", tdt_lost: "2" }));
JS
expect_status 0 $? "node runs dropReasons"
[ "$(cat drops.txt)" = "hrt_dropped_tbi_after_ltime 9, tdt_lost 2" ] &&
	ok "discarded datapoints: a source's drops, not attrib_lost" ||
	fail "discarded datapoints read: $(cat drops.txt)"
[ "$failures" -eq 0 ] || exit 1
