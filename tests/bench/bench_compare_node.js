// The Node.js side of bench_compare.sh, for machines where the Python
// modules cannot be installed: the same statistics as bench_compare.py
// with the npm packages @duckdb/node-api or nodejs-polars (found through
// NODE_PATH). Prints "group count min median p99 p99.9 max".
// Usage: node bench_compare_node.js duckdb|polars FILE.csv [COLUMN [GROUPCOL]]
'use strict';

const [tool, path, col = 'WakeLatency', grp = 'ReqCState'] = process.argv.slice(2);
const Q = [0.5, 0.99, 0.999];

function fmt(v) {
	return Number(v).toPrecision(6).replace(/\.?0+$/, '').replace(/\.?0+e/, 'e');
}

function line(name, count, lo, qs, hi) {
	console.log([name, String(count), ...[lo, ...qs, hi].map(fmt)].join(' '));
}

async function withDuckdb() {
	const { DuckDBInstance } = require('@duckdb/node-api');
	const db = await DuckDBInstance.create(':memory:');
	const con = await db.connect();
	const c = `"${col}"`;
	const stats = `count(${c}), min(${c}), ` +
		Q.map((q) => `quantile_cont(${c}, ${q})`).join(', ') + `, max(${c})`;
	const lit = "'" + path.replace(/'/g, "''") + "'";

	await con.run(`create view t as select * from read_csv_auto(${lit})`);
	const all = (await con.runAndReadAll(`select ${stats} from t`)).getRows()[0];
	line('all', all[0], all[1], all.slice(2, 5), all[5]);
	const rows = (await con.runAndReadAll(
		`select "${grp}", ${stats} from t group by 1 order by 1`)).getRows();
	for (const r of rows)
		line(r[0], r[1], r[2], r.slice(3, 6), r[6]);
}

function withPolars() {
	const pl = require('nodejs-polars');
	const c = pl.col(col);
	const aggs = [c.count().alias('n'), c.min().alias('lo'),
		...Q.map((q, i) => c.quantile(q, 'linear').alias(`q${i}`)),
		c.max().alias('hi')];
	const lf = pl.scanCSV(path).select(col, grp);
	const show = (name, r) => line(name, r.n, r.lo, [r.q0, r.q1, r.q2], r.hi);

	show('all', lf.select(...aggs).collectSync().toRecords()[0]);
	for (const r of lf.groupBy(grp).agg(...aggs).sort(grp).collectSync().toRecords())
		show(r[grp], r);
}

async function main() {
	if (!path) {
		console.error('usage: node bench_compare_node.js duckdb|polars FILE.csv [COLUMN [GROUPCOL]]');
		process.exit(2);
	}
	if (tool === 'duckdb')
		await withDuckdb();
	else if (tool === 'polars')
		withPolars();
	else {
		console.error(`bench_compare_node.js: unknown tool '${tool}': duckdb or polars`);
		process.exit(2);
	}
}

main().catch((e) => {
	console.error(`bench_compare_node.js: ${tool}: ${e.message}`);
	process.exit(1);
});
