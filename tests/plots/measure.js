/*
 * measure.js: injected by test-report into a copy of the report, run by
 * headless Chromium at the window's width once the page has loaded.  It
 * writes one line per check into <pre id="sr-test"> ("PASS what" or
 * "FAIL what: why"; "INFO ..." for figures), which --dump-dom prints:
 *
 *   - the page does not scroll sideways;
 *   - the verdict's group lines end above the fold (900 px), each word
 *     in its colour: green better, red worse, grey unchanged;
 *   - every text of every plot lies inside its SVG's box, overlaps no
 *     other text of that plot, and is drawn at least 10 px tall;
 *   - the task table: a click on the baseline's heading sorts it by that
 *     column, largest first, a second click smallest first; typing a comm
 *     or a pid in the search box, choosing a class, or ticking the waits
 *     box filters it.
 *
 * The test sets window.SR_TEST = {comm, pid} (a task to look for) before
 * this runs; the table's rows are counted from the page's own data.
 */
window.addEventListener("load", function () {
	"use strict";
	var out = [];
	var T = window.SR_TEST || {};

	function fail(m) { out.push("FAIL " + m); }
	function pass(m) { out.push("PASS " + m); }
	function check(ok, what, why) {
		if (ok)
			pass(what);
		else
			fail(what + ": " + why);
	}

	try {
		measure();
	} catch (e) {
		fail("the checks stopped: " + e);
	}
	var pre = document.createElement("pre");
	pre.id = "sr-test";
	pre.textContent = "\n" + out.join("\n") + "\n";
	document.body.appendChild(pre);

	function measure() {

	/* the page fits the window */
	var sw = document.documentElement.scrollWidth, w = window.innerWidth;
	check(sw <= w, "no horizontal scroll",
	      "the page is " + sw + " px wide in a " + w + " px window");
	out.push("INFO width " + w);

	/* the verdict: every group's line above the fold (900 px, a
	   laptop's window), its word in its colour (green better, red
	   worse, grey unchanged), not the line's */
	var FOLD = 900;
	var groups = document.querySelectorAll("#groups li.vg");
	var low = 0, plain = 0;
	Array.prototype.forEach.call(groups, function (li) {
		var b = li.querySelector("b"), want = { better: "g", worse: "r", unchanged: "k" };
		var c = b ? getComputedStyle(b).color.match(/\d+/g).map(Number) : null;
		var hue = !c ? "?" : c[1] > c[0] + 40 && c[1] > c[2] + 40 ? "g" :
			  c[0] > c[1] + 80 && c[0] > c[2] + 80 ? "r" :
			  Math.max(c[0], c[1], c[2]) - Math.min(c[0], c[1], c[2]) < 20 ? "k" : "?";

		if (li.getBoundingClientRect().bottom > FOLD)
			low++;
		if (!b || want[b.className] !== hue ||
		    getComputedStyle(b).color === getComputedStyle(li).color)
			plain++;
	});
	out.push("INFO verdict groups " + groups.length);
	check(groups.length > 0 && !low, "verdict above the fold",
	      low + " of " + groups.length + " group lines below " + FOLD + " px");
	check(groups.length > 0 && !plain, "verdict words coloured",
	      plain + " of " + groups.length + " words not in their colour");

	/* the plots' texts */
	var svgs = document.querySelectorAll("figure svg"), ntext = 0, minh = 1e9;
	var bad = 0;
	Array.prototype.forEach.call(svgs, function (svg) {
		var id = svg.parentNode.id, box = svg.getBoundingClientRect();
		var rs = [];

		Array.prototype.forEach.call(svg.querySelectorAll("text"), function (t) {
			var r = t.getBoundingClientRect(), s = t.textContent.trim();

			if (!s || r.width === 0 || r.height === 0)
				return;
			ntext++;
			if (r.height < minh)
				minh = r.height;
			if (r.left < box.left - 1 || r.right > box.right + 1 ||
			    r.top < box.top - 1 || r.bottom > box.bottom + 1) {
				fail("text clipped: " + id + ": '" + s + "' at " +
				     [r.left, r.top, r.right, r.bottom].map(Math.round) +
				     " outside " + [box.left, box.top, box.right, box.bottom].map(Math.round));
				bad++;
			}
			rs.push({ r: r, s: s });
		});
		for (var i = 0; i < rs.length; i++) {
			for (var j = i + 1; j < rs.length; j++) {
				var a = rs[i].r, b = rs[j].r;
				var ox = Math.min(a.right, b.right) - Math.max(a.left, b.left);
				var oy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);

				if (ox > 1 && oy > 1) {
					fail("texts overlap: " + id + ": '" + rs[i].s + "' and '" + rs[j].s + "'");
					bad++;
				}
			}
		}
	});
	out.push("INFO figures " + svgs.length + " texts " + ntext + " smallest " + minh.toFixed(1) + " px");
	check(svgs.length > 0 && ntext > 0, "plots have text", "no figure, or no text in them");
	check(!bad, "plot texts inside their box, apart", bad + " problems");
	check(minh >= 10, "plot texts legible", "the smallest is " + minh.toFixed(1) + " px tall");

	/* the task table */
	var table = document.getElementById("tasks");
	var body = table.tBodies[0];
	var heads = table.tHead.rows[0].cells;
	var q = document.getElementById("q"), cls = document.getElementById("cls");
	var many = document.getElementById("many");
	var base = null;

	T.rows = JSON.parse(document.getElementById("sr-data").textContent).tasks.length;

	function rows() { return body.rows; }
	function cellnum(tr, k) {
		var t = tr.cells[k].firstChild ? tr.cells[k].firstChild.textContent : "";
		var v = parseFloat(t);
		return isNaN(v) ? -Infinity : v;
	}
	function col(key) {
		for (var i = 0; i < heads.length; i++)
			if (heads[i].getAttribute("data-k") === key)
				return i;
		return -1;
	}
	function sorted(k, down) {
		var r = rows();
		for (var i = 1; i < r.length; i++) {
			var a = cellnum(r[i - 1], k), b = cellnum(r[i], k);
			if (down ? a < b : a > b)
				return false;
		}
		return true;
	}
	function type(text) {
		q.value = text;
		q.dispatchEvent(new Event("input", { bubbles: true }));
	}

	check(rows().length === T.rows, "table rows",
	      rows().length + " rows, expected " + T.rows);
	base = col("0");
	check(base >= 0, "baseline column", "no heading with data-k=0");
	if (base >= 0) {
		heads[base].click();
		check(heads[base].getAttribute("aria-sort") === "descending" &&
		      sorted(base, true) && rows().length === T.rows,
		      "sorted by a click, largest first", "not in descending order");
		heads[base].click();
		check(heads[base].getAttribute("aria-sort") === "ascending" &&
		      sorted(base, false), "sorted by a second click, smallest first",
		      "not in ascending order");
	}
	type(T.comm);
	var r = rows(), all = r.length > 0;
	for (var i = 0; i < r.length; i++)
		if (r[i].cells[0].textContent.indexOf(T.comm) < 0)
			all = false;
	check(all && r.length < T.rows, "filtered by comm",
	      r.length + " rows for '" + T.comm + "'");
	type(String(T.pid));
	check(rows().length === 1 && rows()[0].cells[1].textContent === String(T.pid),
	      "filtered by pid", rows().length + " rows for pid " + T.pid);
	type("");
	cls.value = "interactive";
	cls.dispatchEvent(new Event("change", { bubbles: true }));
	r = rows();
	all = r.length > 0;
	for (i = 0; i < r.length; i++)
		if (r[i].cells[2].textContent.indexOf("interactive") !== 0)
			all = false;
	check(all && r.length < T.rows, "filtered by class", r.length + " rows");
	cls.value = "";
	cls.dispatchEvent(new Event("change", { bubbles: true }));
	many.click();
	check(rows().length <= T.rows && many.checked, "filtered by waits",
	      rows().length + " rows");
	many.click();
	check(rows().length === T.rows, "filters undone", rows().length + " rows");
	check(document.getElementById("count").textContent ===
	      T.rows + " of " + T.rows + " tasks", "count", document.getElementById("count").textContent);
	}
});
