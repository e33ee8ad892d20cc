// SPDX-License-Identifier: MIT
// The report's --descr: a small markup (paragraphs, [links](url), *emphasis*,
// `code`, \ before a markup character) turned into DOM nodes with
// createElement/textContent only, so every character of it stays text.
// Anything that is not whole markup (an unclosed *, a javascript: link) is
// shown as the characters it is.
"use strict";

// http(s) or a relative link; no other scheme, no "//host", no control
// characters or backslashes (browsers drop or turn them into '/').
function descrSafeUrl(url) {
	if (/[\u0000-\u0020\u007f\\]/.test(url))
		return false;
	if (/^https?:\/\/[^/]/i.test(url))
		return true;
	return !/^[a-z][a-z0-9+.-]*:/i.test(url) && !/^\/\//.test(url);
}

var DESCR_SPECIAL = "\\`*[]()";

// One paragraph's pieces: {text}, {code}, {em} or {link, href}.
function descrInline(s) {
	var out = [], text = "", i = 0, m, end;

	function flush() {
		if (text)
			out.push({ text: text });
		text = "";
	}
	while (i < s.length) {
		var c = s[i], rest = s.slice(i);

		if (c === "\\" && i + 1 < s.length && DESCR_SPECIAL.indexOf(s[i + 1]) >= 0) {
			text += s[i + 1];
			i += 2;
		} else if (c === "`" && (end = s.indexOf("`", i + 1)) > i + 1) {
			flush();
			out.push({ code: s.slice(i + 1, end) });
			i = end + 1;
		} else if (c === "*" && (m = /^\*([^*\s](?:[^*]*[^*\s])?)\*/.exec(rest))) {
			flush();
			out.push({ em: m[1] });
			i += m[0].length;
		} else if (c === "[" && (m = /^\[([^\]\n]+)\]\(([^()\s]+)\)/.exec(rest)) &&
			   descrSafeUrl(m[2])) {
			flush();
			out.push({ link: m[1], href: m[2] });
			i += m[0].length;
		} else {
			text += c;
			i++;
		}
	}
	flush();
	return out;
}

// Paragraphs (split at blank lines), each a list of pieces.
function descrParse(s) {
	return String(s || "").split(/\n[ \t]*\n/).map(function (p) {
		return p.trim();
	}).filter(function (p) {
		return p.length;
	}).map(descrInline);
}

// Fill the (emptied) element el with descr's paragraphs.
function descrRender(el, descr) {
	el.textContent = "";
	descrParse(descr).forEach(function (pieces) {
		var p = document.createElement("p");

		pieces.forEach(function (x) {
			var e;

			if (x.text !== undefined) {
				p.appendChild(document.createTextNode(x.text));
				return;
			}
			e = document.createElement(x.code !== undefined ? "code" :
						   x.em !== undefined ? "em" : "a");
			e.textContent = x.code !== undefined ? x.code :
				x.em !== undefined ? x.em : x.link;
			if (x.href !== undefined) {
				e.setAttribute("href", x.href);
				e.setAttribute("rel", "noopener noreferrer");
			}
			p.appendChild(e);
		});
		el.appendChild(p);
	});
}
