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

test('parseDenials: the filter\'s refusals, advice to replace or none for a hidden path, the unlisted count and the unseen calls', () => {
	const report = [
		'{"kind":"syscall","pid":7,"comm":"curl","syscall":"socket","right":"network","rights":["network"],"errno":"EAFNOSUPPORT","family":"AF_INET","allow":[],"remove":"--no-network"}',
		'{"kind":"syscall","pid":7,"comm":"unshare","syscall":"unshare","right":"userns","rights":["userns"],"errno":"EPERM","allow":["--allow-syscalls","userns"]}',
		'{"kind":"syscall","pid":7,"comm":"python3","syscall":"setxattr","right":"metadata","rights":["metadata"],"errno":"EOPNOTSUPP","allow":["--allow-syscalls","metadata"]}',
		'{"kind":"net","pid":7,"comm":"nc","syscall":"bind","right":"tcp_bind","rights":["tcp_bind"],"errno":"EACCES","port":0,"allow":["--tcp-bind","0","--tcp-connect","none"],"replace":"--no-tcp"}',
		'{"kind":"fs","pid":7,"comm":"cat","syscall":"openat","right":"read_file","rights":["read_file"],"errno":"EACCES","path":"/h/.ssh/k","allow":[],"hidden":"/h/.ssh"}',
		'{"kind":"fs","pid":7,"comm":"ls","syscall":"openat","right":"read_dir","rights":["read_dir"],"errno":"EACCES","path":"/h","allow":[],"hidden_beneath":"/h/.ssh"}',
		'{"kind":"unlisted","denials":12}',
		'{"kind":"unseen","calls":3,"pid":9,"comm":"ssh"}',
		'',
	].join('\n');
	const d = parseDenials(report);
	assert.deepEqual(d.map((x) => x.kind), ['syscall', 'syscall', 'syscall', 'net', 'fs', 'fs', 'unlisted', 'unseen']);
	assert.equal(d[0].remove, '--no-network');
	assert.equal(d[0].family, 'AF_INET');
	assert.deepEqual(d[1].allow, ['--allow-syscalls', 'userns']);
	// root's setxattr under the metadata group: the launcher answers EOPNOTSUPP (a filesystem without xattrs)
	assert.equal(d[2].errno, 'EOPNOTSUPP');
	assert.deepEqual(d[2].allow, ['--allow-syscalls', 'metadata']);
	assert.equal(d[3].port, 0);
	assert.equal(d[3].replace, '--no-tcp');
	assert.equal(d[4].hidden, '/h/.ssh');
	assert.equal(d[5].hiddenBeneath, '/h/.ssh');
	assert.deepEqual(d[6], { kind: 'unlisted', denials: 12 });
	assert.deepEqual(d[7], { kind: 'unseen', calls: 3, pid: 9, comm: 'ssh' });
	assert.throws(() => parseDenials('{"kind":"unseen","calls":0,"pid":9,"comm":"ssh"}\n'), TypeError);
	assert.throws(() => parseDenials('{"kind":"syscall","pid":1,"comm":"x","syscall":"s","right":"r","rights":["r"],"errno":"EXDEV","allow":[]}\n'),
		TypeError);
});

test('parseDenials: the denials of one kind beneath /proc/PID folded: the pattern, the count, the first path', () => {
	const fold = '{"kind":"fs","pid":70,"comm":"ps","syscall":"openat","right":"read_file","rights":["read_file"],' +
		'"errno":"EACCES","path":"/proc/1/stat","pattern":"/proc/PID/stat","count":57,"allow":["--ro","/proc"]}';
	const [d, alone] = parseDenials(`${fold}\n${FS}\n`);
	assert.equal(d.pattern, '/proc/PID/stat');
	assert.equal(d.count, 57);
	assert.equal(d.path, '/proc/1/stat');
	assert.deepEqual(d.allow, ['--ro', '/proc']);
	assert.equal('pattern' in alone || 'count' in alone, false);
	for (const bad of [fold.replace(',"count":57', ''), fold.replace('"count":57', '"count":1'),
		fold.replace('"pattern":"/proc/PID/stat"', '"pattern":7')])
		assert.throws(() => parseDenials(`${bad}\n`), /^TypeError: landlock-run: --explain-json line 1: /);
});

