import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDenials } from '../index.js';

// Lines as landlock-run --explain-json writes them (see tests/explain*.bats for the real thing).
const FS = '{"kind":"fs","pid":4242,"comm":"sh","syscall":"openat","right":"make_reg","rights":["make_reg"],' +
	'"errno":"EACCES","path":"/etc/motd.new","allow":["--rw","/etc"]}';
const ODD = '{"kind":"fs","pid":7,"comm":"python3","syscall":"openat","right":"make_reg","rights":["make_reg"],' +
	'"errno":"EACCES","path":"/tmp/new\\nline\\udcff\\u0001 \\"q\\" \\\\","allow":["--rw","/tmp"]}';
const NET = '{"kind":"net","pid":9,"comm":"curl","syscall":"connect","right":"tcp_connect","rights":["tcp_connect"],' +
	'"errno":"EACCES","port":81,"allow":["--tcp-connect","81"]}';
const SIGNAL = '{"kind":"scope","pid":9,"comm":"sh","syscall":"kill","right":"signal","rights":["signal"],' +
	'"errno":"EPERM","target":1,"allow":[],"scope":"signal"}';
const ABSTRACT = '{"kind":"scope","pid":9,"comm":"ssh","syscall":"connect","right":"abstract-unix",' +
	'"rights":["abstract-unix"],"errno":"EPERM","path":"@agent","allow":[],"scope":"abstract-unix"}';
const REFER = '{"kind":"fs","pid":3,"comm":"mv","syscall":"renameat2","right":"refer","rights":["refer"],' +
	'"errno":"EXDEV","path":"/a/x","allow":[]}';

test('parseDenials: each kind, typed, in order', () => {
	const [fs, net, signal, abstract, refer] = parseDenials([FS, NET, SIGNAL, ABSTRACT, REFER].join('\n') + '\n');
	assert.deepEqual(fs, {
		kind: 'fs', pid: 4242, comm: 'sh', syscall: 'openat', right: 'make_reg', rights: ['make_reg'],
		errno: 'EACCES', allow: ['--rw', '/etc'], path: '/etc/motd.new',
		pathBytes: new TextEncoder().encode('/etc/motd.new'),
	});
	assert.deepEqual({ ...net }, {
		kind: 'net', pid: 9, comm: 'curl', syscall: 'connect', right: 'tcp_connect', rights: ['tcp_connect'],
		errno: 'EACCES', allow: ['--tcp-connect', '81'], port: 81,
	});
	assert.equal(signal.scope, 'signal');
	assert.equal(signal.target, 1);
	assert.deepEqual(signal.allow, []);
	assert.equal(abstract.path, '@agent');
	assert.equal(abstract.scope, 'abstract-unix');
	assert.equal(refer.errno, 'EXDEV');
	assert.deepEqual(refer.allow, []);
});

test('parseDenials: a path with a newline, invalid UTF-8 and quotes comes back byte for byte', () => {
	const [d] = parseDenials(ODD + '\n');
	const want = Buffer.concat([Buffer.from('/tmp/new\nline'), Buffer.from([0xff, 0x01]), Buffer.from(' "q" \\')]);
	assert.deepEqual(Buffer.from(d.pathBytes), want);
	assert.equal(d.path, '/tmp/new\nline\udcff\u0001 "q" \\');
});

test('parseDenials: bytes or text; an empty report; an unfinished last line is left out', () => {
	assert.deepEqual(parseDenials(''), []);
	assert.deepEqual(parseDenials(new TextEncoder().encode(FS + '\n')).map((d) => d.path), ['/etc/motd.new']);
	assert.equal(parseDenials(FS + '\n' + NET.slice(0, 30)).length, 1);
});

test('parseDenials: a line that is not a denial is a TypeError naming its line', () => {
	const bad = [
		'not json', '{"kind":"disk"}', FS.replace('"pid":4242', '"pid":"4242"'),
		FS.replace('"right":"make_reg"', '"right":"write_file"'), FS.replace('"EACCES"', '"ENOENT"'),
		FS.replace('["--rw","/etc"]', '["--rw"]'), FS.replace(',"path":"/etc/motd.new"', ''),
		NET.replace(',"port":81', ''), SIGNAL.replace(',"target":1', ''),
	];
	for (const line of bad) {
		assert.throws(() => parseDenials(FS + '\n' + line + '\n'),
			(e) => e instanceof TypeError && /^landlock-run: --explain-json line 2: /.test(e.message), line);
	}
});
