# Shared by the report's Chromium tests (sourced after lib.sh): page_open,
# open_report. Needs $chromium, $shots (the screenshots' directory, in the
# test's log directory; open_report only), $srcdir, and the current
# directory for the page's dumps.

# page_open NAME URL W,H [PNG [UNTIL]]: URL's DOM into NAME.dom once the
# JavaScript condition UNTIL holds (default: the footer no longer says
# "loading"), asked every 0.1 s for at most 240 s of real time
# (page_dump.py), and a screenshot into PNG; Chromium's log in
# NAME.chromium.log. Not --virtual-time-budget: its clock ran on while the
# page waited for its drawing, and on a loaded machine the DOM was dumped
# with the page still "loading...".
page_open() {
	python3 "$srcdir/tests/integration/page_dump.py" --size "$3" \
		--profile "$work/chromium-profile" ${4:+--screenshot "$4"} ${5:+--until "$5"} \
		"$chromium" "$2" >"$1.dom" 2>"$1.chromium.log"
}

# open_report NAME DIR TABS: DIR/index.html#all (every tab and plot, not
# only those in view), with test_report_drawn.js injected, draws TABS tabs with no JavaScript error (report.js's footer
# data-status), and every check drawn.js makes passes: each line it writes
# starts with a word ending in "-ok" or is a failure ("drawn-short ...",
# or any other word). A screenshot of the page goes to $shots/NAME.png.
open_report() {
	cp "$srcdir/tests/integration/test_report_drawn.js" "$2/drawn.js" &&
		sed -i 's|<script src="report.js"></script>|&<script src="drawn.js"></script>|' "$2/index.html"
	# drawn.js's counts are the last thing the page writes.
	page_open "$1" "file://$PWD/$2/index.html#all" 1400,1800 "$shots/$1.png" \
		'document.getElementById("drawn")'
	status=$(sed -n 's/.*<footer id="status" data-status="\([a-z]*\)"[^>]*>\([^<]*\).*/\1: \2/p' "$1.dom")
	case "$status" in
	"ok: ok: $3 tabs"*) ok "$1: $status" ;;
	*) fail "$1: the page says '${status:-nothing (did it load?)}'"
	   sed 's/^/    /' "$1.chromium.log" | grep -v -e dbus -e 'GL Driver' | head -5 ;;
	esac
	[ -s "$shots/$1.png" ] && ok "$1: screenshot $shots/$1.png" || fail "$1: no screenshot"
	sed -n '/<pre id="drawn">/,/<\/pre>/p' "$1.dom" | sed 's/<[^>]*>//g; /^$/d' >"$1.drawn"
	if ! grep -q '^drawn-ok' "$1.drawn"; then
		fail "$1: drawn.js counted nothing: $(grep -m1 . "$1.drawn")"
	elif grep -qv '^[a-z-]*-ok ' "$1.drawn"; then
		fail "$1: drawn.js found plots that fall short:"
		grep -v '^[a-z-]*-ok ' "$1.drawn" | head -8 | sed 's/^/    /'
	else
		ok "$1: every check of drawn.js passes ($(grep -c . "$1.drawn") counts of histogram sets, scatter plots, CCDFs and more)"
	fi
}