test('parseDenials: a refusal a dropped capability made (the launcher\'s own line) has its path and why, no allow', () => {
	const line = '{"kind":"capability","pid":12389,"comm":"chown","syscall":"fchownat","right":"cap_chown","rights":["cap_chown"],"errno":"EPERM","path":"/tmp/capl.qB7Y/w/f","why":"a capability the launcher drops, which no grant gives back; --keep-caps would keep it and every other capability the caller holds (root stays root)"}';
	const [d] = parseDenials(line + '\n');
	assert.equal(d.kind, 'capability');
	assert.equal(d.right, 'cap_chown');
	assert.equal(d.errno, 'EPERM');
	assert.equal(d.path, '/tmp/capl.qB7Y/w/f');
	assert.deepEqual(d.allow, []);
	assert.match(d.why, /--keep-caps/);
	for (const bad of [line.replace('"path":"/tmp/capl.qB7Y/w/f",', ''), line.replace('"why":"a capability', '"x":"')])
		assert.throws(() => parseDenials(bad + '\n'), TypeError, bad);
});

test('parseDenials: a grant never advised has its why, no allow; both or neither is a TypeError', () => {
	const head = '{"kind":"fs","pid":7,"comm":"sh","syscall":"openat","right":"write_file","rights":["write_file"],' +
		'"errno":"EACCES","path":"/proc/7/oom_score_adj"';
	const [d] = parseDenials(`${head},"why":"/proc/PID is one process's"}\n`);
	assert.equal(d.why, "/proc/PID is one process's");
	assert.deepEqual(d.allow, []);
	assert.equal(parseDenials(`${head},"allow":["--rw","/proc/7"]}\n`)[0].why, undefined);
	for (const bad of [`${head}}`, `${head},"why":"x","allow":[]}`, `${head},"why":1}`])
		assert.throws(() => parseDenials(`${bad}\n`), /^TypeError: landlock-run: --explain-json line 1: /);
});

test('parseDenials: also_refused_by (the mode bits refuse it too) is alsoRefusedBy; another value is a TypeError', () => {
	// as the launcher wrote it for root's mkdir in nobody's 0755 directory
	const line = '{"kind":"fs","pid":412,"comm":"mkdir","syscall":"mkdir","right":"make_dir","rights":["make_dir"],' +
		'"errno":"EACCES","also_refused_by":"mode_bits","path":"/srv/theirs/d","allow":["--rw","/srv/theirs"]}';
	const [d] = parseDenials(`${line}\n`);
	assert.equal(d.alsoRefusedBy, 'mode_bits');
	assert.deepEqual(d.allow, ['--rw', '/srv/theirs']);
	assert.equal(parseDenials(FS + '\n')[0].alsoRefusedBy, undefined);
	for (const bad of ['"acl"', '1'])
		assert.throws(() => parseDenials(`${line.replace('"mode_bits"', bad)}\n`),
			/^TypeError: landlock-run: --explain-json line 1: also_refused_by/);
});

test('parseDenials: root\'s refused shared mapping of a file, ENODEV under the metadata group', () => {
	const [d] = parseDenials('{"kind":"syscall","pid":7,"comm":"java","syscall":"mmap","right":"metadata","rights":["metadata"],"errno":"ENODEV","allow":["--allow-syscalls","metadata"]}\n');
	assert.equal(d.kind, 'syscall');
	assert.equal(d.errno, 'ENODEV');
	assert.deepEqual(d.allow, ['--allow-syscalls', 'metadata']);
});
