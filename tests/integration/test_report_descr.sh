#!/bin/sh
# The report's --descr markup (lib/report/assets/descr.js), run in node on
# a small stand-in for the DOM that records what the page builds:
# paragraphs, links, emphasis and code as elements; hostile descriptions
# (<script>, javascript: and other schemes, quotes, unclosed markup) as
# the characters they are, and never an href the markup did not allow.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1
command -v node >/dev/null 2>&1 || { echo "SKIP: no node here to run descr.js"; exit 77; }

timeout 60 node - "$srcdir/lib/report/assets/descr.js" >descr.txt 2>node.err <<'JS'
const fs = require("fs"), vm = require("vm");
// Elements as "<tag attr=value>...</tag>", text with & and < escaped: a
// '<' in the output is an element descr.js made, never typed text.
function node(tag) {
	return { tag: tag, kids: [], attrs: {}, text: "",
		 appendChild(k) { this.kids.push(k); },
		 setAttribute(k, v) { this.attrs[k] = v; },
		 set textContent(t) { this.kids = []; this.text = t; },
		 show() {
			 const esc = t => t.replace(/&/g, "&amp;").replace(/</g, "&lt;");
			 if (this.tag === "#text") return esc(this.text);
			 const a = Object.keys(this.attrs).map(k => ` ${k}=${this.attrs[k]}`).join("");
			 return `<${this.tag}${a}>` + esc(this.text) + this.kids.map(k => k.show()).join("") + `</${this.tag}>`;
		 } };
}
const ctx = { document: { createElement: node,
			  createTextNode: t => Object.assign(node("#text"), { text: t }) } };
vm.createContext(ctx);
vm.runInContext(fs.readFileSync(process.argv[2], "utf8"), ctx);
const cases = [
	"one\n\ntwo\n  \nthree",
	"see [the docs](https://example.org/a?b=1#c) and [raw](../raw/info.yml)",
	"*fast* and `x < y`",
	"a \\*star\\* and \\`tick\\` and \\[x\\](y)",
	"<script>alert(1)</script>",
	"[x](javascript:alert)",
	"[x](JavaScript:alert(1))",
	"[x](java\tscript:alert)",
	"[x](data:text/html,hi)",
	"[x](//evil.example/)",
	"[x](vbscript:msgbox)",
	"\"quotes\" & 'apostrophes' <b>bold</b> &amp;",
	"*unclosed and `unclosed and [unclosed](",
	"[text](https://a.example/\\evil)",
	"**",
	"",
];
for (const c of cases) {
	const el = node("div");
	ctx.descrRender(el, c);
	console.log(el.kids.map(k => k.show()).join("|"));
}
JS
expect_status 0 $? "node runs descr.js"
sed 's/^/    /' descr.txt node.err

# expect_line N TEXT: line N of descr.txt is TEXT, whole.
expect_line() {
	got=$(sed -n "$1p" descr.txt)
	[ "$got" = "$2" ] && ok "$3" || fail "$3: got $got"
}
rel='rel=noopener noreferrer'
expect_line 1 "<p>one</p>|<p>two</p>|<p>three</p>" "blank lines make paragraphs"
expect_line 2 "<p>see <a href=https://example.org/a?b=1#c $rel>the docs</a> and <a href=../raw/info.yml $rel>raw</a></p>" "http(s) and relative links"
expect_line 3 "<p><em>fast</em> and <code>x &lt; y</code></p>" "emphasis and code (its '<' a character)"
expect_line 4 "<p>a *star* and \`tick\` and [x](y)</p>" "a backslash gives the character"
expect_line 5 "<p>&lt;script>alert(1)&lt;/script></p>" "<script> is text"
expect_line 6 "<p>[x](javascript:alert)</p>" "a javascript: link is text"
expect_line 7 "<p>[x](JavaScript:alert(1))</p>" "JavaScript: in any case is text"
expect_line 8 "<p>[x](java	script:alert)</p>" "a tab inside the scheme is text"
expect_line 9 "<p>[x](data:text/html,hi)</p>" "a data: link is text"
expect_line 10 "<p>[x](//evil.example/)</p>" "a //host link is text"
expect_line 11 "<p>[x](vbscript:msgbox)</p>" "any other scheme is text"
expect_line 12 "<p>\"quotes\" &amp; 'apostrophes' &lt;b>bold&lt;/b> &amp;amp;</p>" "quotes, tags and entities are text"
expect_line 13 "<p>*unclosed and \`unclosed and [unclosed](</p>" "unclosed markup is text"
expect_line 14 "<p>[text](https://a.example/\\evil)</p>" "a backslash in a link is text"
expect_line 15 "<p>**</p>" "an empty emphasis is text"
expect_line 16 "" "no description, no paragraph"
# Only descr.js's own elements anywhere, and only its links' hrefs.
grep -o '<[a-z]\+' descr.txt | sort -u | tr '\n' ' ' >tags.txt
expect_in tags.txt "<a <code <em <p " "no element but p, a, em and code"
[ "$(grep -o '<[a-z]\+' descr.txt | sort -u | wc -l)" = 4 ] && ok "and nothing else" ||
	fail "other elements: $(cat tags.txt)"
finish
